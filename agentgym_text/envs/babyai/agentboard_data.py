"""AgentBoard's BabyAI annotations (``<folder>/babyai/test.jsonl``) and its progress rule on them.

AgentBoard's loader (``tasks/babyai.py``) matches line k to the k-th instance of its 28 levels x seeds 1234-1237,
level-major, which are this package's 112 tasks in order. A line's ``subgoals`` is a flat list of patterns; a line
that has ``subgoals_1`` (with or without ``subgoals``) holds alternatives: every key that contains "subgoals", in
the line's order. The line's ``difficulty`` is the task's; its ``goal`` is the task's goal (AgentBoard's env shows
the agent the mission it rewrites itself, which the env keeps). ``additional_info.subtask``, when present, must
name the level the line is matched to, so a file that does not line up is refused instead of scored.

The progress rule is AgentBoard's ``BabyAI.update_reward`` (``environment/babyai_env.py``), read on the observation
after every executed action (not after refusals, "check ..." or an action with no steps):

- a pattern's parts are split on "**" (on "*" when it has no "**"), each part stripped of "."; it matches when
  every part is a substring of one "."-delimited sentence of the observation;
- flat list: the first pattern (in the list's current order) that matches is credited and removed; at most one
  per step;
- alternatives: the first index i at which any alternative's i-th pattern matches is credited, and each
  alternative loses that pattern (``list.remove``: its first pattern equal to it); at most one per step;
- progress = max(progress, points / n), n the (first) list's length at the start.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentgym_text.core.agentboard_data import LabelLine, expect_count, read_task_file
from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.babyai.levels import AGENTBOARD_LEVELS, AGENTBOARD_SEEDS

__all__ = ["TASK", "Annotation", "read_annotations", "annotated_tasks", "matches", "PatternProgress"]

TASK = "babyai"
"""AgentBoard's task folder name."""


@dataclass(frozen=True)
class Annotation:
    """One line's subgoal patterns: one list, or the alternatives (``alternatives=True``) AgentBoard walks by index."""

    lists: tuple[tuple[str, ...], ...]
    alternatives: bool

    def to_params(self) -> dict[str, Any]:
        return {"lists": [list(items) for items in self.lists], "alternatives": self.alternatives}

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> Annotation:
        return cls(tuple(tuple(items) for items in params["lists"]), bool(params["alternatives"]))


def _annotation(line: LabelLine) -> Annotation:
    """The line's patterns as AgentBoard's ``load_annotation`` reads them, refused where AgentBoard would crash."""
    fields = line.fields
    alternatives = not ("subgoals" in fields and "subgoals_1" not in fields)
    keys = [key for key in fields if "subgoals" in key] if alternatives else ["subgoals"]
    if not keys:
        raise line.error("the field 'subgoals' (or 'subgoals_1', 'subgoals_2', ...) is missing")
    lists = []
    for key in keys:
        value = line.get(key, list)
        if not value:
            raise line.error(f"{key!r} is empty (AgentBoard's env needs at least one pattern)")
        if not all(isinstance(item, str) for item in value):
            raise line.error(f"every entry of {key!r} must be a string")
        lists.append(tuple(value))
    if len({len(items) for items in lists}) > 1:
        raise line.error(f"the alternatives {', '.join(keys)} must have the same number of subgoals")
    return Annotation(tuple(lists), alternatives)


def read_annotations(folder: Path) -> tuple[tuple[LabelLine, Annotation], ...]:
    """Every line of ``<folder>/babyai/test.jsonl`` with its annotation, in AgentBoard's instance order."""
    lines = read_task_file(folder, TASK)
    expect_count(
        lines,
        len(AGENTBOARD_LEVELS) * len(AGENTBOARD_SEEDS),
        f"BabyAI instances ({len(AGENTBOARD_LEVELS)} levels x seeds {AGENTBOARD_SEEDS[0]}-{AGENTBOARD_SEEDS[-1]}, "
        "level-major)",
    )
    annotated = []
    for index, line in enumerate(lines):
        level = AGENTBOARD_LEVELS[index // len(AGENTBOARD_SEEDS)]
        info = line.fields.get("additional_info")
        subtask = info.get("subtask") if isinstance(info, dict) else None
        if subtask is not None and subtask != f"BabyAI-{level}-v0":
            raise line.error(
                f"additional_info.subtask is {subtask!r}, but AgentBoard matches this line (by order) to "
                f"BabyAI-{level}-v0 seed {AGENTBOARD_SEEDS[index % len(AGENTBOARD_SEEDS)]}"
            )
        line.difficulty  # noqa: B018  (checks the field; AgentBoard's loader refuses a line without it)
        annotated.append((line, _annotation(line)))
    return tuple(annotated)


def annotated_tasks(tasks: TaskSet, folder: Path) -> TaskSet:
    """``tasks`` (AgentBoard's 112, in its order) with each line's goal, difficulty and patterns."""
    annotated = read_annotations(folder)
    specs = []
    for task, (line, annotation) in zip(tasks, annotated, strict=True):
        goal = line.get("goal") if "goal" in line.fields else task.goal
        params = {**task.params, "subgoals": len(annotation.lists[0]), "agentboard_annotation": annotation.to_params()}
        specs.append(TaskSpec(task.task_id, params, goal=goal, difficulty=line.difficulty, max_steps=task.max_steps))
    return TaskSet(specs)


def matches(observation: str, pattern: str) -> bool:
    """AgentBoard's ``match_style``: every part of ``pattern`` is in one "."-delimited sentence of the text."""
    pattern = pattern.strip()
    parts = pattern.split("**" if "**" in pattern else "*")
    parts = [part.strip(".") for part in parts]
    return any(all(part in sentence for part in parts) for sentence in observation.split("."))


class PatternProgress:
    """AgentBoard's progress over one annotation: call :meth:`update` with the observation after each executed
    action; ``rate`` is the best progress so far."""

    def __init__(self, annotation: Annotation):
        self.alternatives = annotation.alternatives
        self.lists = [list(items) for items in annotation.lists]
        self.total = len(self.lists[0])
        self.points = 0
        self.rate = 0.0
        self.credited: list[str] = []

    def update(self, observation: str) -> None:
        """Credit at most one pattern the observation matches."""
        if self.alternatives:
            for index in range(len(self.lists[0])):
                if any(matches(observation, items[index]) for items in self.lists):
                    self._credit(self.lists[0][index])
                    for items in self.lists:
                        items.remove(items[index])
                    return
        else:
            for pattern in self.lists[0]:
                if matches(observation, pattern):
                    self._credit(pattern)
                    self.lists[0].remove(pattern)
                    return

    def _credit(self, pattern: str) -> None:
        self.points += 1
        self.rate = max(self.rate, self.points / self.total)
        self.credited.append(pattern)

    def subgoals_done(self, subgoals: tuple[str, ...]) -> tuple[bool, ...]:
        """Which of ``subgoals`` (the first list as the file gives it) are credited."""
        left = list(self.credited)
        done = []
        for pattern in subgoals:
            done.append(pattern in left)
            if pattern in left:
                left.remove(pattern)
        return tuple(done)
