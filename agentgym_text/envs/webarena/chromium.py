"""The process's browser thread: its one Playwright driver, the Chromium its envs share, and every page call.

Playwright's sync API binds a driver, and every object made through it, to the thread that started the driver. So a
process has one browser thread (``BrowserThread``) that starts the driver, launches the Chromium its envs share (and
the Chromium an env keeps to itself, ``shared=False``), and runs every Playwright call of every env: an env in
another thread hands its call over (``BrowserThread.call``) and waits for the result, or the exception, which is
raised in the env's thread as if the call had run there. Any number of env threads (the eval runner's slots) cost
one Node driver and one Chromium, linked to the driver by one pipe. The calls of the envs run one at a time, in the
order they arrive. The thread lives while an env uses it (the last ``release_thread`` closes its Chromium and
driver and ends it) and belongs to one process: a forked worker (a vector env's) starts its own.
"""

from __future__ import annotations

import os
import queue
import socket
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

from agentgym_text.core.registry import MissingDependency

__all__ = ["BrowserThread", "acquire_thread", "browser_alive", "release_thread"]

T = TypeVar("T")
_LAUNCH_ARGS = ["--no-first-run", "--disable-extensions", "--disable-background-networking"]


def browser_alive(browser) -> bool:
    """Whether ``browser`` still answers (call it in the browser thread). ``is_connected`` alone can lag: the sync
    API learns of a dead browser only while a call is under way, so ask the browser something."""
    if browser is None or not browser.is_connected():
        return False
    try:
        cdp = browser.new_browser_cdp_session()
        cdp.send("Browser.getVersion")
        cdp.detach()
        return True
    except Exception:
        return False


class _SharedChromium:
    """The Chromium the envs of a process share (one per executable and mode), relaunched when it has died."""

    def __init__(self) -> None:
        self.browser = None
        self.generation = 0
        self.users = 0


class BrowserThread:
    """The thread that owns the process's Playwright driver and runs every call made on its objects.

    ``call(work, *args)`` runs ``work(*args)`` in this thread and returns its result (raises its exception); the
    other methods are meant to run in this thread (through ``call``). A call made from this thread itself (a
    Playwright event handler, or work that calls again) runs at once.
    """

    def __init__(self) -> None:
        self.users = 0
        self._calls: queue.SimpleQueue = queue.SimpleQueue()
        self._driver = None
        self._shared: dict[tuple[str, bool], _SharedChromium] = {}
        self._thread = threading.Thread(target=self._serve, name="agentgym-browser", daemon=True)
        self._thread.start()

    # ---- the thread ---------------------------------------------------------------------------------------------
    def _serve(self) -> None:
        while True:
            job = self._calls.get()
            if job is None:
                break
            future, work, args = job
            try:
                future.set_result(work(*args))
            except BaseException as error:  # noqa: BLE001 - handed to the caller's thread, whatever it is
                future.set_exception(error)
        self._close_everything()

    def call(self, work: Callable[..., T], *args: Any) -> T:
        if threading.get_ident() == self._thread.ident:
            return work(*args)
        future: Future = Future()
        self._calls.put((future, work, args))
        return future.result()

    def stop(self) -> None:
        """Close every Chromium this thread launched and its driver, then end the thread."""
        self._calls.put(None)
        self._thread.join(timeout=30)

    def _close_everything(self) -> None:
        for shared in self._shared.values():
            close_quietly(shared.browser)
        self._shared.clear()
        if self._driver is not None:
            driver, self._driver = self._driver, None
            try:
                driver.stop()
            except Exception:  # the driver is gone already
                pass

    # ---- in the thread ------------------------------------------------------------------------------------------
    def driver(self):
        if self._driver is None:
            try:
                from playwright.sync_api import sync_playwright
            except ModuleNotFoundError as error:
                raise MissingDependency(
                    "AgentBoard/WebArena-v0 needs the 'webarena' extra: pip install 'agentgym-text[webarena]'"
                ) from error
            self._driver = sync_playwright().start()
        return self._driver

    def launch(self, executable: str, headless: bool, extra_args: list[str] = ()):
        """A Chromium launched by this thread's driver (Playwright's own switches, so every browser here is alike)."""
        return self.driver().chromium.launch(
            executable_path=executable, headless=headless, args=_LAUNCH_ARGS + list(extra_args)
        )

    def shared(self, executable: str, headless: bool) -> tuple[Any, int]:
        """(the shared Chromium, its launch number), launching one if there is none or it died (crashed or killed:
        the next episode of every env gets a working browser; episodes under way on the dead one end with an engine
        error, ``Browser.alive``)."""
        entry = self._shared[(executable, headless)]
        if entry.browser is not None and not browser_alive(entry.browser):
            close_quietly(entry.browser)
            entry.browser = None
        if entry.browser is None:
            entry.browser = self.launch(executable, headless, _lean_switch(self, executable, headless))
            entry.generation += 1
        return entry.browser, entry.generation

    def share(self, executable: str, headless: bool) -> None:
        """One more user of the shared Chromium of ``executable`` (launched at its first ``shared``)."""
        self._shared.setdefault((executable, headless), _SharedChromium()).users += 1

    def unshare(self, executable: str, headless: bool) -> None:
        """One user fewer of that shared Chromium; the last one closes it."""
        entry = self._shared.get((executable, headless))
        if entry is None:
            return
        entry.users -= 1
        if entry.users <= 0:
            del self._shared[(executable, headless)]
            close_quietly(entry.browser)


def close_quietly(part: Any) -> None:
    """Close a Playwright browser or context that may be gone already."""
    if part is None:
        return
    try:
        part.close()
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


def _read_playwright_features(thread: BrowserThread, folder: Path, executable: str, headless: bool) -> None:
    """Launch Chromium once (on a debugging port, to find its process) and write the ``--disable-features``
    Playwright gave it to ``folder`` (a line ``unknown`` without /proc)."""
    port = _free_port()
    browser = thread.launch(executable, headless, [f"--remote-debugging-port={port}"])
    try:
        disabled = _switch_of(port, "--disable-features=")
    finally:
        browser.close()
    (folder / "disable-features").write_text("unknown" if disabled is None else disabled)


def _lean_switch(thread: BrowserThread, executable: str, headless: bool) -> list[str]:
    """``[--disable-features=<Playwright's list + _UNUSED_UI>]``, or [] if Playwright's list cannot be read.
    Playwright's list is read off a launched browser once per Playwright version and kept in the cache."""
    if not _LEAN_SWITCH:
        from importlib.metadata import version

        from agentgym_text.core.cache import CacheError, build_cached, source_key

        key = source_key(version("playwright"))
        try:
            folder = build_cached(
                "webarena",
                f"playwright-switches-{key}",
                lambda folder: _read_playwright_features(thread, folder, executable, headless),
                quiet=True,
            )
            disabled = (folder / "disable-features").read_text()
        except (CacheError, OSError):
            return []
        if disabled == "unknown":
            return []
        features = [name for name in disabled.split(",") if name]
        _LEAN_SWITCH[:] = ["--disable-features=" + ",".join(features + [f for f in _UNUSED_UI if f not in features])]
    return list(_LEAN_SWITCH)
