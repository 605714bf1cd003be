"""Headless Chromium through Playwright, fenced to the served sites, read through the accessibility tree.

Why our own small CDP layer and not ``browsergym-core``: browsergym marks every DOM element with a ``bid``
attribute by injected JavaScript and flattens its own AXTree with those bids; its observation and its action set
(``click('a12')``, Python-like calls) are BrowserGym's, not WebArena's. WebArena's format is simpler: the CDP
``Accessibility.getFullAXTree`` of the page, pruned to the viewport, printed as ``[id] role 'name' props``, and
actions that address those ids. That is a few CDP calls (``session.py``) plus the printing (``render.py``);
depending on browsergym would add its dependency tree (numpy, PIL, pyparsing, lxml...) and an extra translation
between two id schemes for no gain. So: Playwright (PyPI) for the browser, CDP for the tree, nothing else.

This module: which Chromium to launch (``find_chromium``), an env's handle on it (``Browser``) and on its browser
context (``SessionHandle``, usable from any thread; the context's own logic is ``session.Session``, which runs in the
process's browser thread).
"""

from __future__ import annotations

import shutil
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from agentgym_text.core.registry import MissingDependency
from agentgym_text.envs.webarena.axtree import AXNode, PageState
from agentgym_text.envs.webarena.chromium import (
    BrowserThread,
    acquire_thread,
    browser_alive,
    close_quietly,
    release_thread,
)
from agentgym_text.envs.webarena.session import VIEWPORT, Session, origin_of

__all__ = [
    "Browser",
    "Session",
    "SessionHandle",
    "AXNode",
    "PageState",
    "find_chromium",
    "origin_of",
    "close_parts",
    "VIEWPORT",
]

T = TypeVar("T")


def find_chromium(executable: str | None = None, headless: bool = True) -> str:
    """The Chromium binary to launch: ``executable``; else, headless, Debian's ``chromium-headless-shell`` (Chromium's
    own headless build, without the browser's window machinery: a page load takes about a third less CPU); else
    ``chromium`` on PATH; or a MissingDependency naming them."""
    path = (
        executable
        or (shutil.which("chromium-headless-shell") if headless else None)
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
    )
    if not path:
        raise MissingDependency(
            "AgentBoard/WebArena-v0 needs Debian's Chromium (`make system` or `sudo apt-get install "
            "chromium-headless-shell chromium`); Playwright's own browser download is not used. Or pass "
            "chromium_path=... to gym.make."
        )
    return path


class Browser:
    """An env's handle on Chromium, started lazily by the first ``new_session``; usable from any thread.

    ``shared=True`` (the default): the Chromium the envs of the process share, so envs in one process cost a browser
    context each, not a browser. ``shared=False``: a Chromium of its own. Either way the process's browser thread
    (``chromium.BrowserThread``) launches it and makes every Playwright call on it, so envs in any number of threads
    cost one Playwright driver.
    """

    def __init__(self, executable: str | None = None, headless: bool = True, shared: bool = True):
        self.executable = find_chromium(executable, headless)
        self.headless = headless
        self.shared = shared
        self.generation = 0
        """The launch of the shared Chromium this handle last used (a relaunch after a crash counts one more)."""
        self._thread: BrowserThread | None = None
        self._browser = None  # a Playwright Browser: touched in the browser thread only

    def _calls(self) -> BrowserThread:
        if self._thread is None:
            self._thread = acquire_thread()
            if self.shared:
                self._thread.call(self._thread.share, self.executable, self.headless)
        return self._thread

    def alive(self) -> bool:
        """False once the Chromium this handle uses has exited (crashed or killed), or before it is started."""
        if self._thread is None:
            return False
        return self._thread.call(lambda: browser_alive(self._browser))

    async def _launched(self):
        """The Playwright Browser, launched (or relaunched, if it died) when needed; in the browser thread."""
        if self.shared:
            self._browser, self.generation = await self._thread.shared(self.executable, self.headless)
        else:
            if self._browser is not None and not await browser_alive(self._browser):
                await close_quietly(self._browser)
                self._browser = None
            if self._browser is None:
                self._browser = await self._thread.launch(self.executable, self.headless)
        return self._browser

    def _ensure(self):
        return self._calls().call(self._launched)

    def new_session(self, origins: list[str], storage_state: str | None = None) -> SessionHandle:
        """A fresh browser context (no history; cookies only from ``storage_state``) that reaches only ``origins``."""
        thread = self._calls()

        async def open_session() -> Session:
            return await Session.open(await self._launched(), origins, storage_state)

        return SessionHandle(thread, thread.call(open_session))

    def close(self) -> None:
        thread, self._thread = self._thread, None
        if thread is None:
            return
        try:
            thread.call(self._let_go, thread)
        finally:
            release_thread(thread)

    async def _let_go(self, thread: BrowserThread) -> None:
        browser, self._browser = self._browser, None
        if self.shared:
            await thread.unshare(self.executable, self.headless)
        else:
            await close_quietly(browser)


class SessionHandle:
    """An env's ``Session``, usable from any thread: each call runs in the process's browser thread and returns
    (or raises) there what the ``Session`` method returns (raises). ``run`` reaches the rest of the ``Session``
    (WebBrowsing's recorder, tests reading a page)."""

    def __init__(self, thread: BrowserThread, session: Session):
        self._thread = thread
        self._session = session

    def run(self, work: Callable[[Session], T | Awaitable[T]]) -> T:
        """``work(session)`` in the browser thread (awaited there when it is a coroutine: Playwright's async API)."""
        return self._thread.call(work, self._session)

    def _call(self, method: Callable[..., T | Awaitable[T]], *args: Any) -> T:
        return self._thread.call(method, self._session, *args)

    def allowed(self, url: str) -> bool:
        return self._session.allowed(url)  # the origins never change: nothing of the browser's to ask

    def can_restart(self, origins: list[str], storage_state: str | None) -> bool:
        return self._call(Session.can_restart, origins, storage_state)

    def restart(self) -> None:
        self._call(Session.restart)

    def forget_history(self) -> None:
        self._call(Session.forget_history)

    def tab_count(self) -> int:
        return self.run(lambda session: len(session.pages))

    def url(self) -> str:
        """The active tab's URL."""
        return self.run(lambda session: session.page.url)

    def active_tab(self) -> int:
        return self.run(lambda session: session.active)

    def new_tab(self) -> None:
        self._call(Session.new_tab)

    def focus_tab(self, index: int) -> None:
        self._call(Session.focus_tab, index)

    def close_tab(self) -> None:
        self._call(Session.close_tab)

    def goto(self, url: str) -> None:
        self._call(Session.goto, url)

    def go_back(self) -> None:
        self._call(Session.go_back)

    def go_forward(self) -> None:
        self._call(Session.go_forward)

    def settle(self) -> None:
        self._call(Session.settle)

    def observe(self) -> tuple[PageState, str]:
        """The active page's state and text (``Session.observe``)."""
        return self._call(Session.observe)

    def click(self, backend_id: int) -> bool:
        return self._call(Session.click, backend_id)

    def hover(self, backend_id: int) -> bool:
        return self._call(Session.hover, backend_id)

    def type(self, backend_id: int, text: str, enter: bool) -> bool:
        return self._call(Session.type, backend_id, text, enter)

    def press(self, keys: str) -> None:
        self._call(Session.press, keys)

    def scroll(self, down: bool) -> None:
        self._call(Session.scroll, down)

    def page_text(self, url: str | None = None, selector: str = "") -> str:
        return self._call(Session.page_text, url, selector)

    def read(self, locator: str) -> str:
        return self._call(Session.read, locator)

    def close(self) -> None:
        self._call(Session.close)


def close_parts(*parts: Any) -> None:
    """Close each of ``parts`` that is set (a session, a browser, a site server), in the order given."""
    for part in parts:
        if part is not None:
            part.close()
