"""The shipped Sudoku task set (puzzles.json, written by ``python -m agentgym_text.envs.sudoku.build_tasks``)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.sudoku.registration import FAMILY

__all__ = [
    "training_tasks",
    "puzzle_of",
    "TRAIN_FIRST_SEED",
    "TASK_COUNT",
    "PUZZLE_FILE",
    "EASY_CLUES",
    "HARD_CLUES",
    "load_tasks",
    "write_puzzles",
]

TASK_COUNT = 60
PUZZLE_FILE = Path(__file__).with_name("puzzles.json")
EASY_CLUES = 38
HARD_CLUES = 26
"""A puzzle with at most this many clues is "hard"."""
EXTRA_STEPS = 20
"""Step budget = cells to fill + this slack (AgentQuest gave 60 steps; a 9x9 needs up to ~55 placements)."""

GOAL = (
    "Solve the Sudoku: fill every empty cell (.) so that each row, each column and each 3x3 box holds the "
    "digits 1-9 once. Place a digit with an action like 'put 5 at row 3 column 7'; "
    "'clear row 3 column 7' empties a cell you filled."
)


def write_puzzles(path: Path = PUZZLE_FILE) -> None:
    """Generate the shipped puzzles: seeds 0..59, the first half easy and the second half hard."""
    from agentgym_text.envs.sudoku.generator import generate_puzzle

    puzzles = []
    for seed in range(TASK_COUNT):
        target = EASY_CLUES if seed < TASK_COUNT // 2 else HARD_CLUES
        puzzle, solution = generate_puzzle(seed, target)
        puzzles.append({"seed": seed, "target_clues": target, "puzzle": puzzle, "solution": solution})
    path.write_text(json.dumps(puzzles, indent=1) + "\n")


@lru_cache(maxsize=1)
def load_tasks() -> TaskSet:
    tasks = []
    for entry in json.loads(PUZZLE_FILE.read_text()):
        clues = sum(ch != "." for ch in entry["puzzle"])
        tasks.append(
            TaskSpec(
                task_id=f"sudoku-{entry['seed']:03d}",
                params={"puzzle": entry["puzzle"], "solution": entry["solution"]},
                goal=GOAL,
                difficulty=FAMILY.difficulty.label(81 - clues),
                max_steps=81 - clues + EXTRA_STEPS,
            )
        )
    return TaskSet(tasks)


TRAIN_FIRST_SEED = 1_000_000
"""Training puzzles come from seeds here on (the shipped ones use 0..59)."""


@lru_cache(maxsize=8)
def training_tasks(count: int) -> TaskSet:
    """``count`` training puzzles, generated when an episode starts (``params`` holds the seed and clue target),
    alternating easy and hard targets."""
    tasks = []
    for index in range(count):
        seed = TRAIN_FIRST_SEED + index
        target = EASY_CLUES if index % 2 == 0 else HARD_CLUES
        tasks.append(
            TaskSpec(
                task_id=f"sudoku-train-{seed}",
                params={"seed": seed, "target_clues": target},
                goal=GOAL,
                difficulty=FAMILY.difficulty.label(81 - target),
                max_steps=81 - target + EXTRA_STEPS,
            )
        )
    return TaskSet(tasks)


def puzzle_of(params: dict) -> tuple[str, str]:
    """(puzzle, solution) of a task: shipped tasks carry them, training tasks are generated from their seed."""
    if "puzzle" in params:
        return str(params["puzzle"]), str(params["solution"])
    from agentgym_text.envs.sudoku.generator import generate_puzzle

    return generate_puzzle(int(params["seed"]), int(params["target_clues"]))
