"""Reading AgentBench's KG actions: one tool call such as ``get_neighbors(#0, film.film.directed_by)``, or
``Final Answer: #n``. A leading ``Thought: ...`` and an ``Action:`` marker are allowed, as AgentBench's replies
have them.

>>> parse_action("Thought: find the director.\\nAction: get_neighbors(The Silent Harbor, film.film.directed_by)")
Call(tool='get_neighbors', args=('The Silent Harbor', 'film.film.directed_by'))
>>> parse_action("Final Answer: #2")
Answer(variable=2)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentgym_text.core.actions import ActionError, marker_pattern
from agentgym_text.core.info import InvalidReason

__all__ = ["Call", "Answer", "parse_action", "TOOLS", "ARITY", "format_call"]

ARITY = {
    "get_relations": 1,
    "get_neighbors": 2,
    "intersection": 2,
    "get_attributes": 1,
    "argmax": 2,
    "argmin": 2,
    "count": 1,
}
TOOLS = tuple(ARITY)
_ANSWER = re.compile(r"final\s+answer\s*[:：]\s*(.*)", re.IGNORECASE)
_VARIABLE = re.compile(r"#\s*(\d+)$")
_ACTION_MARK = re.compile(marker_pattern(), re.IGNORECASE)
"""Core's ``Action:`` marker, searched anywhere rather than at the start: AgentBench's KG replies write it after a
``Thought: ...``, on the same line or the next, and the call after the marker is the one that counts."""
_CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*)\s*\(([^()\n]*)\)")


@dataclass(frozen=True)
class Call:
    tool: str
    args: tuple[str, ...]


@dataclass(frozen=True)
class Answer:
    variable: int


def format_call(tool: str, *args: str) -> str:
    return f"{tool}({', '.join(args)})"


def _clean(arg: str) -> str:
    arg = arg.strip()
    if len(arg) >= 2 and arg[0] == arg[-1] and arg[0] in "'\"`":
        arg = arg[1:-1].strip()
    return arg


def parse_action(text: str) -> Call | Answer:
    """The tool call or answer in ``text``; raises ``ActionError`` when there is none."""
    final = _ANSWER.search(text)
    if final:
        target = final.group(1).strip().strip("*`'\".").strip()
        match = _VARIABLE.match(target)
        if not match:
            raise ActionError("Answer with a variable, e.g. 'Final Answer: #3'.", InvalidReason.BAD_ARGUMENT)
        return Answer(int(match.group(1)))
    marker = _ACTION_MARK.search(text)
    body = text[marker.end() :] if marker else text
    call = _CALL.search(body)
    if call is None:
        raise ActionError(
            "No tool call found. Call one tool, e.g. 'Action: get_relations(#0)', or answer with "
            "'Final Answer: #n'. Tools: " + ", ".join(TOOLS) + ".",
            InvalidReason.UNPARSABLE,
        )
    tool = call.group(1).strip().lower()
    if tool not in ARITY:
        raise ActionError(
            f"Unknown tool '{call.group(1)[:40]}'. The tools are: {', '.join(TOOLS)}.", InvalidReason.UNKNOWN_ACTION
        )
    raw = call.group(2)
    if ARITY[tool] == 1:
        args = (_clean(raw),)
    elif tool == "intersection":
        parts = raw.split(",")
        if len(parts) != 2:
            raise ActionError(
                "intersection takes two variables, e.g. intersection(#0, #1).", InvalidReason.BAD_ARGUMENT
            )
        args = (_clean(parts[0]), _clean(parts[1]))
    else:
        head, comma, tail = raw.rpartition(",")
        if not comma:
            second = "relation" if tool == "get_neighbors" else "attribute"
            raise ActionError(f"{tool} takes two arguments, e.g. {tool}(#0, <{second}>).", InvalidReason.BAD_ARGUMENT)
        args = (_clean(head), _clean(tail))
    if any(not arg for arg in args):
        raise ActionError(f"{tool} got an empty argument.", InvalidReason.BAD_ARGUMENT)
    return Call(tool, args)
