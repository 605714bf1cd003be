"""Reading one action out of the wrapping an LLM adds around it: ``Action:`` markers, code fences, quotes.

Both the env (``TextEnv.step``) and the agents' reply parser use ``unwrap_action``, so an action is read the
same way whether it comes from a model's raw reply or from a user's loop.

>>> unwrap_action("Action: guess 0123")
'guess 0123'
>>> unwrap_action("```\\ngo to red ball 1\\n```")
'go to red ball 1'
>>> unwrap_action("**Action:** `take apple 1 from countertop 2`.")
'take apple 1 from countertop 2'
>>> unwrap_action("look.")
'look'
"""

from __future__ import annotations

import re

__all__ = ["unwrap_action", "ACTION_MARK"]

ACTION_MARK = re.compile(r"^[\s>*#_`-]*action\s*(?:\d+\s*)?[*_]*\s*[:：]\s*[*_]*\s*", re.IGNORECASE)
"""A leading ``Action:`` marker (also ``Action 2:``, ``**Action:**``, ``> Action:``)."""

_FENCE = re.compile(r"^```[\w+-]*[ \t]*\n?(.*?)\n?```$", re.DOTALL)


def _strip_quotes(text: str) -> str:
    for _ in range(2):
        text = text.strip().strip("*_").strip()
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "`'\"":
            text = text[1:-1]
    return text.strip()


_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ,\-]*")
"""Text with nothing to unwrap (no marker, fence, quote or period): most actions, answered without the passes below."""


def unwrap_action(text: str) -> str:
    """``text`` without a leading Action marker, an enclosing code fence, enclosing quotes or a final period."""
    body = text.strip()
    if _PLAIN.fullmatch(body):
        return body
    fence = _FENCE.match(body)
    if fence:
        body = fence.group(1).strip()
    marked = ACTION_MARK.match(body)
    if marked:
        body = body[marked.end():].strip()
        fence = _FENCE.match(body)
        if fence:
            body = fence.group(1).strip()
    if "\n" not in body:
        if body.endswith(".") and len(body) > 1 and body[-2] in "`'\"*_":
            body = body[:-1]
        body = _strip_quotes(body)
        if body.endswith(".") and not body.endswith("..") and len(body) > 1 and body[-2].isalnum():
            body = body[:-1].rstrip()
    return body
