"""AgentBoard's step made inside the simulator's JVM, and py4j answers sent without Nagle's delay.

An AgentBoard step is scienceworld's ``step`` (the step, six small calls and an unread listing of the action-object
combinations) and AgentBoard's validity listing. ``AgentBoardCalls.java`` (beside this file) makes all of it in one
call and does the work the two listings share once; the text is the simulator's own (see its comment). It is
compiled with ``javac`` against the installed scienceworld.jar at first use, into the cache (a new source or
scienceworld version gives a new entry), and loaded into each JVM by a class loader of its own, so the JVM's
launch is unchanged. Without ``javac`` (a JRE only), or when the class does not compile or load, ``helper_for``
returns None and the engine makes the simulator's calls from Python as before.

Both ways need ``no_delay``: py4j's Java side writes an answer longer than 8 KiB in pieces, and with Nagle's
algorithm on the last piece waits for an acknowledgement that Python's side delays by about 40 ms. A listing is
30-150 KiB, so every listing paid those 40 ms.
"""

from __future__ import annotations

import glob
import logging
import os
import shutil
import subprocess
import threading
import weakref
from pathlib import Path
from typing import Any

from agentgym_text.core.cache import CacheError, build_cached, source_key

__all__ = [
    "JAVA_SOURCES",
    "AgentBoardHelper",
    "compiled_classes",
    "find_java_tool",
    "find_javac",
    "helper_for",
    "no_delay",
]

logger = logging.getLogger(__name__)

JAVA_SOURCES = tuple(sorted(Path(__file__).parent.glob("*.java")))
"""``AgentBoardCalls.java`` and the classes it uses (``Naming``, ``ObjectSet``), compiled together."""
_CLASS = "agentgymtext.scienceworld.AgentBoardCalls"
_COMPILE_SECONDS = 120


def find_java_tool(name: str) -> str | None:
    """A JDK/JRE executable (``java``, ``javac``): on PATH, else under $JAVA_HOME, /usr/bin or /usr/lib/jvm (PATH
    may be empty)."""
    found = shutil.which(name)
    if found:
        return found
    candidates = [os.path.join(os.environ.get("JAVA_HOME", ""), "bin", name), f"/usr/bin/{name}"]
    candidates += sorted(glob.glob(f"/usr/lib/jvm/*/bin/{name}"))
    return next((path for path in candidates if os.path.isfile(path) and os.access(path, os.X_OK)), None)


def find_javac() -> str | None:
    """The javac executable (None with a JRE only)."""
    return find_java_tool("javac")


def _jar() -> Path:
    import scienceworld

    return Path(scienceworld.__file__).with_name("scienceworld.jar")


def compiled_classes() -> Path | None:
    """The cache folder holding the compiled class (compiled now if needed), or None without a working javac."""
    javac = find_javac()
    if javac is None:
        return None
    from scienceworld.version import __version__

    jar = _jar()
    key = source_key(*JAVA_SOURCES, __version__, jar.stat().st_size)

    def build(folder: Path) -> None:
        # --release 8: loadable by any JVM scienceworld runs on, whatever JDK compiled it
        command = [javac, "--release", "8", "-nowarn", "-cp", str(jar), "-d", str(folder), *map(str, JAVA_SOURCES)]
        subprocess.run(command, check=True, capture_output=True, timeout=_COMPILE_SECONDS)

    try:
        return build_cached("scienceworld-java", key, build, quiet=True)
    except (OSError, subprocess.SubprocessError, CacheError) as error:
        detail = getattr(error, "stderr", b"") or b""
        logger.warning(
            "AgentBoardCalls.java and its classes did not compile (%r %s); using the simulator's calls from Python",
            error,
            detail.decode(errors="replace")[:500],
        )
        return None


class AgentBoardHelper:
    """``AgentBoardCalls`` loaded into one JVM."""

    def __init__(self, sim: Any, classes: Path) -> None:
        gateway = sim._gateway
        jvm = gateway.jvm
        urls = gateway.new_array(jvm.java.net.URL, 1)
        urls[0] = jvm.java.io.File(str(classes)).toURI().toURL()
        loader = jvm.java.net.URLClassLoader(urls, sim.server.getClass().getClassLoader())
        constructor = loader.loadClass(_CLASS).getConstructor(gateway.new_array(jvm.java.lang.Class, 0))
        self._calls = constructor.newInstance(gateway.new_array(jvm.java.lang.Object, 0))

    def step_then_list(self, server: Any, command: str) -> tuple[str, float, bool, str]:
        """Observation, score, completion and the validity listing's JSON, as the simulator's calls give them."""
        packed = str(self._calls.stepThenList(server, command))
        score, completed, length, rest = packed.split("\t", 3)
        size = int(length)
        return rest[:size], float(score), completed == "true", rest[size:]


_HELPERS: weakref.WeakKeyDictionary[Any, AgentBoardHelper | None] = weakref.WeakKeyDictionary()
"""By py4j gateway (one a JVM, whatever number of simulators it holds)."""
_CONNECTIONS: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def helper_for(sim: Any) -> AgentBoardHelper | None:
    """The helper in ``sim``'s JVM (loaded at the first call for that JVM), or None where it is not available."""
    gateway = sim._gateway
    with _LOCK:
        if gateway in _HELPERS:
            return _HELPERS[gateway]
        helper = None
        classes = compiled_classes()
        if classes is not None:
            try:
                helper = AgentBoardHelper(sim, classes)
            except Exception as error:  # py4j raises its own errors for a class the JVM refuses
                logger.warning("AgentBoardCalls did not load (%r); using the simulator's calls from Python", error)
        _HELPERS[gateway] = helper
        return helper


def no_delay(sim: Any) -> None:
    """Turn Nagle's algorithm off on the Java side of ``sim``'s py4j connections (again when py4j opened more)."""
    gateway = sim._gateway
    count = len(gateway._gateway_client.deque)  # the idle connections: each call takes one, or opens one
    with _LOCK:
        if _CONNECTIONS.get(gateway, 0) >= count:
            return
        _CONNECTIONS[gateway] = count
    server = gateway.java_gateway_server
    field = server.getClass().getDeclaredField("connections")
    field.setAccessible(True)
    for connection in list(field.get(server)):
        connection.getSocket().setTcpNoDelay(True)
