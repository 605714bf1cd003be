"""Declares the knowledge-graph family: ``AgentBench/KG-v0`` (a graph generated into the cache at first use, or
AgentBench's own items on the user's Freebase SPARQL endpoint)."""

from agentgym_text.core.family import DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.registry import declare

TASK_COUNT = 150
MAX_STEPS = 15

FAMILY = Family(
    name="kg",
    category="tool",
    ids=(
        EnvId(
            "AgentBench/KG-v0",
            "agentgym_text.envs.kg.env:KgEnv",
            task_count=TASK_COUNT,
            description="Answer 1-4 hop questions over a generated knowledge graph (126k triples, SQLite) with "
            "AgentBench's seven tools (get_relations, get_neighbors, intersection, get_attributes, argmax, "
            "argmin, count); task_file= plays AgentBench's own items on the user's Freebase SPARQL endpoint.",
            subskill_weights={
                "Memory": 2,
                "Planning": 3,
                "World Modeling": 2,
                "Self-Reflection": 1,
                "Grounding": 3,
                "Spatial Navigation": 0,
            },
            max_steps=MAX_STEPS,
            agentbench_task="knowledgegraph",
        ),
    ),
    difficulty=DifficultyRule("gold program variables plus the answer", 3),
    # the same templates on other seeds, about entities outside the shipped questions' region (tasks.training_tasks)
    train_split=TrainSplit(env_kwargs={"split": "train"}, size_kwarg="num_tasks", size=1_000),
    thread_safe=True,  # tests/test_thread_safety.py
    outside_data=("task_file", "sparql_url", "ontology_dir"),
    whole_replies=True,
)
declare(FAMILY)
