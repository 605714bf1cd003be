"""Task datasets for trainers that take one: one row per task instance, test (shipped) or train split.

A row says how to make the env and reset it to the instance (``env_id``, ``env_kwargs``, ``task_id``,
``seed``) and what a chat model sees first (``system_prompt``, ``first_observation``, and both as ``prompt``
messages, the column TRL's trainers read).

Splits:

- ``"test"``: the shipped tasks of every id (what the benchmark reports on), reset with seed 0.
- ``"train"``: instances apart from the shipped ones, as each family declares (``Family.train_split``): a builder
  of its own, or constructor kwargs selecting its training range, in the test tasks' text, system prompt and budget
  (``env_kwargs`` change how they are played, e.g. ``text_format=`` or ``max_episode_steps=``). An id whose family
  declares none raises ``ValueError`` with the family's reason; ``train_splits()`` lists which ids have one and
  ``train_size(env_id)`` how many training tasks an id has.

>>> rows = tasks("AgentQuest/Mastermind-v0", "test", limit=2)
>>> [row["task_id"] for row in rows], [m["role"] for m in rows[0]["prompt"]]
(['mastermind-000', 'mastermind-001'], ['system', 'user'])
>>> tasks("AgentQuest/Mastermind-v0", "train", limit=1)[0]["task_id"]
'mastermind-060'

Multi-task sets: every function here takes one env id or several with weights (``mixture.EnvIds``: a mapping
id -> weight, a list of ids, or ``"ID=W,ID=W"`` as the CLIs take it) and ``size``, the set's total rows
(``DEFAULT_MIXTURE_SIZE`` unless told). Each id gets its share of ``size`` by its weight (largest-remainder
rounding, ``Mixture.counts``): the first rows of its split, as ``tasks(env_id, split, limit=share)`` gives them.
The rows are then interleaved by one seeded shuffle (``mix_seed``): the same arguments give the same rows in the
same order in any process. Each row keeps its ``env_id``, and everything that plays a row makes its env from it.
An id whose split has fewer rows than its share is an error (``ValueError`` naming the id, its rows and its share,
and the largest ``size`` its rows allow): a mixture never silently drifts from the weights it was given.

>>> rows = tasks({"AgentQuest/Mastermind-v0": 3, "AgentQuest/Sudoku-v0": 1}, "test", size=8)
>>> sorted(row["env_id"] for row in rows).count("AgentQuest/Mastermind-v0"), len(rows)
(6, 8)
"""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Iterator
from typing import Any

import gymnasium as gym

from agentgym_text.core.family import TrainSplit
from agentgym_text.core.registry import get_entry, list_envs
from agentgym_text.integrations.mixture import EnvIds, parse_mixture

__all__ = [
    "tasks",
    "iter_tasks",
    "count_tasks",
    "train_instances",
    "train_size",
    "train_splits",
    "to_hf_dataset",
    "SPLITS",
    "DEFAULT_MIXTURE_SIZE",
    "make_env",
]

SPLITS = ("test", "train")
DEFAULT_TRAIN_SIZE = 200
DEFAULT_MIXTURE_SIZE = 200
"""Rows of a multi-task set when ``size`` is not given."""


def make_env(env_id: str, env_kwargs: dict[str, Any] | None = None) -> gym.Env:
    return gym.make(env_id, **(env_kwargs or {}))


def train_splits() -> dict[str, TrainSplit]:
    """Every id with its family's declared training split (``.available`` False where there is none)."""
    return {entry.env_id: entry.train_split for entry in list_envs()}


def _by_kwargs(env_id: str, split: TrainSplit, size: int) -> list[tuple[dict[str, Any], str, int]]:
    kwargs = dict(split.env_kwargs or {})
    if split.size_kwarg:
        kwargs[split.size_kwarg] = size
    env = make_env(env_id, kwargs)
    try:
        ids = env.unwrapped.task_ids[:size]
    finally:
        env.close()
    return [(kwargs, task_id, 0) for task_id in ids]


def train_size(env_id: str) -> int:
    """How many training tasks ``env_id``'s split declares (``ValueError`` where it has none)."""
    split = get_entry(env_id).train_split
    if not split.available:
        raise ValueError(f"{env_id} has no training split: {split.unavailable}. Use split='test' (the shipped tasks).")
    declared = split.size_of(env_id)
    if declared is None:
        raise ValueError(f"{env_id}'s family declares a training split without its size (TrainSplit.size)")
    return declared


def train_instances(env_id: str, size: int = DEFAULT_TRAIN_SIZE) -> list[tuple[dict[str, Any], str, int]]:
    """``(env_kwargs, task_id, seed)`` of ``size`` training instances of ``env_id`` (at most its declared size)."""
    declared = train_size(env_id)
    if size > declared:
        raise ValueError(f"{env_id} declares {declared:,} training tasks; {size:,} were asked for")
    split = get_entry(env_id).train_split
    if split.builder is not None:
        module, _, function = split.builder.partition(":")
        return getattr(importlib.import_module(module), function)(size)
    return _by_kwargs(env_id, split, size)


def _instances(
    env_id: str, split: str, size: int | None, env_kwargs: dict[str, Any] | None = None
) -> list[tuple[dict[str, Any], str, int]]:
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
    if split == "train":
        instances = train_instances(env_id, min(DEFAULT_TRAIN_SIZE, train_size(env_id)) if size is None else size)
        return [(_played_as(env_id, kwargs, env_kwargs), task_id, seed) for kwargs, task_id, seed in instances]
    env = make_env(env_id, env_kwargs)
    try:
        ids = env.unwrapped.task_ids
    finally:
        env.close()
    return [(dict(env_kwargs or {}), task_id, 0) for task_id in ids]


def _played_as(env_id: str, instance_kwargs: dict[str, Any], env_kwargs: dict[str, Any] | None) -> dict[str, Any]:
    """A training instance's kwargs with the user's on top: those change how it is played (``text_format=``,
    ``max_episode_steps=``), never which task it is."""
    extra = dict(env_kwargs or {})
    outside = sorted(set(extra) & set(get_entry(env_id).declaration.outside_data))
    if outside:
        raise ValueError(f"{', '.join(outside)} name tasks of their own: use split='test' with them")
    fixed = sorted(set(extra) & set(instance_kwargs))
    if fixed:
        raise ValueError(f"the train split of {env_id} sets {', '.join(fixed)} itself")
    return {**instance_kwargs, **extra}


def _plan(
    envs: EnvIds, split: str, size: int | None, mix_seed: int, env_kwargs: dict[str, Any] | None, *, needed: int | None
) -> list[tuple[str, dict[str, Any], str, int]]:
    """``(env_id, env_kwargs, task_id, seed)`` of every row, in the set's order. ``needed``: for one id without
    ``size``, how many of its first rows are read (its train split is built only that far)."""
    mixture = parse_mixture(envs)
    if mixture.single and size is None:
        (env_id,) = mixture.env_ids
        return [(env_id, *instance) for instance in _instances(env_id, split, needed, env_kwargs)]
    total = DEFAULT_MIXTURE_SIZE if size is None else size
    counts = mixture.counts(total)
    groups, short = [], []
    for env_id, count in counts.items():
        found = _instances(env_id, split, count, env_kwargs)[:count] if count else []
        if len(found) < count:
            short.append((env_id, len(found), count))
        groups.append([(env_id, *instance) for instance in found])
    if short:
        weights = dict(mixture.weights)
        whole = sum(weights.values())
        fits = min(math.floor(have * whole / weights[env_id]) for env_id, have, _ in short)
        lacking = "; ".join(f"{env_id} has {have} {split} rows, its share is {count}" for env_id, have, count in short)
        raise ValueError(
            f"{lacking} (size={total}, weights {mixture.spec()}): lower size= to {fits} or less, or the weight of "
            + ", ".join(env_id for env_id, _, _ in short)
        )
    return mixture.interleave(groups, mix_seed)


def count_tasks(
    envs: EnvIds,
    split: str = "test",
    *,
    size: int | None = None,
    mix_seed: int = 0,
    env_kwargs: dict[str, Any] | None = None,
) -> int:
    """How many rows ``tasks(envs, split, size=..., env_kwargs=...)`` has, without resetting any of them."""
    return len(_plan(envs, split, size, mix_seed, env_kwargs, needed=None))


def iter_tasks(
    envs: EnvIds,
    split: str = "test",
    *,
    size: int | None = None,
    mix_seed: int = 0,
    limit: int | None = None,
    offset: int = 0,
    tools: bool = False,
    env_kwargs: dict[str, Any] | None = None,
) -> Iterator[dict[str, Any]]:
    """Rows one by one (each reset once, to read the goal and first observation); see ``tasks``."""
    from agentgym_text.integrations.chat import ChatEnv

    stop = None if limit is None else offset + limit
    chosen = _plan(envs, split, size, mix_seed, env_kwargs, needed=stop)[offset:stop]
    chats: dict[str, ChatEnv] = {}
    try:
        for env_id, kwargs, task_id, seed in chosen:
            key = json.dumps([env_id, kwargs], sort_keys=True)
            if key not in chats:
                chats[key] = ChatEnv(env_id, tools=tools, **kwargs)
            messages, info = chats[key].reset(seed=seed, options={"task_id": task_id})
            yield {
                "env_id": env_id,
                "env_kwargs": dict(kwargs),
                "split": split,
                "task_id": info["task_id"],
                "seed": seed,
                "goal": info["goal"],
                "difficulty": info["difficulty"],
                "max_steps": info["max_steps"],
                "system_prompt": messages[0]["content"],
                "first_observation": messages[1]["content"],
                "prompt": messages,
            }
    finally:
        for chat in chats.values():
            chat.close()


def tasks(
    envs: EnvIds,
    split: str = "test",
    *,
    size: int | None = None,
    mix_seed: int = 0,
    limit: int | None = None,
    offset: int = 0,
    tools: bool = False,
    env_kwargs: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """The rows of ``envs``' ``split``: env id and kwargs, task id, reset seed, goal, system prompt, first
    observation and the two as ``prompt`` messages.

    ``envs`` is one env id or several with weights (the module docstring). ``size`` is the set's total (one id:
    its first ``size`` rows; default every test task, or 200 training tasks; several ids:
    ``DEFAULT_MIXTURE_SIZE``), ``mix_seed`` orders a mixture, and ``offset``/``limit`` take a window of the set.
    ``tools=True`` words the system prompt for tool calls. On the test split ``env_kwargs`` make every id's env
    (e.g. an original's task file, ``task_file=`` or ``agentboard_data=``): the rows are its tasks and carry the
    kwargs, so a training file of an original becomes rows too. On the train split they change how the training
    tasks are played (``text_format=``, ``max_episode_steps=``), not which (the train split builds 200 unless told,
    or its declared size where smaller)."""
    return list(
        iter_tasks(
            envs,
            split,
            size=size,
            mix_seed=mix_seed,
            limit=limit,
            offset=offset,
            tools=tools,
            env_kwargs=env_kwargs,
        )
    )


def to_hf_dataset(rows: list[dict[str, Any]] | EnvIds, split: str = "test", **kwargs: Any):
    """A Hugging Face ``datasets.Dataset`` of ``rows`` (from ``tasks``), or of ``tasks(rows, split, **kwargs)``
    when given env ids; ``env_kwargs`` as a JSON string (needs ``datasets``)."""
    from datasets import Dataset

    if not (isinstance(rows, list) and all(isinstance(row, dict) for row in rows)):
        rows = tasks(rows, split, **kwargs)
    return Dataset.from_list([{**row, "env_kwargs": json.dumps(row["env_kwargs"], sort_keys=True)} for row in rows])
