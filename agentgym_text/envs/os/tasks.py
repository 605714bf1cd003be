"""The OS task set: 12 templates in AgentBench's three groups, 12 test instances each (144, AgentBench's OS test
size), and any number of training instances from seeds disjoint from the test seeds.

A task's params are just ``{"template": name, "seed": n}``: the instance (init script, answer or checker,
solution, milestones) is regenerated from them, deterministically, when the episode starts.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import lru_cache

from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.os import files, retrieval, text_processing
from agentgym_text.envs.os.generator import TaskInstance
from agentgym_text.envs.os.registration import FAMILY, TRAIN_TASK_COUNT

__all__ = ["TEMPLATES", "TEST_PER_TEMPLATE", "TASK_COUNT", "MAX_STEPS", "TRAIN_SEED_START", "instance", "make_tasks"]

TEMPLATES: dict[str, Callable[[random.Random], TaskInstance]] = {
    "count-modified-after": retrieval.count_modified_after,
    "largest-file": retrieval.largest_file,
    "users-matching": retrieval.users_matching,
    "count-extension": retrieval.count_extension,
    "readonly-except": files.readonly_except,
    "sort-by-extension": files.sort_by_extension,
    "delete-older-than": files.delete_older_than,
    "scripts-executable": files.scripts_executable,
    "top-ip": text_processing.top_ip,
    "sum-column": text_processing.sum_column,
    "failed-logins": text_processing.failed_logins,
    "extract-domains": text_processing.extract_domains,
}
TEST_PER_TEMPLATE = 12
TASK_COUNT = TEST_PER_TEMPLATE * len(TEMPLATES)
MAX_STEPS = 8
"""AgentBench's round limit for the OS tasks."""
TRAIN_SEED_START = 100_000
"""Training instances use seeds from here on; test instances use 0..11 per template."""
QUESTION_LOOKAHEAD = 100


@lru_cache(maxsize=512)
def instance(template: str, seed: int) -> TaskInstance:
    """The instance of ``template`` for ``seed`` (the same in every process).

    >>> instance("top-ip", 3) == instance("top-ip", 3), instance("top-ip", 3).group
    (True, 'text processing')
    """
    return TEMPLATES[template](random.Random(f"{template}:{seed}"))


def _spec(template: str, seed: int, task_id: str) -> TaskSpec:
    task = instance(template, seed)
    return TaskSpec(
        task_id=task_id,
        params={"template": template, "seed": seed, "group": task.group},
        goal=task.description,
        difficulty=FAMILY.difficulty.label(len(task.milestones) + 1),
        max_steps=MAX_STEPS,
    )


@lru_cache(maxsize=8)
def make_tasks(split: str = "test", num_tasks: int | None = None, templates: tuple[str, ...] | None = None) -> TaskSet:
    """``split="test"``: the 144 shipped tasks; ``split="train"``: ``num_tasks`` (default 1,200) fresh instances,
    templates in turn, each from its training seeds (``_training_seeds``). ``templates`` restricts either split to
    some templates."""
    names = list(templates or TEMPLATES)
    unknown = [name for name in names if name not in TEMPLATES]
    if unknown:
        raise ValueError(f"unknown templates {unknown}; known: {sorted(TEMPLATES)}")
    if split == "test":
        specs = [_spec(name, seed, f"os-{name}-{seed:02d}") for name in names for seed in range(TEST_PER_TEMPLATE)]
        return TaskSet(specs[:num_tasks] if num_tasks else specs)
    if split == "train":
        streams = {name: _training_seeds(name) for name in names}
        specs = []
        for index in range(num_tasks or TRAIN_TASK_COUNT):
            name = names[index % len(names)]
            seed = next(streams[name])
            specs.append(_spec(name, seed, f"os-train-{name}-{seed}"))
        return TaskSet(specs)
    raise ValueError(f"split must be 'test' or 'train', not {split!r}")


def _training_seeds(template: str) -> Iterator[int]:
    """The template's training seeds: from ``TRAIN_SEED_START`` on, skipping a seed whose question is a test task's,
    unless the template has no other question to ask (none of its first ``QUESTION_LOOKAHEAD`` training seeds asks
    one: users-matching, top-ip, failed-logins), where only the files behind the question differ."""
    asked = {instance(template, seed).description for seed in range(TEST_PER_TEMPLATE)}
    lookahead = range(TRAIN_SEED_START, TRAIN_SEED_START + QUESTION_LOOKAHEAD)
    others = any(instance(template, seed).description not in asked for seed in lookahead)
    seed = TRAIN_SEED_START
    while True:
        if not others or instance(template, seed).description not in asked:
            yield seed
        seed += 1
