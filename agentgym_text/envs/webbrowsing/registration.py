"""Declares the WebBrowsing family: ``AgentBench/WebBrowsing-v0`` (Mind2Web's multiple-choice format; Chromium only
to record a task at its first use)."""

from agentgym_text.core.family import DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.registry import declare

TASK_COUNT = 122
MAX_STEPS = 30

FAMILY = Family(
    name="webbrowsing",
    category="web",
    ids=(
        EnvId(
            "AgentBench/WebBrowsing-v0",
            "agentgym_text.envs.webbrowsing.env:WebBrowsingEnv",
            task_count=TASK_COUNT,
            description="Mind2Web's multiple-choice web tasks (AgentBench's WB): each step shows a cleaned HTML "
            "snapshot, the task, the previous actions and lettered candidate elements; answer a letter, "
            "CLICK/TYPE/SELECT and a value. 122 tasks recorded in Chromium on the five served WebArena sites "
            "at first use, scored by element accuracy, operation F1 and step success; or Mind2Web's own json "
            "via task_file=.",
            subskill_weights={
                "Memory": 1,
                "Planning": 2,
                "World Modeling": 1,
                "Self-Reflection": 0,
                "Grounding": 3,
                "Spatial Navigation": 0,
            },
            subskill_source="ours",
            max_steps=MAX_STEPS,
            agentbench_task="mind2web",
        ),
    ),
    difficulty=DifficultyRule("gold steps", 3),
    train_split=TrainSplit(
        env_kwargs={"split": "train"}, size_kwarg="num_tasks", size=1_419
    ),  # from WebArena's training tasks
    requires="webarena",  # Playwright, to record a task the first time it is played
    programs=("chromium",),
    depends_on=("webarena",),  # the sites and the gold paths
    outside_data=("task_file",),
    heavy=True,
    expert_sample=3,
    thread_safe=True,  # tests/test_thread_safety.py (four threads recording from a cold cache, then replaying)
    whole_replies=True,  # the answer is Mind2Web's 'Answer:' / 'Action:' / 'Value:' lines
)
declare(FAMILY)
