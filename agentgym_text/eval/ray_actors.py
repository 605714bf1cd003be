"""The Ray actors both Ray backends use: an actor holding a few envs (``EnvGroup``), starting, awaiting and killing
one, Ray's errors that mean an actor is gone, and connecting to Ray (``init_ray``).

Two consumers sit on top: the evaluation runner's "ray" slots (``agentgym_text.eval.ray_slot.RemoteEnv``) and the
user-facing ``agentgym_text.integrations.ray.RayVectorEnv``. This module imports neither.

Ray is imported only when these are used: ``pip install 'agentgym-text[ray]'``. The actors import agentgym-text,
so on a cluster every node needs it installed (or a Ray ``runtime_env`` that ships it).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym

from agentgym_text.core.info import EngineLost

__all__ = ["EnvGroup", "engine_losses", "init_ray", "kill_actor", "make_env", "ray_module", "spawn_actor", "wait_ready"]

logger = logging.getLogger(__name__)


def ray_module() -> Any:
    try:
        import ray
    except ImportError:
        raise ImportError("the Ray backend needs Ray: pip install 'agentgym-text[ray]'") from None
    return ray


def engine_losses() -> tuple[type[BaseException], ...]:
    """Ray's errors that mean the actor (its process or node) is gone, as opposed to an error raised by the env."""
    exceptions = ray_module().exceptions
    names = (
        "RayActorError",
        "WorkerCrashedError",
        "NodeDiedError",
        "OutOfMemoryError",
        "GetTimeoutError",
        "ObjectLostError",
    )
    return tuple(getattr(exceptions, name) for name in names if hasattr(exceptions, name))


def init_ray(address: str | None = None, *, num_cpus: int | None = None) -> bool:
    """Connect this process to Ray unless it already is: to the cluster at ``address`` ("auto", "ray://..."), else
    to a local instance started here (``num_cpus`` default: this machine's, no dashboard).

    Returns True when this call connected (the caller then owns ``ray.shutdown()``). No usage statistics are sent.
    Raises ``ValueError`` when no cluster answers at ``address``.
    """
    ray = ray_module()
    if ray.is_initialized():
        return False
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if address:
        try:
            ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        except ConnectionError as error:  # ValueError: the CLI shows it as a one-line error
            raise ValueError(
                f"cannot reach a Ray cluster at {address!r} ({error}); start one (`ray start "
                "--head`) or leave out the address to start Ray on this machine"
            ) from None
    else:
        ray.init(
            num_cpus=num_cpus or os.cpu_count() or 1,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.WARNING,
        )
    return True


def make_env(env_id: str, wrappers: Sequence[Callable[[gym.Env], gym.Env]] = (), **kwargs: Any) -> gym.Env:
    """``gym.make(env_id, **kwargs)`` wrapped in ``wrappers``, in whatever process calls it (an actor's)."""
    import agentgym_text  # noqa: F401  (registers the ids in a fresh worker process)

    env = gym.make(env_id, **kwargs)
    for wrapper in wrappers:
        env = wrapper(env)
    return env


class EnvGroup:
    """The actor: a few envs, driven by lists of operations (one remote call per batch)."""

    def __init__(self, make: Callable[[], gym.Env], count: int):
        self.envs = [make() for _ in range(count)]

    def describe(self) -> tuple[Any, Any, dict[str, Any], Any, int]:
        env = self.envs[0]
        return env.observation_space, env.action_space, dict(env.metadata), env.render_mode, os.getpid()

    def run(self, ops: list[tuple[int, str, Any]]) -> list[Any]:
        results = []
        for index, kind, payload in ops:
            env = self.envs[index]
            if kind == "reset":
                results.append(env.reset(seed=payload[0], options=payload[1]))
            elif kind == "step":
                results.append(env.step(payload))
            elif kind == "step_autoreset":  # gymnasium's same-step autoreset
                obs, reward, terminated, truncated, info = env.step(payload)
                final = None
                if terminated or truncated:
                    final = (obs, info)
                    obs, info = env.reset()
                results.append((obs, reward, terminated, truncated, info, final))
            elif kind == "call":
                name, args, kwargs, unwrapped = payload
                value = getattr(env.unwrapped, name) if unwrapped else env.get_wrapper_attr(name)
                results.append(value(*args, **kwargs) if callable(value) else value)
            elif kind == "set":
                env.set_wrapper_attr(payload[0], payload[1])
                results.append(None)
            else:
                raise ValueError(f"unknown operation {kind!r}")
        return results

    def close(self) -> None:
        for env in self.envs:
            env.close()


def spawn_actor(make: Callable[[], gym.Env], count: int, actor_options: dict[str, Any]) -> Any:
    ray = ray_module()
    options = {"max_restarts": 0, **actor_options}  # restarts are ours: a new actor, then the lost episode handled
    return ray.remote(EnvGroup).options(**options).remote(make, count)


def wait_ready(actor: Any, timeout: float, actor_options: dict[str, Any]) -> Any:
    ray = ray_module()
    try:
        return ray.get(actor.describe.remote(), timeout=timeout)
    except ray.exceptions.GetTimeoutError:
        ray.kill(actor, no_restart=True)
        raise EngineLost(
            f"a Ray actor did not start within {timeout:.0f} s: does the cluster have the resources "
            f"asked ({actor_options or 'default'}) free?"
        ) from None


def kill_actor(actor: Any) -> None:
    try:
        ray_module().kill(actor, no_restart=True)
    except Exception:  # already gone
        logger.debug("killing a dead actor", exc_info=True)
