"""AgentBoard's Jericho words (``environment/jericho_env.py``, its harness's ``parse_action``), written here, and
``AgentBoardMode``, the env's ``"agentboard"`` text that speaks them.

AgentBoard's harness cuts every action at its first "," and its first "." and keeps at most 20 words; an action
holding both "check" and "action" is its help action, answered "You can take the following actions: ..." with
jericho's valid actions and "check valid actions"; every game reply is flattened to one line and loses its
"[Your score ...]" notes; a reply is an invalid action only when it holds "[!". The mode's ``fixes``
(``agentboard_fixes=``) fixes AgentBoard's bugs, each listed in the family README.

>>> clean_action("take lamp, then go north. Quickly")
'take lamp'
>>> flatten("West of House\\n\\nThere is a   mailbox. [Your score has gone up by five points.]")
'West of House There is a mailbox. '
>>> asks_for_actions("Check the valid ACTIONS please")
True
>>> AgentBoardMode(fixes=False).exact_seed
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import InvalidReason
from agentgym_text.core.tasks import TaskSet
from agentgym_text.core.text_env import Outcome
from agentgym_text.core.text_mode import AgentBoardText
from agentgym_text.envs.jericho.actions import META_COMMANDS
from agentgym_text.envs.jericho.agentboard_data import agentboard_tasks, flatten
from agentgym_text.envs.jericho.turn import Turn

__all__ = [
    "AgentBoardMode",
    "ACTION_LISTING",
    "HELP_ENTRY",
    "MAX_ACTION_WORDS",
    "clean_action",
    "asks_for_actions",
    "help_text",
    "flatten",
    "marked_invalid",
]

ACTION_LISTING = "You can take the following actions: "
HELP_ENTRY = "check valid actions"
MAX_ACTION_WORDS = 20

_PLAIN_TEXT = re.compile(r"[\x20-\x7e]+")
"""Printable ASCII: what a Z-machine parser reads (AgentBoard sends anything, cut to its first word or two)."""


def clean_action(action: str) -> str:
    """AgentBoard's ``parse_action``: the text before the first "," and the first ".", at most 20 words."""
    action = action.split(",")[0].split(".")[0]
    return " ".join(action.split(" ")[:MAX_ACTION_WORDS])


def asks_for_actions(action: str) -> bool:
    """AgentBoard's help test: the lower-cased action holds both "check" and "action"."""
    text = action.strip().lower()
    return "check" in text and "action" in text


def help_text(actions: Sequence[str]) -> str:
    return ACTION_LISTING + ", ".join([*actions, HELP_ENTRY])


def marked_invalid(observation: str) -> bool:
    """AgentBoard's validity test: the reply holds "[!"."""
    return "[!" in observation


class AgentBoardMode(AgentBoardText):
    """AgentBoard's words and validity over the game; with ``fixes`` FIX-PLAIN, FIX-META, FIX-VALID and FIX-SEED."""

    @property
    def exact_seed(self) -> bool:
        """Whether every episode plays jericho's default seed, as AgentBoard's ``FrotzEnv(game_file)`` does (the seed
        its walkthroughs replay on); with fixes the reset seed seeds the emulator (FIX-SEED)."""
        return not self.fixes

    @property
    def judges_refusals(self) -> bool:
        """Whether parser refusals are read: AgentBoard's validity reads "[!" only (FIX-VALID)."""
        return self.fixes

    def scored_tasks(self, folder: Path) -> TaskSet:
        """The tasks scored on AgentBoard's data in ``folder``, as its loader reads them without fixes."""
        return agentboard_tasks(folder, fixes=self.fixes)

    def opening(self, text: str) -> str:
        return flatten(text).strip()

    def command(self, action: str, dictionary: dict[str, list[str]], cut: int) -> str | None:
        """The command AgentBoard's cut sends the game, None for its help action; ``ActionError`` for an action the
        fixes refuse before the game (``dictionary`` and ``cut`` are not read)."""
        if self.fixes and (len(action) == 1 or not _PLAIN_TEXT.fullmatch(action)):  # FIX-PLAIN
            raise ActionError(
                "Type one command in plain English words (letters, digits, spaces), written out (no one-letter "
                "abbreviations), e.g. 'open mailbox'; 'check valid actions' lists some.",
                InvalidReason.UNPARSABLE,
            )
        command = clean_action(action)
        if asks_for_actions(command):
            return None
        words = command.lower().split()
        if self.fixes and words and words[0] in META_COMMANDS:  # FIX-META
            raise ActionError(
                f"'{words[0]}' is a game-system command and is disabled here; play the game itself.",
                InvalidReason.UNKNOWN_ACTION,
            )
        return command

    def reply(self, turn: Turn) -> Outcome:
        """The flattened reply; invalid when it holds "[!" or, with fixes, when the parser refused the command
        (FIX-VALID), the ending kept either way."""
        observation = flatten(turn.reply)
        if marked_invalid(observation) or (self.fixes and turn.refused()):
            return Outcome(
                observation=observation,
                valid=False,
                invalid_reason=InvalidReason.UNKNOWN_ACTION.value,
                terminated=turn.terminated,
                success=turn.success,
            )
        return turn.outcome(observation)

    def help_text(self, actions: Sequence[str]) -> str:
        return help_text(actions)
