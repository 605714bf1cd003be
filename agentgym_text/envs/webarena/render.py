"""The observation text, as WebArena prints it and AgentBoard wraps it.

``[id] role 'name' prop: value`` lines indented by a tab per level (WebArena's ``parse_accessibility_tree``
rules: properties it ignores are left out, nameless structural nodes are skipped and their children move up,
a StaticText repeating one of the three lines before it is dropped), the tabs line, then AgentBoard's frame
``WINDOWED PAGE:{ ... }`` and ``URL: ...``. WebArena cuts the tree to ``max_obs_length`` tokens (1920) of the
model's tokenizer; with no tokenizer here we cut at ``max_chars`` (default 1920 x 4 characters) on a line
boundary and say so.
"""

from __future__ import annotations

import re

from agentgym_text.envs.webarena.axtree import AXNode, PageState

__all__ = ["render_tree", "render_tabs", "render_page", "IGNORED_PROPERTIES", "DEFAULT_MAX_CHARS"]

IGNORED_PROPERTIES = frozenset(
    {"focusable", "editable", "readonly", "level", "settable", "multiline", "invalid", "url"}
)
"""WebArena's IGNORED_ACTREE_PROPERTIES, plus "url" (newer Chromium puts it on every link; WebArena's Chromium did not)."""
_SKIP_NAMELESS = frozenset(
    {
        "generic",
        "img",
        "list",
        "strong",
        "paragraph",
        "banner",
        "navigation",
        "Section",
        "LabelText",
        "Legend",
        "listitem",
    }
)
DEFAULT_MAX_CHARS = 1920 * 4
_STATIC = re.compile(r"\[\d+\] StaticText '(.*)'$")


def _line(node: AXNode) -> str | None:
    properties = [f"{name}: {value}" for name, value in node.properties if name not in IGNORED_PROPERTIES]
    name = node.name
    if not name.strip() and (
        (not properties and node.role in _SKIP_NAMELESS) or (properties and node.role == "listitem")
    ):
        return None
    if node.role in ("none", "LineBreak", "InlineTextBox"):
        return None
    text = f"[{node.element_id}] {node.role} {name!r}"
    return text + (" " + " ".join(properties) if properties else "")


def render_tree(nodes: list[AXNode]) -> tuple[str, dict[int, AXNode]]:
    """The tree text and the nodes it shows by element id (what actions may address)."""
    lines: list[str] = []
    shown: dict[int, AXNode] = {}
    skipped_depths: list[int] = []  # depths of skipped ancestors still open
    for node in nodes:
        while skipped_depths and skipped_depths[-1] >= node.depth:
            skipped_depths.pop()
        line = _line(node)
        if line is None:
            skipped_depths.append(node.depth)
            continue
        match = _STATIC.search(line)
        if match and any(match.group(1) in previous for previous in lines[-3:]):
            continue
        lines.append("\t" * (node.depth - len(skipped_depths)) + line)
        shown[node.element_id] = node
    return "\n".join(lines), shown


def render_tabs(state: PageState) -> str:
    """WebArena's tab line: ``Tab 0 (current): title | Tab 1: title``."""
    return " | ".join(
        f"Tab {index}{' (current)' if index == state.active else ''}: {title}" for index, title in enumerate(state.tabs)
    )


def render_page(
    state: PageState, max_chars: int = DEFAULT_MAX_CHARS, url: str | None = None
) -> tuple[str, dict[int, AXNode]]:
    """The whole observation (AgentBoard's frame) and the element ids it shows."""
    tree, shown = render_tree(state.nodes)
    if len(tree) > max_chars:
        cut = tree.rfind("\n", 0, max_chars)
        kept = tree[: cut if cut > 0 else max_chars]
        visible = {int(m) for m in re.findall(r"^\t*\[(\d+)\]", kept, re.MULTILINE)}
        shown = {key: value for key, value in shown.items() if key in visible}
        tree = kept + "\n[... the rest of the page is cut; scroll or act on what is shown ...]"
    text = f"WINDOWED PAGE:{{\n{render_tabs(state)}\n\n{tree}\n}}\nURL: {url if url is not None else state.url}"
    return text, shown
