"""Declares the BabyAI family: ``AgentBoard/BabyAI-v0`` (minigrid is imported only when an env is made)."""

from agentgym_text.core.family import AGENTBOARD_TABLE_10, DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.registry import declare

TASK_COUNT = 112
"""AgentBoard's 28 levels x 4 seeds."""
TRAIN_TASK_COUNT = 1_120
"""The train split: AgentBoard's 28 levels x 40 engine seeds of their own."""

FAMILY = Family(
    name="babyai",
    category="embodied",
    ids=(
        EnvId(
            "AgentBoard/BabyAI-v0",
            "agentgym_text.envs.babyai.env:BabyAIEnv",
            task_count=TASK_COUNT,
            description="BabyAI grid worlds (minigrid) in text: AgentBoard's 28 levels x 4 seeds in AgentBoard's "
            "words (text_format='clear' for this package's own text), or gym.make(..., level=<any BabyAI level>) "
            "to draw instances from the seed.",
            subskill_weights={
                "Memory": 1,
                "Planning": 2,
                "World Modeling": 2,
                "Self-Reflection": 2,
                "Grounding": 2,
                "Spatial Navigation": 1,
            },
            subskill_source="AgentBoard Table 7",
            agentboard_task="babyai",
        ),
    ),
    difficulty=DifficultyRule("subgoals", 3, AGENTBOARD_TABLE_10),
    train_split=TrainSplit(
        env_kwargs={"split": "train"},
        size=TRAIN_TASK_COUNT,
        repeated_goals="missions come from a small set (go to the red ball); the world differs and so does the first "
        "view",
    ),
    thread_safe=True,  # tests/test_thread_safety.py
    text_formats=("agentboard", "clear"),
    requires="babyai",
    expert_sample=12,
)
declare(FAMILY)
