"""Registers ``AgentBoard/PDDL-v0`` (light: no pddlgym or pyperplan import here)."""

from agentgym_text.core.registry import register_env

register_env(
    "AgentBoard/PDDL-v0",
    "agentgym_text.envs.pddl.env:PDDLEnv",
    family="pddl",
    category="game",
    task_count=60,
    requires="pddl",
    description="PDDL planning games (Blocksworld 10, Gripper 20, Barman 20, Tyreworld 10): reach the goal "
    "in AgentBoard's words (text_format='clear': this package's own text, operator-style actions too); "
    "progress = fraction of goal literals true. "
    "gym.make(..., domain=, problem_file=[, domain_file=]) plays your own problem file (AgentBoard's too).",
    subskill_weights={"Memory": 2, "Planning": 3, "World Modeling": 1, "Self-Reflection": 3, "Grounding": 3, "Spatial Navigation": 0},
    subskill_source="AgentBoard Table 7",
    thread_safe=True,
)
