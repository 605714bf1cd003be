"""Reading one action out of the wrapping an LLM adds around it (``Action:`` markers, code fences, quotes), and
``ActionError``, what a family raises for action text it cannot carry out.

Both the env (``TextEnv.step``) and the agents' reply parser use ``unwrap_action``, so an action is read the
same way whether it comes from a model's raw reply or from a user's loop. Families whose action format is itself
a marked block (``unwrap_actions = False``) build their own marker regexes from ``marker_pattern``, so they accept
the same decorations.

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

from agentgym_text.core.info import InvalidReason

__all__ = ["unwrap_action", "ACTION_MARK", "ActionError", "marker_pattern"]


class ActionError(ValueError):
    """Action text the env cannot carry out: ``message`` says why (it is the observation), ``reason`` is the
    ``info["invalid_reason"]``. Raised from a family's ``_act`` (or anything it calls), ``TextEnv.step`` turns it
    into ``Outcome.invalid(message, reason)``: the step counts, the state is taken as unchanged.

    >>> error = ActionError("The code has 4 symbols.", InvalidReason.BAD_ARGUMENT)
    >>> str(error), error.reason.value
    ('The code has 4 symbols.', 'bad_argument')
    """

    def __init__(self, message: str, reason: InvalidReason) -> None:
        super().__init__(message)
        self.message = message
        self.reason = InvalidReason(reason)

    def __reduce__(self):  # the default pickles ``args`` only, which lacks the reason
        return type(self), (self.message, self.reason)


def marker_pattern(word: str = "action", *, blanks: str = r"\s") -> str:
    """The regex source of a ``<word>:`` marker with the decorations an LLM adds (``**Action:**``, ``> Action:``,
    ``Action 2:``, a full-width colon) and the blanks after it. ``blanks`` (a character-class body) is what may
    separate the parts: ``" \\t"`` keeps a marker on one line. Compile it with ``re.IGNORECASE``.

    >>> re.match(marker_pattern("act(?:ion)?", blanks=" \\t"), "**Act:** bash", re.IGNORECASE).end()
    9
    """
    b = f"[{blanks}]*"
    return rf"[{blanks}>*#_`-]*{word}{b}(?:\d+{b})?[*_]*{b}[:：]{b}[*_]*{b}"


ACTION_MARK = re.compile("^" + marker_pattern(), re.IGNORECASE)
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
        body = body[marked.end() :].strip()
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
