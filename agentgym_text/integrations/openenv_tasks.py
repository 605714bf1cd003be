"""What the OpenEnv server answers without an engine: its task API over ``datasets.tasks`` (the splits, counts and
rows of an env id, or of a multi-task set of several ids with weights), the info fields an observation carries, and
the lock around families not declared thread-safe.

``envs`` is what ``datasets.tasks`` takes (one id, or several with weights); ``size`` and ``mix_seed`` are its
multi-task arguments (``size``: the set's rows; one id without it: its split as ``datasets.tasks`` gives it)."""

from __future__ import annotations

import contextlib
import functools
import json
import threading
from typing import Any

from agentgym_text.integrations.mixture import EnvIds, parse_mixture

__all__ = ["INFO_FIELDS", "engine_guard", "env_name", "task_splits", "task_count", "task_row", "task_spec"]

_UNSAFE_ENGINES = threading.RLock()
"""Held around every env call of a family not declared thread-safe."""


def engine_guard(env_id: str) -> Any:
    import agentgym_text

    entry = next((e for e in agentgym_text.list_envs() if e.env_id == env_id), None)
    return contextlib.nullcontext() if entry is not None and entry.thread_safe else _UNSAFE_ENGINES


INFO_FIELDS = (
    "goal",
    "task_id",
    "progress_rate",
    "progress_now",
    "valid",
    "invalid_reason",
    "finish_reason",
    "success",
    "step",
    "max_steps",
)
"""The info keys an observation carries as typed fields and in ``metadata`` (with ``truncated``)."""


def env_name(envs: EnvIds) -> str:
    """The name OpenEnv serves ``envs`` under in its task API routes (``/{name}/splits``): "/" as "-", and the ids
    of a multi-task set joined by "+"."""
    return parse_mixture(envs).name


def task_splits(envs: EnvIds, env_kwargs: dict[str, Any] | None = None) -> tuple[str, ...]:
    """The splits of ``envs``: "test" (the shipped tasks, or those ``env_kwargs`` name) and "train" where every id's
    family declares one (served without kwargs: a train row's kwargs are its own)."""
    from agentgym_text.integrations.datasets import train_splits

    declared = train_splits()
    every_id = all(declared[env_id].available for env_id in parse_mixture(envs).env_ids)
    return ("test", "train") if every_id and not env_kwargs else ("test",)


def _key(envs: EnvIds, env_kwargs: dict[str, Any]) -> tuple[str, str]:
    return parse_mixture(envs).spec(), json.dumps(env_kwargs, sort_keys=True, default=str)


def _check_split(envs: EnvIds, env_kwargs: dict[str, Any], split: str) -> None:
    splits = task_splits(envs, env_kwargs)
    if split not in splits:
        name = parse_mixture(envs).spec()
        raise ValueError(f"{name} (served with {env_kwargs}) has no split {split!r}; its splits: {', '.join(splits)}")


@functools.lru_cache(maxsize=64)
def _count(spec: str, kwargs_key: str, split: str, size: int | None, mix_seed: int) -> int:
    from agentgym_text.integrations.datasets import count_tasks

    return count_tasks(spec, split, size=size, mix_seed=mix_seed, env_kwargs=json.loads(kwargs_key) or None)


def task_count(
    envs: EnvIds, env_kwargs: dict[str, Any], split: str, *, size: int | None = None, mix_seed: int = 0
) -> int:
    _check_split(envs, env_kwargs, split)
    return _count(*_key(envs, env_kwargs), split, size, mix_seed)


@functools.lru_cache(maxsize=4096)
def _row(spec: str, kwargs_key: str, split: str, index: int, size: int | None, mix_seed: int) -> str:
    from agentgym_text.integrations.datasets import tasks

    kwargs = json.loads(kwargs_key) or None
    (row,) = tasks(spec, split, size=size, mix_seed=mix_seed, offset=index, limit=1, env_kwargs=kwargs)
    return json.dumps(row)


def task_row(
    envs: EnvIds, env_kwargs: dict[str, Any], split: str, index: int, *, size: int | None = None, mix_seed: int = 0
) -> dict[str, Any]:
    """Row ``index`` of ``datasets.tasks(envs, split, size=size, mix_seed=mix_seed)``; ``IndexError`` (OpenEnv
    answers 400) when out of range."""
    count = task_count(envs, env_kwargs, split, size=size, mix_seed=mix_seed)
    if not 0 <= index < count:
        raise IndexError(f"{split} has {count} tasks; index {index} is out of range")
    return json.loads(_row(*_key(envs, env_kwargs), split, index, size, mix_seed))


def task_spec(
    envs: EnvIds, env_kwargs: dict[str, Any], split: str, index: int, *, size: int | None = None, mix_seed: int = 0
) -> dict[str, Any]:
    """What the task API returns for a row: OpenEnv's ``id`` and ``index``, then the row (its ``prompt``
    messages left out: they are ``system_prompt`` and ``first_observation``)."""
    row = task_row(envs, env_kwargs, split, index, size=size, mix_seed=mix_seed)
    row.pop("prompt", None)
    return {"id": row["task_id"], "index": index, **row}
