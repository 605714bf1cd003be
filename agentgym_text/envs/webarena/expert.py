"""The expert: the task's gold steps, each resolved against the page shown now (never a stored element id).

A gold step names its element by role and accessible name (``{"action": "click", "role": "link", "name":
"Orders"}``, ``"nth": k`` for the k-th such element of the page, from 0); the expert finds that element among the ids of the current observation, scrolls towards it when
the viewport cut it away, and prints the WebArena action. It follows the agent: when the agent takes an action
other than the one proposed, the expert goes back to the task's start page and plays the gold steps again
(steps that change a site — a post, an edit — are then repeated; the evaluators read the final state).
"""

from __future__ import annotations

from typing import Any

from agentgym_text.envs.webarena.actions import Action
from agentgym_text.envs.webarena.axtree import AXNode, PageState
from agentgym_text.envs.webarena.urls import UrlMap

__all__ = ["Expert", "resolve_step"]

_TEXT_ROLES = ("searchbox", "textbox", "combobox", "spinbutton")
_MAX_SCROLLS = 25


def _matches(node_role: str, node_name: str, role: str, name: str, loose: bool) -> bool:
    same_role = node_role == role or (loose and role in _TEXT_ROLES and node_role in _TEXT_ROLES)
    same_name = node_name == name or (loose and node_name.strip().lower() == name.strip().lower())
    return same_role and same_name


def _locate(state: PageState, shown: dict[int, AXNode], role: str, name: str, nth: int) -> tuple[int | None, int]:
    """(element id to act on, or None; else which way to scroll: +1 down, -1 up, 0 nowhere on the page).

    ``nth`` counts occurrences of the role and name over the whole page in document order (from 0)."""
    for loose in (False, True):
        found = [
            (eid, side)
            for node_role, node_name, eid, side in state.outline
            if _matches(node_role, node_name, role, name, loose)
        ]
        if len(found) > nth:
            eid, side = found[nth]
            if side == 0 and eid in shown:
                return eid, 0
            return None, side or 1  # in the viewport but cut from the text: further down
    return None, 0


def resolve_step(
    step: dict[str, Any], state: PageState, shown: dict[int, AXNode], urls: UrlMap
) -> tuple[str, bool] | None:
    """(action text, whether it performs the step) for one gold step on the current page; False = a scroll
    towards the element. None when the element is nowhere on the page."""
    kind = step["action"]
    if kind in ("click", "hover", "type", "select"):
        role, name = step.get("role", ""), step.get("name", "")
        eid, side = _locate(state, shown, role, name, int(step.get("nth") or 0))
        if eid is None:
            if not side:
                return None
            return ("scroll [down]" if side > 0 else "scroll [up]"), False
        if kind == "type":
            return f"type [{eid}] [{step.get('text', '')}] [{int(step.get('enter', 1))}]", True
        if kind == "select":
            option = step.get("option", step.get("text", step.get("value", "")))
            return f"type [{eid}] [{option}] [{int(step.get('enter', 0))}]", True
        return f"{kind} [{eid}]", True
    if kind == "goto":
        return f"goto [{urls.fill(step['url'])}]", True
    if kind == "scroll":
        return f"scroll [{step.get('direction', 'down')}]", True
    if kind == "stop":
        return f"stop [{step.get('answer', '')}]", True
    if kind == "press":
        return f"press [{step['key']}]", True
    if kind == "tab_focus":
        return f"tab_focus [{int(step.get('index', 0))}]", True
    if kind in ("go_back", "go_forward", "new_tab", "close_tab"):
        return kind, True
    raise ValueError(f"unknown gold step {step!r}")


class Expert:
    """Walks the gold steps along an episode (see the module docstring)."""

    def __init__(self) -> None:
        self.start([])

    def start(self, gold: list[dict[str, Any]], start_url: str = "") -> None:
        self.gold = list(gold)
        self.start_url = start_url.split(" |AND| ")[0].strip()
        self.index = 0
        self.scrolls = 0
        self.proposal: tuple[str, bool] | None = None
        self.restart = False

    def saw(self, text: str, parsed: Action) -> None:
        """The env is about to carry out ``text``: advance if it is what the expert proposed, else re-plan."""
        proposal, self.proposal = self.proposal, None
        if proposal is not None and " ".join(text.split()) == " ".join(proposal[0].split()):
            if proposal[1]:
                self.index += 1
                self.scrolls = 0
            else:
                self.scrolls += 1
            if self.restart and proposal[0].startswith("goto"):
                self.restart = False
            return
        if parsed.kind in ("scroll",) and not self.restart:
            return  # a scroll does not change where the gold path stands
        self.index, self.scrolls, self.restart = 0, 0, bool(self.start_url)

    def next_action(self, state: PageState, shown: dict[int, AXNode], urls: UrlMap) -> str | None:
        if self.restart:
            action = f"goto [{urls.fill(self.start_url)}]"
            self.proposal = (action, False)
            return action
        if self.index >= len(self.gold) or self.scrolls > _MAX_SCROLLS:
            return None
        resolved = resolve_step(self.gold[self.index], state, shown, urls)
        self.proposal = resolved
        return None if resolved is None else resolved[0]
