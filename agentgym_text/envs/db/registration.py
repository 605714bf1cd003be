"""Declares the database family: ``AgentBench/DB-v0`` (SQLite by default, PostgreSQL or MySQL through ``db_url=``)."""

from agentgym_text.core.family import DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.registry import declare

TASK_COUNT = 300

FAMILY = Family(
    name="db",
    category="tool",
    ids=(
        EnvId(
            "AgentBench/DB-v0",
            "agentgym_text.envs.db.env:DbEnv",
            task_count=TASK_COUNT,
            description="Answer questions about a generated table, or insert/update/delete rows, with SQL on "
            "SQLite (AgentBench's DB format: 'Action: Operation' + a ```sql block, 'Action: Answer' + "
            "'Final Answer: [...]'); task_file= plays AgentBench's own items as AgentBench scores them.",
            subskill_weights={
                "Memory": 1,
                "Planning": 1,
                "World Modeling": 2,
                "Self-Reflection": 2,
                "Grounding": 3,
                "Spatial Navigation": 0,
            },
            max_steps=15,
            agentbench_task="dbbench",
        ),
    ),
    # 1 for the question kinds marked hard in questions.py (a second ordering key, a condition on an aggregate,
    # an offset), 0 otherwise
    difficulty=DifficultyRule("hard query features", 0),
    # the same question kinds on tables drawn from other seeds, none equal to a shipped table (tasks.training_tasks)
    train_split=TrainSplit(env_kwargs={"split": "train"}, size_kwarg="num_tasks", size=1_000),
    thread_safe=True,  # tests/test_thread_safety.py
    outside_data=("task_file", "db_url"),
    whole_replies=True,
)
declare(FAMILY)
