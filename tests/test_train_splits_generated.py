"""Training splits of the generated families (DB, KG, TextWorld, ScienceWorld).

For each id: the first 200 training instances share no task id and no hidden world with the test tasks, no training
goal or first observation equals a test one (where a family allows that, its README says why and the case is
named here), the rows speak the test split's text with its system prompt and budget, and the family's expert solves
a sample of them (all 200 under ``-m slow``).
"""

from __future__ import annotations

import json
from collections.abc import Callable

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401  (registers the ids)
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.integrations.datasets import tasks, train_instances
from agentgym_text.testing.contract import check_expert_solves

FIRST = 200
SAMPLE = 5


def _table(task: TaskSpec) -> str:
    return json.dumps(task.params["table"])


def _question(task: TaskSpec) -> str:
    return json.dumps([task.params["question"], task.params["entities"]])


WORLDS: dict[str, Callable[[TaskSpec], str]] = {
    "AgentBench/DB-v0": _table,
    "AgentBench/KG-v0": _question,
}
"""Per id: what no training task may share with a test task (DB: the table; KG: the question about its entities)."""
CHEAP = sorted(WORLDS)
"""Ids whose every test and training task resets in milliseconds: the fast tests read all their rows."""


def _tasks_of(env_id: str, env_kwargs: dict) -> dict[str, TaskSpec]:
    env = gym.make(env_id, **env_kwargs)
    try:
        return {task.task_id: task for task in env.unwrapped.tasks}
    finally:
        env.close()


def _spread(items: list, count: int) -> list:
    return items[:: max(1, len(items) // count)][:count]


def _instances(env_id: str) -> list[tuple[dict, str, int]]:
    instances = train_instances(env_id, FIRST)
    assert len(instances) == FIRST
    assert len({task_id for _, task_id, _ in instances}) == FIRST
    return instances


@pytest.mark.parametrize("env_id", sorted(WORLDS))
def test_first_training_instances_are_no_test_instance(env_id):
    instances = _instances(env_id)
    (kwargs,) = {json.dumps(kw, sort_keys=True) for kw, _, _ in instances}  # one env holds the whole split
    training = _tasks_of(env_id, json.loads(kwargs))
    test = _tasks_of(env_id, {})
    assert not {task_id for _, task_id, _ in instances} & set(test)
    world = WORLDS[env_id]
    test_worlds = {world(task) for task in test.values()}
    assert not test_worlds & {world(training[task_id]) for _, task_id, _ in instances}


@pytest.mark.parametrize("env_id", CHEAP)
def test_training_rows_speak_like_the_test_rows_and_differ_from_them(env_id):
    train = tasks(env_id, "train", limit=FIRST)
    test = tasks(env_id, "test")
    assert len(train) == FIRST
    assert {row["system_prompt"] for row in train} == {row["system_prompt"] for row in test}
    assert {row["max_steps"] for row in train} == {row["max_steps"] for row in test}
    assert not {row["goal"] for row in train} & {row["goal"] for row in test}
    assert not {row["first_observation"] for row in train} & {row["first_observation"] for row in test}


@pytest.mark.parametrize("env_id", sorted(WORLDS))
def test_the_expert_solves_a_sample_of_training_tasks(env_id):
    for env_kwargs, task_id, seed in _spread(train_instances(env_id, FIRST), SAMPLE):
        check_expert_solves(env_id, task_id, seed, env_kwargs=env_kwargs)


@pytest.mark.slow
@pytest.mark.parametrize("env_id", sorted(WORLDS))
def test_the_expert_solves_the_first_training_tasks(env_id):
    for env_kwargs, task_id, seed in train_instances(env_id, FIRST):
        check_expert_solves(env_id, task_id, seed, env_kwargs=env_kwargs)
