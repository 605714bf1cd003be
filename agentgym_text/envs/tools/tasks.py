"""The shipped task sets, built on first use and cached in memory; the training task sets.

Training tasks come from each tool's ``training_drafts()``: the shipped templates over other entities, dates and
places of the offline worlds (another seed, or every combination the small todo agenda has). A draft asking what a
shipped task of its tool asks (the same goal) is left out, and so is a task played as a shipped or earlier training
task is (the same world, golden calls, answer and graded state: "how many tasks are due before June 5" and "... June
6" when none is due on the 5th). Subgoals and answers are computed on a fresh backend, as the shipped tasks' are.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from functools import cache

from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.tools.catalog import TASK_MODULES, TASKS_PER_TOOL, tools_of
from agentgym_text.envs.tools.task_builder import build_task

__all__ = ["tool_tasks", "family_tasks", "training_tasks", "DEFAULT_TRAIN_SIZE"]

DEFAULT_TRAIN_SIZE = 200
_MAX_REPEATS = 1000
"""Drafts in a row that repeat a shipped or earlier one before a tool's training stream counts as exhausted."""


@cache
def tool_tasks(tool: str) -> tuple[TaskSpec, ...]:
    """The ``TASKS_PER_TOOL`` tasks of one tool, with subgoals computed on a fresh backend."""
    drafts = importlib.import_module(TASK_MODULES[tool]).drafts()
    if len(drafts) != TASKS_PER_TOOL:
        raise AssertionError(f"{tool} has {len(drafts)} task drafts, expected {TASKS_PER_TOOL}")
    return tuple(build_task(tool, index, draft) for index, draft in enumerate(drafts))


def family_tasks(family: str, tool: str | None = None) -> TaskSet:
    """All tasks of the family's tools (or of one ``tool``), tool by tool in catalog order."""
    return TaskSet([task for name in tools_of(family, tool) for task in tool_tasks(name)])


def _instance(task: TaskSpec) -> str:
    """What a task's episode is, apart from its wording: the world, the golden calls, the answer, the graded state."""
    return json.dumps(task.params, sort_keys=True, default=str)


def _tool_training(tool: str) -> Iterator[TaskSpec]:
    """One tool's training tasks, ids ``<tool>-train-NNNN`` (finite where the tool's world is small)."""
    goals = {task.goal for task in tool_tasks(tool)}
    instances = {_instance(task) for task in tool_tasks(tool)}
    repeats = number = 0
    for draft in importlib.import_module(TASK_MODULES[tool]).training_drafts():
        task = None if draft.goal in goals else build_task(tool, number, draft, task_id=f"{tool}-train-{number:04d}")
        if task is None or _instance(task) in instances:
            repeats += 1
            if repeats >= _MAX_REPEATS:
                return
            continue
        repeats = 0
        instances.add(_instance(task))
        yield task
        number += 1


@cache
def _training(family: str, tool: str | None, count: int) -> tuple[TaskSpec, ...]:
    streams = [_tool_training(name) for name in tools_of(family, tool)]
    out: list[TaskSpec] = []
    while streams and len(out) < count:
        for stream in list(streams):
            task = next(stream, None)
            if task is None:
                streams.remove(stream)
            elif len(out) < count:
                out.append(task)
    return tuple(out)


def training_tasks(family: str, tool: str | None = None, count: int | None = None) -> TaskSet:
    """The first ``count`` training tasks (200 by default) of the family's tools, the tools taking turns (a tool
    whose stream runs out leaves the turns to the others), or of one ``tool``."""
    count = DEFAULT_TRAIN_SIZE if count is None else int(count)
    if count < 1:
        raise ValueError(f"num_tasks must be at least 1, not {count}")
    tasks = _training(family, tool, count)
    if len(tasks) < count:
        raise ValueError(f"num_tasks={count}: the {family} training split has {len(tasks)} tasks")
    return TaskSet(list(tasks))
