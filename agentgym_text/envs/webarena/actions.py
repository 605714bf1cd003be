"""WebArena's action grammar, read from text: ``click [12]``, ``type [12] [text] [0|1]``, ``stop [answer]``...

Accepted wrappings: the bare action; AgentBoard's ``@click [12]@``; WebArena's own triple-backtick form, also at
the end of a reasoning sentence ("... the next action I will perform is ```click [12]```"). The last wrapped
action in the text wins, as in both parsers.

>>> parse_action("@type [20] [blue shoes] [0]@")
Action(kind='type', element_id=20, text='blue shoes', enter=False, key='', index=0, url='', answer='')
>>> parse_action("scroll [direction=down]").kind, parse_action("stop [42]").answer
('scroll', '42')
>>> try:
...     parse_action("click [abc]")
... except ActionError as error:
...     print(error)
Invalid action: click needs a numeric element id from the page, e.g. 'click [12]'.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import InvalidReason

__all__ = ["Action", "parse_action", "GRAMMAR", "KINDS", "normalise_keys"]

GRAMMAR = (
    "click [id], type [id] [text] [0|1] (Enter is pressed unless the last argument is 0), hover [id], "
    "press [key_comb], scroll [up|down], new_tab, tab_focus [tab index], close_tab, goto [url], go_back, "
    "go_forward, stop [answer]"
)
KINDS = (
    "click",
    "type",
    "hover",
    "press",
    "scroll",
    "new_tab",
    "tab_focus",
    "close_tab",
    "goto",
    "go_back",
    "go_forward",
    "stop",
)
_NO_ARGUMENT = {"new_tab", "close_tab", "go_back", "go_forward"}
_AT_WRAPPED = re.compile(r"@([^@]+)@")
_FENCED = re.compile(r"```(?:[a-z]*\n)?(.*?)```", re.DOTALL)
_KEY_NAMES = {
    "ctrl": "Control",
    "control": "Control",
    "alt": "Alt",
    "shift": "Shift",
    "meta": "Meta",
    "cmd": "Meta",
    "enter": "Enter",
    "return": "Enter",
    "tab": "Tab",
    "esc": "Escape",
    "escape": "Escape",
    "space": "Space",
    "backspace": "Backspace",
    "delete": "Delete",
    "del": "Delete",
    "home": "Home",
    "end": "End",
    "pageup": "PageUp",
    "pagedown": "PageDown",
    "up": "ArrowUp",
    "down": "ArrowDown",
    "left": "ArrowLeft",
    "right": "ArrowRight",
    "arrowup": "ArrowUp",
    "arrowdown": "ArrowDown",
    "arrowleft": "ArrowLeft",
    "arrowright": "ArrowRight",
    "insert": "Insert",
}


@dataclass(frozen=True)
class Action:
    kind: str
    element_id: int = 0
    text: str = ""
    enter: bool = True
    key: str = ""
    index: int = 0
    url: str = ""
    answer: str = ""


def _unreadable(message: str) -> ActionError:
    """The text is not one action of the grammar; ``message`` says what is wrong and what would be right."""
    return ActionError(f"Invalid action: {message}", InvalidReason.UNPARSABLE)


def _body(text: str) -> str:
    text = text.strip()
    wrapped = _AT_WRAPPED.findall(text) or _FENCED.findall(text)
    if wrapped:
        return wrapped[-1].strip()
    return text


def normalise_keys(combination: str) -> str:
    """``ctrl+a`` -> ``Control+a``; raises ActionError for an empty or unknown key."""
    keys = []
    for part in combination.replace(" ", "").split("+"):
        if not part:
            raise _unreadable(
                f"'{combination}' is not a key combination; try e.g. 'press [Enter]' or 'press [Control+a]'."
            )
        named = _KEY_NAMES.get(part.lower())
        if named:
            keys.append(named)
        elif len(part) == 1 or re.fullmatch(r"F([1-9]|1[0-2])", part):
            keys.append(part)
        else:
            raise _unreadable(
                f"unknown key '{part}' in press [{combination}]; use names such as Enter, Tab, "
                f"Escape, ArrowDown, Control+a."
            )
    return "+".join(keys)


def _element(kind: str, argument: str) -> int:
    if not re.fullmatch(r"\d{1,9}", argument.strip()):
        raise _unreadable(f"{kind} needs a numeric element id from the page, e.g. '{kind} [12]'.")
    return int(argument)


def parse_action(text: str) -> Action:
    """The action ``text`` names, or ActionError saying why it is not one."""
    body = _body(text)
    match = re.match(r"([A-Za-z_]+)\s*(.*)$", body, re.DOTALL)
    if not match:
        raise _unreadable(f"cannot read an action in '{body[:80]}'. Actions: {GRAMMAR}.")
    kind, rest = match.group(1).lower(), match.group(2).strip()
    if kind not in KINDS:
        raise _unreadable(f"'{match.group(1)}' is not an action. Actions: {GRAMMAR}.")
    if kind in _NO_ARGUMENT:
        if rest:
            raise _unreadable(f"{kind} takes no argument; send just '{kind}'.")
        return Action(kind)
    if kind == "stop":
        if not rest:
            return Action(kind, answer="")
        if not (rest.startswith("[") and rest.endswith("]")):
            raise _unreadable("write the answer in brackets: 'stop [answer]' ('stop [N/A]' if there is none).")
        return Action(kind, answer=rest[1:-1].strip())
    if kind == "type":
        found = re.fullmatch(r"\[\s*(\S*?)\s*\]\s*\[(.*)\]\s*\[\s*([01])\s*\]", rest, re.DOTALL) or re.fullmatch(
            r"\[\s*(\S*?)\s*\]\s*\[(.*)\]", rest, re.DOTALL
        )
        if not found:
            raise _unreadable(
                "type needs an element id and the text: 'type [12] [text to type] [1]' (last "
                "argument 0 = do not press Enter)."
            )
        enter = found.group(3) != "0" if found.lastindex == 3 else True
        return Action(kind, element_id=_element(kind, found.group(1)), text=found.group(2), enter=enter)
    found = re.fullmatch(r"\[(.*)\]", rest, re.DOTALL)
    if not found:
        example = {
            "click": "click [12]",
            "hover": "hover [12]",
            "press": "press [Enter]",
            "scroll": "scroll [down]",
            "tab_focus": "tab_focus [0]",
            "goto": "goto [http://...]",
        }[kind]
        raise _unreadable(f"{kind} needs its argument in brackets, e.g. '{example}'.")
    argument = found.group(1).strip()
    if kind in ("click", "hover"):
        return Action(kind, element_id=_element(kind, argument))
    if kind == "press":
        return Action(kind, key=normalise_keys(argument))
    if kind == "scroll":
        direction = argument.lower().removeprefix("direction=").strip("'\" ")
        if direction not in ("up", "down"):
            raise _unreadable("scroll takes 'up' or 'down': 'scroll [down]'.")
        return Action(kind, text=direction)
    if kind == "tab_focus":
        if not re.fullmatch(r"\d{1,3}", argument):
            raise _unreadable("tab_focus needs a tab number from the tab line, e.g. 'tab_focus [0]'.")
        return Action(kind, index=int(argument))
    if not argument:
        raise _unreadable("goto needs a URL: 'goto [http://...]'.")
    return Action(kind, url=argument)
