"""Grading a ``finish`` answer against the golden one.

Rules (each task names its rule in ``params["rule"]``):

- ``text``: case, surrounding quotes/spaces and trailing punctuation are ignored ("Paris." == "paris").
- ``number``: the first number in the answer is compared with tolerance ``max(abs_tol, rel_tol * |golden|)``
  (defaults 0.01 and 0.001; "12.5 °C" and "about 12.50" both read as 12.5).
- ``bool``: yes/no/true/false in any case.
- ``list``: a list, or text split on commas/semicolons/" and "; items compared as text (or numbers when
  the golden items are numbers). ``ordered=False`` (the goal says "in any order") compares as multisets.
- ``done``: operation tasks; any answer is accepted here and the world state is graded instead.

A single-item list is read as its item for scalar rules.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["AnswerRule", "grade_answer", "normalise_text", "read_number"]

_NUMBER = re.compile(r"[-+]?(?:\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?")
_YES = {"yes", "true", "y"}
_NO = {"no", "false", "n"}


@dataclass(frozen=True)
class AnswerRule:
    """How to compare an answer with the golden one (see the module docstring)."""

    kind: str = "text"
    abs_tol: float = 0.01
    rel_tol: float = 0.001
    ordered: bool = False

    def to_params(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> AnswerRule:
        return cls(**params)


def normalise_text(value: Any) -> str:
    """Lower-cased, whitespace-collapsed text without surrounding quotes or trailing punctuation."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = " ".join(str(value).split()).casefold()
    text = text.strip("'\"`“”‘’ ")
    return text.rstrip(".!?;:,").strip()


def read_number(value: Any) -> float | None:
    """The number in ``value`` (a number, or the first number written in text), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    match = _NUMBER.search(str(value))
    if match is None:
        return None
    try:
        return float(match.group(0).replace(",", ""))
    except ValueError:
        return None


def _read_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    text = normalise_text(value)
    first = text.split(" ", 1)[0].strip(",.") if text else ""
    if first in _YES:
        return True
    if first in _NO:
        return False
    return None


def _split_list(value: Any) -> list[Any]:
    if isinstance(value, list):
        return value
    text = str(value).strip().strip("[]")
    parts = re.split(r"\s*(?:,|;|\band\b|\n)\s*", text)
    return [part for part in parts if part.strip("'\" ")]


def _numbers_match(answer: Any, golden: float, rule: AnswerRule) -> bool:
    number = read_number(answer)
    if number is None:
        return False
    return abs(number - golden) <= max(rule.abs_tol, rule.rel_tol * abs(golden))


def _scalar(value: Any) -> Any:
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def grade_answer(answer: Any, golden: Any, rule: AnswerRule) -> bool:
    """True when ``answer`` matches ``golden`` under ``rule``."""
    if rule.kind == "done":
        return True
    if rule.kind == "number":
        return _numbers_match(_scalar(answer), float(golden), rule)
    if rule.kind == "bool":
        read = _read_bool(_scalar(answer))
        return read is not None and read == bool(golden)
    if rule.kind == "list":
        items = _split_list(answer)
        expected = list(golden)
        if len(items) != len(expected):
            return False
        numeric = all(isinstance(item, (int, float)) and not isinstance(item, bool) for item in expected)
        if numeric:
            keys = [read_number(item) for item in items]
            if any(key is None for key in keys):
                return False
            pairs = zip(keys, expected) if rule.ordered else zip(sorted(keys), sorted(float(item) for item in expected))
            return all(abs(a - b) <= max(rule.abs_tol, rule.rel_tol * abs(b)) for a, b in pairs)
        got = [normalise_text(item) for item in items]
        want = [normalise_text(item) for item in expected]
        return got == want if rule.ordered else sorted(got) == sorted(want)
    return normalise_text(_scalar(answer)) == normalise_text(golden)
