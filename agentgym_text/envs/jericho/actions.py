"""Reading an action for a jericho game: one command of plain words, checked cheaply before frotz sees it.

>>> check_command("open the mailbox", {"open": ["verb"]}, 6) is None
True
>>> check_command("{'x': 1}", {"open": ["verb"]}, 6).reason
<InvalidReason.UNPARSABLE: 'unparsable'>
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentgym_text.core.info import InvalidReason

__all__ = ["MAX_COMMAND_CHARS", "Rejection", "check_command", "expand_abbreviations", "META_COMMANDS"]

MAX_COMMAND_CHARS = 190
"""frotz reads at most 198 bytes of a command and cuts the rest silently."""

META_COMMANDS = frozenset(
    "save restore restart quit q undo script unscript transcript verify version score fullscore notify "
    "brief verbose superbrief".split()
)
_ALLOWED = re.compile(r"[A-Za-z0-9 ,'\"\-_]+")
_ABBREVIATIONS = {
    "n": "north",
    "s": "south",
    "e": "east",
    "w": "west",
    "ne": "northeast",
    "nw": "northwest",
    "se": "southeast",
    "sw": "southwest",
    "u": "up",
    "d": "down",
    "l": "look",
    "i": "inventory",
    "x": "examine",
    "z": "wait",
    "g": "again",
}


@dataclass(frozen=True)
class Rejection:
    """Why a command never reached the game."""

    message: str
    reason: InvalidReason


def expand_abbreviations(command: str) -> str:
    """``"N"`` -> ``"north"``, ``"x Lamp"`` -> ``"examine lamp"`` (the expert writes its commands out, in lower case)."""
    words = command.lower().split()
    if words and words[0].lower() in _ABBREVIATIONS:
        words[0] = _ABBREVIATIONS[words[0].lower()]
    return " ".join(words)


def check_command(command: str, dictionary: dict[str, list[str]], cut: int) -> Rejection | None:
    """None when ``command`` may go to the game, else what is wrong with it."""
    text = command.strip().rstrip(".!?").strip()
    if len(text) > MAX_COMMAND_CHARS:
        return Rejection(f"The command is too long (over {MAX_COMMAND_CHARS} characters).", InvalidReason.TOO_LONG)
    if not text or not _ALLOWED.fullmatch(text):
        return Rejection(
            "Type one command in plain English words (letters, digits, spaces), e.g. 'open mailbox' or "
            "'go north'; 'check valid actions' lists some.",
            InvalidReason.UNPARSABLE,
        )
    words = text.lower().replace(",", " , ").split()
    if len(text) == 1:
        return Rejection(
            f"Write the command out: one-letter abbreviations are not accepted ('{text}' is "
            f"'{_ABBREVIATIONS.get(text.lower(), 'not a command')}').",
            InvalidReason.UNKNOWN_ACTION,
        )
    first = words[0]
    if first in META_COMMANDS:
        return Rejection(
            f"'{first}' is a game-system command and is disabled here; play the game itself.",
            InvalidReason.UNKNOWN_ACTION,
        )
    if first not in _ABBREVIATIONS and not first.isdigit() and first.strip("\"'")[:cut] not in dictionary:
        return Rejection(f'The game does not know the word "{first}".', InvalidReason.UNKNOWN_ACTION)
    return None
