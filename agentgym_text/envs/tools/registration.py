from agentgym_text.core.registry import register_env
from agentgym_text.core.tasks import DEFAULT_MAX_STEPS
from agentgym_text.envs.tools.catalog import OPERATION_TOOLS, QUERY_TOOLS, TASKS_PER_TOOL

register_env(
    "AgentBoard/ToolQuery-v0",
    "agentgym_text.envs.tools.env:ToolQueryEnv",
    family="tools",
    category="tool",
    task_count=TASKS_PER_TOOL * len(QUERY_TOOLS),
    description="Answer questions by calling offline weather, movie and academia tools (tool= picks one).",
    subskill_weights={"Memory": 2, "Planning": 2, "World Modeling": 1, "Self-Reflection": 1, "Grounding": 3, "Spatial Navigation": 0},
    subskill_source="AgentBoard Table 7",
    max_steps=DEFAULT_MAX_STEPS,
    thread_safe=True,
)
register_env(
    "AgentBoard/ToolOperation-v0",
    "agentgym_text.envs.tools.env:ToolOperationEnv",
    family="tools",
    category="tool",
    task_count=TASKS_PER_TOOL * len(OPERATION_TOOLS),
    description="Change a todo list (SQLite) or a spreadsheet through tool calls (tool= picks one).",
    subskill_weights={"Memory": 3, "Planning": 2, "World Modeling": 1, "Self-Reflection": 1, "Grounding": 3, "Spatial Navigation": 0},
    subskill_source="AgentBoard Table 7",
    max_steps=DEFAULT_MAX_STEPS,
    thread_safe=True,
)
