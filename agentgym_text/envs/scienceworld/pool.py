"""Several ScienceWorld simulators in one JVM: a pool that any number of envs in a process share.

A simulator is a ``scienceworld.runtime.pythonapi.PythonInterface``, a plain Java object, so one JVM can hold many.
But the simulator keeps three things in Scala singletons, shared by every simulator in a JVM (allenai/ScienceWorld,
``simulator/src/main/scala``):

- ``scala.util.Random``, the global generator: seeded with the variation at every load and drawn from while the
  world runs (bees, plants, genetics);
- ``util.UniqueIdentifier.count``, the next object id: reset to 0 at every load; ids key maps whose order shows
  in the listings, so another simulator's objects would change what this one lists;
- ``SimplifierProcessor.simplifications``: parsed from the load's simplification string, read at every tick and
  every listing (an electrical task loads without ``noElectricalAction``, the others with it).

So a JVM runs one simulator call at a time (its lock), and before a call for another simulator than the last one
it gives the globals that simulator's values: the simulator's own ``java.util.Random`` becomes the global
generator's delegate (one reflective field write; no state is copied), its id counter is put back (the previous
simulator's saved) and its simplifications are parsed again where they differ. Every episode then plays out as in
a JVM of its own (tests/test_scienceworld_pool.py). With ``-XX:hashCode=2`` (``JVM_OPTIONS``) identity hashes do
not depend on what other simulators allocated either.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import logging
import os
import threading
import types
import weakref
from collections.abc import Callable, Iterator
from typing import Any

from py4j.protocol import Py4JError, Py4JNetworkError

from agentgym_text.envs.scienceworld.engine import INHERITED, disconnect, start_jvm

__all__ = ["JvmPool", "PooledSimulator", "default_pool"]

logger = logging.getLogger(__name__)


class _Jvm:
    """One JVM of a pool: the simulators on it, the lock its calls take and which simulator's globals are in place."""

    def __init__(self, env: Any) -> None:
        self.env = env  # the scienceworld.ScienceWorldEnv that started the JVM (its own simulator is left unused)
        self.gateway = env._gateway
        self.lock = threading.RLock()
        self.simulators: set[PooledSimulator] = set()
        self.retired = False
        """No new simulators: the JVM closes when its last one leaves."""
        self.active: PooledSimulator | None = None
        self.parsed: str | None = None
        """The simplification string the JVM's global simplifications were parsed from (None: unknown)."""
        jvm = self.gateway.jvm
        find = jvm.java.lang.Class.forName
        self._random = find("scala.util.Random$").getField("MODULE$").get(None)
        self._random_delegate = find("scala.util.Random").getDeclaredField("self")
        self._random_delegate.setAccessible(True)  # Scala's jar is on the class path: no module opens needed
        self._ids = jvm.util.UniqueIdentifier
        self._set_ids: Callable[[int], Any] = getattr(self._ids, "count_$eq")
        self._simplifier = jvm.main.scala.scienceworld.runtime.SimplifierProcessor
        self.gateway.detach(env.server)

    @property
    def pid(self) -> int:
        return int(self.gateway.java_process.pid)

    @property
    def alive(self) -> bool:
        return self.gateway.java_process.poll() is None

    def activate(self, simulator: PooledSimulator) -> None:
        """Give the JVM's globals ``simulator``'s values (call with ``lock`` held)."""
        if self.active is simulator:
            return
        if self.active is not None:
            self.active.ids = int(self._ids.count())
        self.active = None  # until all three are in place (a failed call leaves nothing half-swapped behind)
        self._random_delegate.set(self._random, simulator.random)
        self._set_ids(simulator.ids)
        if simulator.simplifications is not None and simulator.simplifications != self.parsed:
            self.parsed = None
            self._simplifier.parseSimplificationStr(simulator.simplifications)
            self.parsed = simulator.simplifications
        self.active = simulator

    def close(self) -> None:
        try:
            self.env.close()
        except Exception as error:  # the JVM may already be gone
            logger.debug("closing a pooled ScienceWorld JVM failed (already gone?): %r", error)
        disconnect(self.gateway)
        # ScienceWorldEnv.__del__ closes again, writing to the stdin of a JVM that may be exiting (a BrokenPipeError)
        self.env.close = lambda: None


class _LockedServer:
    """A simulator's ``PythonInterface``: every call made under its JVM's lock with its globals in place."""

    def __init__(self, simulator: PooledSimulator) -> None:
        self._simulator = simulator

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("__"):
            raise AttributeError(name)
        simulator = self._simulator
        member = getattr(simulator.java, name)

        def call(*args: Any) -> Any:
            with simulator.exclusive():
                return member(*args)

        setattr(self, name, call)  # looked up once per method name
        return call


class PooledSimulator:
    """One simulator in a pool's JVM, with the attributes of ``scienceworld.ScienceWorldEnv`` the engine uses
    (``server``, ``_gateway``, ``load``, ``get_task_names``, ...); ``close()`` hands it back to the pool."""

    def __init__(self, pool: JvmPool, jvm: _Jvm) -> None:
        self.pool = pool
        self.jvm = jvm
        self._gateway = jvm.gateway
        self.random = jvm.gateway.jvm.java.util.Random(0)  # seeded again at every load, like the global one
        self.ids = 0
        self.simplifications: str | None = None
        self.broken = False
        """A call failed: the simulator is not used again (the engine replaces it at the next reset)."""
        self.java: Any = None
        self.goldPathGenerated = False
        self.server = _LockedServer(self)
        with self.exclusive():  # its constructor draws ids and random numbers: this simulator's, not another's
            self.java = jvm.gateway.jvm.scienceworld.runtime.pythonapi.PythonInterface()

    @contextlib.contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold the JVM for this simulator: calls inside run one after another with its globals in place.

        A call that fails marks the simulator broken; a lost JVM marks every simulator on it broken."""
        jvm = self.jvm
        with jvm.lock:
            try:
                jvm.activate(self)
                yield
            except Py4JError as error:
                self.broken = True
                if isinstance(error, Py4JNetworkError) or not jvm.alive:  # the JVM may not have exited yet
                    jvm.retired = True
                    disconnect(jvm.gateway)
                    for simulator in list(jvm.simulators):
                        simulator.broken = True
                raise

    def load(self, taskName: str, variationIdx: int = 0, simplificationStr: str = "", generateGoldPath: bool = False):  # noqa: N803 - scienceworld's names
        from scienceworld import ScienceWorldEnv

        with self.exclusive():
            try:
                ScienceWorldEnv.load(self, taskName, variationIdx, simplificationStr, generateGoldPath)  # type: ignore[arg-type]
            except BaseException:
                self.jvm.parsed = None  # the load may have parsed the string before it failed
                raise
            # the load parsed the string into the JVM's globals (AgentInterface's constructor does)
            self.simplifications = self.jvm.parsed = simplificationStr

    def __getattr__(self, name: str) -> Any:
        """scienceworld's other methods (``get_task_names``, ``get_gold_action_sequence``, ...) on this simulator."""
        if name.startswith("_"):
            raise AttributeError(name)
        from scienceworld import ScienceWorldEnv

        function = getattr(ScienceWorldEnv, name)
        if not callable(function):
            raise AttributeError(name)
        return types.MethodType(function, self)

    def close(self) -> None:
        self.pool.release(self)


class JvmPool:
    """ScienceWorld JVMs that hold several simulators each; envs made with ``jvm=pool`` (or ``jvm="shared"``, the
    process's ``default_pool()``) take their simulator from it.

    A new simulator goes to the JVM with the fewest simulators among those with room (``simulators_per_jvm``;
    None: no bound, one JVM); a JVM starts when none has room, and stops when its last simulator leaves. A retired
    JVM (too big, or dead) takes no new simulators. Safe to use from several threads.
    """

    def __init__(self, simulators_per_jvm: int | None = None) -> None:
        if simulators_per_jvm is not None and int(simulators_per_jvm) < 1:
            raise ValueError(f"simulators_per_jvm must be at least 1 (or None), not {simulators_per_jvm!r}")
        self.simulators_per_jvm = None if simulators_per_jvm is None else int(simulators_per_jvm)
        self._lock = threading.RLock()
        self._jvms: list[_Jvm] = []
        self._orphans: collections.deque[PooledSimulator] = collections.deque()
        """Simulators handed back by finalizers, released at the pool's next call (see ``release_later``)."""
        _POOLS.add(self)

    @property
    def jvm_pids(self) -> list[int]:
        """The process ids of the pool's running JVMs."""
        with self._lock:
            return [jvm.pid for jvm in self._jvms]

    def simulator(self) -> PooledSimulator:
        """A new simulator (nothing loaded) in a JVM with room, started if needed."""
        with self._lock:
            self._release_orphans()
            for jvm in [jvm for jvm in self._jvms if not jvm.alive]:
                jvm.retired = True
                self._drop_if_empty(jvm)
            room = [
                jvm
                for jvm in self._jvms
                if not jvm.retired
                and (self.simulators_per_jvm is None or len(jvm.simulators) < self.simulators_per_jvm)
            ]
            jvm = min(room, key=lambda jvm: len(jvm.simulators)) if room else self._start()
            try:
                simulator = PooledSimulator(self, jvm)
            except Py4JError:
                if not jvm.retired:
                    raise
                self._drop_if_empty(jvm)  # the JVM was lost since its last call: the call retired it
                jvm = self._start()
                simulator = PooledSimulator(self, jvm)
            jvm.simulators.add(simulator)
            return simulator

    def _start(self) -> _Jvm:
        jvm = _Jvm(start_jvm())
        self._jvms.append(jvm)
        return jvm

    def retire(self, simulator: PooledSimulator) -> None:
        """Take no new simulators into ``simulator``'s JVM (it stops when its last simulator leaves)."""
        simulator.jvm.retired = True

    def release(self, simulator: PooledSimulator) -> None:
        """Give a simulator back: its Java object is freed, and a JVM left empty stops."""
        with self._lock:
            self._release_orphans()
            self._release(simulator)

    def release_later(self, simulator: PooledSimulator) -> None:
        """``release`` at the pool's next call, taking no lock now: for finalizers, which may run in a thread that
        holds a JVM's lock while another thread holds the pool's and waits for that JVM."""
        self._orphans.append(simulator)

    def _release_orphans(self) -> None:
        while self._orphans:
            self._release(self._orphans.popleft())

    def _release(self, simulator: PooledSimulator) -> None:
        jvm = simulator.jvm
        if simulator not in jvm.simulators:
            return
        jvm.simulators.discard(simulator)  # it may stay `active`: the next switch saves its id counter, unused
        if simulator.java is not None and jvm.alive:
            with contextlib.suppress(Exception):
                jvm.gateway.detach(simulator.java)
                jvm.gateway.detach(simulator.random)
        self._drop_if_empty(jvm)

    def _drop_if_empty(self, jvm: _Jvm) -> None:
        if jvm.simulators or jvm not in self._jvms:
            return
        self._jvms.remove(jvm)
        jvm.close()

    def close(self) -> None:
        """Stop every JVM of the pool (their simulators are then broken)."""
        with self._lock:
            jvms, self._jvms = self._jvms, []
        for jvm in jvms:
            for simulator in jvm.simulators:
                simulator.broken = True
            jvm.close()

    def _forget_after_fork(self, inherited: list[Any]) -> None:
        """In a forked child: leave the parent's JVMs to the parent (see ``engine._forget_parent_jvms``)."""
        self._lock = threading.RLock()
        jvms, self._jvms = self._jvms, []
        for jvm in jvms:
            jvm.gateway._gateway_client.is_connected = False
            jvm.lock = threading.RLock()  # another thread of the parent may have held it at the fork
            for simulator in jvm.simulators:
                simulator.broken = True
            inherited.append(jvm)


_POOLS: weakref.WeakSet[JvmPool] = weakref.WeakSet()
_DEFAULT: list[JvmPool] = []
_DEFAULT_LOCK = threading.Lock()


SHARED_SIMULATORS_PER_JVM = 32
"""The bound of the process's pool: 64 runner slots on one JVM play at 20.8 steps/s, on two JVMs at 28.6
(benchmarks/README.md, "ScienceWorld's slots share a JVM"): a JVM runs one call at a time, so a second one lets the
two cores work while a queue forms, at the cost of a JVM (~250 MiB)."""


def default_pool() -> JvmPool:
    """The process's pool for ``jvm="shared"``: a JVM for every ``SHARED_SIMULATORS_PER_JVM`` envs."""
    with _DEFAULT_LOCK:
        if not _DEFAULT:
            _DEFAULT.append(JvmPool(simulators_per_jvm=SHARED_SIMULATORS_PER_JVM))
        return _DEFAULT[0]


def _forget_pools_in_child() -> None:
    for pool in list(_POOLS):
        pool._forget_after_fork(INHERITED)


def _close_pools() -> None:
    for pool in list(_POOLS):
        pool.close()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pools_in_child)
atexit.register(_close_pools)
