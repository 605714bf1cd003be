"""Training splits of the generated families (DB, KG, TextWorld, ScienceWorld).

For each id: the first 200 training instances share no task id and no hidden world with the test tasks, no training
first observation equals a test one (nor a goal, where the family's goals name the world; TextWorld's and
ScienceWorld's READMEs say why theirs can repeat), the rows speak the test split's text with its system prompt and
budget, and the family's expert solves a sample of them (all 200 under ``-m slow``). Building a TextWorld game or
deriving a ScienceWorld variation costs seconds at first use, so their 200 rows are read under ``-m sweep`` (an
hour or more per id from a cold cache; ``make test-sweep``).
"""

from __future__ import annotations

import json
from collections.abc import Callable

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401  (registers the ids)
from agentgym_text.core.registry import get_entry
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.envs.scienceworld.engine import find_java
from agentgym_text.integrations.datasets import tasks, train_instances
from agentgym_text.testing.contract import check_expert_solves

FIRST = 200
SAMPLE = 5
DB, KG = "AgentBench/DB-v0", "AgentBench/KG-v0"
TEXTWORLD = ("TextWorld/Coin-v0", "TextWorld/Treasure-v0", "TextWorld/Cooking-v0")
SCIENCEWORLD = "AgentBoard/ScienceWorld-v0"


def _table(task: TaskSpec) -> str:
    return json.dumps(task.params["table"])


def _question(task: TaskSpec) -> str:
    return json.dumps([task.params["question"], task.params["entities"]])


def _game_seed(task: TaskSpec) -> str:
    return str(task.params["seed"])


WORLDS: dict[str, Callable[[TaskSpec], str]] = {
    DB: _table,
    KG: _question,
    **{env_id: _game_seed for env_id in TEXTWORLD},
}
"""Per id: what no training task may share with a test task (DB: the table; KG: the question about its entities;
TextWorld: the seed its game is generated from). ScienceWorld's variations are checked by their own test below."""
CHEAP = (DB, KG)
"""Ids whose every task resets in milliseconds: the fast tests read all 200 training rows."""
BUILT_AT_FIRST_USE = (*TEXTWORLD, SCIENCEWORLD)


def _tasks_of(env_id: str, env_kwargs: dict) -> dict[str, TaskSpec]:
    env = gym.make(env_id, **env_kwargs)
    try:
        return {task.task_id: task for task in env.unwrapped.tasks}
    finally:
        env.close()


def _spread(items: list, count: int) -> list:
    return items[:: max(1, len(items) // count)][:count]


NEEDS_JAVA = pytest.mark.skipif(find_java() is None, reason="ScienceWorld needs Java")


def _needs_java(env_id: str):
    return pytest.param(env_id, marks=NEEDS_JAVA) if env_id == SCIENCEWORLD else env_id


def _swept(env_id: str):
    """A built-at-first-use id's param, under ``sweep`` too: its first 200 rows take an hour or more to build cold."""
    marks = [pytest.mark.sweep] + ([NEEDS_JAVA] if env_id == SCIENCEWORLD else [])
    return pytest.param(env_id, marks=marks) if env_id in BUILT_AT_FIRST_USE else env_id


@pytest.mark.parametrize("env_id", sorted(WORLDS))
def test_first_training_instances_are_no_test_instance(env_id):
    instances = train_instances(env_id, FIRST)
    assert len(instances) == FIRST and len({task_id for _, task_id, _ in instances}) == FIRST
    (kwargs,) = {json.dumps(kw, sort_keys=True) for kw, _, _ in instances}  # one env holds the whole split
    training = _tasks_of(env_id, json.loads(kwargs))
    test = _tasks_of(env_id, {})
    assert not {task_id for _, task_id, _ in instances} & set(test)
    world = WORLDS[env_id]
    assert not {world(task) for task in test.values()} & {world(training[task_id]) for _, task_id, _ in instances}


@NEEDS_JAVA
def test_scienceworld_training_variations_are_the_simulators_train_variations():
    from agentgym_text.envs.scienceworld.tasks import load_instances
    from agentgym_text.envs.scienceworld.train_variations import listing, ordered

    deals = ordered()
    shipped = {(inst["task_name"], int(inst["variation"])) for inst in load_instances()}
    assert len(deals) >= 1000 and len(set(deals)) == len(deals)
    assert not shipped & set(deals)
    # the first 30 are one of each type, as the shipped set has every type
    assert {name for name, _ in deals[:30]} == {name for name, _ in shipped} == set(listing())
    test_ids = set(_tasks_of(SCIENCEWORLD, {}))
    assert not test_ids & set(_tasks_of(SCIENCEWORLD, {"split": "train", "num_tasks": FIRST}))


def _speak_alike(train: list[dict], test: list[dict]) -> None:
    assert {row["system_prompt"] for row in train} == {row["system_prompt"] for row in test}
    assert {row["max_steps"] for row in train} == {row["max_steps"] for row in test}
    assert {row["env_kwargs"]["split"] for row in train} == {"train"}


def _check_first_rows(env_id: str, goals_apart: bool) -> None:
    """The first training rows speak as the test rows and open unlike them (``goals_apart``: no goal is a test goal
    either)."""
    train = tasks(env_id, "train", limit=FIRST)
    test = tasks(env_id, "test")
    assert len(train) == FIRST
    _speak_alike(train, test)
    assert not {row["first_observation"] for row in train} & {row["first_observation"] for row in test}
    if goals_apart:
        assert not {row["goal"] for row in train} & {row["goal"] for row in test}


@pytest.mark.parametrize("env_id", CHEAP)
def test_training_rows_speak_like_the_test_rows_and_differ_from_them(env_id):
    _check_first_rows(env_id, goals_apart=True)


@pytest.mark.parametrize("env_id", [_needs_java(env_id) for env_id in BUILT_AT_FIRST_USE])
def test_training_rows_speak_like_the_test_rows(env_id):
    _speak_alike(tasks(env_id, "train", limit=1), tasks(env_id, "test", limit=1))


@pytest.mark.slow
@pytest.mark.parametrize("env_id", [_swept(env_id) for env_id in BUILT_AT_FIRST_USE])
def test_first_training_rows_speak_like_the_test_rows_and_differ_from_them(env_id):
    _check_first_rows(env_id, goals_apart=False)  # the family READMEs say why goals repeat


def _sample_size(env_id: str) -> int:
    """``SAMPLE``, or fewer for a heavy family (its declared ``expert_sample``: TextWorld builds a game in about 5 s);
    one ScienceWorld variation (its first derivation starts JVMs for 10-50 s)."""
    if env_id == SCIENCEWORLD:
        return 1
    return min(SAMPLE, get_entry(env_id).declaration.expert_sample or SAMPLE)


@pytest.mark.parametrize("env_id", [_needs_java(env_id) for env_id in (*CHEAP, *BUILT_AT_FIRST_USE)])
def test_the_expert_solves_a_sample_of_training_tasks(env_id):
    size = _sample_size(env_id)
    instances = train_instances(env_id, FIRST if env_id in WORLDS else size)
    for env_kwargs, task_id, seed in _spread(instances, size):
        check_expert_solves(env_id, task_id, seed, env_kwargs=env_kwargs)


@pytest.mark.slow
@pytest.mark.parametrize("env_id", [_swept(env_id) for env_id in (*CHEAP, *BUILT_AT_FIRST_USE)])
def test_the_expert_solves_the_first_training_tasks(env_id):
    for env_kwargs, task_id, seed in train_instances(env_id, FIRST):
        check_expert_solves(env_id, task_id, seed, env_kwargs=env_kwargs)


def test_scienceworld_lists_only_variations_the_expert_solves_that_open_unlike_a_test_task(monkeypatch):
    from agentgym_text.envs.scienceworld import train_variations

    records = {
        ("boil", 1): {"instance": {"goal": "Boil tin."}, "first_observation": "hallway"},  # opens as a test task
        ("boil", 2): {"instance": None, "error": "gold path ends without success"},
        ("boil", 3): {"instance": {"goal": "Boil tin."}, "first_observation": "kitchen"},
        ("melt", 1): {"instance": {"goal": "Melt ice."}, "first_observation": "hallway"},
    }
    monkeypatch.setattr(train_variations, "ordered", lambda: list(records))
    monkeypatch.setattr(train_variations, "derived_record", lambda name, variation: records[name, variation])
    monkeypatch.setattr(train_variations, "shipped_openings", lambda: {("Boil tin.", "hallway")})
    assert [task_id for _, task_id, _ in train_variations.training_instances(5)] == [
        "scienceworld-boil-var3",
        "scienceworld-melt-var1",
    ]
