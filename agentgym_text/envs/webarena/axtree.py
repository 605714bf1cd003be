"""Reading a page through CDP: the full accessibility tree pruned to the viewport, as WebArena does.

A node stays when at least ``IN_VIEWPORT_RATIO`` of its layout box lies in the window (WebArena's rule); the
boxes come from one ``DOMSnapshot.captureSnapshot`` call instead of one round trip per node. Ignored nodes are
skipped and their children move up a level.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass, field
from typing import Any

__all__ = ["AXNode", "PageState", "prune_to_viewport", "layout_boxes", "send_bulky", "IN_VIEWPORT_RATIO"]

IN_VIEWPORT_RATIO = 0.6
"""WebArena keeps a node when at least this share of its box lies inside the viewport."""


@dataclass
class AXNode:
    """One accessibility node kept for the observation (already pruned to the viewport)."""

    role: str
    name: str
    properties: list[tuple[str, str]]
    backend_id: int | None
    depth: int
    element_id: int = 0


@dataclass
class PageState:
    """What one observation shows: the tabs, the active tab's URL and its accessibility nodes."""

    url: str
    tabs: list[str]
    active: int
    nodes: list[AXNode] = field(default_factory=list)
    outline: list[tuple[str, str, int, int]] = field(default_factory=list)
    """Every laid-out node of the page in tree order: (role, name, element id, 0 in the viewport / -1 above /
    +1 below it), so the expert can count occurrences and know which way to scroll."""


def prune_to_viewport(
    tree: list[dict], boxes: dict, view: tuple[float, float, float, float]
) -> tuple[list[AXNode], list[tuple[str, str, int, int]]]:
    """The nodes of CDP's full AX tree inside the viewport ``view`` (scrollX, scrollY, width, height), numbered
    in tree order, and the outline of every laid-out node (see ``PageState.outline``).

    >>> tree = [{"nodeId": "1", "role": {"value": "RootWebArea"}, "name": {"value": "Shop"}, "childIds": ["2", "3"]},
    ...         {"nodeId": "2", "backendDOMNodeId": 5, "role": {"value": "link"}, "name": {"value": "Orders"}},
    ...         {"nodeId": "3", "backendDOMNodeId": 6, "role": {"value": "link"}, "name": {"value": "Far"}}]
    >>> nodes, outline = prune_to_viewport(tree, {5: (10, 10, 50, 20), 6: (10, 2000, 50, 20)}, (0, 0, 1280, 720))
    >>> [(node.element_id, node.role, node.name) for node in nodes], outline[-1]
    ([(1, 'RootWebArea', 'Shop'), (2, 'link', 'Orders')], ('link', 'Far', 3, 1))
    """
    by_id: dict[str, dict] = {}
    for node in tree:
        by_id.setdefault(node["nodeId"], node)
    if not by_id:
        return [], []
    root = tree[0]
    kept: list[AXNode] = []
    outline: list[tuple[str, str, int, int]] = []
    counter = 0

    def visit(node: dict, depth: int) -> None:
        nonlocal counter
        counter += 1
        number = counter
        child_depth = depth
        if not node.get("ignored"):
            backend = node.get("backendDOMNodeId")
            role = str(node.get("role", {}).get("value", ""))
            inside = role == "RootWebArea" or _in_view(boxes.get(backend), view)
            if inside:
                properties = [
                    (str(prop["name"]), _prop_text(prop["value"]["value"]))
                    for prop in node.get("properties", [])
                    if "value" in prop.get("value", {})
                ]
                name = str(node.get("name", {}).get("value", ""))
                kept.append(AXNode(role, name, properties, backend, depth, element_id=number))
                outline.append((role, name, number, 0))
                child_depth = depth + 1
            elif boxes.get(backend) and boxes[backend][2] and boxes[backend][3]:
                side = -1 if boxes[backend][1] < view[1] else 1
                outline.append((role, str(node.get("name", {}).get("value", "")), number, side))
        for child in node.get("childIds", []):
            if child in by_id:
                visit(by_id[child], child_depth)

    visit(root, 0)
    return kept, outline


async def layout_boxes(cdp) -> dict[int, tuple[float, float, float, float]]:
    """backend node id -> (x, y, width, height) in page coordinates, in one DOMSnapshot call (``cdp``: an async
    Playwright CDP session)."""
    snap = await send_bulky(cdp, "DOMSnapshot.captureSnapshot", {"computedStyles": [], "includeDOMRects": False})
    boxes: dict[int, tuple[float, float, float, float]] = {}
    if not snap["documents"]:
        return boxes
    document = snap["documents"][0]
    backend_ids = document["nodes"]["backendNodeId"]
    layout = document["layout"]
    for index, bounds in zip(layout["nodeIndex"], layout["bounds"]):
        backend = backend_ids[index]
        x, y, w, h = bounds
        if backend in boxes:  # a node with several boxes (wrapped text): their union
            bx, by, bw, bh = boxes[backend]
            right, bottom = max(bx + bw, x + w), max(by + bh, y + h)
            bx, by = min(bx, x), min(by, y)
            boxes[backend] = (bx, by, right - bx, bottom - by)
        else:
            boxes[backend] = (x, y, w, h)
    return boxes


@functools.cache
def _sends_without_walk(impl_class: type) -> bool:
    """Whether ``impl_class.send`` is the ``(method, params, timeout)`` call known here."""
    try:
        return list(inspect.signature(impl_class.send).parameters)[1:] == ["method", "params", "timeout"]
    except (AttributeError, TypeError, ValueError):
        return False


async def send_bulky(cdp, method: str, params: dict | None = None) -> Any:
    """``cdp.send(method, params)`` for a reply of many thousand values (an accessibility tree, a DOM snapshot).

    Playwright's public ``send`` walks every value of the reply looking for its own objects to wrap (a CDP reply has
    none): a third of the Python time of a WebArena step. Its implementation object sends the same command without
    the walk; when that object's ``send`` is not the one known here (another Playwright version), the public call.
    """
    impl = getattr(cdp, "_impl_obj", None)
    if impl is not None and _sends_without_walk(type(impl)):
        return await impl.send(method, params or {}, None)
    return await cdp.send(method, params or {})


def _prop_text(value) -> str:
    return str(value)


def _in_view(box, view) -> bool:
    if not box:
        return False
    x, y, w, h = box
    if w == 0 or h == 0:
        return False
    vx, vy, vw, vh = view
    overlap_w = max(0.0, min(x + w, vx + vw) - max(x, vx))
    overlap_h = max(0.0, min(y + h, vy + vh) - max(y, vy))
    return overlap_w * overlap_h / (w * h) >= IN_VIEWPORT_RATIO
