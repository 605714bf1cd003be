"""jericho's world-diff filter split over a pool of emulator processes.

The filter (jericho's C ``filter_candidate_actions``) plays each candidate for one turn from the same state and
restores the state after it, so a candidate's verdict does not depend on the others: the candidates can be split
into chunks, each played by another emulator of the same game from the same state, and the groups merged. It is
the game's own turn that costs (330-1,650 us a candidate in the Inform games), so the split pays up to the
number of cores.

Processes, not threads: ctypes lets go of the GIL during the call, but the C filter splits its input with libc's
``strtok``, whose one saved position is shared by every thread of a process.

The pool starts on first use (``spawn``: no fork of a threaded process) and is shared by every env of the
process; its size is ``$AGENTGYM_TEXT_JERICHO_WORKERS`` (0, the default: no pool, the filter runs in the
caller's emulator as before).
"""

from __future__ import annotations

import atexit
import ctypes
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

__all__ = ["WORKERS_VARIABLE", "FilterPool", "shared_pool", "world_diff_groups", "split"]

logger = logging.getLogger(__name__)

WORKERS_VARIABLE = "AGENTGYM_TEXT_JERICHO_WORKERS"
DIFF_WORDS = 128
"""Words of one world diff in the C filter's output (objects moved, attributes set and cleared, special RAM)."""
CHUNKS_PER_WORKER = 2
"""More chunks than workers: a chunk of slow candidates then holds up one worker, not the listing."""

PARENT_CHECK_SECONDS = 1.0
"""How often a worker looks whether the process that started it still exists."""
Groups = dict[bytes, list[str]]


def world_diff_groups(frotz, state, actions: list[str]) -> tuple[Groups, bool]:
    """The C filter on ``actions`` from ``state``: the actions that change the world grouped by their world diff,
    and whether the emulator halted (the C filter then stops at that action). For a worker, which plays one call
    at a time: two threads of one process in the C filter at once corrupt each other (``strtok``)."""
    import numpy as np

    frotz.set_state(state)
    joined = ";".join(actions).encode("utf-8")
    text = ctypes.create_string_buffer(joined, len(joined) + 1)  # strtok writes into it
    kept = ctypes.create_string_buffer(len(joined) + 2)
    diffs = np.zeros(len(actions) * DIFF_WORDS, dtype=np.uint16)
    count = frotz.frotz_lib.filter_candidate_actions(text, kept, np.ctypeslib.as_ctypes(diffs))
    halted = frotz._emulator_halted()
    if halted:
        frotz.reset()
    names = kept.value.decode("cp1252").split(";")[:count]
    groups: Groups = {}
    for index, name in enumerate(names):
        groups.setdefault(diffs[index * DIFF_WORDS : (index + 1) * DIFF_WORDS].tobytes(), []).append(name)
    return groups, halted


def split(actions: list[str], parts: int) -> list[list[str]]:
    """``actions`` in at most ``parts`` interleaved chunks (neighbouring candidates share a template and so a
    cost: interleaving spreads the slow templates over the chunks).

    >>> split(["a", "b", "c", "d", "e"], 2)
    [['a', 'c', 'e'], ['b', 'd']]
    """
    return [chunk for chunk in (actions[start::parts] for start in range(parts)) if chunk]


_EMULATORS: dict[str, object] = {}
"""A worker's emulators, one per game file (a worker serves every game the process plays)."""
_DICTIONARIES: dict[str, dict[str, list[str]]] = {}


def _emulator(path: str):
    frotz = _EMULATORS.get(path)
    if frotz is None:
        import warnings

        from jericho import FrotzEnv

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            frotz = _EMULATORS[path] = FrotzEnv(path, seed=1)  # the state carries the emulator's RNG
        frotz.reset()
    return frotz


def _leave_with_parent(parent: int) -> None:
    """A worker exits when the process that started it is gone (a killed parent's workers otherwise wait for
    work forever)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="jericho-worker-watch", daemon=True).start()


def _play_chunk(path: str, state, actions: list[str]) -> tuple[Groups, bool, int, float]:
    """The chunk's groups and halt, with the worker's process id and the CPU seconds the chunk took it."""
    start = time.thread_time()
    groups, halted = world_diff_groups(_emulator(path), state, actions)
    return groups, halted, os.getpid(), time.thread_time() - start


def _name_objects(path: str, state) -> tuple[list[str], set[str]]:
    from agentgym_text.envs.jericho.engine import dictionary_of
    from agentgym_text.envs.jericho.object_names import candidate_names

    frotz = _emulator(path)
    if path not in _DICTIONARIES:
        _DICTIONARIES[path] = dictionary_of(frotz)
    frotz.set_state(state)
    return candidate_names(frotz, _DICTIONARIES[path])


class FilterPool:
    """Worker processes that each keep an emulator per game and play chunks of candidates."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"a filter pool needs at least one worker, not {workers}")
        self.workers = workers
        self._lock = threading.Lock()
        self._executor: ProcessPoolExecutor | None = None
        self.busiest_cpu = 0.0
        """CPU seconds of the busiest worker in the last ``filter`` (the listing's critical path on idle cores)."""

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                self._executor = ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_leave_with_parent,
                    initargs=(os.getpid(),),
                )
            return self._executor

    def filter(self, path: str, state, actions: list[str]) -> Groups | None:
        """The groups the C filter gives for ``actions`` from ``state``, played by the workers; None when an
        emulator halted or a worker died (the caller then plays them itself, where a halt ends the listing as
        jericho's filter ends it)."""
        chunks = split(actions, self.workers * CHUNKS_PER_WORKER)
        self.busiest_cpu = 0.0
        try:
            pool = self._pool()
            results = [future.result() for future in [pool.submit(_play_chunk, path, state, c) for c in chunks]]
        except BrokenProcessPool:
            logger.warning("a jericho filter worker died; the listing is made in this process")
            self.close()  # the next call starts a fresh pool
            return None
        merged: Groups = {}
        busy: dict[int, float] = {}
        for groups, halted, worker, cpu in results:
            if halted:
                return None
            busy[worker] = busy.get(worker, 0.0) + cpu
            for diff, names in groups.items():
                merged.setdefault(diff, []).extend(names)
        self.busiest_cpu = max(busy.values(), default=0.0)
        return merged

    def names(self, path: str, state) -> tuple[list[str], set[str]] | None:
        """``candidate_names`` at ``state``, in a worker; None when the worker died."""
        try:
            return self._pool().submit(_name_objects, path, state).result()
        except BrokenProcessPool:
            self.close()
            return None

    def close(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


_SHARED: FilterPool | None = None
_SHARED_LOCK = threading.Lock()


def workers_setting() -> int:
    """``$AGENTGYM_TEXT_JERICHO_WORKERS`` as a count of workers (0 when unset); a clear error when not a count."""
    value = os.environ.get(WORKERS_VARIABLE, "").strip()
    if not value:
        return 0
    if not value.isdigit():
        raise ValueError(f"{WORKERS_VARIABLE} must be a count of worker processes (0: none), not {value!r}")
    return int(value)


def shared_pool() -> FilterPool | None:
    """The process's pool, started on first use with ``$AGENTGYM_TEXT_JERICHO_WORKERS`` workers (None: 0)."""
    global _SHARED
    workers = workers_setting()
    with _SHARED_LOCK:
        if _SHARED is not None and _SHARED.workers != workers:
            _SHARED.close()
            _SHARED = None
        if _SHARED is None and workers > 0:
            _SHARED = FilterPool(workers)
            atexit.register(_SHARED.close)
        return _SHARED
