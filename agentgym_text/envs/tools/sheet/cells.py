"""A1 positions and cell values: "B3" <-> (row 3, column 2), numbers written in one canonical way."""

from __future__ import annotations

import math
import re
from typing import Any

__all__ = ["PositionError", "parse_position", "a1", "column_letters", "format_value", "read_numeric"]

_A1 = re.compile(r"^\s*([A-Za-z]{1,3})\s*([1-9][0-9]{0,5})\s*$")
_NUMERIC = re.compile(r"^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$")
MAX_ROWS = 1000
MAX_COLS = 52


class PositionError(ValueError):
    """Not an A1 position inside the grid."""


def column_letters(col: int) -> str:
    letters = ""
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def a1(row: int, col: int) -> str:
    """(3, 2) -> "B3" (both 1-based)."""
    return f"{column_letters(col)}{row}"


def parse_position(text: str) -> tuple[int, int]:
    """ "B3" -> (3, 2); raise ``PositionError`` for anything else or outside 1000 rows x 52 columns."""
    match = _A1.match(text)
    if match is None:
        raise PositionError(f"{text[:20]!r} is not a cell position like 'B3'")
    col = 0
    for letter in match.group(1).upper():
        col = col * 26 + ord(letter) - 64
    row = int(match.group(2))
    if row > MAX_ROWS or col > MAX_COLS:
        raise PositionError(f"{text[:20]!r} is outside the sheet ({MAX_ROWS} rows, {MAX_COLS} columns)")
    return row, col


def format_value(value: Any) -> str:
    """The stored text of a value: numbers (and numeric text) canonical ("12.50" -> "12.5"), else str."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        number = float(value)
        if not math.isfinite(number):
            raise ValueError("not a finite number")
        if number.is_integer() and abs(number) < 1e15:
            return str(int(number))
        return f"{round(number, 6):.6f}".rstrip("0").rstrip(".")
    text = "" if value is None else str(value)
    if _NUMERIC.match(text):
        try:
            return format_value(float(text))
        except ValueError:
            return text
    return text


def read_numeric(text: str) -> float | None:
    """The number a cell holds, or None for text and empty cells."""
    if _NUMERIC.match(text):
        number = float(text)
        return number if math.isfinite(number) else None
    return None
