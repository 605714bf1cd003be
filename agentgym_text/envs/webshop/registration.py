"""Declares the WebShop family: ``AgentBoard/WebShop-v0`` and ``AgentBench/WebShop-v0`` (AgentBench v0.2's
protocol on the same shop; a catalogue generated into the cache at first use)."""

from agentgym_text.core.family import DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.registry import declare

TASK_COUNT = 251
MAX_STEPS = 30
AGENTBENCH_TASK_COUNT = 200
"""AgentBench v0.2's ``webshop-std``: goal indices 0-199."""
AGENTBENCH_MAX_STEPS = 10
TRAIN_TASK_COUNT = 1_000
"""The train split of both ids: goals generated from their own seed range, never aimed at a test target."""
_SUBSKILLS = {
    "Memory": 1,
    "Planning": 2,
    "World Modeling": 1,
    "Self-Reflection": 2,
    "Grounding": 3,
    "Spatial Navigation": 0,
}

FAMILY = Family(
    name="webshop",
    category="web",
    ids=(
        EnvId(
            "AgentBoard/WebShop-v0",
            "agentgym_text.envs.webshop.env:WebShopEnv",
            task_count=TASK_COUNT,
            description="Find and buy the instructed product in a generated 20k-product shop (SQLite FTS5 search, "
            "WebShop's text pages and reward, AgentBoard's progress); no server, no download.",
            subskill_weights=_SUBSKILLS,
            subskill_source="AgentBoard Table 7",
            agentboard_task="webshop",
            max_steps=MAX_STEPS,
        ),
        EnvId(
            "AgentBench/WebShop-v0",
            "agentgym_text.envs.webshop.env:AgentBenchWebShopEnv",
            task_count=AGENTBENCH_TASK_COUNT,
            description="WebShop under AgentBench v0.2's protocol ([SEP] pages with Available Actions, an "
            "Action: search[...] / click[...] reply, 10 steps, WebShop's reward) on 200 goals of the generated shop.",
            subskill_weights=_SUBSKILLS,
            subskill_source="AgentBoard Table 7 (its WebShop)",
            max_steps=AGENTBENCH_MAX_STEPS,
            agentbench_task="webshop",
        ),
    ),
    # AgentBoard's Table 10 cutoff for WebShop (1) counts its own annotations; ours counts what the goal names
    difficulty=DifficultyRule("attributes and options the goal names", 3),
    train_split=TrainSplit(env_kwargs={"split": "train"}, size_kwarg="num_tasks", size=TRAIN_TASK_COUNT),
    # AgentBoard's words (AgentBoard/WebShop-v0; agentboard_fixes=False restores its scoring) and AgentBench's protocol
    # (AgentBench/WebShop-v0, agentbench_v02_text.py)
    text_formats=("agentboard", "agentbench_v02"),
    thread_safe=True,  # tests/test_thread_safety.py
    outside_data=("webshop_data",),  # WebShop's released files, for AgentBench/WebShop-v0 (webshop_data.py)
)
declare(FAMILY)
