"""Declares the PDDL family: ``AgentBoard/PDDL-v0`` (pyperplan is imported only when an env is made)."""

from agentgym_text.core.family import AGENTBOARD_TABLE_10, DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.registry import declare

TASK_COUNT = 60
MAX_STEPS = 30
"""AgentBoard's budget (``max_num_steps``) for every task, however long the expert's plan."""

FAMILY = Family(
    name="pddl",
    category="game",
    ids=(
        EnvId(
            "AgentBoard/PDDL-v0",
            "agentgym_text.envs.pddl.env:PDDLEnv",
            task_count=TASK_COUNT,
            description="PDDL planning games (Blocksworld 10, Gripper 20, Barman 20, Tyreworld 10): reach the goal "
            "in AgentBoard's words (text_format='clear': this package's own text, operator-style actions too); "
            "progress = fraction of goal literals true. gym.make(..., domain=, problem_file=[, domain_file=]) "
            "plays your own problem file (AgentBoard's too).",
            subskill_weights={
                "Memory": 2,
                "Planning": 3,
                "World Modeling": 1,
                "Self-Reflection": 3,
                "Grounding": 3,
                "Spatial Navigation": 0,
            },
            subskill_source="AgentBoard Table 7",
            max_steps=MAX_STEPS,
            agentboard_task="pddl",
        ),
    ),
    difficulty=DifficultyRule("goal conditions", 6, AGENTBOARD_TABLE_10),
    train_split=TrainSplit(
        builder="agentgym_text.envs.pddl.tasks:training_instances",
        size=1_000,
        repeated_goals="a small problem's goal has few facts over few objects (b1 is on b3, b3 is on the table); "
        "its initial state differs",
    ),
    thread_safe=True,  # tests/test_thread_safety.py
    text_formats=("agentboard", "clear"),
    requires="pddl",
    outside_data=("problem_file", "domain_file"),
    expert_sample=6,
)
declare(FAMILY)
