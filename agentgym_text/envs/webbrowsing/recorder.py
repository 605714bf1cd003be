"""Recording gold episodes in Chromium: WebArena's tasks on the sites this package serves, in Mind2Web's shape.

For each task the recorder opens the start page in a fresh browser context, and for each gold step (WebArena's
``{"action": "click" | "type", "role", "name"}``): finds the element the step names in Chromium's accessibility
tree, marks it, takes the page's cleaned DOM (visible elements, the attributes Mind2Web keeps, text), then performs
the step and waits for the page to settle. A task becomes one Mind2Web annotation:
``{"annotation_id", "website", "confirmed_task", "action_reprs", "actions": [{"action_uid", "operation":
{"op", "original_op", "value"}, "cleaned_html", "pos_candidates", "neg_candidates"}]}``; elements are numbered
``backend_node_id`` 1, 2, ... in page order, so the same page always gives the same file.

Only the build needs the browser (Playwright and Chromium, the ``webarena`` extra); playing reads the file.
"""

from __future__ import annotations

from html import escape
from typing import Any

__all__ = ["record_task", "to_cleaned_html", "SNAPSHOT_SCRIPT", "eligible"]

_GOLD_MARK = "data-agentgym-gold"
SNAPSHOT_SCRIPT = (
    """
() => {
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'SVG', 'IFRAME']);
  const KEEP_ATTRS = [['role', 'role'], ['aria-label', 'aria_label'], ['aria-description', 'aria_description'],
    ['type', 'type'], ['name', 'name'], ['placeholder', 'placeholder'], ['title', 'title'], ['alt', 'alt'],
    ['value', 'value']];
  function visible(el) {
    if (el.tagName === 'OPTION' || el.tagName === 'HTML' || el.tagName === 'BODY') return true;
    if (el.tagName === 'INPUT' && el.type === 'hidden') return false;
    return el.getClientRects().length > 0;
  }
  function walk(el) {
    const attrs = {};
    for (const [from, to] of KEEP_ATTRS) {
      const value = el.getAttribute(from);
      if (value !== null && value.trim() !== '') attrs[to] = value.trim();
    }
    if ((el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') && el.value)
      attrs['input_value'] = String(el.value);
    if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio'))
      attrs['input_checked'] = el.checked ? 'true' : 'false';
    if (el.tagName === 'OPTION' && el.selected) attrs['option_selected'] = 'true';
    if (el.hasAttribute('"""
    + _GOLD_MARK
    + """')) attrs['gold'] = '1';
    const children = [];
    for (const child of el.childNodes) {
      if (child.nodeType === 3) {
        const text = child.textContent.replace(/\\s+/g, ' ').trim();
        if (text) children.push(text);
      } else if (child.nodeType === 1 && !SKIP.has(child.tagName.toUpperCase()) && visible(child)) {
        children.push(walk(child));
      }
    }
    return [el.tagName.toLowerCase(), attrs, children];
  }
  return walk(document.documentElement);
}
"""
)
_VOID = {"input", "img", "br", "hr"}


def eligible(config: dict[str, Any]) -> bool:
    """A WebArena task the recorder plays: one start page, gold steps that click or type (and the final stop)."""
    steps = [step for step in config["gold"] if step["action"] != "stop"]
    return (
        " |AND| " not in str(config.get("start_url", ""))
        and bool(steps)
        and all(step["action"] in ("click", "type") for step in steps)
    )


def to_cleaned_html(tree: list) -> tuple[str, str, list[tuple[str, str]]]:
    """(cleaned HTML with ``backend_node_id`` 1, 2, ... in page order, the marked element's id, every (id, tag))."""
    parts: list[str] = []
    gold = ""
    elements: list[tuple[str, str]] = []

    def emit(node: list) -> None:
        nonlocal gold
        tag, attrs, children = node
        uid = str(len(elements) + 1)
        elements.append((uid, tag))
        if attrs.get("gold"):
            gold = uid
        shown = "".join(f' {name}="{escape(value)}"' for name, value in attrs.items() if name != "gold")
        if tag in _VOID:
            parts.append(f'<{tag} backend_node_id="{uid}"{shown}/>')
            return
        parts.append(f'<{tag} backend_node_id="{uid}"{shown}>')
        for child in children:
            if isinstance(child, str):
                parts.append(escape(child, quote=False))
            else:
                emit(child)
        parts.append(f"</{tag}>")

    emit(tree)
    return "".join(parts), gold, elements


async def _find_backend_id(session, role: str, name: str, nth: int) -> int | None:
    """The DOM node of the ``nth`` accessibility node with this role and name (exact, then loose), as the
    WebArena expert resolves its steps."""
    cdp = await session.context.new_cdp_session(session.page)
    try:
        nodes = (await cdp.send("Accessibility.getFullAXTree", {}))["nodes"]
    finally:
        await cdp.detach()
    text_roles = {"searchbox", "textbox", "combobox", "spinbutton"}
    for loose in (False, True):
        found = []
        for node in nodes:
            if node.get("ignored") or "backendDOMNodeId" not in node:
                continue
            node_role = str(node.get("role", {}).get("value", ""))
            node_name = str(node.get("name", {}).get("value", ""))
            same_role = node_role == role or (loose and role in text_roles and node_role in text_roles)
            same_name = node_name == name or (loose and node_name.strip().lower() == name.strip().lower())
            if same_role and same_name:
                found.append(int(node["backendDOMNodeId"]))
        if len(found) > nth:
            return found[nth]
    return None


async def _mark(session, backend_id: int, on: bool) -> None:
    cdp = await session.context.new_cdp_session(session.page)
    try:
        handle = (await cdp.send("DOM.resolveNode", {"backendNodeId": backend_id}))["object"]["objectId"]
        body = f"this.setAttribute('{_GOLD_MARK}', '1')" if on else f"this.removeAttribute('{_GOLD_MARK}')"
        await cdp.send(
            "Runtime.callFunctionOn", {"objectId": handle, "functionDeclaration": f"function() {{ {body}; }}"}
        )
    finally:
        await cdp.detach()


def _repr(step: dict[str, Any], op: str, value: str) -> str:
    head = f"[{step.get('role', '')}]  {step.get('name', '')} -> {op}"
    return f"{head}: {value}" if op != "CLICK" else head


async def record_task(session, urls, config: dict[str, Any], site: str) -> dict[str, Any]:
    """Play one WebArena task's gold steps in ``session`` (a fresh context on freshly reset sites; in the browser
    thread) and return its Mind2Web annotation. Raises RuntimeError when a gold step's element is not on the page."""
    await session.goto(urls.fill(str(config["start_url"])))
    actions, reprs = [], []
    for index, step in enumerate(s for s in config["gold"] if s["action"] != "stop"):
        backend_id = await _find_backend_id(
            session, step.get("role", ""), step.get("name", ""), int(step.get("nth") or 0)
        )
        if backend_id is None:
            raise RuntimeError(f"task {config['task_id']}, step {index}: no {step.get('role')} {step.get('name')!r}")
        await _mark(session, backend_id, True)
        cleaned, gold, elements = to_cleaned_html(await session.page.evaluate(SNAPSHOT_SCRIPT))
        await _mark(session, backend_id, False)
        if not gold:
            raise RuntimeError(f"task {config['task_id']}, step {index}: the element is not visible")
        gold_tag = dict(elements)[gold]
        if step["action"] == "type":
            op = "SELECT" if gold_tag == "select" else "TYPE"
            value = str(step.get("text", ""))
            await session.type(backend_id, value, bool(int(step.get("enter", 1))))
        else:
            op, value = "CLICK", ""
            await session.click(backend_id)
        actions.append(
            {
                "action_uid": f"{config['task_id']}-{index}",
                "operation": {"op": op, "original_op": op, "value": value},
                "cleaned_html": cleaned,
                "pos_candidates": [{"backend_node_id": gold, "tag": gold_tag}],
                "neg_candidates": [{"backend_node_id": uid, "tag": tag} for uid, tag in elements if uid != gold],
            }
        )
        reprs.append(_repr(step, op, value))
    return {
        "annotation_id": f"webarena-{config['task_id']:03d}",
        "website": site,
        "domain": "WebArena",
        "subdomain": site,
        "confirmed_task": str(config["intent"]),
        "action_reprs": reprs,
        "actions": actions,
    }
