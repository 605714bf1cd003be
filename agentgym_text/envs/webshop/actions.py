"""Reading ``search[query]`` / ``click[element]`` out of an agent's text, as AgentBoard's harness does.

AgentBoard keeps the text from the first ``click[`` or ``search[`` on and takes what lies between that bracket
and a closing ``]`` at the end. ``reset[]`` (AgentBoard's first, harness-issued action) is read too.

>>> parse_action("Action: click[Buy Now]")
('click', 'Buy Now')
>>> parse_action("I think I should search[red shoes]  ")
('search', 'red shoes')
>>> parse_action("buy it") is None
True
"""

from __future__ import annotations

import re

__all__ = ["parse_action", "element_key"]

_START = re.compile(r"(click|search|reset)\s*\[", re.IGNORECASE)


def parse_action(text: str) -> tuple[str, str] | None:
    """``(kind, argument)`` with kind in click/search/reset, or None when the text holds no such action."""
    match = _START.search(text)
    if match is None:
        return None
    rest = text[match.end() :].rstrip().rstrip(".")
    if not rest.endswith("]"):
        return None
    return match.group(1).lower(), rest[:-1].strip()


def element_key(label: str) -> str:
    """How clicks are compared with page elements: case and spaces ignored ("< prev" == "<Prev")."""
    return "".join(label.lower().split())
