"""Registers ``AgentBench/KG-v0`` (light: no engine import, no graph build)."""

from agentgym_text.core.registry import register_env

__all__: list[str] = []

register_env(
    "AgentBench/KG-v0",
    "agentgym_text.envs.kg.env:KgEnv",
    family="kg",
    category="tool",
    task_count=150,
    description="Answer 1-4 hop questions over a generated knowledge graph (126k triples, SQLite) with "
    "AgentBench's seven tools (get_relations, get_neighbors, intersection, get_attributes, argmax, argmin, count).",
    subskill_weights={"Memory": 2, "Planning": 3, "World Modeling": 2, "Self-Reflection": 1, "Grounding": 3,
                      "Spatial Navigation": 0},
    max_steps=15,
    whole_replies=True,
    thread_safe=True,
)
