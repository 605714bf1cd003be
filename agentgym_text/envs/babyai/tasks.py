"""Task sets: AgentBoard's 28 levels x 4 seeds, or one procedural task per level drawn from the reset seed.

AgentBoard's 112 tasks ship in ``tasks.json`` with each task's goal (the mission), subgoal count and difficulty,
computed once by building every level instance (``python -m agentgym_text.envs.babyai.build_tasks`` rewrites it;
a test checks that reset reports the same), so task selection by difficulty works before any reset.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from agentgym_text.core.tasks import DEFAULT_MAX_STEPS, TRAIN_SEED_BASE, TaskSet, TaskSpec, TrainInstance
from agentgym_text.envs.babyai.levels import AGENTBOARD_LEVELS, AGENTBOARD_SEEDS, level_name
from agentgym_text.envs.babyai.registration import FAMILY

__all__ = [
    "training_instances",
    "TASK_COUNT",
    "TASK_FILE",
    "PROCEDURAL_MAX_STEPS",
    "agentboard_tasks",
    "procedural_tasks",
    "task_id",
    "write_task_file",
]

TASK_COUNT = len(AGENTBOARD_LEVELS) * len(AGENTBOARD_SEEDS)
TASK_FILE = Path(__file__).resolve().parent / "tasks.json"
PROCEDURAL_MAX_STEPS = 60
"""Budget for procedurally drawn levels (some, such as BossLevel, need more than AgentBoard's 30)."""


def task_id(level: str, seed: int | None) -> str:
    return f"babyai-{level}-{seed}" if seed is not None else f"babyai-{level}-random"


@lru_cache(maxsize=1)
def _shipped() -> tuple[dict, ...]:
    with open(TASK_FILE, encoding="utf-8") as handle:
        return tuple(json.load(handle)["tasks"])


def agentboard_tasks() -> TaskSet:
    """AgentBoard's 112 instances in its order (level-major, seed-minor), with goals and difficulties."""
    return TaskSet(
        [
            TaskSpec(
                entry["task_id"],
                params={"level": entry["level"], "seed": entry["seed"], "subgoals": entry["subgoals"]},
                goal=entry["goal"],
                difficulty=entry["difficulty"],
                max_steps=DEFAULT_MAX_STEPS,
            )
            for entry in _shipped()
        ]
    )


def procedural_tasks(level: str) -> TaskSet:
    """One task whose instance is drawn from the reset seed (its goal and difficulty are known after reset)."""
    name = level_name(level)
    return TaskSet(
        [TaskSpec(task_id(name, None), params={"level": name, "seed": None}, max_steps=PROCEDURAL_MAX_STEPS)]
    )


def write_task_file(path: Path = TASK_FILE) -> list[dict]:
    """Build every AgentBoard instance and record its goal, subgoal count and difficulty in ``path``."""
    from agentgym_text.envs.babyai.instructions import build_subgoals
    from agentgym_text.envs.babyai.world import BabyAIWorld

    entries = []
    for level in AGENTBOARD_LEVELS:
        world = BabyAIWorld(level)
        for seed in AGENTBOARD_SEEDS:
            world.reset(seed)
            count = len(build_subgoals(world))
            entries.append(
                {
                    "task_id": task_id(level, seed),
                    "level": level,
                    "seed": seed,
                    "goal": world.mission,
                    "subgoals": count,
                    "difficulty": FAMILY.difficulty.label(count),
                }
            )
    from importlib.metadata import version

    document = {
        "about": f"AgentBoard's BabyAI tasks (level-major, seed-minor), built with minigrid {version('minigrid')}. "
        "Written by "
        "agentgym_text.envs.babyai.tasks.write_task_file from minigrid's level generation; subgoals is the "
        "number of subgoals the env tracks, difficulty is AgentBoard's cutoff on it.",
        "tasks": entries,
    }
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    _shipped.cache_clear()
    return entries


def training_instances(size: int) -> list[TrainInstance]:
    """The train split: AgentBoard's 28 levels in turn, drawn procedurally (``level=``) from reset seeds from
    ``TRAIN_SEED_BASE`` on (AgentBoard's instances use fixed engine seeds 1234-1237)."""
    return [
        (
            {"level": AGENTBOARD_LEVELS[index % len(AGENTBOARD_LEVELS)]},
            task_id(AGENTBOARD_LEVELS[index % len(AGENTBOARD_LEVELS)], None),
            TRAIN_SEED_BASE + index,
        )
        for index in range(size)
    ]
