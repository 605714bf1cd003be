"""Declares the ALFWorld family: ``AgentBoard/AlfWorld-v0`` (games are generated at first use; no engine import)."""

from agentgym_text.core.family import AGENTBOARD_TABLE_10, DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.registry import declare

TASK_COUNT = 134
"""ALFWorld's valid_unseen size (``tests/test_registry.py`` checks it against the task set)."""
MAX_STEPS = 30

FAMILY = Family(
    name="alfworld",
    category="embodied",
    ids=(
        EnvId(
            "AgentBoard/AlfWorld-v0",
            "agentgym_text.envs.alfworld.env:AlfWorldEnv",
            task_count=TASK_COUNT,
            description="ALFWorld's 6 household task types on 134 games generated from the alfworld wheel's floor "
            "plans (unseen-split proportions, test floor plans); ALFWorld's exact text, nothing to download.",
            subskill_weights={
                "Memory": 1,
                "Planning": 1,
                "World Modeling": 3,
                "Self-Reflection": 3,
                "Grounding": 2,
                "Spatial Navigation": 1,
            },
            subskill_source="AgentBoard Table 7",
            agentboard_task="alfworld",
            max_steps=MAX_STEPS,
        ),
    ),
    difficulty=DifficultyRule("subgoals", 3, AGENTBOARD_TABLE_10),
    # generated on ALFWorld's train floor plans, never the test ones
    train_split=TrainSplit(env_kwargs={}, size_kwarg="num_tasks"),
    thread_safe=True,  # tests/test_thread_safety.py
    requires="alfworld",
    text_formats=("agentboard",),  # AgentBoard's words only; agentboard_fixes=False restores its quirks
    outside_data=("game_dir",),
)
declare(FAMILY)
