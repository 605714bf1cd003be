"""The PDDL expert: the first action of a plan from the current state (the search itself is in ``planner``)."""

from __future__ import annotations

import logging

from agentgym_text.envs.pddl.model import State
from agentgym_text.envs.pddl.problem_files import LoadedProblem

__all__ = ["expert_action", "expert_key", "plan_length"]

logger = logging.getLogger(__name__)

FALLBACK_ACTION = "look around"
"""Sent when the search gives up from a live state (dead ends end the episode, so this is rare)."""


def expert_key(problem: LoadedProblem, state: State) -> tuple[str, ...] | None | str:
    """The expert's next ground action ``(operator, *args)`` from ``state``, None when the goal already holds,
    or :data:`FALLBACK_ACTION` when the search finds no plan."""
    from agentgym_text.envs.pddl.planner import NoPlanError

    try:
        return problem.planner.next_action(state)
    except NoPlanError:
        logger.warning("PDDL expert found no plan for %s from the current state", problem.ground.problem.name)
        return FALLBACK_ACTION


def expert_action(problem: LoadedProblem, state: State) -> str | None:
    """The expert's next action from ``state`` in its text form, or None when the goal already holds."""
    key = expert_key(problem, state)
    if key is None or isinstance(key, str):
        return key
    return problem.renderer.action(key)


def plan_length(problem: LoadedProblem) -> int | None:
    """The length of the expert's plan from the initial state, or None if it finds none."""
    from agentgym_text.envs.pddl.planner import NoPlanError

    try:
        return len(problem.planner.plan(problem.ground.init))
    except NoPlanError:
        return None
