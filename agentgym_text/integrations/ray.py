"""A gymnasium vector env on Ray: sub-envs live in Ray actors, the driver keeps the batch.

- ``RayVectorEnv(env_id, num_envs, ...)``: a gymnasium ``VectorEnv`` whose sub-envs live in Ray actors (one actor
  per ``envs_per_actor`` sub-envs, with the Ray resources of ``actor_options``). It returns what
  ``gym.make_vec(env_id, num_envs, vectorization_mode="sync")`` returns for the same seeds and actions, sends work
  only to the actors of active sub-envs (an action of ``None`` leaves a sub-env idle), and survives a dead actor:
  a new one is started and each episode it held ends with ``truncated=True`` and
  ``info["finish_reason"] == "engine_error"`` (with ``step_timeout``, a hung actor counts as dead).
- ``init_ray(address)``: an existing cluster ("auto", "ray://host:10001") or a local instance started here.

The actors are those of ``agentgym_text.eval.ray_actors``, which also serve the evaluation runner's "ray" slots
(``agentgym_text.eval.ray_slot.RemoteEnv``). Ray is imported only when these are used: ``pip install
'agentgym-text[ray]'``. The actors import agentgym-text, so on a cluster every node needs it installed (or a Ray
``runtime_env`` that ships it).
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Sequence
from copy import deepcopy
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array, iterate

from agentgym_text.core.info import EngineLost, FinishReason
from agentgym_text.eval.ray_actors import (
    engine_losses,
    init_ray,
    kill_actor,
    make_env,
    ray_module,
    spawn_actor,
    wait_ready,
)

__all__ = ["RayVectorEnv", "init_ray", "make_env", "LOST_OBSERVATION"]

logger = logging.getLogger(__name__)

LOST_OBSERVATION = "The engine running this episode crashed and was restarted; the episode is lost (engine_error)."
_LOST = object()


class _Group:
    """The driver's record of one actor and the sub-envs it holds."""

    def __init__(self, indices: list[int]):
        self.indices = indices
        self.actor: Any = None
        self.pid = 0
        self.failures = 0


class RayVectorEnv(VectorEnv):
    """A vector env whose sub-envs live in Ray actors.

    ``actor_options`` go to ``ray.remote(...).options`` (e.g. ``{"num_cpus": 1, "memory": 2 * 2**30}`` for a JVM
    engine); ``max_restarts`` bounds the restarts of one actor in a row before ``EngineLost`` is raised;
    ``step_timeout`` (s, default none) counts a call that takes longer as a crash; ``make_kwargs`` go to
    ``gym.make``. Ray is started locally (``init_ray``) if this process is not connected yet.
    ``restarts`` counts the actors started again.
    """

    def __init__(
        self,
        env_id: str,
        num_envs: int,
        *,
        envs_per_actor: int = 1,
        actor_options: dict[str, Any] | None = None,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        max_restarts: int = 3,
        step_timeout: float | None = None,
        start_timeout: float = 300.0,
        wrappers: Sequence[Callable[[gym.Env], gym.Env]] = (),
        address: str | None = None,
        **make_kwargs: Any,
    ):
        super().__init__()
        if num_envs < 1 or envs_per_actor < 1:
            raise ValueError("num_envs and envs_per_actor must be at least 1")
        init_ray(address)
        self.env_id = env_id
        self.num_envs = num_envs
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.max_restarts = max_restarts
        self.step_timeout = step_timeout
        self.start_timeout = start_timeout
        self.restarts = 0
        self._actor_options = dict(actor_options or {})
        self._make = functools.partial(make_env, env_id, tuple(wrappers), **make_kwargs)
        self._groups = [
            _Group(list(range(start, min(start + envs_per_actor, num_envs))))
            for start in range(0, num_envs, envs_per_actor)
        ]
        self._group_of = {i: group for group in self._groups for i in group.indices}
        for group in self._groups:
            group.actor = spawn_actor(self._make, len(group.indices), self._actor_options)
        try:
            described = [wait_ready(group.actor, start_timeout, self._actor_options) for group in self._groups]
        except BaseException:
            for group in self._groups:
                kill_actor(group.actor)
            raise
        for group, (_, _, _, _, pid) in zip(self._groups, described):
            group.pid = pid
        obs_space, action_space, metadata, render_mode, _ = described[0]
        self.single_observation_space, self.single_action_space = obs_space, action_space
        self.observation_space = batch_space(obs_space, num_envs)
        self.action_space = batch_space(action_space, num_envs)
        self.metadata = {**metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = render_mode
        self._env_obs: list[Any] = [None] * num_envs
        self._observations = create_empty_array(obs_space, n=num_envs, fn=np.zeros)
        self._rewards = np.zeros((num_envs,), dtype=np.float64)
        self._terminations = np.zeros((num_envs,), dtype=np.bool_)
        self._truncations = np.zeros((num_envs,), dtype=np.bool_)
        self._autoreset_envs = np.zeros((num_envs,), dtype=np.bool_)
        self._running = np.zeros((num_envs,), dtype=np.bool_)
        self._lost = np.zeros((num_envs,), dtype=np.bool_)
        self._last_info: list[dict[str, Any]] = [{} for _ in range(num_envs)]

    @property
    def actors(self) -> list[Any]:
        """The actor handles, one per group of ``envs_per_actor`` sub-envs."""
        return [group.actor for group in self._groups]

    def actor_of(self, index: int) -> Any:
        return self._group_of[index].actor

    def _dispatch(self, ops: dict[int, tuple[str, Any]]) -> dict[int, Any]:
        """Run ``ops`` (by sub-env index) with one call per actor concerned; a sub-env whose actor died gets
        ``_LOST`` (the actor is replaced, and the other running episodes it held are marked lost)."""
        ray = ray_module()
        calls = []
        for group in self._groups:
            batch = [i for i in group.indices if i in ops]
            if batch:
                first = group.indices[0]
                ref = group.actor.run.remote([(i - first, *ops[i]) for i in batch])
                calls.append((group, batch, ref))
        deadline = None if self.step_timeout is None else time.monotonic() + self.step_timeout
        results: dict[int, Any] = {}
        for group, batch, ref in calls:
            try:
                timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
                values = ray.get(ref, timeout=timeout)
                group.failures = 0
            except engine_losses() as error:
                self._restart(group, error)
                values = [_LOST] * len(batch)
            results.update(zip(batch, values))
        return results

    def _restart(self, group: _Group, error: BaseException) -> None:
        group.failures += 1
        if group.failures > self.max_restarts:
            raise EngineLost(
                f"the actor of sub-envs {group.indices} of {self.env_id} died {group.failures} times in a row: {error}"
            ) from error
        logger.warning(
            "the actor of sub-envs %s of %s died (%s); starting a new one",
            group.indices,
            self.env_id,
            type(error).__name__,
        )
        kill_actor(group.actor)
        self.restarts += 1
        group.actor = spawn_actor(self._make, len(group.indices), self._actor_options)
        group.pid = wait_ready(group.actor, self.start_timeout, self._actor_options)[4]
        for i in group.indices:
            self._lost[i] = bool(self._running[i])
            self._running[i] = False

    def _reset_all(self, seeds: dict[int, int | None], options: dict[str, Any] | None) -> dict[int, Any]:
        """Reset these sub-envs, again on a new actor if theirs died."""
        results: dict[int, Any] = {}
        todo = dict(seeds)
        while todo:  # ends: every round either resets or counts a failure towards max_restarts
            done = self._dispatch({i: ("reset", (seed, options)) for i, seed in todo.items()})
            for i, value in done.items():
                if value is not _LOST:
                    results[i] = value
                    self._running[i], self._lost[i] = True, False
                    del todo[i]
        return results

    def _lost_result(self, i: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._lost[i] = self._running[i] = False
        info = {**self._last_info[i], "finish_reason": FinishReason.ENGINE_ERROR.value, "success": False}
        return LOST_OBSERVATION, 0.0, False, True, info

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        if seed is None:
            seed = [None] * self.num_envs
        elif isinstance(seed, int):
            seed = [seed + i for i in range(self.num_envs)]
        if len(seed) != self.num_envs:
            raise ValueError(
                f"If seeds are passed as a list the length must match num_envs={self.num_envs} but "
                f"got length={len(seed)}."
            )
        mask = np.ones((self.num_envs,), dtype=np.bool_)
        if options is not None and "reset_mask" in options:
            options = dict(options)
            mask = np.asarray(options.pop("reset_mask"), dtype=np.bool_)
            if mask.shape != (self.num_envs,) or not mask.any():
                raise ValueError(f"options['reset_mask'] must be {self.num_envs} booleans, at least one True")
        self._terminations[mask] = self._truncations[mask] = self._autoreset_envs[mask] = False
        results = self._reset_all({i: seed[i] for i in range(self.num_envs) if mask[i]}, options)
        infos: dict[str, Any] = {}
        for i in sorted(results):
            self._env_obs[i], self._last_info[i] = results[i]
            infos = self._add_info(infos, self._last_info[i], i)
        self._observations = concatenate(self.single_observation_space, self._env_obs, self._observations)
        return deepcopy(self._observations), infos

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step the sub-envs given an action; ``None`` (and, without autoreset, an ended episode) stays idle."""
        actions = list(iterate(self.action_space, actions))
        if len(actions) != self.num_envs:
            raise ValueError(f"expected {self.num_envs} actions, got {len(actions)}")
        kind = "step_autoreset" if self.autoreset_mode == AutoresetMode.SAME_STEP else "step"
        resets, steps, lost = {}, {}, []
        for i, action in enumerate(actions):
            if self._autoreset_envs[i] and self.autoreset_mode == AutoresetMode.NEXT_STEP:
                resets[i] = None
            elif action is None or self._autoreset_envs[i]:
                continue
            elif self._lost[i]:
                lost.append(i)
            else:
                steps[i] = (kind, action)
        # next-step autoresets travel in the same call as the steps: one round trip per actor per vector step
        results = self._dispatch({**steps, **{i: ("reset", (None, None)) for i in resets}}) if steps or resets else {}
        for i in resets:
            if results[i] is _LOST:
                results[i] = self._reset_all({i: None}, None)[i]
            else:
                self._running[i], self._lost[i] = True, False
        active = sorted([*results, *lost])
        infos: dict[str, Any] = {}
        for i in active:
            value = results.get(i, _LOST)
            final = None
            if i in resets:
                obs, info = value
                reward, terminated, truncated = 0.0, False, False
            elif value is _LOST:
                obs, reward, terminated, truncated, info = self._lost_result(i)
                if kind == "step_autoreset":
                    final = (obs, info)
                    obs, info = self._reset_all({i: None}, None)[i]
            else:
                obs, reward, terminated, truncated, info = value[:5]
                final = value[5] if kind == "step_autoreset" else None
            if final is not None:
                infos = self._add_info(infos, {"final_obs": final[0], "final_info": final[1]}, i)
            self._env_obs[i], self._rewards[i] = obs, reward
            self._terminations[i], self._truncations[i] = terminated, truncated
            self._last_info[i] = info
            self._running[i] = not (terminated or truncated) or final is not None
            infos = self._add_info(infos, info, i)
        idle = np.ones((self.num_envs,), dtype=np.bool_)
        idle[active] = False
        self._rewards[idle] = 0.0
        self._observations = concatenate(self.single_observation_space, self._env_obs, self._observations)
        if self.autoreset_mode != AutoresetMode.SAME_STEP:
            self._autoreset_envs = np.logical_or(self._terminations, self._truncations)
        return (
            deepcopy(self._observations),
            np.copy(self._rewards),
            np.copy(self._terminations),
            np.copy(self._truncations),
            infos,
        )

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """``name`` of every sub-env (called if callable); None for a sub-env whose actor just died."""
        results = self._dispatch({i: ("call", (name, args, kwargs, False)) for i in range(self.num_envs)})
        return tuple(None if results[i] is _LOST else results[i] for i in range(self.num_envs))

    def get_attr(self, name: str) -> tuple[Any, ...]:
        return self.call(name)

    def set_attr(self, name: str, values: list[Any] | tuple[Any, ...] | Any) -> None:
        if not isinstance(values, (list, tuple)):
            values = [values] * self.num_envs
        if len(values) != self.num_envs:
            raise ValueError(f"expected {self.num_envs} values, got {len(values)}")
        self._dispatch({i: ("set", (name, value)) for i, value in enumerate(values)})

    def render(self) -> tuple[Any, ...]:
        return self.call("render")

    def close_extras(self, **kwargs: Any) -> None:
        ray = ray_module()
        for group in getattr(self, "_groups", []):
            try:
                ray.get(group.actor.close.remote(), timeout=30)
            except Exception:  # a dead or hung actor: killed below
                logger.debug("closing an actor failed", exc_info=True)
            kill_actor(group.actor)
