"""Reading Sudoku actions out of text: placements ("put 5 at row 3 column 7", "r3c7=5") and clears."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Placement", "parse_action"]


@dataclass(frozen=True)
class Placement:
    """Put ``digit`` at (row, column), 1-based; ``digit`` None clears the cell."""

    row: int
    column: int
    digit: int | None


_N = r"(\d+)"
_CELL = rf"row\s*{_N}\s*(?:,|and)?\s*col(?:umn)?\s*{_N}"
_PATTERNS = [
    (re.compile(rf"^(?:put|place|write|set|fill|insert|enter)?\s*{_N}\s*(?:at|in|into|on|to)?\s*{_CELL}$"), "dcell"),
    (re.compile(rf"^(?:put|place|write|set|fill)?\s*{_CELL}\s*(?:=|:|to|is|with|as)?\s*{_N}$"), "celld"),
    (re.compile(rf"^r\s*{_N}\s*c\s*{_N}\s*(?:=|:|is|to)?\s*{_N}$"), "celld"),
    (re.compile(rf"^(?:put|place|write)?\s*{_N}\s*(?:at|in|on)?\s*\(\s*{_N}\s*,\s*{_N}\s*\)$"), "dcell"),
    (re.compile(rf"^(?:clear|erase|remove|delete|empty)\s*(?:cell\s*)?(?:at\s*)?{_CELL}$"), "clear"),
    (re.compile(rf"^(?:clear|erase|remove|delete|empty)\s*(?:cell\s*)?r\s*{_N}\s*c\s*{_N}$"), "clear"),
]


def parse_action(text: str) -> Placement | None:
    """The placement the text asks for, or None if it does not read as a Sudoku action.

    >>> parse_action("Put 5 at row 3, column 7")
    Placement(row=3, column=7, digit=5)
    >>> parse_action("r3c7=5"), parse_action("clear row 1 col 2")
    (Placement(row=3, column=7, digit=5), Placement(row=1, column=2, digit=None))
    """
    cleaned = " ".join(text.lower().replace("'", " ").replace('"', " ").split()).rstrip(".!")
    for pattern, shape in _PATTERNS:
        match = pattern.match(cleaned)
        if not match:
            continue
        numbers = [int(group) for group in match.groups()]
        if shape == "dcell":
            return Placement(row=numbers[1], column=numbers[2], digit=numbers[0])
        if shape == "celld":
            return Placement(row=numbers[0], column=numbers[1], digit=numbers[2])
        return Placement(row=numbers[0], column=numbers[1], digit=None)
    return None
