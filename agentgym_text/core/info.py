"""The info schema every env returns: keys, finish reasons and invalid-input codes
(difficulty rules are each family's, in its declaration).

This module is the one source of truth for them; families and wrappers import from here.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

__all__ = [
    "FIRST_OBSERVATION",
    "FinishReason",
    "EngineLost",
    "InvalidReason",
    "INFO_KEYS",
    "FORMAT_ERRORS",
    "HELP_ACTION",
    "TOOL_HELP_ACTION",
    "SUBSKILLS",
]


class FinishReason(str, Enum):
    """Why an episode ended (AgentBench's taxonomy plus ours)."""

    SUCCESS = "success"
    FAILURE = "failure"
    STEP_LIMIT = "step_limit"
    INVALID_FORMAT = "invalid_format"
    INVALID_ACTION = "invalid_action"
    REPETITION = "repetition"
    CONTEXT_LIMIT = "context_limit"
    AGENT_ERROR = "agent_error"
    """The agent (a model endpoint) could not be reached; the episode is replayed on the next run."""
    HOST_ERROR = "host_error"
    """A task's host (e.g. an LLM judging lateral-thinking questions) could not be reached."""
    ENGINE_ERROR = "engine_error"
    """The engine behind the env died (a crashed worker or actor); the episode is lost, not failed."""


class EngineLost(RuntimeError):
    """The engine behind an env died and its episode cannot be carried on (finish_reason "engine_error")."""


class InvalidReason(str, Enum):
    """Short codes for ``info["invalid_reason"]``.

    The first group are format errors (the text could not be read as an action at all); the rest are
    action errors (a readable action that the task cannot carry out).
    """

    NOT_TEXT = "not_text"
    EMPTY = "empty"
    TOO_LONG = "too_long"
    CONTROL_CHARACTERS = "control_characters"
    UNPARSABLE = "unparsable"
    UNKNOWN_ACTION = "unknown_action"
    UNKNOWN_OBJECT = "unknown_object"
    BAD_ARGUMENT = "bad_argument"
    PRECONDITION = "precondition_failed"
    EPISODE_OVER = "episode_over"


FORMAT_ERRORS = frozenset(
    {
        InvalidReason.NOT_TEXT,
        InvalidReason.EMPTY,
        InvalidReason.TOO_LONG,
        InvalidReason.CONTROL_CHARACTERS,
        InvalidReason.UNPARSABLE,
    }
)

SUBSKILLS = ("Memory", "Planning", "World Modeling", "Self-Reflection", "Grounding", "Spatial Navigation")
"""AgentBoard's six sub-skills (§5, Table 7); each registered env declares its weight for each."""

HELP_ACTION = "check valid actions"
TOOL_HELP_ACTION = "check_valid_actions"


FIRST_OBSERVATION = "first_observation"
"""The reset-only info key of the first observation without this package's added lines."""

INFO_KEYS: dict[str, Any] = {
    "goal": str,
    "task_id": str,
    "difficulty": str,
    "progress_rate": float,
    "progress_now": float,
    "subgoals": list,
    "subgoals_done": list,
    "success": bool,
    "valid": bool,
    "invalid_reason": (type(None), str),
    "finish_reason": (type(None), str),
    "step": int,
    "max_steps": int,
    "admissible_actions": list,
}
"""Every info key with the type(s) its value always has.

At reset, info also holds ``first_observation``: the family's first text without the goal, action-format and budget
lines this package adds (what the original env showed; agent protocols that replay an original harness read it).
A family may add documented fields of its own at reset and step (``Start.info``, ``Outcome.info``), e.g. the raw
result an original harness wraps in its own words.

``subgoals_done`` marks the subgoals credited so far: for subgoal tasks (milestones, sticky once met) their
share is ``progress_rate``; for match tasks (goal conditions such as PDDL goal facts) the flags say which
conditions hold now and their share is ``progress_now``.
"""
