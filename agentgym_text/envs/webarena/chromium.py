"""The process's browser thread: its one Playwright driver, the Chromium its envs share, and every page call.

Playwright binds a driver, and every object made through it, to the event loop that started the driver. So a process
has one browser thread (``BrowserThread``) running one asyncio loop with Playwright's async API: it starts the driver,
launches the Chromium its envs share (and the Chromium an env keeps to itself, ``shared=False``), and runs every
Playwright call of every env. An env in another thread hands its work over (``BrowserThread.call``: a coroutine
function, run as a task of the loop) and waits for the result, or the exception, which is raised in the env's thread
as if the work had run there. Any number of env threads (the eval runner's slots) cost one Node driver and one
Chromium, linked to the driver by one pipe; the envs' calls are in flight together (one env's waits on Chromium do
not hold up another's: with Playwright's sync API one thread could only wait for one call at a time). The thread
lives while an env uses it (the last ``release_thread`` closes its Chromium and driver and ends it) and belongs to
one process: a forked worker (a vector env's) starts its own.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import socket
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from agentgym_text.core.registry import MissingDependency

__all__ = ["BrowserThread", "acquire_thread", "browser_alive", "release_thread"]

T = TypeVar("T")
_LAUNCH_ARGS = ["--no-first-run", "--disable-extensions", "--disable-background-networking"]


async def browser_alive(browser) -> bool:
    """Whether ``browser`` still answers (in the browser thread). ``is_connected`` alone can lag: Playwright learns of
    a dead browser only while a call is under way, so ask the browser something."""
    if browser is None or not browser.is_connected():
        return False
    try:
        cdp = await browser.new_browser_cdp_session()
        await cdp.send("Browser.getVersion")
        await cdp.detach()
        return True
    except Exception:
        return False


class _SharedChromium:
    """The Chromium the envs of a process share (one per executable and mode), relaunched when it has died."""

    def __init__(self) -> None:
        self.browser = None
        self.generation = 0
        self.users = 0
        self.lock = asyncio.Lock()


class BrowserThread:
    """The thread that owns the process's Playwright driver and runs every call made on its objects.

    ``call(work, *args)`` runs ``work(*args)`` in this thread's loop (awaited when it is a coroutine) and returns its
    result (raises its exception); the other methods are coroutines meant to run there (through ``call``).
    """

    def __init__(self) -> None:
        self.users = 0
        self._driver = None
        self._shared: dict[tuple[str, bool], _SharedChromium] = {}
        self._launching = asyncio.Lock()  # bound to the loop at its first use, in the thread
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._serve, name="agentgym-browser", daemon=True)
        self._thread.start()

    # ---- the thread ---------------------------------------------------------------------------------------------
    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_forever()
        finally:
            self._loop.close()

    def call(self, work: Callable[..., T | Awaitable[T]], *args: Any) -> T:
        if threading.get_ident() == self._thread.ident:
            raise RuntimeError("BrowserThread.call from the browser thread itself: await the work instead")

        async def run() -> T:
            result = work(*args)
            return await result if inspect.isawaitable(result) else result

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result()

    def stop(self) -> None:
        """Close every Chromium this thread launched and its driver, then end the thread."""
        try:
            asyncio.run_coroutine_threadsafe(self._close_everything(), self._loop).result(timeout=30)
        except Exception:  # a driver that hangs or is gone: the thread ends all the same
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=30)

    async def _close_everything(self) -> None:
        for shared in self._shared.values():
            await close_quietly(shared.browser)
        self._shared.clear()
        if self._driver is not None:
            driver, self._driver = self._driver, None
            try:
                await driver.stop()
            except Exception:  # the driver is gone already
                pass

    # ---- in the thread ------------------------------------------------------------------------------------------
    async def driver(self):
        if self._driver is None:
            try:
                from playwright.async_api import async_playwright
            except ModuleNotFoundError as error:
                raise MissingDependency(
                    "AgentBoard/WebArena-v0 needs the 'webarena' extra: pip install 'agentgym-text[webarena]'"
                ) from error
            self._driver = await async_playwright().start()
        return self._driver

    async def launch(self, executable: str, headless: bool, extra_args: list[str] = ()):
        """A Chromium launched by this thread's driver (Playwright's own switches, so every browser here is alike)."""
        async with self._launching:  # two envs starting at once start one driver
            driver = await self.driver()
        return await driver.chromium.launch(
            executable_path=executable, headless=headless, args=_LAUNCH_ARGS + list(extra_args)
        )

    async def shared(self, executable: str, headless: bool) -> tuple[Any, int]:
        """(the shared Chromium, its launch number), launching one if there is none or it died (crashed or killed:
        the next episode of every env gets a working browser; episodes under way on the dead one end with an engine
        error, ``Browser.alive``). Envs asking at once wait for one launch."""
        entry = self._shared[(executable, headless)]
        async with entry.lock:
            if entry.browser is not None and not await browser_alive(entry.browser):
                await close_quietly(entry.browser)
                entry.browser = None
            if entry.browser is None:
                switch = await _lean_switch(self, executable, headless)
                entry.browser = await self.launch(executable, headless, switch)
                entry.generation += 1
            return entry.browser, entry.generation

    def share(self, executable: str, headless: bool) -> None:
        """One more user of the shared Chromium of ``executable`` (launched at its first ``shared``)."""
        self._shared.setdefault((executable, headless), _SharedChromium()).users += 1

    async def unshare(self, executable: str, headless: bool) -> None:
        """One user fewer of that shared Chromium; the last one closes it."""
        entry = self._shared.get((executable, headless))
        if entry is None:
            return
        entry.users -= 1
        if entry.users <= 0:
            del self._shared[(executable, headless)]
            await close_quietly(entry.browser)


async def close_quietly(part: Any) -> None:
    """Close a Playwright browser or context that may be gone already."""
    if part is None:
        return
    try:
        await part.close()
    except Exception:  # the browser is gone already
        pass


_THREADS: dict[int, BrowserThread] = {}
"""process id -> its browser thread: a forked child never uses its parent's (whose thread it does not have)."""
_THREADS_LOCK = threading.Lock()


def _new_lock_in_child() -> None:
    global _THREADS_LOCK
    _THREADS_LOCK = threading.Lock()  # a fork while another thread held it would leave the child's copy held


os.register_at_fork(after_in_child=_new_lock_in_child)


def acquire_thread() -> BrowserThread:
    """This process's browser thread, started if there is none, with one more user."""
    with _THREADS_LOCK:
        thread = _THREADS.get(os.getpid())
        if thread is None:
            thread = _THREADS[os.getpid()] = BrowserThread()
        thread.users += 1
        return thread


def release_thread(thread: BrowserThread) -> None:
    """One user fewer of ``thread``; the last one stops it (its Chromium and its driver with it)."""
    with _THREADS_LOCK:
        thread.users -= 1
        if thread.users > 0:
            return
        if _THREADS.get(os.getpid()) is thread:
            del _THREADS[os.getpid()]
    thread.stop()


# ---- the shared Chromium's switches ------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


_UNUSED_UI = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
"""Features of the browser's own UI that cost a renderer process per browser context in headless Chromium (the
address bar's popup): off, a context costs one renderer, its tab's."""
_LEAN_SWITCH: list[str] = []
"""Playwright's ``--disable-features`` list with ``_UNUSED_UI`` added (once known: ``_lean_switch``). Chromium keeps
only the last ``--disable-features`` it is given, so ours must repeat Playwright's, whose list is its own."""


def _switch_of(port: int, name: str) -> str | None:
    """The value of switch ``name`` of the Chromium listening on debugging ``port`` ('' if it has none), or None
    if that process cannot be found (no /proc)."""
    wanted = f"--remote-debugging-port={port}".encode()
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            argv = cmdline.read_bytes().split(b"\0")
        except OSError:
            continue
        if wanted in argv:
            values = [arg.decode()[len(name) :] for arg in argv if arg.decode(errors="replace").startswith(name)]
            return values[-1] if values else ""
    return None


async def _playwright_features(thread: BrowserThread, executable: str, headless: bool) -> str | None:
    """The ``--disable-features`` Playwright gives Chromium, read off one launched on a debugging port (to find its
    process); None without /proc."""
    port = _free_port()
    browser = await thread.launch(executable, headless, [f"--remote-debugging-port={port}"])
    try:
        return _switch_of(port, "--disable-features=")
    finally:
        await browser.close()


async def _lean_switch(thread: BrowserThread, executable: str, headless: bool) -> list[str]:
    """``[--disable-features=<Playwright's list + _UNUSED_UI>]``, or [] if Playwright's list cannot be read.
    Playwright's list is read off a launched browser once per Playwright version and kept in the cache."""
    if not _LEAN_SWITCH:
        from importlib.metadata import version

        from agentgym_text.core.cache import CacheError, build_cached, source_key

        loop = asyncio.get_running_loop()

        def write(folder: Path) -> None:  # in a worker thread, while the loop launches the probe
            disabled = asyncio.run_coroutine_threadsafe(_playwright_features(thread, executable, headless), loop)
            value = disabled.result()
            (folder / "disable-features").write_text("unknown" if value is None else value)

        key = source_key(version("playwright"))
        try:
            folder = await asyncio.to_thread(build_cached, "webarena", f"playwright-switches-{key}", write, quiet=True)
            disabled = (folder / "disable-features").read_text()
        except (CacheError, OSError):
            return []
        if disabled == "unknown":
            return []
        features = [name for name in disabled.split(",") if name]
        _LEAN_SWITCH[:] = ["--disable-features=" + ",".join(features + [f for f in _UNUSED_UI if f not in features])]
    return list(_LEAN_SWITCH)
