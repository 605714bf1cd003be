"""Where one episode at a time runs: a slot holds one env, in this process ("sync"), in a worker process of its
own ("async", gymnasium's ``AsyncVectorEnv`` with one sub-env) or in a Ray actor ("ray", see
``agentgym_text.eval.ray_slot.RemoteEnv``: a dead actor is replaced and the episode replayed into the new one),
and speaks plain single-env values.

The runner's pool gives every slot its own thread, so episodes proceed independently: a slow model reply holds
up only its own episode. Families not declared ``thread_safe`` get worker processes when several of their envs
may run at once (``slot_mode``). Whatever the backend, an env that raises or a worker that dies (a crash, ``os._exit``, an
out-of-memory kill) surfaces as ``EngineLost``; the slot is then dead and the runner opens a new one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
from gymnasium.vector import AsyncVectorEnv, AutoresetMode

from agentgym_text.core.info import EngineLost
from agentgym_text.core.registry import EnvEntry
from agentgym_text.eval.ray_slot import RemoteEnv
from agentgym_text.wrappers.recorder import to_jsonable
from agentgym_text.wrappers.repetition import RepetitionTracker

__all__ = ["Slot", "open_slot", "slot_mode", "unbatch_info", "SLOT_MODES"]

SLOT_MODES = ("sync", "async", "ray")


def slot_mode(entry: EnvEntry, requested: str, slots: int) -> str:
    """The backend for ``entry`` when ``slots`` envs of its family may run at once: the requested one, except that
    envs of a family not declared thread-safe never share a process's threads ("sync" becomes "async": a worker
    process each)."""
    if requested == "sync" and slots > 1 and not entry.thread_safe:
        return "async"
    return requested


def unbatch_info(infos: dict[str, Any], index: int) -> dict[str, Any]:
    """The info of sub-env ``index`` out of a vector env's batched info dict (plain JSON types)."""
    single: dict[str, Any] = {}
    for key, value in infos.items():
        if key.startswith("_"):
            continue
        if isinstance(value, dict):
            single[key] = unbatch_info(value, index)
            continue
        mask = infos.get(f"_{key}")
        if mask is not None and not mask[index]:
            continue
        single[key] = to_jsonable(value[index])
    return single


def _env_factory(
    env_id: str,
    max_steps: int | None,
    wrappers: Sequence[Callable[[gym.Env], gym.Env]],
    stop_after_repeats: int | None,
    env_kwargs: dict[str, Any],
) -> Callable[[], gym.Env]:
    wrappers = tuple(wrappers)
    env_kwargs = dict(env_kwargs)

    def make() -> gym.Env:
        budget = {"max_episode_steps": max_steps} if max_steps else {}
        env = gym.make(env_id, **env_kwargs, **budget)
        env = RepetitionTracker(env, stop_after=stop_after_repeats)
        for wrapper in wrappers:
            env = wrapper(env)
        return env

    return make


class Slot:
    """One env for one episode at a time; ``reset(task_id, seed)``, ``step``, ``call`` (an attribute or a method
    of the unwrapped env, e.g. ``expert_action``), ``close``. After an ``EngineLost``, ``dead`` is true."""

    def __init__(self, make: Callable[[], gym.Env], mode: str):
        if mode not in SLOT_MODES:
            raise ValueError(f"the vector mode must be one of {SLOT_MODES}")
        self.mode = mode
        self.dead = False
        self._env: gym.Env | None = None
        self._vector: AsyncVectorEnv | None = None
        self._remote: RemoteEnv | None = None
        if mode == "sync":
            self._env = make()
        elif mode == "ray":
            self._remote = RemoteEnv(make)
        else:
            # Not "fork": the runner opens slots from several threads, and a child forked while another thread
            # holds a lock (logging's, the import lock, an engine's) waits on it forever.
            self._vector = AsyncVectorEnv([make], autoreset_mode=AutoresetMode.DISABLED, context="forkserver")

    def _guarded(self, run: Callable[[], Any]) -> Any:
        if self.dead:
            raise EngineLost("this slot's engine died earlier")
        try:
            return run()
        except EngineLost:
            self.dead = True
            raise
        except Exception as error:  # the env raised, or its worker process is gone (EOFError, BrokenPipeError)
            self.dead = True
            raise EngineLost(f"{type(error).__name__}: {error}") from error

    def reset(self, task_id: str, seed: int) -> tuple[str, dict[str, Any]]:
        return self._guarded(lambda: self._reset(task_id, seed))

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        return self._guarded(lambda: self._step(action))

    def call(self, name: str) -> Any:
        return self._guarded(lambda: self._call(name))

    def _reset(self, task_id: str, seed: int) -> tuple[str, dict[str, Any]]:
        if self._env is not None:
            obs, info = self._env.reset(seed=seed, options={"task_id": task_id})
            return str(obs), to_jsonable(info)
        if self._remote is not None:
            obs, info = self._remote.reset(seed=seed, options={"task_id": task_id})
            return str(obs), to_jsonable(info)
        assert self._vector is not None
        obs, infos = self._vector.reset(seed=[seed], options={"task_id": task_id})
        return str(obs[0]), unbatch_info(infos, 0)

    def _step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        env = self._env if self._env is not None else self._remote
        if env is not None:
            obs, reward, terminated, truncated, info = env.step(action)
            return str(obs), float(reward), bool(terminated), bool(truncated), to_jsonable(info)
        assert self._vector is not None
        obs, rewards, terminations, truncations, infos = self._vector.step((action,))
        return (str(obs[0]), float(rewards[0]), bool(terminations[0]), bool(truncations[0]), unbatch_info(infos, 0))

    def _call(self, name: str) -> Any:
        if self._env is not None:
            value = getattr(self._env.unwrapped, name)
            return value() if callable(value) else value
        if self._remote is not None:
            return self._remote.call(name)
        assert self._vector is not None
        return self._vector.call(name)[0]

    def worker_pids(self) -> list[int]:
        """The worker processes behind this slot ("async" mode; empty otherwise)."""
        if self._vector is None:
            return []
        return [process.pid for process in self._vector.processes if process.pid is not None]

    def close(self) -> None:
        if self._env is not None:
            self._env.close()
        if self._vector is not None:
            self._close_vector(self._vector)
        if self._remote is not None:
            self._remote.close()

    def _close_vector(self, vector: AsyncVectorEnv) -> None:
        if not self.dead:
            vector.close()
            return
        # A dead worker leaves the vector env waiting on a pipe that only raises EOFError: end the processes here.
        for process in vector.processes:
            if process.is_alive():
                process.terminate()
            process.join(timeout=10)
        for pipe in vector.parent_pipes:
            if pipe is not None:
                pipe.close()
        vector.closed = True  # what gymnasium's close would have set; its __del__ then does nothing


def open_slot(
    env_id: str,
    mode: str = "sync",
    *,
    max_steps: int | None = None,
    wrappers: Sequence[Callable[[gym.Env], gym.Env]] = (),
    stop_after_repeats: int | None = None,
    env_kwargs: dict[str, Any] | None = None,
) -> Slot:
    """A slot playing ``gym.make(env_id, **env_kwargs)`` wrapped in ``RepetitionTracker`` and ``wrappers``."""
    return Slot(_env_factory(env_id, max_steps, wrappers, stop_after_repeats, env_kwargs or {}), mode)
