"""``Turn``: a command the game has just played, as the env's text modes judge it."""

from __future__ import annotations

from dataclasses import dataclass

from agentgym_text.core.text_env import Outcome
from agentgym_text.envs.jericho.engine import JerichoGame
from agentgym_text.envs.jericho.parser_errors import ParserErrors

__all__ = ["Turn"]


@dataclass(frozen=True)
class Turn:
    """``command`` played in ``game``: its raw ``reply``, whether it took a turn, and the episode's ending after it
    (``terminated``, ``success``); ``errors`` judges parser refusals (None when the text never asks)."""

    command: str
    reply: str
    game: JerichoGame
    errors: ParserErrors | None
    turn_taken: bool
    terminated: bool
    success: bool

    def refused(self) -> bool:
        """Whether the game's parser refused the command (``parser_errors``; it reads the world diff, so it is asked
        only when a text needs the answer)."""
        assert self.errors is not None
        return self.errors.refused(self.command, self.reply, self.game, turn_taken=self.turn_taken)

    def outcome(self, observation: str) -> Outcome:
        """The valid outcome showing ``observation``."""
        return Outcome(observation=observation, terminated=self.terminated, success=self.success)
