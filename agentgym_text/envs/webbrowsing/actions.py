"""Reading an answer: an element letter, an operation (CLICK, TYPE, SELECT) and, for TYPE and SELECT, a value.

Two spellings are read. Mind2Web's lines (anywhere in the reply, other lines such as a ``Thought:`` ignored)::

    Answer: C.
    Action: TYPE
    Value: New York

and one line, ``C. TYPE New York`` (also ``C CLICK``, ``C) SELECT: Pickup``, after an optional ``Action:``; the
last such line of the reply counts). ``A`` is "None of the above" and
needs no operation. Anything else is refused with a message (``ActionError``), never an exception of another kind.

>>> parse_answer("Thought: the search box.\\nAnswer: C.\\nAction: TYPE\\nValue: New York", 4)
Answer(letter='C', op='TYPE', value='New York')
>>> parse_answer("Thought: the orders link.\\nAction: B. click", 4)
Answer(letter='B', op='CLICK', value='')
>>> parse_answer("A.", 4)
Answer(letter='A', op='', value='')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentgym_text.core.actions import ACTION_MARK, ActionError, marker_pattern
from agentgym_text.core.info import InvalidReason

__all__ = ["Answer", "parse_answer", "OPERATIONS", "format_answer"]

OPERATIONS = ("CLICK", "TYPE", "SELECT")
_OPS = "|".join(OPERATIONS)
_ANSWER_LINE = re.compile(marker_pattern("answer", blanks=" \t") + r"\(?([A-Za-z])\)?\s*[.)]?\s*$", re.I | re.M)
_ACTION_LINE = re.compile(marker_pattern("action", blanks=" \t") + rf"({_OPS})\s*\.?\s*$", re.I | re.M)
_VALUE_LINE = re.compile(marker_pattern("value", blanks=" \t") + r"(.*?)\s*$", re.I | re.M)
_ONE_LINE = re.compile(rf"^\(?([A-Z])\)?(?:\s*[.):,]\s*|\s+)({_OPS})\b\s*[:,]?\s*(.*?)\s*$", re.I)
_NONE_OF_THE_ABOVE = re.compile(r"^\(?A\)?\s*[.)]?\s*(?:none of the above\.?)?$", re.I)


@dataclass(frozen=True)
class Answer:
    letter: str
    op: str
    value: str


def format_answer(letter: str, op: str = "", value: str = "") -> str:
    """An answer in Mind2Web's lines (what the expert sends)."""
    lines = [f"Answer: {letter}."]
    if op:
        lines.append(f"Action: {op}")
    if op and op != "CLICK":
        lines.append(f"Value: {value}")
    return "\n".join(lines)


def _read(text: str) -> tuple[str, str, str]:
    letter_match = _ANSWER_LINE.search(text)
    if letter_match:
        action = _ACTION_LINE.search(text)
        value = _VALUE_LINE.search(text)
        return (
            letter_match.group(1).upper(),
            action.group(1).upper() if action else "",
            value.group(1) if value else "",
        )
    for line in reversed(text.splitlines()):  # the last line that is an answer, after an optional Action: mark
        line = ACTION_MARK.sub("", line.strip(), count=1)
        if _NONE_OF_THE_ABOVE.match(line):
            return "A", "", ""
        one = _ONE_LINE.match(line)
        if one:
            return one.group(1).upper(), one.group(2).upper(), one.group(3)
    raise ActionError(
        "Answer with a choice's letter, an operation and, to type or select, a value: 'Answer: C.' then "
        "'Action: TYPE' then 'Value: New York' on their own lines, or 'C. TYPE New York' on one line "
        "('A.' for None of the above).",
        InvalidReason.UNPARSABLE,
    )


def parse_answer(text: str, choices: int, refuse_incomplete: bool = True) -> Answer:
    """The answer in ``text`` to a question with ``choices`` element choices after A (letters B onwards).
    ``refuse_incomplete=False`` takes what is there, as AgentBench v0.2's Mind2Web task scores its reading: A or a
    letter past the choices is no element and no operation, a letter without an operation or a value has none."""
    letter, op, value = _read(text.strip())
    last = chr(ord("A") + choices)
    if not refuse_incomplete:
        return Answer(letter, op, value.strip()) if "B" <= letter <= last else Answer("A", "", "")
    if not "A" <= letter <= last:
        raise ActionError(f"There is no choice {letter}: the choices are A to {last}.", InvalidReason.UNKNOWN_OBJECT)
    if letter == "A":
        return Answer("A", op, value.strip())
    if not op:
        raise ActionError(
            f"Say what to do with {letter}: CLICK, TYPE or SELECT (e.g. 'Action: CLICK').",
            InvalidReason.BAD_ARGUMENT,
        )
    if op in ("TYPE", "SELECT") and not value.strip():
        raise ActionError(
            f"{op} needs a value: the text to type or the option to select (e.g. 'Value: New York').",
            InvalidReason.BAD_ARGUMENT,
        )
    return Answer(letter, op, value.strip())
