"""Declares the tool family: ``AgentBoard/ToolQuery-v0`` and ``AgentBoard/ToolOperation-v0`` (offline tools)."""

from agentgym_text.core.family import AGENTBOARD_TABLE_10, DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.registry import declare

QUERY_TASKS = 60
"""Three query tools (weather, movie, academia) x 20 tasks."""
OPERATION_TASKS = 40
"""Two operation tools (todo, sheet) x 20 tasks."""
MAX_STEPS = 30

FAMILY = Family(
    name="tools",
    category="tool",
    ids=(
        EnvId(
            "AgentBoard/ToolQuery-v0",
            "agentgym_text.envs.tools.env:ToolQueryEnv",
            task_count=QUERY_TASKS,
            description="Answer questions by calling offline weather, movie and academia tools (tool= picks one).",
            subskill_weights={
                "Memory": 2,
                "Planning": 2,
                "World Modeling": 1,
                "Self-Reflection": 1,
                "Grounding": 3,
                "Spatial Navigation": 0,
            },
            subskill_source="AgentBoard Table 7",
            agentboard_task="tool-query",
            max_steps=MAX_STEPS,
        ),
        EnvId(
            "AgentBoard/ToolOperation-v0",
            "agentgym_text.envs.tools.env:ToolOperationEnv",
            task_count=OPERATION_TASKS,
            description="Change a todo list (SQLite) or a spreadsheet through tool calls (tool= picks one).",
            subskill_weights={
                "Memory": 3,
                "Planning": 2,
                "World Modeling": 1,
                "Self-Reflection": 1,
                "Grounding": 3,
                "Spatial Navigation": 0,
            },
            subskill_source="AgentBoard Table 7",
            agentboard_task="tool-operation",
            max_steps=MAX_STEPS,
        ),
    ),
    difficulty=DifficultyRule("golden tool calls", 4, AGENTBOARD_TABLE_10),
    train_split=TrainSplit(env_kwargs={"split": "train"}, size_kwarg="num_tasks", size=1_000),  # tasks.training_tasks
    thread_safe=True,  # tests/test_thread_safety.py
    text_formats=("agentboard", "clear"),
)
declare(FAMILY)
