"""Task instances and task sets: what ``reset(options={"task_id": ...})`` picks from."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["TaskSpec", "TaskSet", "DEFAULT_MAX_STEPS", "TRAIN_SEED_BASE", "TrainInstance"]

DEFAULT_MAX_STEPS = 30
"""AgentBoard's step budget, used for every task that does not set its own."""
TRAIN_SEED_BASE = 1_000_000
"""Seeds of generated training instances start here (shipped instances use smaller ones), for families that
draw training instances from seeds."""

TrainInstance = tuple[dict[str, Any], str, int]
"""A training instance as a family's train-split builder returns it: ``(env_kwargs, task_id, reset_seed)``."""


@dataclass(frozen=True)
class TaskSpec:
    """One task instance.

    ``params`` holds whatever the family needs to build the instance (a level and seed, a problem file, a
    secret code); it must be JSON-serialisable so task sets can be listed and logged. ``goal`` and
    ``difficulty`` may be left empty when only the engine knows them before reset.
    """

    task_id: str
    params: Mapping[str, Any] = field(default_factory=dict)
    goal: str = ""
    difficulty: str = ""
    max_steps: int = DEFAULT_MAX_STEPS


class TaskSet(Sequence[TaskSpec]):
    """An ordered, immutable collection of tasks with unique ids.

    >>> tasks = TaskSet([TaskSpec("a"), TaskSpec("b")])
    >>> tasks.index_of("b"), len(tasks)
    (1, 2)
    """

    def __init__(self, tasks: Sequence[TaskSpec]):
        self._tasks = tuple(tasks)
        if not self._tasks:
            raise ValueError("a task set needs at least one task")
        self._index = {task.task_id: i for i, task in enumerate(self._tasks)}
        if len(self._index) != len(self._tasks):
            raise ValueError("task ids must be unique")

    def __len__(self) -> int:
        return len(self._tasks)

    def __getitem__(self, index):  # type: ignore[override]
        return self._tasks[index]

    def __iter__(self) -> Iterator[TaskSpec]:
        return iter(self._tasks)

    @property
    def task_ids(self) -> list[str]:
        return [task.task_id for task in self._tasks]

    def index_of(self, task_id: str) -> int:
        try:
            return self._index[task_id]
        except KeyError:
            raise ValueError(
                f"unknown task_id {task_id!r}; env.unwrapped.task_ids (or `agentgym-text tasks <env id>`) lists them"
            ) from None

    def choose(self, options: Mapping[str, Any] | None, rng: np.random.Generator) -> TaskSpec:
        """The task named by ``options`` (``task_id`` or ``task_index``), else one drawn with ``rng``."""
        options = options or {}
        if options.get("task_id") is not None:
            return self._tasks[self.index_of(str(options["task_id"]))]
        if options.get("task_index") is not None:
            try:
                index = int(options["task_index"])
            except (TypeError, ValueError):
                raise ValueError(f"task_index must be an integer, not {options['task_index']!r}") from None
            if not 0 <= index < len(self._tasks):
                raise ValueError(f"task_index {index} out of range 0..{len(self._tasks) - 1}")
            return self._tasks[index]
        return self._tasks[int(rng.integers(len(self._tasks)))]
