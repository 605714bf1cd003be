"""The Jericho env's ``"clear"`` text: the game's own output and commands checked before frotz sees them (see the
family README)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import InvalidReason
from agentgym_text.core.tasks import TaskSet
from agentgym_text.core.text_env import Outcome
from agentgym_text.core.text_mode import TextMode
from agentgym_text.envs.jericho.actions import check_command, expand_abbreviations
from agentgym_text.envs.jericho.agentboard_data import agentboard_tasks
from agentgym_text.envs.jericho.render import game_text
from agentgym_text.envs.jericho.turn import Turn

__all__ = ["ClearMode"]


class ClearMode(TextMode):
    """Replies as the game prints them (trimmed), commands checked against the game's dictionary, and a command the
    game's parser refused invalid (``parser_errors``)."""

    name: ClassVar[str] = "clear"
    exact_seed: ClassVar[bool] = False
    """The reset seed seeds the emulator."""
    judges_refusals: ClassVar[bool] = True
    """Parser refusals are read (``parser_errors``)."""

    def scored_tasks(self, folder: Path) -> TaskSet:
        """The tasks scored on AgentBoard's data in ``folder`` (its alternatives all scored: its loader's bug is no
        part of this text)."""
        return agentboard_tasks(folder, fixes=True)

    def opening(self, text: str) -> str:
        """The first observation, from the game's opening text."""
        return game_text(text)

    def command(self, action: str, dictionary: dict[str, list[str]], cut: int) -> str | None:
        """The command to send the game (never None: the core answers this text's help forms); ``ActionError`` when
        the action never reaches it (``actions.check_command``)."""
        rejection = check_command(action, dictionary, cut)
        if rejection is not None:
            raise ActionError(rejection.message, rejection.reason)
        return expand_abbreviations(action.strip().rstrip(".!?"))

    def reply(self, turn: Turn) -> Outcome:
        """The step's outcome: invalid, and not an ending, when the parser refused the command."""
        observation = game_text(turn.reply)
        if turn.refused():
            return Outcome.invalid(observation, InvalidReason.UNKNOWN_ACTION, changed=turn.turn_taken)
        return turn.outcome(observation)

    def help_text(self, actions: Sequence[str]) -> str:
        return (
            "Valid actions (commands that change the world here; 'look', 'inventory' and 'examine <thing>' "
            "work too): " + ", ".join(actions)
        )
