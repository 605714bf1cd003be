"""The texts an env speaks, as objects: ``text_format=`` picks one of a family's text modes, and core makes it.

A family that speaks more than one text (AgentBoard's words and ours, say) writes one ``TextMode`` subclass per
text, each in a module of its own, and lists the classes in its env's ``modes``, the default first. Its declaration's
``text_formats`` names the same texts in the same order, and its default text's prompt is at the top of
``prompt.json``, each other's under the text's name. The env builds the engine and keeps the state; the mode holds
what differs between the texts: the words of the first observation, of the help answer and of invalid replies, how an
action is read, and the text's own options. The env reaches it as ``self.mode`` and never asks which text it speaks.

``agentboard_fixes`` is such an option, a field of AgentBoard's modes (``AgentBoardText``): True, the default, fixes
AgentBoard's bugs and keeps its words; False restores the bugs, for replays of AgentBoard's own trajectories. Any
other text has nothing to restore, so ``agentboard_fixes=False`` is refused there rather than ignored.

A family that speaks one text has no modes and refuses ``text_format=``; an id that speaks another protocol with
options of its own (AgentBench's) is an env subclass whose ``modes`` hold that protocol.

>>> class Ours(TextMode):
...     name = "clear"
>>> class Theirs(AgentBoardText):
...     pass
>>> make_mode((Theirs, Ours), None, True).name, make_mode((Theirs, Ours), "clear", True).name
('agentboard', 'clear')
>>> make_mode((Theirs, Ours), None, False).fixes
False
>>> make_mode((Theirs, Ours), "prose", True)
Traceback (most recent call last):
ValueError: text_format must be one of 'agentboard', 'clear', not 'prose'
>>> make_mode((Theirs, Ours), "clear", False)
Traceback (most recent call last):
ValueError: agentboard_fixes is an option of the 'agentboard' text format; this env speaks the 'clear' text format
>>> make_mode((), None, True) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

__all__ = ["AGENTBOARD", "TextMode", "AgentBoardText", "make_mode"]

AGENTBOARD = "agentboard"
"""The name of the text in AgentBoard's words, the one ``agentboard_fixes`` applies to."""


class TextMode:
    """One text a family speaks. Subclasses name it (``name``, what ``text_format=`` says) and add the methods their
    env delegates to; a mode is made once per env, with the text's options."""

    name: ClassVar[str] = ""

    @property
    def fixes(self) -> bool:
        """Whether AgentBoard's bugs are fixed: always, outside AgentBoard's words."""
        return True

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class AgentBoardText(TextMode):
    """A text in AgentBoard's words, with its one option: ``fixes`` (``agentboard_fixes=``)."""

    name: ClassVar[str] = AGENTBOARD

    def __init__(self, fixes: bool = True):
        self._fixes = bool(fixes)

    @property
    def fixes(self) -> bool:
        return self._fixes

    def __repr__(self) -> str:
        return f"{type(self).__name__}(fixes={self._fixes})"


def make_mode(
    modes: Sequence[type[TextMode]], text_format: str | None, agentboard_fixes: bool, owner: str = "this env"
) -> TextMode | None:
    """The mode ``text_format`` names among ``modes`` (None: the first; None too when there are no modes), made
    with ``agentboard_fixes`` where it is AgentBoard's. ``ValueError`` naming the accepted texts for any other name,
    for ``text_format`` given to an env of one text, and for ``agentboard_fixes=False`` outside AgentBoard's words."""
    names = [mode.name for mode in modes]
    if not modes:
        if text_format is not None:
            raise ValueError(f"{owner} speaks one text: text_format is not an option (got {text_format!r})")
        chosen = None
    elif text_format is None:
        chosen = modes[0]
    elif text_format in names:
        chosen = modes[names.index(text_format)]
    else:
        raise ValueError(f"text_format must be one of {', '.join(map(repr, names))}, not {text_format!r}")
    if chosen is not None and issubclass(chosen, AgentBoardText):
        return chosen(fixes=agentboard_fixes)
    if not agentboard_fixes:
        spoken = f"the {chosen.name!r} text format" if chosen else "one text"
        raise ValueError(f"agentboard_fixes is an option of the {AGENTBOARD!r} text format; {owner} speaks {spoken}")
    return None if chosen is None else chosen()
