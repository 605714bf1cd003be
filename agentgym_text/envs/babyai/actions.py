"""Reading a text action: low-level moves and high-level "go to / pick up / go through" commands."""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import InvalidReason

__all__ = ["Command", "parse_command", "LOW_LEVEL", "COLORS", "OBJECT_TYPES"]

COLORS = ("red", "green", "blue", "purple", "yellow", "grey")
OBJECT_TYPES = ("door", "key", "ball", "box", "goal", "lava")

LOW_LEVEL: dict[str, str] = {
    "turn left": "left",
    "left": "left",
    "turn right": "right",
    "right": "right",
    "move forward": "forward",
    "go forward": "forward",
    "forward": "forward",
    "move ahead": "forward",
    "pick up": "pickup",
    "pickup": "pickup",
    "pick up object": "pickup",
    "drop": "drop",
    "drop object": "drop",
    "put down": "drop",
    "toggle": "toggle",
}
"""Accepted spellings of the six low-level actions (after normalisation) -> canonical kind."""

_OBJECT = (
    r"(?:the |a |an )?(?P<color>red|green|blue|purple|yellow|grey|gray) "
    r"(?:(?:open|closed|locked) )?(?P<type>door|key|ball|box|goal|lava)(?: (?P<index>\d{1,3}))?"
    r"(?: \((?:open|closed|locked)\))?"
)
_HIGH_LEVEL = (
    ("toggle_through", re.compile(rf"^(?:toggle|open|unlock) and (?:go|walk|pass) through {_OBJECT}$")),
    ("go_through", re.compile(rf"^(?:go|walk|pass) through {_OBJECT}$")),
    ("goto", re.compile(rf"^(?:go to|goto|go next to|walk to|move to|navigate to) {_OBJECT}$")),
    ("pickup", re.compile(rf"^(?:pick up|pickup|pick|grab|take) {_OBJECT}$")),
)
_VERBS = ("go", "goto", "pick", "pickup", "grab", "take", "walk", "move", "toggle", "open", "unlock", "turn",
          "drop", "navigate", "pass", "put")  # fmt: skip


@dataclass(frozen=True)
class Command:
    """A parsed action: ``kind`` is a low-level kind (left, right, forward, pickup, drop, toggle) or a
    high-level kind (goto, pickup, go_through, toggle_through) with ``target`` ("red ball") and ``index``."""

    kind: str
    target: str | None = None
    index: int | None = None

    @property
    def high_level(self) -> bool:
        return self.target is not None

    def text(self) -> str:
        """The canonical spelling, as listed by ``check valid actions``."""
        if self.target is None:
            return {"left": "turn left", "right": "turn right", "forward": "move forward", "pickup": "pick up",
                    "drop": "drop", "toggle": "toggle"}[self.kind]  # fmt: skip
        name = f"{self.target} {self.index}" if self.index is not None else self.target
        verb = {"goto": "go to", "pickup": "pick up", "go_through": "go through",
                "toggle_through": "toggle and go through"}[self.kind]  # fmt: skip
        return f"{verb} {name}"


def _normalise(text: str) -> str:
    text = text.lower().replace("_", " ").replace("-", " ")
    text = " ".join(text.split())
    text = text.strip(" .!'\"`")
    return text.replace("pick up up", "pick up")


def parse_command(text: str) -> Command:
    """Parse one action; raise ``ActionError`` if it is none of the accepted forms (``unknown_action`` when it
    starts with a verb, ``unparsable`` otherwise)."""
    normal = _normalise(text)
    if normal in LOW_LEVEL:
        return Command(LOW_LEVEL[normal])
    for kind, pattern in _HIGH_LEVEL:
        match = pattern.match(normal)
        if match:
            color = "grey" if match["color"] == "gray" else match["color"]
            index = int(match["index"]) if match["index"] is not None else None
            return Command(kind, target=f"{color} {match['type']}", index=index)
    first = normal.split(" ", 1)[0] if normal else ""
    if first in _VERBS:
        return _raise_unknown(normal)
    raise ActionError(
        "That is not an action. Actions are: turn left, turn right, move forward, pick up, drop, toggle, "
        "go to <object>, pick up <object>, go through <door>, toggle and go through <door> (objects as named "
        "in the observation, e.g. 'red ball 1'), or 'check valid actions'.",
        InvalidReason.UNPARSABLE,
    )


def _raise_unknown(normal: str) -> Command:
    raise ActionError(
        f"'{normal[:60]}' is not an action I know. Use an object's colour, type and number as the observation "
        "names it (e.g. 'go to red ball 1'), or type 'check valid actions'.",
        InvalidReason.UNKNOWN_ACTION,
    )
