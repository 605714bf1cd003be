"""Registers ``AgentBoard/Jericho-v0`` (light: jericho is imported only when an env is made)."""

from agentgym_text.core.registry import register_env
from agentgym_text.envs.jericho.tasks import MAX_STEPS, TASK_COUNT

register_env(
    "AgentBoard/Jericho-v0",
    "agentgym_text.envs.jericho.env:JerichoEnv",
    family="jericho",
    category="game",
    task_count=TASK_COUNT,
    requires="jericho",
    description="AgentBoard's 20 interactive-fiction games (jericho) towards milestones derived from their "
    "walkthroughs; needs the game files: game_dir=... or $AGENTGYM_TEXT_JERICHO_DIR.",
    # AgentBoard Table 7, Jericho column, as printed (AgentBoard's code adds 1 to Spatial Navigation)
    subskill_weights={"Memory": 1, "Planning": 3, "World Modeling": 3, "Self-Reflection": 1, "Grounding": 1,
                      "Spatial Navigation": 1},
    subskill_source="AgentBoard Table 7",
    max_steps=MAX_STEPS,
    setting="AGENTGYM_TEXT_JERICHO_DIR",
    setting_help="Jericho game files",
    thread_safe=True,
)
