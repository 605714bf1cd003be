"""Declares the ScienceWorld family: ``AgentBoard/ScienceWorld-v0`` (the JVM starts only when an env is made)."""

from agentgym_text.core.family import AGENTBOARD_TABLE_10, DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.registry import declare

TASK_COUNT = 90
"""ScienceWorld's 30 tasks x 3 variations."""
MAX_STEPS = 30
"""AgentBoard's budget for every task (``max_num_steps``), even where the gold path is longer."""

FAMILY = Family(
    name="scienceworld",
    category="embodied",
    ids=(
        EnvId(
            "AgentBoard/ScienceWorld-v0",
            "agentgym_text.envs.scienceworld.env:ScienceWorldTextEnv",
            task_count=TASK_COUNT,
            description="All 30 of ScienceWorld's science tasks (3 variations each) with AgentBoard's pinned goals "
            "and evenly weighted subgoals, in AgentBoard's words (text_format='clear' for this package's own); "
            "needs Java.",
            subskill_weights={
                "Memory": 2,
                "Planning": 2,
                "World Modeling": 3,
                "Self-Reflection": 2,
                "Grounding": 3,
                "Spatial Navigation": 1,
            },
            subskill_source="AgentBoard Table 7",
            agentboard_task="scienceworld",
            max_steps=MAX_STEPS,
        ),
    ),
    difficulty=DifficultyRule("subgoals", 3, AGENTBOARD_TABLE_10),
    # ScienceWorld's own train variations (3,592 over the 30 types; train_variations.py), those whose gold path
    # solves them and that open unlike a shipped task; each is derived at first use (10-50 s), cached after
    train_split=TrainSplit(
        builder="agentgym_text.envs.scienceworld.train_variations:training_instances",
        size=1_000,
        repeated_goals="a task type's goal names a thing of a small set (boil water, find a living thing); the "
        "variation's world differs",
    ),
    thread_safe=True,  # tests/test_thread_safety.py
    # the runner's slots share one warm JVM (tests/test_scienceworld_pool.py: episodes play as in JVMs of their own)
    threads_share={"jvm": "shared"},
    text_formats=("agentboard", "clear"),
    requires="scienceworld",
    heavy=True,
    expert_sample=3,
)
declare(FAMILY)
