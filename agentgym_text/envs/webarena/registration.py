"""Declares the WebArena family: ``AgentBoard/WebArena-v0`` (Playwright and Chromium only when an env is made)."""

from agentgym_text.core.family import AGENTBOARD_TABLE_10, DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.registry import declare

TASK_COUNT = 245
MAX_STEPS = 30

FAMILY = Family(
    name="webarena",
    category="web",
    ids=(
        EnvId(
            "AgentBoard/WebArena-v0",
            "agentgym_text.envs.webarena.env:WebArenaEnv",
            task_count=TASK_COUNT,
            description="WebArena's 245 tasks in a real headless Chromium (Playwright) on five sites the package "
            "serves from seeded SQLite (shop, shop admin, forum, code hosting, wiki), fresh databases every "
            "episode; WebArena's accessibility-tree observation and action grammar; or your own deployment via "
            "sites=/task_config=.",
            subskill_weights={
                "Memory": 3,
                "Planning": 3,
                "World Modeling": 3,
                "Self-Reflection": 2,
                "Grounding": 3,
                "Spatial Navigation": 1,
            },
            subskill_source="AgentBoard Table 7",
            agentboard_task="webarena",
            max_steps=MAX_STEPS,
        ),
    ),
    difficulty=DifficultyRule("gold steps", 4, AGENTBOARD_TABLE_10),
    train_split=TrainSplit(env_kwargs={"split": "train"}, size_kwarg="num_tasks", size=1_433),  # training.py
    text_formats=("agentboard",),  # one text, AgentBoard's: agentboard_fixes=False restores its progress rule
    thread_safe=True,  # tests/test_thread_safety.py
    requires="webarena",
    programs=("chromium",),
    depends_on=("webshop",),  # the shop sells the WebShop catalogue
    outside_data=("task_config", "sites", "auth_dir"),
    heavy=True,
    expert_sample=5,
)
declare(FAMILY)
