"""Reading a reply as AgentBench v0.2's KG task reads it (``Action: f(a, b)`` lines, ``Final Answer: #k``).

- The reply is cut at its first ``Observation:`` and ``\\_`` is read as ``_``.
- ``Final Answer: #k`` (or ``Find Answer: #k``) anywhere wins over any action.
- Otherwise the first line that starts with ``Action`` and holds a colon is the action line (a later one is never
  read); each ``name(`` on it is a candidate call, tried in order until one runs. A call's arguments are the text
  up to the first ``)``, split at commas (so an entity name with a comma cannot be an argument; its id can).
- An argument ``#k`` (also written ``variable #k``) is the k-th variable, an entity's name as listed in the question
  is its id, anything else is passed on as written.

>>> read_reply("Thought: first the relations.\\nAction: get_relations(Gas-generator cycle)").calls
(Call(tool='get_relations', args=('Gas-generator cycle',)),)
>>> read_reply("Final Answer: #3").answer
3
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentgym_text.envs.kg.actions import ARITY, TOOLS  # the same seven tools and arities as v0.2's

__all__ = ["Call", "Reply", "read_reply", "TOOLS", "ARITY"]

_FINAL = re.compile(r"(?:Find|Final) Answer: #(\d+)")
_ACTION_LINE = re.compile(r"Action.*?:")
_NAME = re.compile(r"(\w+)\(")
_SPLIT = re.compile(r"\s*,\s*")


@dataclass(frozen=True)
class Call:
    """A candidate call: ``args`` is None when no argument text follows ``name(`` up to a ``)``."""

    tool: str
    args: tuple[str, ...] | None


@dataclass(frozen=True)
class Reply:
    answer: int | None = None
    calls: tuple[Call, ...] = ()
    action_line: bool = False


def _arguments(line: str, name: str) -> tuple[str, ...] | None:
    found = re.findall(re.escape(name) + r"\((.+?)\)", line)
    if not found:
        return None
    return tuple(_SPLIT.split(found[0]))


def read_reply(text: str) -> Reply:
    """The answer, or the candidate calls of the action line, of one reply."""
    text = text.split("Observation:")[0].replace("\\_", "_")
    final = _FINAL.findall(text)
    if final:
        return Reply(answer=int(final[0]))
    for line in text.split("\n"):
        if _ACTION_LINE.match(line):
            names = _NAME.findall(line)
            return Reply(calls=tuple(Call(name, _arguments(line, name)) for name in names), action_line=True)
    return Reply()
