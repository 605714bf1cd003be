"""Card-game task sets: (agent lineup, enemy lineup, opponent seed) triples drawn from a fixed seed.

``test`` is AgentBench's size (20 games); ``train`` draws any number of games from another seed stream, so
training never sees a test game by construction of the stream (and by a check on the triples).
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.cardgame.game import FISH_TYPES, MAX_ROUNDS
from agentgym_text.envs.cardgame.registration import FAMILY

__all__ = ["TASK_COUNT", "MAX_STEPS", "SPLITS", "make_tasks", "GOAL"]

TASK_COUNT = 20
MAX_STEPS = 2 * MAX_ROUNDS + 20
"""Two inputs a round (guess, action) for every round, plus room for 20 rejected inputs."""
SPLITS = {"test": (TASK_COUNT, 17), "train": (2000, 1017)}
GOAL = (
    "Win the Aquawar fish battle against the built-in opponent: guess the hidden types of the enemy fish and "
    "attack until every enemy fish is dead."
)
_LINEUPS = [list(p) for p in itertools.permutations(FISH_TYPES)]


@lru_cache(maxsize=8)
def make_tasks(split: str = "test", count: int | None = None) -> TaskSet:
    if split not in SPLITS:
        raise ValueError(f"split must be one of {sorted(SPLITS)}, not {split!r}")
    default_count, stream = SPLITS[split]
    rng = np.random.default_rng(stream)
    tasks = []
    for index in range(count or default_count):
        agent, enemy = _LINEUPS[int(rng.integers(24))], _LINEUPS[int(rng.integers(24))]
        seed = int(rng.integers(2**31 - 1))
        tasks.append(
            TaskSpec(
                task_id=f"cardgame-{split}-{index:04d}",
                params={"agent_lineup": agent, "enemy_lineup": enemy, "seed": seed},
                goal=GOAL,
                difficulty=FAMILY.difficulty.label(1),
                max_steps=MAX_STEPS,
            )
        )
    return TaskSet(tasks)
