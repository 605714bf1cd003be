"""Every id with a training split (``datasets.train_splits()``): its first 200 training tasks stand apart from the test
tasks and speak like them, and the expert solves them.

Apart: no task id of the test split; no first observation of a test task, unless the family declares why one may
repeat (``TrainSplit.hidden_world``), and then the expert's episodes on the two differ, so the instance behind the
shared text does; no goal of a test task, unless the family declares why one may (``TrainSplit.repeated_goals``).
Alike: the test split's system prompt (but for the action example each instance quotes) and step budget. The fast
suite reads the first 40 training rows and plays the expert on 2 of them; ``-m slow`` reads and plays all 200.
Families that declare themselves heavy run only under ``-m slow``.

Where a family builds each training task by running its engine at first use (TextWorld compiles a game, ScienceWorld
derives a variation's goal in a JVM of its own), the first 200 cost one to three hours per id from a cold cache,
and a whole declared split several times that: those runs, and every whole-split check, are also marked ``sweep``.
``make test-slow`` leaves them out (``-m "slow and not sweep"``) so the slow suite fits a sitting; ``make test-sweep``
runs them, and once built the tasks sit in the cache, so later runs take minutes.
"""

import json
import re
from functools import cache

import gymnasium as gym
import pytest

from agentgym_text.core.registry import get_entry
from agentgym_text.integrations.datasets import count_tasks, tasks, train_instances, train_size, train_splits
from agentgym_text.testing.contract import EXPERT_BUDGET, check_expert_solves
from tests.conftest import env_param

FIRST = 200
FAST_ROWS = 40
FAST_EXPERTS = 2
BUILT_PER_TASK = {"textworld", "scienceworld"}
"""Families whose training tasks are built one by one by their engine at first use (see the module docstring)."""
BUILT_SAMPLE = 5
"""How many of a built-per-task family's first training tasks ``-m slow`` reads and plays."""


def _built_per_task(env_id: str) -> bool:
    return get_entry(env_id).declaration.name in BUILT_PER_TASK


def _params(slow_too: bool) -> list:
    """(env id, rows read) per id with a split: the fast count, and the full one under slow when ``slow_too``. A
    heavy family reads only under slow; one that builds its tasks one by one reads a few under slow and the first
    200 under sweep."""
    params = []
    for env_id in sorted(env_id for env_id, split in train_splits().items() if split.available):
        base = env_param(env_id)
        if _built_per_task(env_id):
            counts = [(BUILT_SAMPLE, [pytest.mark.slow])] + (
                [(FIRST, [pytest.mark.slow, pytest.mark.sweep])] if slow_too else []
            )
        elif get_entry(env_id).declaration.heavy:
            counts = [(FIRST, [pytest.mark.slow])]
        else:
            counts = [(FAST_ROWS, [])] + ([(FIRST, [pytest.mark.slow])] if slow_too else [])
        for count, marks in counts:
            params.append(pytest.param(env_id, count, marks=[*base.marks, *marks], id=f"{env_id}-{count}"))
    return params


@cache
def _rows(env_id: str, split: str, count: int | None = None) -> tuple[dict, ...]:
    """The test rows, or the first ``count`` training rows (all of them where the split is smaller)."""
    return tuple(tasks(env_id, split, limit=None if count is None else min(count, train_size(env_id))))


def _instance(instance: tuple) -> tuple[str, int]:
    """A training instance's task id and reset seed (its kwargs may carry the size asked for)."""
    _, task_id, seed = instance
    return task_id, seed


def _declared(env_id: str):
    return get_entry(env_id).train_split


@pytest.mark.parametrize(("env_id", "count"), _params(slow_too=True))
def test_training_tasks_share_no_task_id_opening_or_goal_with_the_test_tasks(env_id, count):
    train, test = _rows(env_id, "train", count), _rows(env_id, "test")
    assert len(train) == min(count, train_size(env_id))
    assert not {row["task_id"] for row in train} & {row["task_id"] for row in test}
    assert len({(row["task_id"], row["seed"], json.dumps(row["env_kwargs"], sort_keys=True)) for row in train}) == len(
        train
    ), "two training rows are the same instance"
    openings = {row["first_observation"] for row in test}
    repeated = [row["task_id"] for row in train if row["first_observation"] in openings]
    assert not repeated or _declared(env_id).hidden_world, (
        f"{len(repeated)} training first observations equal a test task's ({repeated[:3]}) and the family declares "
        "no hidden world behind them"
    )
    goals = {row["goal"] for row in test}
    same_goal = [row["task_id"] for row in train if row["goal"] in goals]
    assert not same_goal or _declared(env_id).repeated_goals, (
        f"{len(same_goal)} training goals equal a test task's ({same_goal[:3]}) and the family declares no reason"
    )


def _without_action_example(system_prompt: str) -> str:
    """The system prompt less the action example the env quotes from the instance's own first view."""
    return re.sub(r"^(Actions: .*?), e\.g\. '.*?'\. ", r"\1. ", system_prompt, flags=re.MULTILINE)


@pytest.mark.parametrize(("env_id", "count"), _params(slow_too=False))
def test_training_rows_speak_the_test_split_text_prompt_and_budget(env_id, count):
    train, test = _rows(env_id, "train", count), _rows(env_id, "test")
    prompts = {_without_action_example(row["system_prompt"]) for row in test}
    assert {_without_action_example(row["system_prompt"]) for row in train} <= prompts
    assert {row["max_steps"] for row in train} <= {row["max_steps"] for row in test}
    played, tested = gym.make(env_id, **train[0]["env_kwargs"]), gym.make(env_id)
    try:
        assert type(played.unwrapped) is type(tested.unwrapped)
        assert getattr(played.unwrapped, "text_format", None) == getattr(tested.unwrapped, "text_format", None)
    finally:
        played.close()
        tested.close()


def _expert_params() -> list:
    """(env id, training row index): an evenly spread sample of the first rows in the fast suite (none for a heavy
    family), every other one of the first 200 under slow; for a family that builds its tasks one by one, the first
    few under slow and the rest under sweep."""
    params = []
    for env_id in sorted(env_id for env_id, split in train_splits().items() if split.available):
        base = env_param(env_id)
        size = min(FIRST, _declared(env_id).size_of(env_id) or FIRST)
        last = min(FAST_ROWS, size) - 1
        fast = (
            set()
            if get_entry(env_id).declaration.heavy
            else {round(i * last / (FAST_EXPERTS - 1)) for i in range(FAST_EXPERTS)}
        )
        for index in range(size):
            marks = list(base.marks) + ([] if index in fast else [pytest.mark.slow])
            if _built_per_task(env_id) and index >= BUILT_SAMPLE:
                marks.append(pytest.mark.sweep)
            params.append(pytest.param(env_id, index, marks=marks, id=f"{env_id}-{index}"))
    return params


def _rows_holding(env_id: str, index: int) -> int:
    """How many training rows to read for row ``index``: the smallest of the counts the other tests read too."""
    if _built_per_task(env_id) and index < BUILT_SAMPLE:
        return BUILT_SAMPLE
    return FIRST if index >= FAST_ROWS else FAST_ROWS


@pytest.mark.parametrize(("env_id", "index"), _expert_params())
def test_the_expert_solves_training_tasks(env_id, index):
    row = _rows(env_id, "train", _rows_holding(env_id, index))[index]
    check_expert_solves(env_id, row["task_id"], row["seed"], row["env_kwargs"])


@cache
def _expert_episode(env_id: str, env_kwargs: str, task_id: str, seed: int) -> tuple[tuple[str, str], ...]:
    """The expert's actions and the answers to them, from reset to the end."""
    env = gym.make(env_id, **{**json.loads(env_kwargs), "max_episode_steps": EXPERT_BUDGET})
    try:
        env.reset(seed=seed, options={"task_id": task_id})
        episode, done = [], False
        while not done and (action := env.unwrapped.expert_action()) is not None:
            observation, _, terminated, truncated, _ = env.step(action)
            episode.append((action, observation))
            done = terminated or truncated
        return tuple(episode)
    finally:
        env.close()


def _episode(row: dict) -> tuple[tuple[str, str], ...]:
    return _expert_episode(row["env_id"], json.dumps(row["env_kwargs"], sort_keys=True), row["task_id"], row["seed"])


@pytest.mark.parametrize(("env_id", "count"), _params(slow_too=True))
def test_a_repeated_opening_hides_another_world(env_id, count):
    """Where the family declares that a first observation may repeat, the instance behind it differs: the expert's
    episode on the training task is not the one on any test task that opens the same way."""
    train, test = _rows(env_id, "train", count), _rows(env_id, "test")
    by_opening: dict[str, list[dict]] = {}
    for row in test:
        by_opening.setdefault(row["first_observation"], []).append(row)
    repeated = [row for row in train if row["first_observation"] in by_opening]
    if count < FIRST:
        repeated = repeated[:FAST_EXPERTS]
    for row in repeated:
        episode = _episode(row)
        assert all(episode != _episode(twin) for twin in by_opening[row["first_observation"]]), (
            f"training task {row['task_id']} plays exactly like a test task that opens the same way"
        )


SPLIT_IDS = [env_param(env_id) for env_id, split in sorted(train_splits().items()) if split.available]
SIZE_IDS = [
    pytest.param(*param.values, marks=[*param.marks, pytest.mark.slow, pytest.mark.sweep], id=param.id)
    if _built_per_task(param.values[0])
    else pytest.param(*param.values, marks=[*param.marks, pytest.mark.slow], id=param.id)
    if get_entry(param.values[0]).declaration.heavy
    else param
    for param in SPLIT_IDS
]
"""A heavy family builds its first 200 training tasks in minutes (under ``-m slow``), one that builds them one by one
in hours (under ``sweep`` too)."""


@pytest.mark.parametrize("env_id", SIZE_IDS)
def test_the_split_refuses_more_than_its_declared_size_and_grows_by_prefix(env_id):
    """``TrainSplit.size`` (the README's "training tasks") bounds the split, and a longer request extends a shorter
    one, so "the first 200 training tasks" are the same tasks whoever asks."""
    size = train_size(env_id)
    with pytest.raises(ValueError, match="training tasks"):
        train_instances(env_id, size + 1)
    few = min(FAST_ROWS, size)
    longer = train_instances(env_id, min(FIRST, size))
    assert [_instance(one) for one in train_instances(env_id, few)] == [_instance(one) for one in longer[:few]]
    assert count_tasks(env_id, "train") == min(FIRST, size)


@pytest.mark.slow
@pytest.mark.sweep
@pytest.mark.timeout(
    6 * 3600
)  # a whole split at first build: PDDL plans 1,000 problems (~15 min), TextWorld compiles 1,000 games
@pytest.mark.parametrize("env_id", SPLIT_IDS)
def test_the_split_gives_its_declared_size_of_distinct_instances(env_id):
    instances = train_instances(env_id, train_size(env_id))
    assert len(instances) == train_size(env_id)
    assert len({json.dumps(instance, sort_keys=True) for instance in instances}) == len(instances)
