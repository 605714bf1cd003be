"""The process's Chromium and Playwright drivers: one driver per thread (Playwright's sync API binds its objects to
the thread that made them), one shared Chromium per process launched and closed by a thread of its own, and each
thread's CDP link to it, all counted by their users and kept apart per process (a forked worker starts its own)."""

from __future__ import annotations

import os
import queue
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentgym_text.core.registry import MissingDependency

__all__ = [
    "SharedChromium",
    "acquire_shared",
    "browser_alive",
    "launch",
    "link",
    "release_driver",
    "release_shared",
    "unlink",
]

_DRIVERS: dict[tuple[int, int], list] = {}
"""(process, thread) -> [Playwright, users]: Playwright's sync API allows one driver per thread, shared by its
browsers; the process id keeps a forked child (a vector env's worker) from using its parent's driver."""
_LAUNCH_ARGS = ["--no-first-run", "--disable-extensions", "--disable-background-networking"]


def _driver():
    thread = (os.getpid(), threading.get_ident())
    if thread not in _DRIVERS:
        try:
            from playwright.sync_api import sync_playwright
        except ModuleNotFoundError as error:
            raise MissingDependency(
                "AgentBoard/WebArena-v0 needs the 'webarena' extra: pip install 'agentgym-text[webarena]'"
            ) from error
        _DRIVERS[thread] = [sync_playwright().start(), 0]
    entry = _DRIVERS[thread]
    entry[1] += 1
    return entry[0]


def _release(table: dict, key: Any, close: Callable[[Any], None]) -> None:
    """One user fewer of ``table[key]`` (an [object, users] entry); the last one closes it."""
    entry = table.get(key)
    if entry is None:
        return
    entry[1] -= 1
    if entry[1] <= 0:
        del table[key]
        close(entry[0])


def release_driver() -> None:
    _release(_DRIVERS, (os.getpid(), threading.get_ident()), lambda driver: driver.stop())


def launch(executable: str, headless: bool, extra_args: list[str] = ()):
    """A Chromium launched by this thread's driver (Playwright's own switches, so every browser here is alike)."""
    return _driver().chromium.launch(
        executable_path=executable, headless=headless, args=_LAUNCH_ARGS + list(extra_args)
    )


def browser_alive(browser) -> bool:
    """Whether ``browser`` still answers. ``is_connected`` alone can lag: the sync API learns of a dead browser
    only while a call of this thread is under way, so ask the browser something."""
    if browser is None or not browser.is_connected():
        return False
    try:
        cdp = browser.new_browser_cdp_session()
        cdp.send("Browser.getVersion")
        cdp.detach()
        return True
    except Exception:
        return False


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


def _read_playwright_features(folder: Path, executable: str, headless: bool) -> None:
    """Launch Chromium once and write the ``--disable-features`` Playwright gave it to ``folder`` (a line
    ``unknown`` without /proc)."""
    port = _free_port()
    browser = launch(executable, headless, [f"--remote-debugging-port={port}"])
    try:
        disabled = _switch_of(port, "--disable-features=")
    finally:
        browser.close()
        release_driver()
    (folder / "disable-features").write_text("unknown" if disabled is None else disabled)


def _lean_switch(executable: str, headless: bool) -> list[str]:
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
                lambda folder: _read_playwright_features(folder, executable, headless),
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


def _launch_shared(executable: str, headless: bool):
    """The shared Chromium, on a fresh debugging port, without ``_UNUSED_UI``."""
    port = _free_port()
    extra = [f"--remote-debugging-port={port}", *_lean_switch(executable, headless)]
    return launch(executable, headless, extra), port


class SharedChromium:
    """The one Chromium of a process that every env's browser connects to, each thread over its own CDP link.

    Playwright's sync objects belong to the thread that made them, and env threads come and go (the eval runner's
    slots), so the Chromium is launched and closed by a thread of its own that lives as long as someone uses it;
    the driver of that thread ties the browser's life to the process's. Users count: the last ``release`` closes
    it. ``endpoint`` relaunches a Chromium that has exited (crashed or killed), so the next episode of every env
    gets a working browser; episodes in progress on the dead one end with an engine error (``Browser.alive``).
    """

    def __init__(self, executable: str, headless: bool):
        self.executable, self.headless = executable, headless
        self.users = 0
        self.generation = 0
        self._requests: queue.Queue = queue.Queue()
        self._endpoint = ""
        self._thread = threading.Thread(target=self._serve, name="agentgym-chromium", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        browser = None
        while True:
            kind, reply = self._requests.get()
            try:
                if browser is not None and (kind == "close" or not browser_alive(browser)):
                    try:
                        browser.close()
                    except Exception:  # already gone
                        pass
                    browser = None
                    release_driver()
                if kind == "close":
                    reply.put(None)
                    return
                if browser is None:
                    browser, port = _launch_shared(self.executable, self.headless)
                    self._endpoint = f"http://127.0.0.1:{port}"
                    self.generation += 1
                reply.put((self._endpoint, self.generation))
            except Exception as error:  # handed to the caller's thread
                reply.put(error)

    def _ask(self, kind: str):
        reply: queue.Queue = queue.Queue()
        self._requests.put((kind, reply))
        answer = reply.get()
        if isinstance(answer, Exception):
            raise answer
        return answer

    def endpoint(self) -> tuple[str, int]:
        """(CDP endpoint, launch number) of a running Chromium, launching one if there is none or it died."""
        return self._ask("ensure")

    def close(self) -> None:
        self._ask("close")
        self._thread.join(timeout=10)


_SHARED: dict[tuple[int, str, bool], SharedChromium] = {}
_SHARED_LOCK = threading.Lock()


def _new_lock_in_child() -> None:
    global _SHARED_LOCK, _CONNECTING
    _SHARED_LOCK = threading.Lock()  # a fork while another thread held it would leave the child's copy held
    _CONNECTING = threading.BoundedSemaphore(2)


os.register_at_fork(after_in_child=_new_lock_in_child)
_LINKS: dict[tuple[int, int, str], list] = {}
"""(process, thread, endpoint) -> [Playwright Browser over CDP, users]: one link per thread to the shared Chromium,
shared by that thread's envs (each link attaches to every tab of the browser, so fewer links cost less)."""


def acquire_shared(executable: str, headless: bool) -> SharedChromium:
    with _SHARED_LOCK:
        key = (os.getpid(), executable, headless)
        shared = _SHARED.get(key)
        if shared is None:
            shared = _SHARED[key] = SharedChromium(executable, headless)
        shared.users += 1
        return shared


def release_shared(shared: SharedChromium) -> None:
    with _SHARED_LOCK:
        shared.users -= 1
        if shared.users > 0:
            return
        _SHARED.pop((os.getpid(), shared.executable, shared.headless), None)
    shared.close()


_CONNECTING = threading.BoundedSemaphore(2)
"""Threads linking to the shared Chromium at once: a link attaches to every tab of the browser, and 64 eval slots
linking together on 2 cores timed out after Playwright's 30 s; one after another each takes well under that."""


def link(endpoint: str):
    key = (os.getpid(), threading.get_ident(), endpoint)  # the endpoint names a launch: "url#launch number"
    entry = _LINKS.get(key)
    if entry is None or not entry[0].is_connected():
        driver = _driver()
        with _CONNECTING:
            entry = _LINKS[key] = [driver.chromium.connect_over_cdp(endpoint.split("#")[0]), 0]
    entry[1] += 1
    return entry[0]


def unlink(endpoint: str) -> None:
    def close(connection: Any) -> None:
        try:
            connection.close()
        except Exception:  # the browser is gone already
            pass
        release_driver()

    _release(_LINKS, (os.getpid(), threading.get_ident(), endpoint), close)
