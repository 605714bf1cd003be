"""Registers ``AgentBench/CardGame-v0`` (no engine import)."""

from agentgym_text.core.registry import register_env

__all__: list[str] = []

register_env(
    "AgentBench/CardGame-v0",
    "agentgym_text.envs.cardgame.env:CardGameEnv",
    family="cardgame",
    category="game",
    task_count=20,
    description="Aquawar (AgentBench DCG): guess the hidden enemy fish, then attack; win against a rule-based "
    "opponent.",
    subskill_weights={"Memory": 1, "Planning": 2, "World Modeling": 2, "Self-Reflection": 1, "Grounding": 2,
                      "Spatial Navigation": 0},
    max_steps=60,
    thread_safe=True,
)
