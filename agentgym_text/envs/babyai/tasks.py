"""Task sets: AgentBoard's 28 levels x 4 seeds, the train split over the same levels, or one procedural task per
level drawn from the reset seed.

AgentBoard's 112 tasks ship in ``tasks.json`` and the train split's 1,120 in ``train_tasks.json``, each task with its
goal (the mission), subgoal count and difficulty, computed once by building every level instance
(``python -m agentgym_text.envs.babyai.build_tasks`` rewrites both; a test checks that reset reports the same), so
task selection by difficulty works before any reset.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from agentgym_text.core.tasks import DEFAULT_MAX_STEPS, TRAIN_SEED_BASE, TaskSet, TaskSpec
from agentgym_text.envs.babyai.levels import AGENTBOARD_LEVELS, AGENTBOARD_SEEDS, level_name
from agentgym_text.envs.babyai.registration import FAMILY, TRAIN_TASK_COUNT

__all__ = [
    "TASK_COUNT",
    "TASK_FILE",
    "TRAIN_FILE",
    "TRAIN_PER_LEVEL",
    "TRAIN_TASK_COUNT",
    "training_tasks",
    "write_train_file",
    "PROCEDURAL_MAX_STEPS",
    "agentboard_tasks",
    "procedural_tasks",
    "task_id",
    "write_task_file",
]

TASK_COUNT = len(AGENTBOARD_LEVELS) * len(AGENTBOARD_SEEDS)
TASK_FILE = Path(__file__).resolve().parent / "tasks.json"
TRAIN_FILE = Path(__file__).resolve().parent / "train_tasks.json"
TRAIN_PER_LEVEL = TRAIN_TASK_COUNT // len(AGENTBOARD_LEVELS)
PROCEDURAL_MAX_STEPS = 60
"""Budget for procedurally drawn levels (some, such as BossLevel, need more than AgentBoard's 30)."""


def task_id(level: str, seed: int | None) -> str:
    return f"babyai-{level}-{seed}" if seed is not None else f"babyai-{level}-random"


@lru_cache(maxsize=2)
def _shipped(path: Path = TASK_FILE) -> tuple[dict, ...]:
    with open(path, encoding="utf-8") as handle:
        return tuple(json.load(handle)["tasks"])


def _task_set(entries: tuple[dict, ...]) -> TaskSet:
    return TaskSet(
        [
            TaskSpec(
                entry["task_id"],
                params={"level": entry["level"], "seed": entry["seed"], "subgoals": entry["subgoals"]},
                goal=entry["goal"],
                difficulty=entry["difficulty"],
                max_steps=DEFAULT_MAX_STEPS,
            )
            for entry in entries
        ]
    )


def agentboard_tasks() -> TaskSet:
    """AgentBoard's 112 instances in its order (level-major, seed-minor), with goals and difficulties."""
    return _task_set(_shipped())


def training_tasks() -> TaskSet:
    """The train split: AgentBoard's 28 levels in turn, each from engine seeds ``TRAIN_SEED_BASE`` on, with
    AgentBoard's budget; no instance's first view and mission equal a test instance's or an earlier one's."""
    return _task_set(_shipped(TRAIN_FILE))


def procedural_tasks(level: str) -> TaskSet:
    """One task whose instance is drawn from the reset seed (its goal and difficulty are known after reset)."""
    name = level_name(level)
    return TaskSet(
        [TaskSpec(task_id(name, None), params={"level": name, "seed": None}, max_steps=PROCEDURAL_MAX_STEPS)]
    )


def _entry(world, level: str, seed: int) -> dict:
    from agentgym_text.envs.babyai.instructions import build_subgoals

    count = len(build_subgoals(world))
    return {
        "task_id": task_id(level, seed),
        "level": level,
        "seed": seed,
        "goal": world.mission,
        "subgoals": count,
        "difficulty": FAMILY.difficulty.label(count),
    }


def _write(path: Path, about: str, writer: str, entries: list[dict]) -> None:
    from importlib.metadata import version

    document = {
        "about": f"{about}, built with minigrid {version('minigrid')}. Written by agentgym_text.envs.babyai.tasks."
        f"{writer} from minigrid's level generation; subgoals is the number of subgoals the env tracks, difficulty "
        "is AgentBoard's cutoff on it.",
        "tasks": entries,
    }
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    _shipped.cache_clear()


def write_task_file(path: Path = TASK_FILE) -> list[dict]:
    """Build every AgentBoard instance and record its goal, subgoal count and difficulty in ``path``."""
    from agentgym_text.envs.babyai.world import BabyAIWorld

    entries = []
    for level in AGENTBOARD_LEVELS:
        world = BabyAIWorld(level)
        for seed in AGENTBOARD_SEEDS:
            world.reset(seed)
            entries.append(_entry(world, level, seed))
    _write(path, "AgentBoard's BabyAI tasks (level-major, seed-minor)", "write_task_file", entries)
    return entries


def _opening(world) -> tuple[str, str]:
    """What an instance shows first: AgentBoard's view of it and its mission."""
    from agentgym_text.envs.babyai.agentboard_text.view import agentboard_view

    return agentboard_view(world.env).description, world.mission


def write_train_file(path: Path = TRAIN_FILE, per_level: int = TRAIN_PER_LEVEL) -> list[dict]:
    """Build the train split: ``per_level`` instances of each AgentBoard level from engine seeds ``TRAIN_SEED_BASE``
    on, a seed skipped when its opening (view and mission) is a test instance's or an earlier training one's, of any
    level; levels interleaved, so any prefix covers them all."""
    from agentgym_text.envs.babyai.world import BabyAIWorld

    worlds = {level: BabyAIWorld(level) for level in AGENTBOARD_LEVELS}
    seen = set()
    for world in worlds.values():
        for seed in AGENTBOARD_SEEDS:
            world.reset(seed)
            seen.add(_opening(world))
    by_level: dict[str, list[dict]] = {}
    for level, world in worlds.items():
        chosen: list[dict] = []
        seed = TRAIN_SEED_BASE
        while len(chosen) < per_level:
            world.reset(seed)
            opening = _opening(world)
            if opening not in seen:
                seen.add(opening)
                chosen.append(_entry(world, level, seed))
            seed += 1
            if seed - TRAIN_SEED_BASE > 100 * per_level:
                raise RuntimeError(f"{level} has fewer than {per_level} openings apart from the others")
        by_level[level] = chosen
    entries = [by_level[level][index] for index in range(per_level) for level in AGENTBOARD_LEVELS]
    _write(path, "The BabyAI train split (AgentBoard's levels in turn)", "write_train_file", entries)
    return entries
