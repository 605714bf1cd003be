"""Reading an action: ALFWorld's exact commands, a few forms agents trained on older ALFWorld use, and why not.

ALFWorld 0.4.2 prints ``move X to Y``; ``put X in/on Y`` (AgentBoard's prompts, ALFWorld 0.3), ``heat X using Y``,
``toggle X`` and ``goto X`` are read as the same commands. Case, surrounding spaces and one trailing period do
not matter (AgentBoard drops the period too).

>>> normalise("Put apple 1 in/on countertop 2.")
'move apple 1 to countertop 2'
>>> normalise("heat egg 1 using microwave 1")
'heat egg 1 with microwave 1'
"""

from __future__ import annotations

import re

from agentgym_text.core.info import InvalidReason

__all__ = ["normalise", "why_invalid", "VERBS"]

VERBS = (
    "look",
    "inventory",
    "help",
    "go to",
    "open",
    "close",
    "take",
    "move",
    "put",
    "examine",
    "use",
    "heat",
    "cool",
    "clean",
    "slice",
    "toggle",
    "goto",
    "place",
)
_PUT = re.compile(r"^(?:put|place) (.+?) (?:in/on|in|on|into|onto|to) (.+)$")
_USING = re.compile(r"^(heat|cool|clean|slice) (.+?) using (.+)$")
_ENTITY = re.compile(r"[a-z]+ \d+")


def normalise(text: str) -> str:
    """The command in ALFWorld 0.4.2's spelling (lower case, single spaces, no trailing period)."""
    command = " ".join(text.lower().split())
    if command.endswith("."):
        command = command[:-1].rstrip()
    if match := _PUT.match(command):
        return f"move {match.group(1)} to {match.group(2)}"
    if match := _USING.match(command):
        return f"{match.group(1)} {match.group(2)} with {match.group(3)}"
    if command.startswith("toggle "):
        return "use " + command[len("toggle ") :]
    if command.startswith("goto "):
        return "go to " + command[len("goto ") :]
    return command


def why_invalid(command: str, known_names: set[str]) -> InvalidReason:
    """Why a normalised command that is not admissible now was refused."""
    if not any(command == verb or command.startswith(verb + " ") for verb in VERBS):
        return InvalidReason.UNKNOWN_ACTION
    names = _ENTITY.findall(command)
    if any(name not in known_names for name in names):
        return InvalidReason.UNKNOWN_OBJECT
    if not names and command not in ("look", "inventory", "help"):
        return InvalidReason.BAD_ARGUMENT
    return InvalidReason.PRECONDITION
