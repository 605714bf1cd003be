"""Registers ``AgentBoard/WebArena-v0`` (string entry point: importing this module loads nothing heavy)."""

from agentgym_text.core.registry import register_env

__all__: list[str] = []

register_env(
    "AgentBoard/WebArena-v0",
    "agentgym_text.envs.webarena.env:WebArenaEnv",
    family="webarena",
    category="web",
    task_count=245,
    requires="webarena",
    description="WebArena's 245 tasks in a real headless Chromium (Playwright) on five sites the package serves "
    "from seeded SQLite (shop, shop admin, forum, code hosting, wiki), fresh databases every episode; "
    "WebArena's accessibility-tree observation and action grammar; or your own deployment via sites=/task_config=.",
    subskill_weights={"Memory": 3, "Planning": 3, "World Modeling": 3, "Self-Reflection": 2, "Grounding": 3,
                      "Spatial Navigation": 1},
    subskill_source="AgentBoard Table 7",
    max_steps=30,
    programs=("chromium",),
    thread_safe=True,
)
