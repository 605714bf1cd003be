"""The shipped task sets, built on first use and cached in memory."""

from __future__ import annotations

import importlib
from functools import cache

from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.tools.catalog import TASK_MODULES, TASKS_PER_TOOL, tools_of
from agentgym_text.envs.tools.task_builder import build_task

__all__ = ["tool_tasks", "family_tasks"]


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
