"""The env contract: base class, text space, info schema, progress scorers, task sets and registry."""

from agentgym_text.core.actions import ActionError
from agentgym_text.core.family import DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.info import (
    FORMAT_ERRORS,
    HELP_ACTION,
    INFO_KEYS,
    TOOL_HELP_ACTION,
    FinishReason,
    InvalidReason,
)
from agentgym_text.core.progress import Progress, Subgoal, SubgoalTracker, match_score
from agentgym_text.core.registry import EnvEntry, declare, list_envs
from agentgym_text.core.tasks import DEFAULT_MAX_STEPS, TaskSet, TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.core.text_mode import AGENTBOARD, AgentBoardText, TextMode, make_mode
from agentgym_text.core.text_space import MAX_ACTION_CHARS, MAX_OBSERVATION_CHARS, UTF8Text

__all__ = [
    "AGENTBOARD",
    "ActionError",
    "DEFAULT_MAX_STEPS",
    "EnvEntry",
    "FORMAT_ERRORS",
    "FinishReason",
    "HELP_ACTION",
    "INFO_KEYS",
    "InvalidReason",
    "MAX_ACTION_CHARS",
    "MAX_OBSERVATION_CHARS",
    "Outcome",
    "Progress",
    "Start",
    "Subgoal",
    "SubgoalTracker",
    "TOOL_HELP_ACTION",
    "TaskSet",
    "TaskSpec",
    "TextEnv",
    "UTF8Text",
    "AgentBoardText",
    "TextMode",
    "make_mode",
    "list_envs",
    "match_score",
    "declare",
    "Family",
    "EnvId",
    "DifficultyRule",
    "TrainSplit",
]
