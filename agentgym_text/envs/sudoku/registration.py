"""Declares the Sudoku family: ``AgentQuest/Sudoku-v0`` (pure Python)."""

from agentgym_text.core.family import DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.registry import declare

TASK_COUNT = 60

FAMILY = Family(
    name="sudoku",
    category="game",
    ids=(
        EnvId(
            "AgentQuest/Sudoku-v0",
            "agentgym_text.envs.sudoku.env:SudokuEnv",
            task_count=TASK_COUNT,
            description="Fill a 9x9 Sudoku with actions like 'put 5 at row 3 column 7'; unique-solution puzzles.",
            subskill_weights={
                "Memory": 1,
                "Planning": 3,
                "World Modeling": 1,
                "Self-Reflection": 1,
                "Grounding": 2,
                "Spatial Navigation": 0,
            },
        ),
    ),
    # hard at 31 clues or fewer (81 - 31 = 50 empty cells)
    difficulty=DifficultyRule("empty cells", 49),
    train_split=TrainSplit(
        env_kwargs={"split": "train"},
        size_kwarg="num_tasks",
        size=1_000,
        repeated_goals="the goal is the rules of Sudoku, the same for every puzzle",
    ),
    thread_safe=True,  # tests/test_thread_safety.py
)
declare(FAMILY)
