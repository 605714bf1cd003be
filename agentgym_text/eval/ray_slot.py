"""``RemoteEnv``: one env in a Ray actor, the evaluation runner's "ray" slot backend (``agentgym-text eval --backend
ray``). When its actor dies, a new one replays the episode so far from its seed and actions (the env contract makes
that exact) and the call is retried, so the run loses nothing and writes no row twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import gymnasium as gym

from agentgym_text.core.info import EngineLost
from agentgym_text.eval.ray_actors import engine_losses, kill_actor, ray_module, spawn_actor, wait_ready

__all__ = ["RemoteEnv"]

logger = logging.getLogger(__name__)


class RemoteEnv:
    """One env in a Ray actor, for the evaluation runner: ``reset``, ``step``, ``call`` (an attribute or method
    of the unwrapped env), ``close``.

    When the actor dies (or a call exceeds ``step_timeout``), a new actor replays the episode so far (its reset,
    then its actions) and the call is retried; the replay must end on the observation recorded, else, or after
    ``max_restarts`` failures within one call, ``EngineLost`` is raised. ``restarts`` counts new actors.
    """

    def __init__(
        self,
        make: Callable[[], gym.Env],
        *,
        actor_options: dict[str, Any] | None = None,
        max_restarts: int = 3,
        step_timeout: float | None = None,
        start_timeout: float = 300.0,
    ):
        self._make = make
        self._options = dict(actor_options or {})
        self.max_restarts = max_restarts
        self.step_timeout = step_timeout
        self.start_timeout = start_timeout
        self.restarts = 0
        self._episode: list[tuple[str, Any]] = []
        self._last_observation: Any = None
        self.actor = spawn_actor(make, 1, self._options)
        self.pid = wait_ready(self.actor, start_timeout, self._options)[4]

    def _get(self, ops: list[tuple[str, Any]], timeout: float | None) -> list[Any]:
        return ray_module().get(self.actor.run.remote([(0, kind, payload) for kind, payload in ops]), timeout=timeout)

    def _run(self, op: tuple[str, Any]) -> Any:
        failures = 0
        while True:
            try:
                return self._get([op], self.step_timeout)[0]
            except engine_losses() as error:
                failures += 1
                if failures > self.max_restarts:
                    raise EngineLost(f"the Ray actor died {failures} times in a row: {error}") from error
                logger.warning(
                    "a Ray actor died (%s); starting a new one and replaying %d operations",
                    type(error).__name__,
                    len(self._episode),
                )
                self._replace()
                if self._episode:
                    try:
                        replayed = self._get(
                            self._episode, None if self.step_timeout is None else self.step_timeout * len(self._episode)
                        )
                    except engine_losses():
                        continue
                    if replayed[-1][0] != self._last_observation:
                        raise EngineLost("replaying the episode on a new actor gave another observation") from error

    def _replace(self) -> None:
        kill_actor(self.actor)
        self.restarts += 1
        self.actor = spawn_actor(self._make, 1, self._options)
        self.pid = wait_ready(self.actor, self.start_timeout, self._options)[4]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        op = ("reset", (seed, options))
        self._episode = []
        obs, info = self._run(op)
        self._episode, self._last_observation = [op], obs
        return obs, info

    def step(self, action: str) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        op = ("step", action)
        result = self._run(op)
        self._episode.append(op)
        self._last_observation = result[0]
        return result

    def call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        return self._run(("call", (name, args, kwargs, True)))

    def close(self) -> None:
        try:
            ray_module().get(self.actor.close.remote(), timeout=30)
        except Exception:  # a dead or hung actor: killed below
            logger.debug("closing an actor failed", exc_info=True)
        kill_actor(self.actor)
