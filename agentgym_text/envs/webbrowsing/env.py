"""``AgentBench/WebBrowsing-v0``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentgym_text.core.progress import Progress
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.webbrowsing.actions import format_answer, parse_answer
from agentgym_text.envs.webbrowsing.dataset import Annotation, load_task_file, recorded
from agentgym_text.envs.webbrowsing.expert import gold_answer
from agentgym_text.envs.webbrowsing.metrics import EpisodeScore, operation_string, score_step
from agentgym_text.envs.webbrowsing.render import Question, ask
from agentgym_text.envs.webbrowsing.tasks import default_tasks, file_tasks, training_tasks, webarena_config

__all__ = ["WebBrowsingEnv"]

_MAX_CHOICES = 25  # letters B to Z


class WebBrowsingEnv(TextEnv):
    """Mind2Web's multiple-choice steps on recorded pages. Progress = the share of the task's steps answered right
    (element and operation); ``info`` also holds ``element_accuracy``, ``operation_f1``, ``step_success_rate`` and
    ``task_success`` so far (with ``steps_answered`` and ``steps_total``), and ``question`` on reset and on every step
    that asks a new one: its parts without this package's words (``render.Question.parts``).

    Keyword arguments: ``task_file`` (a Mind2Web json file: its annotations replace the recorded tasks; see the
    family README for the fields read), ``split="train"`` with ``num_tasks`` (200 by default: the training tasks,
    recorded from WebArena's training tasks), ``num_candidates`` (element choices per step, 5 by default) and
    ``agentbench_scoring`` (True: no parsed answer is refused, each is scored as AgentBench v0.2's Mind2Web task
    scores its reading (``actions.parse_answer``), so every step is asked once, as there).

    >>> env = WebBrowsingEnv()
    >>> obs, info = env.reset(options={"task_index": 0})  # recorded in Chromium the first time
    >>> "A. None of the above" in obs, info["progress_rate"]
    (True, 0.0)
    >>> while not env.episode_over:
    ...     obs, reward, terminated, truncated, info = env.step(env.expert_action())
    >>> info["success"], info["progress_rate"], info["step_success_rate"]
    (True, 1.0, 1.0)
    >>> env.close()
    """

    action_format = (
        "a choice's letter, an operation (CLICK, TYPE or SELECT) and the value to type or select, as "
        "'Answer: C.' / 'Action: TYPE' / 'Value: New York' on three lines or 'C. TYPE New York' on one "
        "('A.' for None of the above)"
    )
    action_example = "B. CLICK"
    unwrap_actions = False  # the answer is itself a marked block
    cheap_admissible_actions = True

    def __init__(
        self,
        task_file: str | Path | None = None,
        num_candidates: int = 5,
        split: str = "test",
        num_tasks: int | None = None,
        agentbench_scoring: bool = False,
        **kwargs: Any,
    ):
        if not 1 <= int(num_candidates) <= _MAX_CHOICES:
            raise ValueError(f"num_candidates must be 1 to {_MAX_CHOICES}, not {num_candidates}")
        if split not in ("test", "train"):
            raise ValueError(f"split must be 'test' or 'train', not {split!r}")
        if split == "train" and task_file is not None:
            raise ValueError("split='train' plays the recorded training tasks: drop task_file")
        if num_tasks is not None and split != "train":
            raise ValueError("num_tasks= sizes the training split: pass split='train' with it")
        self.num_candidates = int(num_candidates)
        self.agentbench_scoring = bool(agentbench_scoring)
        self._file: list[Annotation] | None = None
        if task_file is not None:
            self._file = load_task_file(task_file)
            tasks = file_tasks(self._file)
        elif split == "train":
            tasks = training_tasks(num_tasks)
        else:
            tasks = default_tasks()
        super().__init__(tasks, **kwargs)
        self._annotation: Annotation | None = None
        self._index = 0
        self._score = EpisodeScore(0)
        self._question: Question | None = None

    def _load(self, task: TaskSpec) -> Annotation:
        if self._file is not None:
            return self._file[int(task.params["index"])]
        return recorded(webarena_config(task.params))

    def _start(self, task: TaskSpec, seed: int) -> Start:
        self._annotation = self._load(task)
        self._index = 0
        self._score = EpisodeScore(len(self._annotation.steps))
        self._question = ask(self._annotation, 0, self.num_candidates)
        return Start(
            observation=self._question.text, goal=self._annotation.task, info={"question": self._question.parts()}
        )

    def _act(self, action: str) -> Outcome:
        assert self._annotation is not None and self._question is not None
        # an ActionError is the invalid outcome
        answer = parse_answer(action, len(self._question.choices), refuse_incomplete=not self.agentbench_scoring)
        step = self._annotation.steps[self._index]
        chosen = self._question.element_of(answer.letter)
        self._score.add(score_step(chosen, operation_string(answer.op, answer.value), step.gold, step.target))
        self._index += 1
        if self._index < len(self._annotation.steps):
            self._question = ask(self._annotation, self._index, self.num_candidates)
            return Outcome(
                observation=f"Step {self._index} answered.\n\n{self._question.text}",
                info={"question": self._question.parts()},
            )
        self._question = None
        summary = self._score.summary()
        return Outcome(
            observation=(
                f"All {len(self._annotation.steps)} steps answered. Element accuracy "
                f"{summary['element_accuracy']:.2f}, operation F1 {summary['operation_f1']:.2f}, step success rate "
                f"{summary['step_success_rate']:.2f}."
            ),
            terminated=True,
            success=bool(summary["task_success"]),
        )

    def _progress(self) -> Progress:
        return Progress(now=self._score.progress)

    def _admissible_actions(self) -> list[str]:
        if self._question is None:
            return []
        return [format_answer("A")] + [
            format_answer(chr(ord("B") + index), "CLICK") for index in range(len(self._question.choices))
        ]

    def _expert_action(self) -> str | None:
        if self._annotation is None or self._question is None:
            return None
        return gold_answer(self._annotation.steps[self._index], self._question)

    def _info(self, *, valid: bool, invalid_reason: str | None) -> dict[str, Any]:
        info = super()._info(valid=valid, invalid_reason=invalid_reason)
        info.update(self._score.summary())  # flat keys: vector envs stack each one
        return info
