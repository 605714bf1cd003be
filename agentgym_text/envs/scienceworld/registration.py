"""Registers ``AgentBoard/ScienceWorld-v0`` (light: the JVM starts only at the env's first reset)."""

from agentgym_text.core.registry import register_env
from agentgym_text.envs.scienceworld.tasks import TASK_COUNT

register_env(
    "AgentBoard/ScienceWorld-v0",
    "agentgym_text.envs.scienceworld.env:ScienceWorldTextEnv",
    family="scienceworld",
    category="embodied",
    task_count=TASK_COUNT,
    requires="scienceworld",
    description="All 30 of ScienceWorld's science tasks (3 variations each) with AgentBoard's pinned goals and "
    "evenly weighted subgoals, in AgentBoard's words (text_format='clear' for this package's own); needs Java.",
    subskill_weights={"Memory": 2, "Planning": 2, "World Modeling": 3, "Self-Reflection": 2, "Grounding": 3, "Spatial Navigation": 1},
    subskill_source="AgentBoard Table 7",
    thread_safe=True,
)
