"""Declares the OS family: ``AgentBench/OS-v0`` (bash in a bubblewrap sandbox)."""

from agentgym_text.core.family import DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.registry import declare

TASK_COUNT = 144
TRAIN_TASK_COUNT = 1_200
"""The train split: the 12 templates in turn, from seeds of their own."""

FAMILY = Family(
    name="os",
    category="tool",
    ids=(
        EnvId(
            "AgentBench/OS-v0",
            "agentgym_text.envs.os.env:OsEnv",
            task_count=TASK_COUNT,
            description="Answer questions about, or operate on, a Linux machine through bash in a bubblewrap "
            "sandbox (AgentBench's OS interaction; needs the bwrap binary).",
            subskill_weights={
                "Memory": 1,
                "Planning": 2,
                "World Modeling": 2,
                "Self-Reflection": 2,
                "Grounding": 3,
                "Spatial Navigation": 0,
            },
            max_steps=8,
            agentbench_task="os_interaction",
        ),
    ),
    difficulty=DifficultyRule("milestones plus the answer", 3),
    train_split=TrainSplit(
        env_kwargs={"split": "train"},
        size_kwarg="num_tasks",
        size=TRAIN_TASK_COUNT,
        hidden_world="some templates ask a fixed question (which IP appears most often in the access log?); the "
        "files behind it are drawn from the seed",
        repeated_goals="the goal is the question, fixed for those templates",
    ),
    thread_safe=True,  # tests/test_thread_safety.py
    programs=("bwrap",),
    expert_sample=12,
    whole_replies=True,
    outside_data=("task_file", "script_dir"),
)
declare(FAMILY)
