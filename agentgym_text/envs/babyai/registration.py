"""Registers ``AgentBoard/BabyAI-v0`` (light: minigrid is imported only when an env is made)."""

from agentgym_text.core.registry import register_env
from agentgym_text.envs.babyai.tasks import TASK_COUNT

register_env(
    "AgentBoard/BabyAI-v0",
    "agentgym_text.envs.babyai.env:BabyAIEnv",
    family="babyai",
    category="embodied",
    task_count=TASK_COUNT,
    requires="babyai",
    description="BabyAI grid worlds (minigrid) in text: AgentBoard's 28 levels x 4 seeds in AgentBoard's words "
    "(text_format='clear' for this package's own text), or gym.make(..., level=<any BabyAI level>) to draw "
    "instances from the seed.",
    subskill_weights={"Memory": 1, "Planning": 2, "World Modeling": 2, "Self-Reflection": 2, "Grounding": 2, "Spatial Navigation": 1},
    subskill_source="AgentBoard Table 7",
    thread_safe=True,
)
