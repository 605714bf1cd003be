"""Registers ``AgentBench/DB-v0`` (light: no engine import)."""

from agentgym_text.core.registry import register_env

__all__: list[str] = []

register_env(
    "AgentBench/DB-v0",
    "agentgym_text.envs.db.env:DbEnv",
    family="db",
    category="tool",
    task_count=300,
    description="Answer questions about a generated table, or insert/update/delete rows, with SQL on SQLite "
    "(AgentBench's DB format: 'Action: Operation' + a ```sql block, 'Action: Answer' + 'Final Answer: [...]').",
    subskill_weights={"Memory": 1, "Planning": 1, "World Modeling": 2, "Self-Reflection": 2, "Grounding": 3,
                      "Spatial Navigation": 0},
    max_steps=15,
    whole_replies=True,
    thread_safe=True,
)
