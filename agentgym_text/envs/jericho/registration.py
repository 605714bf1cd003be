"""Declares the Jericho family: ``AgentBoard/Jericho-v0`` (needs the user's game files; no engine import)."""

from agentgym_text.core.family import AGENTBOARD_TABLE_10, DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.registry import declare

TASK_COUNT = 20
MAX_STEPS = 30

FAMILY = Family(
    name="jericho",
    category="game",
    ids=(
        EnvId(
            "AgentBoard/Jericho-v0",
            "agentgym_text.envs.jericho.env:JerichoEnv",
            task_count=TASK_COUNT,
            description="AgentBoard's 20 interactive-fiction games (jericho) towards milestones derived from their "
            "walkthroughs; needs the game files: game_dir=... or $AGENTGYM_TEXT_JERICHO_DIR.",
            # AgentBoard Table 7, Jericho column, as printed (AgentBoard's code adds 1 to Spatial Navigation)
            subskill_weights={
                "Memory": 1,
                "Planning": 3,
                "World Modeling": 3,
                "Self-Reflection": 1,
                "Grounding": 1,
                "Spatial Navigation": 1,
            },
            subskill_source="AgentBoard Table 7",
            agentboard_task="jericho",
            max_steps=MAX_STEPS,
        ),
    ),
    difficulty=DifficultyRule("subgoals", 4, AGENTBOARD_TABLE_10),
    train_split=TrainSplit(unavailable="the 20 games are the test set; other games need their own milestones"),
    thread_safe=True,  # tests/test_thread_safety.py
    requires="jericho",
    setting="AGENTGYM_TEXT_JERICHO_DIR",
    setting_help="Jericho game files",
    outside_data=("game_dir", "game"),
    heavy=True,
    text_formats=("agentboard", "clear"),
)
declare(FAMILY)
