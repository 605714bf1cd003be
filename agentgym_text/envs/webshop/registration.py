"""Registers ``AgentBoard/WebShop-v0`` (string entry point: importing this module loads nothing heavy)."""

from agentgym_text.core.registry import register_env

__all__: list[str] = []

register_env(
    "AgentBoard/WebShop-v0",
    "agentgym_text.envs.webshop.env:WebShopEnv",
    family="webshop",
    category="web",
    task_count=251,
    requires="core",
    description="Find and buy the instructed product in a generated 20k-product shop (SQLite FTS5 search, "
    "WebShop's text pages and reward, AgentBoard's progress); no server, no download.",
    subskill_weights={"Memory": 1, "Planning": 2, "World Modeling": 1, "Self-Reflection": 2, "Grounding": 3,
                      "Spatial Navigation": 0},
    subskill_source="AgentBoard Table 7",
    max_steps=30,
    thread_safe=True,
)
