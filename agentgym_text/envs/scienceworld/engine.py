"""The ScienceWorld engine adapter: one lazily started JVM per instance, and the few simulator calls we use.

``scienceworld.ScienceWorldEnv.step`` also fetches the look text, inventory, task description and the full list
of valid action-object combinations after every step (about 0.1 s of the 0.15 s a step takes). The text env
needs none of those per step, so this adapter talks to the simulator's ``server`` object directly and fetches
the valid-action list only when asked.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import importlib
import importlib.util
import json
import logging
import os
import threading
import weakref
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from agentgym_text.envs.scienceworld.jvm_calls import find_java_tool, helper_for, no_delay
from agentgym_text.envs.scienceworld.listing import ObjectIndex

if TYPE_CHECKING:
    from agentgym_text.envs.scienceworld.pool import JvmPool

__all__ = [
    "INHERITED",
    "Combinations",
    "JAVA_INSTALL_HINT",
    "JVM_OPTIONS",
    "MISSING_PACKAGE_MESSAGE",
    "JavaUnavailableError",
    "ScienceWorldNotInstalledError",
    "DeviceState",
    "ScienceWorldEngine",
    "StepResult",
    "find_java",
    "require_package",
    "simplifications_for",
    "simulator_error",
    "start_jvm",
]

logger = logging.getLogger(__name__)

JVM_OPTIONS = "-XX:+UnlockExperimentalVMOptions -XX:hashCode=2 -XX:+UseSerialGC"
"""``hashCode=2`` gives every object the same identity hash code. By default identity hashes differ between JVM
runs, so the simulator's hashed collections iterate in a different order each run and the same task variation
played out differently (the Mendelian-genetics gold paths failed in some JVMs, and worlds depended on what the
JVM did before); with one constant hash the order is the insertion order, the same in every JVM.
``UseSerialGC``: the simulator is single-threaded, and the default collector kept about 840 MiB per JVM
against about 470 MiB (30 episodes in one JVM), at the same speed."""

JAVA_INSTALL_HINT = (
    "ScienceWorld needs a Java runtime (Java 8 or newer) on PATH. On Debian/Ubuntu: "
    "`sudo apt-get install -y default-jre-headless` (or `make test`, which installs it when missing)."
)

AGENTBOARD_SIMPLIFICATIONS = ("selfWateringFlowerPots", "openContainers", "openDoors", "noElectricalAction")
"""AgentBoard's load options; electrical tasks drop ``noElectricalAction`` (the simulator refuses it there)."""

_NO_STEP_LIMIT = 10**9  # the StepLimit wrapper owns the budget, not the simulator


def simplifications_for(task_name: str) -> str:
    """AgentBoard's simplification string for ``task_name``, minus what the simulator refuses for that task."""
    electrical = "power-component" in task_name or "conductivity" in task_name
    return ",".join(s for s in AGENTBOARD_SIMPLIFICATIONS if not (electrical and s == "noElectricalAction"))


def find_java() -> str | None:
    """The java executable: on PATH, else under $JAVA_HOME, /usr/bin or /usr/lib/jvm (PATH may be empty)."""
    return find_java_tool("java")


_JAVA: ContextVar[str | None] = ContextVar("agentgym_text_scienceworld_java", default=None)
"""The java executable for the JVM this context is starting (set only around ``ScienceWorldEnv(...)``)."""
_LAUNCH_LOCK = threading.Lock()


def _launch_with_our_java() -> None:
    """Make scienceworld start its JVMs with the java we found and ``JVM_OPTIONS`` (once per process).

    ``ScienceWorldEnv`` calls py4j's ``launch_gateway`` with plain ``java`` and no JVM options, and takes no
    argument for either. Its module's ``launch_gateway`` is wrapped: a start made by ``ScienceWorldEnv.start``
    (``_JAVA`` set, per thread and context) passes our java and options as arguments; any other start is unchanged.
    """
    module = importlib.import_module("scienceworld.scienceworld")
    with _LAUNCH_LOCK:
        original = module.launch_gateway
        if getattr(original, "agentgym_text_wrapped", False):
            return

        @functools.wraps(original)
        def launch_gateway(*args: Any, **kwargs: Any) -> Any:
            java = _JAVA.get()
            if java is not None:
                kwargs["java_path"] = java
                kwargs["javaopts"] = [*kwargs.get("javaopts", ()), *JVM_OPTIONS.split()]
            return original(*args, **kwargs)

        launch_gateway.agentgym_text_wrapped = True  # type: ignore[attr-defined]
        module.launch_gateway = launch_gateway


MISSING_PACKAGE_MESSAGE = (
    "AgentBoard/ScienceWorld-v0 needs the 'scienceworld' extra: pip install 'agentgym-text[scienceworld]'"
)


class ScienceWorldNotInstalledError(ModuleNotFoundError):
    """The ``scienceworld`` pip package is missing (a Python install problem, not a Java one)."""


def require_package() -> None:
    """Raise ``ScienceWorldNotInstalledError`` (one line naming the extra) when ``scienceworld`` is not installed.

    Looks the package up without importing it, so it starts nothing and costs well under a millisecond.
    """
    if importlib.util.find_spec("scienceworld") is None:
        raise ScienceWorldNotInstalledError(MISSING_PACKAGE_MESSAGE, name="scienceworld")


class JavaUnavailableError(RuntimeError):
    """No Java runtime was found, or the JVM would not start."""


@dataclass(frozen=True)
class StepResult:
    """What the simulator says after one command: its text, score in [-1, 1] and completion flag."""

    observation: str
    score: float
    completed: bool

    @property
    def success(self) -> bool:
        return self.completed and self.score >= 1.0

    @property
    def failed(self) -> bool:
        return self.score < 0


@dataclass(frozen=True)
class DeviceState:
    """A device as the simulator's object tree holds it (no text shows that a device is broken)."""

    activated: bool
    broken: bool


def _walk(node: dict[str, Any], parents: dict[int, int]) -> None:
    """Record each object's container, in the simulator's walk order (depth first, contents in order)."""
    for child in (node.get("contents") or {}).values():
        parents[int(child["uuid"])] = int(node["uuid"])
        _walk(child, parents)


def _devices_under(node: dict[str, Any], found: dict[str, DeviceState]) -> None:
    device = node.get("propDevice")
    if device and device.get("isActivable"):
        found.setdefault(str(node["name"]), DeviceState(bool(device["isActivated"]), bool(device["isBroken"])))
    for child in (node.get("contents") or {}).values():
        _devices_under(child, found)


def simulator_error() -> type[Exception]:
    """py4j's base error: a Java exception in the simulator or a lost JVM (imported once scienceworld is known)."""
    from py4j.protocol import Py4JError

    return Py4JError


def start_jvm() -> Any:
    """A ``scienceworld.ScienceWorldEnv``: a new JVM, started with our java and ``JVM_OPTIONS``, and its simulator."""
    require_package()
    java = find_java()
    if java is None:
        raise JavaUnavailableError("No `java` executable found. " + JAVA_INSTALL_HINT)
    from scienceworld import ScienceWorldEnv

    _launch_with_our_java()
    token = _JAVA.set(java)
    try:
        sim = ScienceWorldEnv("", envStepLimit=_NO_STEP_LIMIT)
    except Exception as error:  # py4j raises plain Exceptions when the JVM dies at start
        raise JavaUnavailableError(f"The ScienceWorld JVM did not start ({error}). " + JAVA_INSTALL_HINT) from error
    finally:
        _JAVA.reset(token)
    command = list(sim._gateway.java_process.args)
    if command[0] != java or not set(JVM_OPTIONS.split()) <= set(command):
        sim.close()
        raise RuntimeError(f"scienceworld started its JVM without our java and options: {command}")
    return sim


class Combinations(Sequence[dict]):
    """A validity listing of the action-object combinations, in the simulator's order: each combination's action
    text at once (``actions``), its entry (action, template_id, obj_ids, type_ids, as the simulator's JSON gives
    them) when read. Parsed from ``AgentBoardCalls``' lines (see its ``rows``), or from the simulator's JSON (text
    starting with "{")."""

    def __init__(self, text: str) -> None:
        self._rows: list[str] | None = None
        self._entries: list[dict] | None = None
        if text.startswith("{"):
            self._entries = list(json.loads(text)["validActions"])
            self.actions = [str(entry["action"]) for entry in self._entries]
        else:
            lines = text.split("\n")
            count = int(lines[0])
            self.actions = lines[1 : count + 1]
            self._rows = lines[count + 1 :]

    def _read(self) -> list[dict]:
        if self._entries is None:
            self._entries = [_entry(action, row) for action, row in zip(self.actions, self._rows or ())]
            self._rows = None
        return self._entries

    def __len__(self) -> int:
        return len(self.actions)

    @overload
    def __getitem__(self, index: int) -> dict: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict]: ...
    def __getitem__(self, index: int | slice) -> dict | list[dict]:
        return self._read()[index]


def _entry(action: str, row: str) -> dict:
    template, objects, types = row.split("\t")
    return {
        "action": action,
        "template_id": int(template),
        "obj_ids": [int(uid) for uid in objects.split(",")] if objects else [],
        "type_ids": [int(uid) for uid in types.split(",")] if types else [],
    }


_LIVE: weakref.WeakSet[ScienceWorldEngine] = weakref.WeakSet()


@atexit.register
def _close_all_engines() -> None:
    for engine in list(_LIVE):
        engine.close()


INHERITED: list[Any] = []
"""A forked child's copies of its parent's simulators, kept alive so that no finalizer closes their sockets."""


def disconnect(gateway: Any) -> None:
    """Let no Python proxy of ``gateway``'s Java objects reach the JVM again: a proxy's finalizer sends a release
    message, and for a closed or dead JVM py4j would try to connect and log a traceback at whatever moment the
    garbage collector runs it (on Python 3.11 before 3.11.8, a traceback formatted while ``ast.parse`` runs in the
    same thread makes that parse fail: CPython gh-106905)."""
    client = getattr(gateway, "_gateway_client", None)
    if client is not None:
        client.is_connected = False


def _forget_parent_jvms() -> None:
    """In a forked child (e.g. an async vector env worker): leave the parent's JVMs to the parent.

    The child shares the parent's py4j sockets. If it used them (py4j sends a release message when a Java
    object's Python proxy is garbage collected) or shut them down, the parent would read the child's answers
    or lose its connection and wait forever. So the copies are marked disconnected and kept, never closed.
    """
    for engine in list(_LIVE):
        sim, engine._sim = engine._sim, None
        engine._loaded = None
        engine._used = False
        if sim is not None:
            disconnect(sim._gateway)
            INHERITED.append(sim)
        _LIVE.discard(engine)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_parent_jvms)


class ScienceWorldEngine:
    """A ScienceWorld simulator in its own JVM, or with ``pool`` in one of the pool's JVMs, started at the first
    ``load``.

    >>> engine = ScienceWorldEngine()
    >>> engine.started
    False
    """

    def __init__(self, pool: JvmPool | None = None) -> None:
        self._pool = pool
        self._sim: Any = None
        self._loaded: tuple[str, int, str, bool] | None = None
        self._used = False
        self._broken = False
        self.episodes = 0
        """Resets since this simulator started."""

    @property
    def started(self) -> bool:
        return self._sim is not None

    @property
    def fresh(self) -> bool:
        """True until the JVM has loaded anything (a restarted JVM is fresh again)."""
        return not self._used

    def restart(self) -> None:
        """A new simulator, so that nothing earlier episodes did can affect the next one: a new JVM, or in a pool a
        new simulator (in a new JVM where this one's is retired), taken before this one is handed back so that the
        pool does not stop a JVM only to start another."""
        if self._pool is None:
            self.close()
            self.start()
            return
        old, self._sim = self._sim, None
        self._loaded = None
        self._used = False
        self.start()
        if old is not None:
            old.close()

    @property
    def pooled(self) -> bool:
        return self._pool is not None

    @property
    def broken(self) -> bool:
        """A simulator call failed or the JVM died: the simulator must be replaced before it is used again."""
        sim = self._sim
        if sim is None:
            return False
        return self._broken or getattr(sim, "broken", False) or sim._gateway.java_process.poll() is not None

    def mark_broken(self) -> None:
        self._broken = True

    @property
    def jvm_retired(self) -> bool:
        """In a pool: this simulator's JVM takes no new simulators (too big or dead), so it should move."""
        return self._sim is not None and self._pool is not None and self._sim.jvm.retired

    def retire_jvm(self) -> None:
        """In a pool: let this simulator's JVM take no new simulators (it stops when the last one leaves)."""
        if self._sim is not None and self._pool is not None:
            self._pool.retire(self._sim)

    @property
    def jvm_simulators(self) -> int:
        """Simulators in this engine's JVM (1 in a JVM of its own, 0 before it starts)."""
        if self._sim is None:
            return 0
        return 1 if self._pool is None else len(self._sim.jvm.simulators)

    def exclusive(self) -> contextlib.AbstractContextManager[None]:
        """Hold this simulator's JVM across several calls (in a pool; a JVM of its own needs no holding)."""
        if self._sim is None or self._pool is None:
            return contextlib.nullcontext()
        return self._sim.exclusive()

    @property
    def jvm_pid(self) -> int | None:
        """The process id of this instance's JVM, or None before it starts."""
        return None if self._sim is None else int(self._sim._gateway.java_process.pid)

    def start(self) -> None:
        """Start the JVM now (normally done by the first ``load``); in a pool, take a simulator from it."""
        if self._sim is not None:
            return
        self._sim = start_jvm() if self._pool is None else self._pool.simulator()
        self._broken = False
        self.episodes = 0
        _LIVE.add(self)

    def close(self) -> None:
        """Stop the JVM, or hand the simulator back to its pool (idempotent)."""
        sim, self._sim = self._sim, None
        self._loaded = None
        self._used = False
        _LIVE.discard(self)
        if sim is not None:
            if self._pool is None and sim._gateway.java_process.poll() is not None:
                disconnect(sim._gateway)  # a dead JVM: closing would only try to connect and log that it cannot
            try:
                sim.close()
            except Exception as error:  # the JVM may already be gone at interpreter exit
                logger.debug("closing the ScienceWorld JVM failed (already gone?): %r", error)
            if self._pool is None:
                disconnect(sim._gateway)

    def load(self, task_name: str, variation: int, simplifications: str, gold_path: bool = False) -> None:
        """Load a task variation (skipped when it is already loaded the same way).

        The simulator seeds its random generator with the variation at every load and reset, but generating
        the gold path draws from it too: a world loaded with ``gold_path=True`` then evolves differently
        (bees, plants) from one loaded without. Play always happens on a load without the gold path.
        """
        self.start()
        key = (task_name, int(variation), simplifications, bool(gold_path))
        if self._loaded == key:
            return
        self._used = True
        self._sim.load(task_name, int(variation), simplifications, generateGoldPath=gold_path)
        self._loaded = key

    def rss_mib(self) -> float | None:
        """The JVM's resident memory in MiB (None before it starts, or where /proc is not available)."""
        pid = self.jvm_pid
        if pid is None:
            return None
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) / 1024
        except OSError as error:
            logger.debug("cannot read the JVM's memory use: %r", error)
        return None

    def reset(self) -> str:
        """Back to the first move of the loaded variation; returns the room description plus the inventory."""
        self.episodes += 1
        self._sim.server.reset()
        look = str(self._sim.server.step("look around"))
        return look + "\n" + self.inventory()

    def step(self, command: str) -> StepResult:
        server = self._sim.server
        observation = str(server.step(command))
        return StepResult(observation, float(server.getScore()), bool(server.getCompleted()))

    def inventory(self) -> str:
        return str(self._sim.server.freeActionInventory())

    def task_description(self) -> str:
        return str(self._sim.server.freeActionTaskDesc())

    # ---- AgentBoard's call sequence ------------------------------------------------------------------
    # The simulator renames ambiguous objects in its action-object combinations at EVERY listing ("paint in wood
    # cup", then "red paint in wood cup", ...), so the names AgentBoard saw depend on how many listings came
    # before. These methods make exactly the calls scienceworld's Python API and AgentBoard's harness make.

    def reset_as_agentboard(self) -> tuple[str, list[str]]:
        """``ScienceWorldEnv.reset()`` + inventory, as AgentBoard starts an episode; also the listing the reset
        made (the combinations of the first state)."""
        no_delay(self._sim)
        self.episodes += 1
        self._sim.server.reset()
        result, listing = self._scienceworld_step("look around")
        return result.observation + "\n" + self.inventory(), self._join(listing)

    def step_as_agentboard(self, command: str) -> tuple[StepResult, Combinations]:
        """One step as AgentBoard plays it: ``ScienceWorldEnv.step`` (the step, then the look, inventory, task and
        combination listing it fetches), then AgentBoard's validity listing (what ``grounding_combinations``
        returns). Made in one call inside the JVM where ``jvm_calls`` can load its class there."""
        no_delay(self._sim)
        helper = helper_for(self._sim)
        if helper is None:
            result, _ = self._scienceworld_step(command)
            return result, self.grounding_combinations()
        # a pooled simulator's server is a Python proxy taking the JVM's lock: the helper needs the Java object
        server = self._sim.server if self._pool is None else self._sim.java
        with self.exclusive():
            observation, score, completed, listing = helper.step_then_list(server, command)
        return StepResult(observation, score, completed), Combinations(listing)

    def _scienceworld_step(self, command: str) -> tuple[StepResult, Any]:
        """``ScienceWorldEnv.step``'s calls; the listing is returned as a Java list, unread (reading it element by
        element costs 0.5 s)."""
        server = self._sim.server
        observation = str(server.step(command))
        result = StepResult(observation, float(server.getScore()), bool(server.getCompleted()))
        server.getNumMoves()
        server.freeActionLook()
        server.freeActionInventory()
        server.freeActionTaskDesc()
        return result, server.getValidActionObjectCombinations()

    def grounding_combinations(self) -> Combinations:
        """AgentBoard's validity listing (``getValidActionObjectCombinationsWithTemplates``): action, template_id,
        obj_ids for each combination, in the simulator's order."""
        no_delay(self._sim)
        return Combinations(str(self._sim.server.getValidActionObjectCombinationsJSON()))

    def _join(self, java_list: Any) -> list[str]:
        text = str(self._sim._gateway.jvm.java.lang.String.join("\n", java_list))
        return text.split("\n") if text else []

    # ---- reads of the world's state for the expert ------------------------------------------------------
    # Neither read lets time pass or changes the world (checked: the same trajectory with both reads before
    # every step), unlike a listing of the combinations, which changes how bees and plants go on.

    def devices_in(self, room: str) -> dict[str, DeviceState]:
        """The devices in ``room`` and in what it holds (the agent's inventory too), by name, first found first."""
        found: dict[str, DeviceState] = {}
        for node in (self._object_tree().get("contents") or {}).values():
            if node.get("name") == room:
                _devices_under(node, found)
        return found

    def object_index(self) -> ObjectIndex:
        """Every object's referents and the object it is in (how the simulator's parser reads object names)."""
        lut = json.loads(str(self._sim.server.getAllObjectIdsTypesReferentsLUTJSON()))
        parents: dict[int, int] = {}
        _walk(self._object_tree(), parents)
        referents = {int(uid): tuple(name.lower() for name in entry["referents"]) for uid, entry in lut.items()}
        walked = [uid for uid in parents if uid in referents]
        return ObjectIndex({uid: referents[uid] for uid in walked + sorted(set(referents) - set(walked))}, parents)

    def _object_tree(self) -> dict[str, Any]:
        # getObjectTree("") returns the tree; any other argument is a folder to write it to
        return json.loads(str(self._sim.server.getObjectTree("")))

    def possible_actions(self) -> list[str]:
        """The simulator's abstract action templates for the loaded task ("open OBJ", "go OBJ", ..., in its order)."""
        return [str(action) for action in self._sim.server.getPossibleActions()]

    def valid_actions(self) -> list[str]:
        """Every valid action-object combination in the current state, sorted and without duplicates.

        Read as one JSON string: py4j fetches a Java list element by element (about 0.5 s for a kitchen's 1,300).
        """
        no_delay(self._sim)
        return sorted(set(self.grounding_combinations().actions))

    def gold_actions(self) -> list[str]:
        """The simulator's gold action sequence for the loaded variation (needs ``load(..., gold_path=True)``)."""
        return [str(action) for action in self._sim.get_gold_action_sequence()]

    def task_names(self) -> list[str]:
        self.start()
        return [str(name) for name in self._sim.get_task_names()]

    def variation_count(self, task_name: str) -> int:
        self.start()
        return int(self._sim.get_max_variations(task_name))

    def test_variations(self) -> list[int]:
        return [int(v) for v in self._sim.get_variations_test()]

    def dev_variations(self) -> list[int]:
        return [int(v) for v in self._sim.get_variations_dev()]

    def __del__(self) -> None:
        if self._pool is not None and self._sim is not None:  # a finalizer takes no lock (see release_later)
            sim, self._sim = self._sim, None
            self._pool.release_later(sim)
            return
        self.close()
