from agentgym_text.core.registry import register_env
from agentgym_text.envs.sudoku.tasks import TASK_COUNT

register_env(
    "AgentQuest/Sudoku-v0",
    "agentgym_text.envs.sudoku.env:SudokuEnv",
    family="sudoku",
    category="game",
    task_count=TASK_COUNT,
    description="Fill a 9x9 Sudoku with actions like 'put 5 at row 3 column 7'; unique-solution puzzles.",
    subskill_weights={"Memory": 1, "Planning": 3, "World Modeling": 1, "Self-Reflection": 1, "Grounding": 2, "Spatial Navigation": 0},
    subskill_source="ours",
    thread_safe=True,
)
