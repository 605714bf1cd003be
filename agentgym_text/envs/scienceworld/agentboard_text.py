"""AgentBoard's words for ScienceWorld: its help answer, its pass-through of commands, its validity rule.

AgentBoard's ScienceWorld env (``environment/scienceworld_env.py``) adds little text of its own: the first
observation is the simulator's reset text plus a newline and the inventory, every command goes to the simulator
stripped and its answer comes back verbatim, and ``check valid actions`` answers "Choose an action from these
valid actions: " followed by the simulator's abstract action templates ("open OBJ", "go OBJ", ...) minus
"reset task", plus "check valid actions". An action counts as valid (its grounding accuracy) when the exact text
is one of the simulator's concrete action-object combinations, or the help action.
"""

from __future__ import annotations

from collections.abc import Sequence

from agentgym_text.core.info import HELP_ACTION, InvalidReason
from agentgym_text.envs.scienceworld.actions import _ALLOWED, MAX_COMMAND_CHARS

__all__ = [
    "AGENTBOARD_ACTION_FORMAT",
    "HELP_PREFIX",
    "NO_MATCH",
    "help_answer",
    "screen",
]

HELP_PREFIX = "Choose an action from these valid actions: "
NO_MATCH = "No known action matches that input."
"""The simulator's answer to text it cannot read as an action (it lets no time pass)."""
AGENTBOARD_ACTION_FORMAT = (
    "one ScienceWorld command per step, e.g. look around, go to LOC, open OBJ, pick up OBJ, move OBJ to OBJ, "
    "pour OBJ in OBJ, use OBJ on OBJ, activate OBJ, focus on OBJ, wait, with objects named as in the observation"
)


def help_answer(possible_actions: Sequence[str]) -> str:
    """AgentBoard's answer to ``check valid actions``: the simulator's templates minus reset, plus the help action.

    >>> help_answer(["open OBJ", "reset task", "wait"])
    'Choose an action from these valid actions: open OBJ, wait, check valid actions'
    """
    listed = [action for action in possible_actions if "reset" not in action]
    if HELP_ACTION not in listed:
        listed.append(HELP_ACTION)
    return HELP_PREFIX + ", ".join(listed)


def screen(action: str) -> InvalidReason | None:
    """Why ``action`` cannot be a ScienceWorld command, or None when it goes to the simulator.

    Text longer than any command, or with characters no command uses, gets the simulator's own "No known action
    matches that input." without a round trip to the JVM (the simulator lets no time pass on it either). Any
    other text goes to the simulator, as in AgentBoard: each step there renames ambiguous objects in the
    combination listings, so skipping it would change the names of later listings.

    >>> screen("fly to the moon"), screen("look around?").value, screen("x" * 400).value
    (None, 'unparsable', 'unparsable')
    """
    if len(action) > MAX_COMMAND_CHARS or not _ALLOWED.match(action):
        return InvalidReason.UNPARSABLE
    return None
