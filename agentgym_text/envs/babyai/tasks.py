"""Task sets: AgentBoard's 28 levels x 4 seeds, or one procedural task per level drawn from the reset seed."""

from __future__ import annotations

from agentgym_text.core.tasks import DEFAULT_MAX_STEPS, TaskSet, TaskSpec
from agentgym_text.envs.babyai.levels import AGENTBOARD_LEVELS, AGENTBOARD_SEEDS, level_name

__all__ = ["TASK_COUNT", "PROCEDURAL_MAX_STEPS", "agentboard_tasks", "procedural_tasks", "task_id"]

TASK_COUNT = len(AGENTBOARD_LEVELS) * len(AGENTBOARD_SEEDS)
PROCEDURAL_MAX_STEPS = 60
"""Budget for procedurally drawn levels (some, such as BossLevel, need more than AgentBoard's 30)."""


def task_id(level: str, seed: int | None) -> str:
    return f"babyai-{level}-{seed}" if seed is not None else f"babyai-{level}-random"


def agentboard_tasks() -> TaskSet:
    """AgentBoard's 112 instances in its order (level-major, seed-minor); goals are known after reset."""
    return TaskSet(
        [
            TaskSpec(task_id(level, seed), params={"level": level, "seed": seed}, max_steps=DEFAULT_MAX_STEPS)
            for level in AGENTBOARD_LEVELS
            for seed in AGENTBOARD_SEEDS
        ]
    )


def procedural_tasks(level: str) -> TaskSet:
    """One task whose instance is drawn from the reset seed."""
    name = level_name(level)
    return TaskSet([TaskSpec(task_id(name, None), params={"level": name, "seed": None}, max_steps=PROCEDURAL_MAX_STEPS)])
