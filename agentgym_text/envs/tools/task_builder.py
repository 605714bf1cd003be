"""Turning a task draft (goal + golden calls) into a ``TaskSpec`` by running the calls on a fresh backend.

The outputs of the golden calls are the subgoals; the answer may be computed from them; for operation
tasks the backend's final state is the golden state.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentgym_text.core.tasks import DEFAULT_MAX_STEPS, TaskSpec
from agentgym_text.envs.tools.actions import Call
from agentgym_text.envs.tools.backend import Toolkit
from agentgym_text.envs.tools.catalog import TOOLKIT_CLASSES
from agentgym_text.envs.tools.grading import AnswerRule
from agentgym_text.envs.tools.registration import FAMILY
from agentgym_text.envs.tools.render import subgoal_key
from agentgym_text.envs.tools.schema import check_arguments

__all__ = ["TaskDraft", "toolkit_class", "run_calls", "build_task"]


@dataclass
class TaskDraft:
    """A task before its golden calls are run: ``answer`` may be a function of the golden outputs."""

    goal: str
    calls: Sequence[Call]
    answer: Any | Callable[[list[Any]], Any]
    rule: AnswerRule = field(default_factory=AnswerRule)
    config: dict[str, Any] = field(default_factory=dict)
    graded_state: bool = False
    uses_subgoals: bool = True


def toolkit_class(tool: str) -> type[Toolkit]:
    module_name, class_name = TOOLKIT_CLASSES[tool].split(":")
    return getattr(importlib.import_module(module_name), class_name)


def run_calls(toolkit: Toolkit, calls: Sequence[Call]) -> list[Any]:
    """Run calls in order (arguments checked like an agent's); any failure is a bug in the task set."""
    outputs = []
    for call in calls:
        spec = toolkit.spec(call.name)
        if spec is None:
            raise ValueError(f"golden call to unknown function {call.name}")
        outputs.append(toolkit.call(call.name, check_arguments(spec, call.args)))
    return outputs


def build_task(tool: str, index: int, draft: TaskDraft, task_id: str | None = None) -> TaskSpec:
    """The task of a draft (id ``<tool>-NNN`` from ``index`` unless ``task_id`` is given)."""
    toolkit = toolkit_class(tool)(draft.config)
    try:
        outputs = run_calls(toolkit, draft.calls)
        state = toolkit.state() if draft.graded_state else None
    finally:
        toolkit.close()
    answer = draft.answer(outputs) if callable(draft.answer) else draft.answer
    keys = [subgoal_key(call.name, output) for call, output in zip(draft.calls, outputs)]
    # AgentBoard's cutoff is 4 for both tool tasks (Table 10); the answer counts as a subgoal where there are any
    count = len(keys) + 1 if draft.uses_subgoals else len(keys)
    difficulty = FAMILY.difficulty.label(count)
    return TaskSpec(
        task_id=task_id or f"{tool}-{index:03d}",
        params={
            "tool": tool,
            "config": draft.config,
            "calls": [[call.name, call.args] for call in draft.calls],
            "answer": answer,
            "rule": draft.rule.to_params(),
            "subgoal_keys": keys if draft.uses_subgoals else [],
            "golden_state": state,
            "graded_state": draft.graded_state,
        },
        goal=draft.goal,
        difficulty=difficulty,
        max_steps=DEFAULT_MAX_STEPS,
    )
