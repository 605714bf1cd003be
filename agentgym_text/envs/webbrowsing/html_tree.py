"""Cleaned HTML as Mind2Web stores it (``cleaned_html``: elements carrying ``backend_node_id`` and a few salient
attributes) read into a small tree, and the tree printed the way Mind2Web's multiple-choice format shows a page
(what AgentBench v0.2's Mind2Web task shows for the same page and candidates, byte for byte:
``tests/test_agentbench_protocol_mind2web.py``).

Reading uses the standard library's ``html.parser`` (no lxml): a ``<text>`` element, which Mind2Web's files use
for text nodes, is read as plain text, and plain text between tags (as ``recorder.py`` writes it) is taken for
one. Printing follows Mind2Web's published rules (our implementation):

- the page is cut down to the candidates, their ancestors, their descendants (5 levels below the children; the
  first 50 elements and texts in page order) and up to 3 element siblings on each side; an element with no
  attribute but ``backend_node_id``, no text of its own and at most one child element is replaced by its child;
- each element prints as ``<tag id=K meta>`` + its children, with nothing between them + ``</tag>`` (an empty one
  as ``<tag id=K meta />``, or ``<tag/>`` with neither): ``id=K`` only on the candidates, numbered 0, 1, ... in page
  order; ``meta`` is the element's salient attribute values in lower case (a value's words shorter than 15
  characters, at most 5 per attribute, 20 in all; URLs and empty words dropped); a text prints its first 20 words,
  a double quote in it as a blank; runs of blanks print as one;
- a candidate's choice text is the first 10 words of its own print.

>>> tree = parse_html('<html backend_node_id="1"><body backend_node_id="2"><div backend_node_id="3">'
...     '<a backend_node_id="4" aria_label="Orders">Orders</a><input backend_node_id="5" type="search" '
...     'placeholder="Search"/></div></body></html>')
>>> text, choices = render_page(tree, ["5", "4"])
>>> text
'<html><div><a id=0 orders>Orders</a><input id=1 search /></div></html>'
>>> choices
[('4', '<a id=0 orders>Orders</a>'), ('5', '<input id=1 search />')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

__all__ = ["Node", "parse_html", "render_page", "node_text", "META_ATTRIBUTES"]

META_ATTRIBUTES = (
    "role",
    "aria_role",
    "type",
    "alt",
    "aria_description",
    "aria_label",
    "label",
    "title",
    "name",
    "text_value",
    "value",
    "placeholder",
    "input_checked",
    "input_value",
    "option_selected",
    "class",
)
"""The attributes whose values describe an element, in the order Mind2Web prints them."""
_EMPTY_VALUES = {"hidden", "none", "presentation", "null", "undefined"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_DESCENDANT_DEPTH = 5
_DESCENDANT_LIMIT = 50
_SIBLINGS = 3
_META_WORDS = 20
_VALUE_WORDS = 5
_WORD_LIMIT = 15
_CHOICE_WORDS = 10


@dataclass(eq=False)
class Node:
    """An element: its tag, attributes, and children (``Node`` or text)."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)
    parent: Node | None = None

    @property
    def uid(self) -> str:
        return self.attrs.get("backend_node_id", "")

    def elements(self) -> list[Node]:
        return [child for child in self.children if isinstance(child, Node)]

    def walk(self) -> list[Node]:
        """This element and every element below it, in page order."""
        found: list[Node] = []
        stack: list[Node] = [self]
        while stack:
            node = stack.pop()
            found.append(node)
            stack.extend(reversed(node.elements()))
        return found

    def ancestors(self) -> list[Node]:
        chain, node = [], self.parent
        while node is not None:
            chain.append(node)
            node = node.parent
        return chain


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document")
        self.stack = [self.root]

    def _open(self, tag: str, attrs: list[tuple[str, str | None]]) -> Node:
        parent = self.stack[-1]
        node = Node(tag, {name: value or "" for name, value in attrs}, parent=parent)
        parent.children.append(node)
        return node

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = self._open(tag, attrs)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._open(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text:
            self.stack[-1].children.append(text)


def _fold_text_elements(node: Node) -> None:
    """Mind2Web's ``<text>`` elements become plain text of their parent."""
    folded: list[Node | str] = []
    for child in node.children:
        if isinstance(child, Node) and child.tag == "text":
            folded.extend(part for part in child.children if isinstance(part, str))
        else:
            if isinstance(child, Node):
                _fold_text_elements(child)
            folded.append(child)
    node.children = folded


def parse_html(text: str) -> Node:
    """The top element of ``text`` (a document node when there are several)."""
    reader = _Reader()
    reader.feed(text)
    reader.close()
    _fold_text_elements(reader.root)
    tops = reader.root.elements()
    if len(tops) == 1 and not any(isinstance(child, str) for child in reader.root.children):
        tops[0].parent = None
        return tops[0]
    return reader.root


def node_text(node: Node, limit: int = 60) -> str:
    """The words of the element's own attributes and text below it (at most ``limit`` words), for ranking."""
    words: list[str] = []
    for name in META_ATTRIBUTES:
        if node.attrs.get(name):
            words.extend(node.attrs[name].split())
    stack: list[Node | str] = [node]
    while stack and len(words) < limit:
        item = stack.pop()
        if isinstance(item, str):
            words.extend(item.split())
        else:
            stack.extend(reversed(item.children))
    return " ".join(words[:limit])


def _meta(node: Node) -> str:
    seen: list[str] = []
    for name in META_ATTRIBUTES:
        value = node.attrs.get(name, "").lower()
        if not value or value in _EMPTY_VALUES or value.startswith("http"):
            continue
        kept = " ".join([word for word in value.split() if len(word) < _WORD_LIMIT][:_VALUE_WORDS])
        if kept and kept not in seen:
            seen.append(kept)
    return " ".join(" ".join(seen).split()[:_META_WORDS])


def _descendants(node: Node, depth: int) -> list[Node | str]:
    """What lies below ``node`` down to ``depth`` more levels, in page order; a text counts as one item (it is a
    ``<text>`` element in Mind2Web's files)."""
    found: list[Node | str] = []
    for child in node.children:
        found.append(child)
        if isinstance(child, Node) and depth > 0:
            found.extend(_descendants(child, depth - 1))
    return found


def _kept_uids(top: Node, candidates: list[Node]) -> set[int]:
    kept: set[int] = set()
    for node in candidates:
        kept.add(id(node))
        kept.update(id(ancestor) for ancestor in node.ancestors())
        below = _descendants(node, _DESCENDANT_DEPTH)[:_DESCENDANT_LIMIT]
        kept.update(id(item) for item in below if isinstance(item, Node))
        if node.parent is not None:
            siblings = node.parent.elements()
            at = siblings.index(node)
            kept.update(id(item) for item in siblings[max(0, at - _SIBLINGS) : at + _SIBLINGS + 1])
    return kept


def _order_key(top: Node):
    order = {id(node): index for index, node in enumerate(top.walk())}
    return lambda node: order[id(node)]


def _has_attributes(node: Node) -> bool:
    return any(name != "backend_node_id" for name in node.attrs)


@dataclass(eq=False)
class _Out:
    tag: str
    meta: str
    number: int | None
    uid: str
    children: list[_Out | str]


def _prune(node: Node, kept: set[int], candidate_ids: set[int], numbers: dict[int, int]) -> list[_Out | str]:
    """The printable copy of ``node`` (a list: an unwrapped element gives its children)."""
    if id(node) not in kept:
        return []
    children: list[_Out | str] = []
    for child in node.children:
        if isinstance(child, str):
            children.append(" ".join(child.split()[:_META_WORDS]).replace('"', " "))
        else:
            children.extend(_prune(child, kept, candidate_ids, numbers))
    is_candidate = id(node) in candidate_ids
    meta = _meta(node)
    number = numbers.get(id(node)) if is_candidate else None
    has_text = any(isinstance(child, str) for child in children)
    elements = [child for child in children if isinstance(child, _Out)]
    if (
        not is_candidate
        and not _has_attributes(node)
        and not has_text
        and len(elements) <= 1
        and node.parent is not None
    ):
        return children
    return [_Out(node.tag, meta, number, node.uid, children)]


def _print(out: _Out | str) -> str:
    if isinstance(out, str):
        return out
    head = (f" id={out.number}" if out.number is not None else "") + (f" {out.meta}" if out.meta else "")
    if not out.children:
        return f"<{out.tag}{head} />" if head else f"<{out.tag}/>"
    return f"<{out.tag}{head}>" + "".join(_print(child) for child in out.children) + f"</{out.tag}>"


def _tidy(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def render_page(top: Node, candidate_uids: list[str]) -> tuple[str, list[tuple[str, str]]]:
    """The cut-down page around the candidates, and the choices ``[(backend_node_id, text)]`` in page order."""
    by_uid = {node.uid: node for node in top.walk() if node.uid}
    candidates = [by_uid[uid] for uid in candidate_uids if uid in by_uid]
    candidates.sort(key=_order_key(top))
    numbers = {id(node): index for index, node in enumerate(candidates)}
    kept = _kept_uids(top, candidates)
    printed = _prune(top, kept, set(numbers), numbers)
    text = _tidy("".join(_print(out) for out in printed))
    choices: list[tuple[str, str]] = []
    found: list[_Out] = []
    stack: list[_Out | str] = list(reversed(printed))
    while stack:
        item = stack.pop()
        if isinstance(item, _Out):
            if item.number is not None:
                found.append(item)
            stack.extend(reversed(item.children))
    for out in found:
        choices.append((out.uid, " ".join(_tidy(_print(out)).split()[:_CHOICE_WORDS])))
    return text, choices
