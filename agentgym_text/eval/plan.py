"""Which episodes a run plays: env ids, task selection ("all", "quick", a count, or ids) and seeds.

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
    "QUICK_PER_DIFFICULTY",
    "episode_seed",
]

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
    text_format = (
        made_format or env_kwargs.get("text_format") or (entry.text_formats[0] if entry.text_formats else None)
    )
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
