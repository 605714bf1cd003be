"""Registers ``AgentBoard/AlfWorld-v0`` (light: games are generated at the env's construction, on first use)."""

from agentgym_text.core.registry import register_env

TASK_COUNT = 134
"""ALFWorld's valid_unseen size; equals ``tasks.TASK_COUNT`` (not imported here: tasks.py needs alfworld)."""

register_env(
    "AgentBoard/AlfWorld-v0",
    "agentgym_text.envs.alfworld.env:AlfWorldEnv",
    family="alfworld",
    category="embodied",
    task_count=TASK_COUNT,
    requires="alfworld",
    description="ALFWorld's 6 household task types on 134 games generated from the alfworld wheel's floor "
    "plans (unseen-split proportions, test floor plans); ALFWorld's exact text, nothing to download.",
    subskill_weights={"Memory": 1, "Planning": 1, "World Modeling": 3, "Self-Reflection": 3, "Grounding": 2,
                      "Spatial Navigation": 1},
    subskill_source="AgentBoard Table 7",
    max_steps=30,
    thread_safe=True,
)
