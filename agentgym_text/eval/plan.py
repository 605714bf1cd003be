"""Which episodes a run plays: env ids, task selection ("all", "quick", a count, or ids) and seeds, or given task
instances (``plan_instances``: a training split's, each with its own env kwargs and reset seed).

The plan is a pure function of its arguments, so a rerun plays the same episodes in the same order.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium as gym

import agentgym_text
from agentgym_text.core.registry import EnvEntry
from agentgym_text.core.tasks import TaskSpec

__all__ = [
    "EpisodePlan",
    "select_tasks",
    "requested_task_ids",
    "parse_env_args",
    "env_kwargs_for",
    "resolve_env_ids",
    "plan_env",
    "plan_instances",
    "instance_key",
    "Instance",
    "QUICK_PER_DIFFICULTY",
    "episode_seed",
]

Instance = tuple[dict[str, Any], str, int]
"""A task instance as a training split gives it: ``(env_kwargs, task_id, reset_seed)``."""

QUICK_PER_DIFFICULTY = 2
"""The quick split: this many easy and this many hard tasks per env (the first ones in task-set order)."""


@dataclass(frozen=True)
class EpisodePlan:
    """One planned episode. ``key`` names it in the run files; ``budget`` is its step limit."""

    index: int
    key: str
    env_id: str
    family: str
    category: str
    task_id: str
    difficulty: str
    repeat: int
    seed: int
    budget: int
    env_kwargs: tuple[tuple[str, Any], ...] = ()
    """The ``gym.make`` kwargs of this episode's env (``--env-arg``), as sorted pairs."""
    text_format: str | None = None
    """The text the env speaks (its ``text_format=``, else its family's default), for the agent's prompt."""


def resolve_env_ids(spec: str | Sequence[str]) -> list[EnvEntry]:
    """Registered entries for "all" or a comma-separated list / sequence of ids (unknown ids are an error)."""
    entries = {entry.env_id: entry for entry in agentgym_text.list_envs()}
    names = [spec] if isinstance(spec, str) else list(spec)
    wanted: list[str] = []
    for name in names:
        for part in str(name).split(","):
            part = part.strip()
            if not part:
                continue
            if part == "all":
                wanted.extend(entries)
            elif part in entries:
                wanted.append(part)
            else:
                raise ValueError(f"unknown env id {part!r}; see `agentgym-text list`")
    return [entries[env_id] for env_id in dict.fromkeys(wanted)]


def parse_env_args(args: Sequence[str]) -> dict[str, dict[str, Any]]:
    """``--env-arg`` values: ``key=value`` (every env of the run) or ``ENV_ID:key=value`` (one id), as
    ``{"*" or env id: {key: value}}``; a value is read as JSON when it parses (numbers, booleans, null), else as
    text.

    >>> parse_env_args(["text_format=clear", "AgentBoard/PDDL-v0:agentboard_fixes=false"])
    {'*': {'text_format': 'clear'}, 'AgentBoard/PDDL-v0': {'agentboard_fixes': False}}
    """
    parsed: dict[str, dict[str, Any]] = {}
    for arg in args:
        scope, key_value = "*", str(arg)
        head, sep, rest = key_value.partition("=")
        if ":" in head:
            scope, _, head = head.rpartition(":")
        key = head.strip()
        if not sep or not key.isidentifier():
            raise ValueError(f"--env-arg takes key=value or ENV_ID:key=value, not {arg!r}")
        try:
            value = json.loads(rest)
        except json.JSONDecodeError:
            value = rest
        parsed.setdefault(scope, {})[key] = value
    return parsed


def env_kwargs_for(env_id: str, env_args: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The kwargs ``env_id`` is made with: the run-wide ones, then its own."""
    return {**env_args.get("*", {}), **env_args.get(env_id, {})}


def select_tasks(tasks: Sequence[TaskSpec], spec: str) -> list[TaskSpec]:
    """Tasks by ``spec``: "all", "quick" (the first 2 easy and 2 hard), "N" (the first N), "i:j" (a slice),
    or comma-separated task ids.

    >>> tasks = [TaskSpec(f"t{i}", difficulty="hard" if i % 3 == 0 else "easy") for i in range(9)]
    >>> [t.task_id for t in select_tasks(tasks, "quick")]
    ['t0', 't1', 't2', 't3']
    >>> [t.task_id for t in select_tasks(tasks, "2")], [t.task_id for t in select_tasks(tasks, "7:")]
    (['t0', 't1'], ['t7', 't8'])
    """
    spec = str(spec).strip()
    if spec == "all":
        return list(tasks)
    if spec == "quick":
        counts = {"easy": 0, "hard": 0}
        chosen = []
        for task in tasks:
            group = "hard" if task.difficulty == "hard" else "easy"
            if counts[group] < QUICK_PER_DIFFICULTY:
                counts[group] += 1
                chosen.append(task)
        return chosen
    if spec.isdigit():
        return list(tasks)[: int(spec)]
    if ":" in spec and all(part.strip().lstrip("-").isdigit() or not part.strip() for part in spec.split(":")):
        start, _, stop = spec.partition(":")
        return list(tasks)[slice(int(start) if start.strip() else None, int(stop) if stop.strip() else None)]
    by_id = {task.task_id: task for task in tasks}
    return [by_id[name] for name in requested_task_ids(spec) or () if name in by_id]


def requested_task_ids(spec: str) -> list[str] | None:
    """The task ids a ``--tasks`` value names, or None when it is a split, a count or a slice.

    >>> requested_task_ids("mastermind-001, mastermind-007"), requested_task_ids("quick"), requested_task_ids("2:5")
    (['mastermind-001', 'mastermind-007'], None, None)
    """
    spec = str(spec).strip()
    if spec in ("all", "quick") or spec.isdigit():
        return None
    if ":" in spec and all(part.strip().lstrip("-").isdigit() or not part.strip() for part in spec.split(":")):
        return None
    return [name.strip() for name in spec.split(",") if name.strip()]


def episode_seed(seed: int, env_id: str, task_id: str, repeat: int) -> int:
    """A stable per-episode seed (crc32, not ``hash``: the same in every process)."""
    return zlib.crc32(f"{seed}|{env_id}|{task_id}|{repeat}".encode()) & 0x7FFFFFFF


def _text_format(entry: EnvEntry, made_format: str | None, env_kwargs: Mapping[str, Any]) -> str | None:
    return made_format or env_kwargs.get("text_format") or (entry.text_formats[0] if entry.text_formats else None)


def plan_env(
    entry: EnvEntry,
    task_spec: str,
    *,
    seed: int = 0,
    repeats: int = 1,
    max_steps: int | None = None,
    start_index: int = 0,
    seen_task_ids: set[str] | None = None,
    env_kwargs: Mapping[str, Any] | None = None,
) -> list[EpisodePlan]:
    """The episodes of one env: selected tasks in task-set order, each ``repeats`` times (the env's task ids are
    added to ``seen_task_ids`` when given, so that the caller can name ids no env has)."""
    env_kwargs = dict(env_kwargs or {})
    probe = gym.make(entry.env_id, **env_kwargs)
    try:
        tasks = list(probe.unwrapped.tasks)
        made_format = getattr(probe.unwrapped, "text_format", None)  # an id may fix its own (AgentBench/ALFWorld-v0)
    finally:
        probe.close()
    if seen_task_ids is not None:
        seen_task_ids.update(task.task_id for task in tasks)
    text_format = _text_format(entry, made_format, env_kwargs)
    plans = []
    for task in select_tasks(tasks, task_spec):
        for repeat in range(repeats):
            plans.append(
                EpisodePlan(
                    index=start_index + len(plans),
                    key=f"{entry.env_id}::{task.task_id}::{repeat}",
                    env_id=entry.env_id,
                    family=entry.family,
                    category=entry.category,
                    task_id=task.task_id,
                    difficulty=task.difficulty,
                    repeat=repeat,
                    seed=episode_seed(seed, entry.env_id, task.task_id, repeat),
                    budget=int(max_steps or task.max_steps),
                    env_kwargs=tuple(sorted(env_kwargs.items())),
                    text_format=text_format,
                )
            )
    return plans


def instance_key(env_id: str, task_id: str, seed: int, env_kwargs: Mapping[str, Any]) -> str:
    """An instance's episode key: its id, task, reset seed and a digest of its env kwargs (crc32, the same in
    every process), so that instances of one task id told apart by their kwargs or seed have keys of their own.

    >>> instance_key("AgentQuest/Mastermind-v0", "mastermind-060", 0, {"num_tasks": 63})
    'AgentQuest/Mastermind-v0::mastermind-060::0::5cf017ea'
    """
    digest = zlib.crc32(json.dumps(dict(env_kwargs), sort_keys=True, default=str).encode()) & 0xFFFFFFFF
    return f"{env_id}::{task_id}::{seed}::{digest:08x}"


def plan_instances(
    entry: EnvEntry,
    instances: Sequence[Instance],
    *,
    max_steps: int | None = None,
    start_index: int = 0,
    env_kwargs: Mapping[str, Any] | None = None,
) -> list[EpisodePlan]:
    """The episodes of given instances (a training split's, ``integrations.datasets.train_instances``), in order:
    each made with ``env_kwargs`` (the run's) and then its own, and reset to its task with its own seed. One env is
    made per distinct kwargs to read the tasks' difficulty and budget. Unlike ``plan_env``'s, the plans' kwargs
    differ from episode to episode, so a slot is opened per distinct kwargs."""
    base = dict(env_kwargs or {})
    made: dict[str, tuple[dict[str, TaskSpec], str | None]] = {}
    plans = []
    for own, task_id, seed in instances:
        kwargs = {**base, **own}
        marker = json.dumps(kwargs, sort_keys=True, default=str)
        if marker not in made:
            probe = gym.make(entry.env_id, **kwargs)
            try:
                made[marker] = (
                    {task.task_id: task for task in probe.unwrapped.tasks},
                    getattr(probe.unwrapped, "text_format", None),
                )
            finally:
                probe.close()
        tasks, made_format = made[marker]
        if task_id not in tasks:
            raise ValueError(f"{entry.env_id} made with {kwargs} has no task {task_id!r}")
        task = tasks[task_id]
        plans.append(
            EpisodePlan(
                index=start_index + len(plans),
                key=instance_key(entry.env_id, task_id, int(seed), kwargs),
                env_id=entry.env_id,
                family=entry.family,
                category=entry.category,
                task_id=task_id,
                difficulty=task.difficulty,
                repeat=0,
                seed=int(seed),
                budget=int(max_steps or task.max_steps),
                env_kwargs=tuple(sorted(kwargs.items())),
                text_format=_text_format(entry, made_format, kwargs),
            )
        )
    return plans
