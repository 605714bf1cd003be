"""Reading a TextWorld command: plain words checked cheaply before the game sees them, and the game's refusals.

>>> check_command("go north", ["go", "take"]) is None
True
>>> check_command("fly away", ["go", "take"])[1]
<InvalidReason.UNKNOWN_ACTION: 'unknown_action'>
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from agentgym_text.core.info import InvalidReason

__all__ = ["MAX_COMMAND_CHARS", "check_command", "refused"]

MAX_COMMAND_CHARS = 190
_ALLOWED = re.compile(r"[A-Za-z0-9 ,'\-]+")
_DIRECTIONS = {"north", "south", "east", "west", "up", "down"}
_ALWAYS = {"look", "inventory", "examine", "go"}
_REFUSALS = re.compile(
    r"That's not a verb I recognise|I didn't understand|You can't see any such thing|"
    r"I only understood you as far as|You seem to have said too little|There seems to be a noun missing|"
    r"It's not clear what you're referring to|^What do you want to|You'll have to say which",
    re.IGNORECASE | re.MULTILINE,
)


def check_command(command: str, verbs: Iterable[str]) -> tuple[str, InvalidReason] | None:
    """None when ``command`` may go to the game, else (message, reason)."""
    if not _ALLOWED.fullmatch(command):
        return (
            "Type one command in plain words, e.g. 'go north' or 'take coin'; 'check valid actions' lists them."
        ), InvalidReason.UNPARSABLE
    if len(command) > MAX_COMMAND_CHARS:
        return "The command is too long (over 190 characters): send one short command.", InvalidReason.TOO_LONG
    first = command.split()[0]
    if len(command) < 2 or first not in set(verbs) | _DIRECTIONS | _ALWAYS:
        return (
            f"'{first}' is not a command this game knows; 'check valid actions' lists them.",
            InvalidReason.UNKNOWN_ACTION,
        )
    return None


def refused(feedback: str) -> bool:
    """Whether the game's reply says its parser did not understand the command."""
    return _REFUSALS.search(feedback) is not None
