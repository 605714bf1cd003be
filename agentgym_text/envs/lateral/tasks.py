"""Lateral-thinking task sets: the 50 test puzzles (AgentBench's test size) and 20 dev puzzles."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.lateral.puzzles import Puzzle, load_puzzles
from agentgym_text.envs.lateral.registration import FAMILY

__all__ = ["TASK_COUNT", "DEV_COUNT", "MAX_STEPS", "SPLITS", "make_tasks", "tasks_of"]

TASK_COUNT = 50
DEV_COUNT = 20
MAX_STEPS = 25
"""AgentBench's LTP plays 25 rounds."""
SPLITS = ("test", "dev")


def tasks_of(puzzles: Iterable[Puzzle]) -> TaskSet:
    """One task per puzzle (25 rounds, as AgentBench plays)."""
    return TaskSet(
        [
            TaskSpec(
                task_id=puzzle.puzzle_id,
                params={"puzzle_id": puzzle.puzzle_id},
                goal="Find out the hidden truth behind the story by asking yes/no questions.",
                difficulty=FAMILY.difficulty.label(len(puzzle.key_points)),
                max_steps=MAX_STEPS,
            )
            for puzzle in puzzles
        ]
    )


@lru_cache(maxsize=4)
def make_tasks(split: str = "test") -> TaskSet:
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
    return tasks_of(puzzle for puzzle in load_puzzles() if puzzle.split == split)
