"""The Jericho expert: the game's walkthrough, played from the reset state while the game follows it.

It does not restore saved states: once the agent (or the game's randomness) leaves the walkthrough, the expert
says so (``next_command`` is None and ``off_reason`` tells why, also logged).

>>> expert = WalkthroughExpert(["north", "take lamp"], trace=[(0, 1), (0, 2), (5, 2)])
>>> expert.next_command()
'north'
>>> expert.observe("north", score=0, location=2, turn_taken=True); expert.next_command()
'take lamp'
>>> expert.observe("south", score=0, location=1, turn_taken=True); expert.next_command() is None
True
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

__all__ = ["WalkthroughExpert"]

logger = logging.getLogger(__name__)


class WalkthroughExpert:
    """Follows ``commands``; ``trace`` (optional) is (score, location) after each command (entry 0: the start)."""

    def __init__(self, commands: Sequence[str], trace: Sequence[Sequence[int]] | None = None):
        self.commands = list(commands)
        self._normalised = [" ".join(command.lower().split()) for command in self.commands]
        self.trace = [tuple(point) for point in trace] if trace else None
        self.position = 0
        self.off_reason: str | None = None

    def next_command(self) -> str | None:
        if self.off_reason is not None:
            logger.info("jericho expert has no move: %s", self.off_reason)
            return None
        if self.position >= len(self.commands):
            return None
        return self.commands[self.position]

    def observe(self, command: str, *, score: int, location: int, turn_taken: bool) -> None:
        """Record a command the game accepted (``turn_taken``: it changed the world or the clock)."""
        if self.off_reason is not None or self.position >= len(self.commands):
            return
        expected = self.commands[self.position]
        if " ".join(command.lower().split()) != self._normalised[self.position]:
            if turn_taken:
                self._leave(f"the agent played {command!r} where the walkthrough has {expected!r}")
            return
        self.position += 1
        if self.trace is not None and self.position < len(self.trace):
            if tuple(self.trace[self.position]) != (score, location):
                self._leave(
                    f"after {expected!r} the game differs from the walkthrough (score {score}, room {location}; "
                    f"expected {self.trace[self.position]}): its randomness went another way"
                )

    def _leave(self, reason: str) -> None:
        self.off_reason = f"off the walkthrough: {reason}; the expert does not restore saved states"
        logger.info("jericho expert: %s", self.off_reason)
