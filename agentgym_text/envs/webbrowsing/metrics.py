"""Mind2Web's step metrics, and their running totals over an episode.

A step's prediction is the chosen element and the operation string ``"<OP> <value>"`` (the value as the agent wrote
it, also after CLICK, as Mind2Web reads it); its target is the gold element and ``"<OP> <value>"`` with no value for
CLICK. Element accuracy: the chosen element is a gold one ("None of the above" never is). Operation F1: the F1 of
the two operation strings' sets of whitespace-separated tokens (1 when both are empty). Step success: the element
is right and the operation F1 is 1. Task success: every step succeeded.

>>> round(operation_f1("TYPE new york", "TYPE New York"), 3)  # {TYPE} shared of 3 tokens each
0.333
>>> score_step("3", "TYPE new york", ("3",), "TYPE new york")
StepScore(element=True, f1=1.0, success=True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["operation_f1", "score_step", "StepScore", "EpisodeScore", "operation_string"]


def operation_string(op: str, value: str) -> str:
    """``"<OP> <value>"`` with the surrounding blanks stripped (a bare CLICK is ``"CLICK"``)."""
    return f"{op.strip()} {value.strip()}".strip()


def operation_f1(predicted: str, target: str) -> float:
    pred, gold = set(predicted.split()), set(target.split())
    if not pred and not gold:
        return 1.0
    if not pred or not gold:
        return 0.0
    shared = len(pred & gold)
    if shared == 0:
        return 0.0
    precision, recall = shared / len(pred), shared / len(gold)
    return 2 * precision * recall / (precision + recall)


@dataclass(frozen=True)
class StepScore:
    element: bool
    f1: float
    success: bool


def score_step(chosen: str | None, predicted: str, gold_elements: tuple[str, ...], target: str) -> StepScore:
    """One step: ``chosen`` is the element's id (None for "None of the above")."""
    element = chosen is not None and chosen in gold_elements
    f1 = operation_f1(predicted, target)
    return StepScore(element=element, f1=f1, success=element and f1 >= 1.0)


@dataclass
class EpisodeScore:
    """The steps answered so far out of ``total``."""

    total: int
    steps: list[StepScore] = field(default_factory=list)

    def add(self, step: StepScore) -> None:
        self.steps.append(step)

    @property
    def answered(self) -> int:
        return len(self.steps)

    def summary(self) -> dict[str, float | int | bool]:
        """Element accuracy, operation F1 and step success rate over the steps answered, and task success."""
        count = len(self.steps)
        mean = (lambda values: sum(values) / count) if count else (lambda values: 0.0)
        return {
            "steps_answered": count,
            "steps_total": self.total,
            "element_accuracy": float(mean([float(s.element) for s in self.steps])),
            "operation_f1": float(mean([s.f1 for s in self.steps])),
            "step_success_rate": float(mean([float(s.success) for s in self.steps])),
            "task_success": count == self.total and all(s.success for s in self.steps),
        }

    @property
    def progress(self) -> float:
        """The share of the task's steps answered right so far."""
        return sum(s.success for s in self.steps) / self.total if self.total else 0.0
