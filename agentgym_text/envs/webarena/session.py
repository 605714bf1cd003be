"""One env's browser context (``Session``): its tabs, the fence around the sites, and its CDP reads and inputs.

Its methods are coroutines of Playwright's async API that run in the process's browser thread (``chromium.py``);
an env reaches them through ``browser.SessionHandle``.

Ids: WebArena prints CDP's accessibility node ids, which Chromium hands out per renderer process in request
order — not the same across runs or processes. We number the accessibility nodes of the current document in
tree order (1, 2, ...), so the same page always reads the same and an id stays valid until the page changes.

The fence: every request of the context goes through a route that aborts any URL that is not http(s) on one
of the sites' origins (links, redirects, form posts, ``window.open`` popups, sub-resources); a tab that still
ends up elsewhere (``data:``, ``file:``) is sent back. ``goto`` is checked before the browser sees it.
"""

from __future__ import annotations

import asyncio
import time
from urllib.parse import urlsplit

from agentgym_text.envs.webarena.axtree import PageState, layout_boxes, prune_to_viewport, send_bulky
from agentgym_text.envs.webarena.chromium import close_quietly

__all__ = ["Session", "origin_of", "VIEWPORT"]

VIEWPORT = {"width": 1280, "height": 720}
"""AgentBoard's window size."""
_SETTLE_TIMEOUT_S = 8.0
_BLANK_PATH = "/__agentgym_blank__"
"""A path on every site that the fence answers itself with an empty page (``Session.restart`` uses it)."""
_NAVIGATION_WATCH = """
window.__agNav = false;
window.__agPopup = false;
const __agOpen = window.open;
window.open = function (...args) { window.__agPopup = true; return __agOpen.apply(window, args); };
addEventListener('beforeunload', () => { window.__agNav = true; });
addEventListener('submit', () => { window.__agNav = true; }, true);
addEventListener('click', (event) => {
  const link = event.target && event.target.closest ? event.target.closest('a[href]') : null;
  if (!link) return;
  const href = link.getAttribute('href') || '';
  if (href.startsWith('#') || href.startsWith('javascript:')) return;
  if (link.target && link.target !== '_self') { window.__agPopup = true; return; }
  window.__agNav = true;
}, true);
"""
# Input that starts a navigation (a link, a form, Enter in a form) marks the document; settle() then waits for its
# replacement. Watching requests alone is racy: the request event arrives tens of ms after the key press.
_SETTLE_CHECK = "[window.__agNav === true, document.readyState, window.__agPopup === true]"
"""Whether the active document is being replaced, its ready state, and whether it opened a tab."""
_READ_PAGE = (
    "[window.scrollX, window.scrollY, window.innerWidth, window.innerHeight, document.title,"
    " document.body ? document.body.innerText : '']"
)
"""What an observation reads of the active page besides its tree and boxes, in one evaluation."""


def origin_of(url: str) -> str:
    """``scheme://host:port`` of an http(s) URL in lower case, '' for anything else."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return ""
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return ""
    port = port or (443 if parts.scheme == "https" else 80)
    return f"{parts.scheme}://{parts.hostname.lower()}:{port}"


def _web_origin(origin: str) -> str:
    """``origin_of``'s form as the web writes it (no default port), as CDP's storage calls want it."""
    for scheme, port in (("http", ":80"), ("https", ":443")):
        if origin.startswith(scheme + "://") and origin.endswith(port):
            return origin[: -len(port)]
    return origin


class Session:
    """One env's browser context: its tabs, the fence around the sites, and CDP reads and inputs. Its methods run in
    the browser thread (an env holds a ``SessionHandle``).

    A context made without a storage state serves episode after episode (``restart`` then ``forget_history``):
    its first tab keeps its renderer process, whose start is most of what a fresh context costs.
    """

    def __init__(self, context, origins: list[str], storage_state: str | None = None):
        """Use ``Session.open``."""
        self.origins = {origin_of(url) for url in origins} - {""}
        self.storage_state = storage_state
        self.context = context
        self.pages: list = []
        self.active = 0
        self.blocked: list[str] = []
        self._pending_navigations = 0
        self._failed_navigations = 0
        self._adopting = True
        self._visited: set[str] = set()
        self._cdp_sessions: dict = {}
        self.context.on("page", self._adopt)
        self.context.on("request", self._on_request)
        self.context.on("requestfinished", self._on_request_done)
        self.context.on("requestfailed", self._on_request_done)

    @classmethod
    async def open(cls, browser, origins: list[str], storage_state: str | None = None) -> Session:
        """A new context of ``browser`` fenced to ``origins``, with one blank tab."""
        context = await browser.new_context(viewport=VIEWPORT, service_workers="block", storage_state=storage_state)
        session = cls(context, origins, storage_state)
        await context.add_init_script(_NAVIGATION_WATCH)
        await context.route("**/*", session._fence)
        await session.new_tab()
        return session

    # ---- episodes ----------------------------------------------------------------------------------
    def can_restart(self, origins: list[str], storage_state: str | None) -> bool:
        """Whether ``restart`` gives what a new session for these arguments would (no logins to restore)."""
        wanted = {origin_of(url) for url in origins} - {""}
        return storage_state is None and self.storage_state is None and wanted == self.origins and bool(self.pages)

    async def restart(self) -> None:
        """Make this context as a fresh one is: one blank tab, no cookies, no site storage (local, session,
        IndexedDB, caches), nothing blocked; call ``forget_history`` once the start pages are open."""
        for page in self.pages[1:]:
            self._cdp_sessions.pop(page, None)
            await page.close()
        page = self.pages[0]
        self.pages, self.active = [page], 0
        # A tab's session storage (one per origin) and its name outlive its documents, and only a document of
        # the origin can clear it: the current one, else a blank page of that origin that the fence answers.
        current = origin_of(page.url)
        for origin in sorted(self._visited & self.origins):
            if origin != current:
                await page.goto(origin + _BLANK_PATH)
            await page.evaluate("sessionStorage.clear(); window.name = ''")
        await page.goto("about:blank")
        await self.context.clear_cookies()
        cdp = await self._cdp()
        for origin in sorted(self._visited & self.origins):  # only a document of an origin stores data for it
            await cdp.send("Storage.clearDataForOrigin", {"origin": _web_origin(origin), "storageTypes": "all"})
        self._visited.clear()
        self.blocked = []
        self._pending_navigations = self._failed_navigations = 0

    async def forget_history(self) -> None:
        """Drop the tabs' back/forward entries (a restarted tab's earlier episodes; the blank start of a new one)."""
        for page in list(self.pages):
            await (await self._cdp(page)).send("Page.resetNavigationHistory")

    # ---- fence -----------------------------------------------------------------------------------
    def allowed(self, url: str) -> bool:
        return origin_of(url) in self.origins

    async def _fence(self, route) -> None:
        url = route.request.url
        if url.endswith(_BLANK_PATH) and self.allowed(url):
            await route.fulfill(status=200, body="<!doctype html><title></title>", content_type="text/html")
        elif self.allowed(url):
            await route.continue_()
        elif route.request.is_navigation_request():
            # A 204 answer to a navigation leaves the tab where it is (no error page, no history entry).
            self.blocked.append(url)
            self._failed_navigations += 1
            await route.fulfill(status=204, body="")
        else:
            self.blocked.append(url)
            await route.abort("blockedbyclient")

    def _on_request(self, request) -> None:
        if request.is_navigation_request():
            self._pending_navigations += 1

    def _on_request_done(self, request) -> None:
        if request.is_navigation_request():
            self._pending_navigations = max(0, self._pending_navigations - 1)
            if request.failure is not None:
                self._failed_navigations += 1

    def _adopt(self, page) -> None:
        if self._adopting and page not in self.pages:
            self.pages.append(page)
            self.active = len(self.pages) - 1
            page.on("framenavigated", self._on_navigated)

    def _on_navigated(self, frame) -> None:
        self._visited.add(origin_of(frame.url))

    # ---- tabs --------------------------------------------------------------------------------------
    @property
    def page(self):
        return self.pages[self.active]

    async def new_tab(self) -> None:
        page = await self.context.new_page()
        self._adopt(page)

    async def focus_tab(self, index: int) -> None:
        self.active = index
        await self.page.bring_to_front()

    async def close_tab(self) -> None:
        page = self.pages.pop(self.active)
        self._cdp_sessions.pop(page, None)
        await page.close()
        if not self.pages:
            await self.new_tab()
        self.active = min(self.active, len(self.pages) - 1)
        await self.page.bring_to_front()

    # ---- navigation ----------------------------------------------------------------------------------
    async def goto(self, url: str) -> None:
        try:
            await self.page.goto(url, wait_until="load", timeout=_SETTLE_TIMEOUT_S * 1000)
        except Exception:  # a blocked or failed load leaves the tab where Chromium put it; settle() fixes it
            pass
        await self.settle()

    async def go_back(self) -> None:
        if await self.page.go_back(wait_until="load") is not None:  # None: no entry to go to, or the same document
            await self.settle()

    async def go_forward(self) -> None:
        if await self.page.go_forward(wait_until="load") is not None:
            await self.settle()

    async def settle(self, checked: list | None = None) -> None:
        """Wait until navigations have finished and the document is loaded; pull a stray tab back inside.
        ``checked``: what ``_SETTLE_CHECK`` gave on the active page just now (the action's own evaluation)."""
        deadline = time.monotonic() + _SETTLE_TIMEOUT_S
        failed = self._failed_navigations
        tabs = len(self.pages)
        while time.monotonic() < deadline:
            page = self.page
            try:
                if self._failed_navigations != failed:  # the fence refused it: nothing more will come
                    failed = self._failed_navigations
                    await page.evaluate("window.__agNav = false")
                    checked = None
                if checked is None:
                    checked = await page.evaluate(_SETTLE_CHECK)
                (navigating, ready, popup), checked = checked, None
                if popup:  # wait for the new tab to show up, then settle on it
                    while len(self.pages) == tabs and time.monotonic() < deadline:
                        await asyncio.sleep(0.01)
                    await page.evaluate("window.__agPopup = false")
                    tabs = len(self.pages)
                    continue
            except Exception:  # the document is being replaced
                navigating, ready = True, "loading"
            if not navigating and ready == "complete" and self._pending_navigations == 0:
                break
            await asyncio.sleep(0.01)
        for page in list(self.pages):
            url = page.url
            if url != "about:blank" and not self.allowed(url):
                self.blocked.append(url)
                try:
                    await page.go_back(wait_until="load")
                except Exception:
                    pass
                if not self.allowed(page.url):
                    await page.goto("about:blank")

    # ---- reading -------------------------------------------------------------------------------------
    async def observe(self) -> tuple[PageState, str]:
        """The active page's state (its accessibility nodes in the viewport, the tabs) and its text, read
        concurrently: the tree, the layout boxes, one evaluation (scroll metrics, title, text) and the other tabs'
        titles."""
        page = self.page
        cdp = await self._cdp()

        async def title(other) -> str:
            try:
                return await other.title()
            except Exception:
                return ""

        tree, boxes, reading, titles = await asyncio.gather(
            send_bulky(cdp, "Accessibility.getFullAXTree"),
            layout_boxes(cdp),
            page.evaluate(_READ_PAGE),
            asyncio.gather(*(title(other) for other in self.pages if other is not page)),
        )
        *metrics, page_title, text = reading
        nodes, outline = prune_to_viewport(tree["nodes"], boxes, tuple(float(value) for value in metrics))
        titles.insert(self.active, str(page_title))
        state = PageState(url=page.url, tabs=titles, active=self.active, nodes=nodes, outline=outline)
        return state, str(text)

    async def _cdp(self, page=None):
        """The CDP session of ``page`` (the active tab), kept while the tab lives: one less round trip a call."""
        page = page or self.page
        cdp = self._cdp_sessions.get(page)
        if cdp is None:
            cdp = self._cdp_sessions[page] = await self.context.new_cdp_session(page)
        return cdp

    # ---- input ---------------------------------------------------------------------------------------
    async def center_of(self, backend_id: int) -> tuple[float, float] | None:
        """Scroll the node into view and return its centre in viewport pixels (None if it has no box)."""
        cdp = await self._cdp()
        try:
            await cdp.send("DOM.scrollIntoViewIfNeeded", {"backendNodeId": backend_id})
            quads = (await cdp.send("DOM.getContentQuads", {"backendNodeId": backend_id}))["quads"]
        except Exception:
            return None
        if not quads:
            return None
        quad = quads[0]
        xs, ys = quad[0::2], quad[1::2]
        return (sum(xs) / 4, sum(ys) / 4)

    async def click(self, backend_id: int) -> bool:
        point = await self.center_of(backend_id)
        if point is None:
            return False
        await self.page.mouse.click(*point)
        await self.settle()
        return True

    async def hover(self, backend_id: int) -> bool:
        point = await self.center_of(backend_id)
        if point is None:
            return False
        await self.page.mouse.move(*point)
        await self.settle()
        return True

    async def _node_name(self, backend_id: int) -> str:
        cdp = await self._cdp()
        try:
            return (await cdp.send("DOM.describeNode", {"backendNodeId": backend_id}))["node"]["nodeName"].upper()
        except Exception:
            return ""

    async def _choose_option(self, backend_id: int, label: str, submit: bool) -> bool:
        """A <select>: pick the option whose text is ``label`` (what typing its name does in a real browser)."""
        cdp = await self._cdp()
        try:
            handle = (await cdp.send("DOM.resolveNode", {"backendNodeId": backend_id}))["object"]["objectId"]
            result = await cdp.send(
                "Runtime.callFunctionOn",
                {
                    "objectId": handle,
                    "returnByValue": True,
                    "arguments": [{"value": label}, {"value": submit}],
                    "functionDeclaration": "function(label, submit) { const want = label.trim().toLowerCase();"
                    " const option = Array.from(this.options).find(o => o.text.trim().toLowerCase() === want)"
                    " || Array.from(this.options).find(o => o.text.trim().toLowerCase().startsWith(want));"
                    " if (!option) return false; this.value = option.value;"
                    " this.dispatchEvent(new Event('input', {bubbles: true}));"
                    " this.dispatchEvent(new Event('change', {bubbles: true}));"
                    " if (submit && this.form) this.form.requestSubmit(); return true; }",
                },
            )
            return bool(result.get("result", {}).get("value"))
        except Exception:
            return False

    async def type(self, backend_id: int, text: str, enter: bool) -> bool:
        """Click the field, replace its content with ``text``, then press Enter when asked (a <select> gets
        the option named ``text``)."""
        if await self._node_name(backend_id) == "SELECT":
            if not await self._choose_option(backend_id, text, enter):
                return False
            await self.settle()
            return True
        point = await self.center_of(backend_id)
        if point is None:
            return False
        page = self.page
        await page.mouse.click(*point)
        await page.keyboard.press("ControlOrMeta+a")
        await page.keyboard.press("Delete")
        await page.keyboard.type(text)
        if enter:
            await page.keyboard.press("Enter")
        await self.settle()
        return True

    async def press(self, keys: str) -> None:
        await self.page.keyboard.press(keys)
        await self.settle()

    async def scroll(self, down: bool) -> None:
        await self.settle(
            await self.page.evaluate(f"window.scrollBy(0, {'' if down else '-'}window.innerHeight); {_SETTLE_CHECK}")
        )

    async def page_text(self, url: str | None = None, selector: str = "") -> str:
        """The text of the active page (or of ``url`` opened in a scratch tab): whole, or what ``selector`` (a
        JavaScript expression, as in WebArena's program_html locators, or a CSS selector) gives."""
        page = self.page
        scratch = None
        if url is not None and url != page.url:
            self._adopting, active = False, self.active
            scratch = await self.context.new_page()
            scratch.on("framenavigated", self._on_navigated)  # what it stores is cleared at restart too
            try:
                await scratch.goto(url, wait_until="load", timeout=_SETTLE_TIMEOUT_S * 1000)
            except Exception:
                pass
            page = scratch
        try:
            if selector:
                try:  # WebArena's locators are JavaScript expressions ("document.querySelector(...).value")
                    value = await page.evaluate(f"() => {selector}")
                except Exception:  # else a CSS selector: the element's value or text
                    value = await page.evaluate(
                        "s => { const e = document.querySelector(s); if (!e) return ''; return ('value' in e && "
                        "typeof e.value === 'string' && e.tagName !== 'BUTTON' && e.tagName !== 'LI') ? e.value : "
                        "e.innerText; }",
                        selector,
                    )
                return "" if value is None else str(value)
            return await page.evaluate("document.body ? document.body.innerText : ''")
        except Exception:
            return ""
        finally:
            if scratch is not None:
                await scratch.close()
                self.pages = [p for p in self.pages if p is not scratch]
                self._adopting, self.active = True, active

    async def read(self, locator: str) -> str:
        """What AgentBoard's progress reads on the active page: its HTML source, or a JavaScript locator's value."""
        page = self.page
        try:
            value = await page.content() if not locator else await page.evaluate(f"() => {locator}")
        except Exception:
            return ""
        return str(value) if value else ""

    async def close(self) -> None:
        await close_quietly(self.context)
