"""The text an env speaks: ``text_format=`` and its ``agentboard_fixes`` option, checked once for every env.

A family that speaks more than one text lists them in ``TextEnv.text_formats`` (the first is the default) and
declares the same tuple in its ``registration.py``; its default format's prompt is at the top of ``prompt.json``,
each other's under the format's name. A family that speaks one text leaves ``text_formats`` empty and refuses
``text_format=``.

``agentboard_fixes`` is an option of the ``"agentboard"`` format (AgentBoard's own words): True, the default,
fixes AgentBoard's bugs and keeps its wording; False restores the bugs, for replays of AgentBoard's own
trajectories. With any other format there is nothing to restore, so ``agentboard_fixes=False`` is refused
rather than ignored.

>>> choose_text_format(("agentboard", "clear"), None, True)
'agentboard'
>>> choose_text_format(("agentboard", "clear"), "prose", True)
Traceback (most recent call last):
ValueError: text_format must be one of 'agentboard', 'clear', not 'prose'
>>> choose_text_format((), None, True) is None
True
"""

from __future__ import annotations

__all__ = ["AGENTBOARD", "choose_text_format"]

AGENTBOARD = "agentboard"
"""The format in AgentBoard's words, the one ``agentboard_fixes`` applies to."""


def choose_text_format(
    accepted: tuple[str, ...], text_format: str | None, agentboard_fixes: bool, owner: str = "this env"
) -> str | None:
    """The format to speak: ``text_format``, or the first of ``accepted`` when it is None (None when the env
    speaks one text). ``ValueError`` naming the accepted formats for anything else, and for
    ``agentboard_fixes=False`` outside the agentboard format."""
    if not accepted:
        if text_format is not None:
            raise ValueError(f"{owner} speaks one text: text_format is not an option (got {text_format!r})")
        chosen = None
    elif text_format is None:
        chosen = accepted[0]
    elif text_format in accepted:
        chosen = text_format
    else:
        raise ValueError(f"text_format must be one of {', '.join(map(repr, accepted))}, not {text_format!r}")
    if not agentboard_fixes and chosen != AGENTBOARD:
        spoken = f"the {chosen!r} text format" if chosen else "one text"
        raise ValueError(f"agentboard_fixes is an option of the {AGENTBOARD!r} text format; {owner} speaks {spoken}")
    return chosen
