"""What the OpenEnv server answers without an engine: its task API over ``datasets.tasks`` (the splits, counts and
rows of an env id), the info fields an observation carries, and the lock around families not declared thread-safe."""

from __future__ import annotations

import contextlib
import functools
import json
import threading
from typing import Any

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


def env_name(env_id: str) -> str:
    """The name OpenEnv serves ``env_id`` under in its task API routes (``/{name}/splits``): "/" as "-"."""
    return env_id.replace("/", "-")


def task_splits(env_id: str, env_kwargs: dict[str, Any] | None = None) -> tuple[str, ...]:
    """The splits of ``env_id``: "test" (the shipped tasks, or those ``env_kwargs`` name) and "train" where the
    family declares one (served without kwargs: a train row's kwargs are its own)."""
    from agentgym_text.integrations.datasets import train_splits

    return ("test", "train") if train_splits()[env_id].available and not env_kwargs else ("test",)


def _kwargs_key(env_kwargs: dict[str, Any]) -> str:
    return json.dumps(env_kwargs, sort_keys=True, default=str)


def _check_split(env_id: str, env_kwargs: dict[str, Any], split: str) -> None:
    splits = task_splits(env_id, env_kwargs)
    if split not in splits:
        raise ValueError(f"{env_id} (served with {env_kwargs}) has no split {split!r}; its splits: {', '.join(splits)}")


@functools.lru_cache(maxsize=64)
def _count(env_id: str, kwargs_key: str, split: str) -> int:
    from agentgym_text.integrations.datasets import count_tasks

    return count_tasks(env_id, split, env_kwargs=json.loads(kwargs_key) or None)


def task_count(env_id: str, env_kwargs: dict[str, Any], split: str) -> int:
    _check_split(env_id, env_kwargs, split)
    return _count(env_id, _kwargs_key(env_kwargs), split)


@functools.lru_cache(maxsize=4096)
def _row(env_id: str, kwargs_key: str, split: str, index: int) -> str:
    from agentgym_text.integrations.datasets import tasks

    (row,) = tasks(env_id, split, offset=index, limit=1, env_kwargs=json.loads(kwargs_key) or None)
    return json.dumps(row)


def task_row(env_id: str, env_kwargs: dict[str, Any], split: str, index: int) -> dict[str, Any]:
    """Row ``index`` of ``datasets.tasks(env_id, split)``; ``IndexError`` (OpenEnv answers 400) when out of range."""
    count = task_count(env_id, env_kwargs, split)
    if not 0 <= index < count:
        raise IndexError(f"{split} has {count} tasks; index {index} is out of range")
    return json.loads(_row(env_id, _kwargs_key(env_kwargs), split, index))


def task_spec(env_id: str, env_kwargs: dict[str, Any], split: str, index: int) -> dict[str, Any]:
    """What the task API returns for a row: OpenEnv's ``id`` and ``index``, then the row (its ``prompt``
    messages left out: they are ``system_prompt`` and ``first_observation``)."""
    row = task_row(env_id, env_kwargs, split, index)
    row.pop("prompt", None)
    return {"id": row["task_id"], "index": index, **row}
