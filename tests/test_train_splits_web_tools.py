"""The training splits of WebArena, WebBrowsing and the two tool envs: apart from the test tasks (no task id,
instance or goal of the first 200 equal to a test task's), in the test tasks' format, and solved by the expert
(a sample here, the first 200 under ``-m slow``). The web ids share one browser per module."""

from __future__ import annotations

import json
import shutil

import gymnasium as gym
import pytest

from agentgym_text.integrations.datasets import DEFAULT_TRAIN_SIZE, tasks, train_instances

TOOL_IDS = ("AgentBoard/ToolQuery-v0", "AgentBoard/ToolOperation-v0")
FIRST = DEFAULT_TRAIN_SIZE

needs_chromium = pytest.mark.skipif(shutil.which("chromium") is None, reason="the web ids need Chromium")


def _play(env, task_id: str) -> dict:
    obs, info = env.reset(seed=0, options={"task_id": task_id})
    while not env.unwrapped.episode_over:
        action = env.unwrapped.expert_action()
        assert action is not None, f"the expert gave up on {task_id}: {obs[-300:]}"
        obs, _, _, _, info = env.step(action)
    return info


def _solved(info: dict) -> bool:
    return bool(info["success"]) and info["progress_rate"] == 1.0


def _spread(ids: list[str], count: int) -> list[str]:
    return [ids[round(i * (len(ids) - 1) / (count - 1))] for i in range(count)]


def _instance(params: dict) -> str:
    return json.dumps(params, sort_keys=True, default=str)


# ---- the tool envs --------------------------------------------------------------------------------------------
def _tool_sets(env_id: str):
    test = gym.make(env_id).unwrapped.tasks
    train = gym.make(env_id, split="train", num_tasks=FIRST).unwrapped.tasks
    return test, train


@pytest.mark.parametrize("env_id", TOOL_IDS)
def test_tool_training_tasks_share_no_id_instance_goal_or_first_observation_with_the_test(env_id):
    test, train = _tool_sets(env_id)
    assert len(train) == FIRST
    assert not set(test.task_ids) & set(train.task_ids)
    assert not {task.goal for task in test} & {task.goal for task in train}
    assert not {_instance(task.params) for task in test} & {_instance(task.params) for task in train}
    # every tool of the id takes turns in the first 200
    assert {task.params["tool"] for task in train} == {task.params["tool"] for task in test}
    test_rows = tasks(env_id, "test")
    train_rows = tasks(env_id, "train", limit=FIRST)
    assert not {row["first_observation"] for row in test_rows} & {row["first_observation"] for row in train_rows}
    assert {row["system_prompt"] for row in train_rows} == {test_rows[0]["system_prompt"]}
    assert {row["max_steps"] for row in train_rows} == {row["max_steps"] for row in test_rows} == {30}


@pytest.mark.parametrize("env_id", TOOL_IDS)
def test_tool_training_split_holds_a_thousand_tasks_in_a_fixed_order(env_id):
    ids = [task_id for _, task_id, _ in train_instances(env_id, 1000)]
    assert len(set(ids)) == 1000
    assert ids[:FIRST] == [task_id for _, task_id, _ in train_instances(env_id, FIRST)]


def test_a_tool_whose_world_runs_out_says_how_many_training_tasks_it_has():
    with pytest.raises(ValueError, match=r"num_tasks=5000: the operation training split has \d+ tasks"):
        gym.make("AgentBoard/ToolOperation-v0", split="train", num_tasks=5000, tool="todo")
    with pytest.raises(ValueError, match="split must be 'test' or 'train'"):
        gym.make("AgentBoard/ToolQuery-v0", split="dev")
    with pytest.raises(ValueError, match="num_tasks= sizes the training split"):
        gym.make("AgentBoard/ToolQuery-v0", num_tasks=3)


@pytest.mark.parametrize("text_format", ["agentboard", "clear"])
@pytest.mark.parametrize("env_id", TOOL_IDS)
def test_the_expert_solves_a_sample_of_tool_training_tasks(env_id, text_format):
    env = gym.make(env_id, split="train", num_tasks=FIRST, text_format=text_format)
    try:
        for task_id in _spread(env.unwrapped.task_ids, 5):
            assert _solved(_play(env, task_id)), task_id
    finally:
        env.close()


@pytest.mark.slow
@pytest.mark.parametrize("env_id", TOOL_IDS)
def test_the_expert_solves_the_first_200_tool_training_tasks(env_id):
    env = gym.make(env_id, split="train", num_tasks=FIRST)
    try:
        unsolved = [task_id for task_id in env.unwrapped.task_ids if not _solved(_play(env, task_id))]
    finally:
        env.close()
    assert not unsolved


# ---- WebArena -------------------------------------------------------------------------------------------------
def _without_number(config: dict) -> str:
    return _instance({key: value for key, value in config.items() if key != "task_id"})


def test_webarena_training_tasks_are_new_instances_of_the_test_templates():
    from agentgym_text.envs.webarena.tasks import TASKS
    from agentgym_text.envs.webarena.training import training_configs, training_tasks

    pool = training_configs()
    assert len(pool) >= 1000
    train = training_tasks(FIRST)
    assert train.task_ids == [f"webarena-train-{n:04d}" for n in range(FIRST)]
    assert not set(TASKS.task_ids) & set(train.task_ids)
    assert not {task.goal for task in TASKS} & {config["intent"] for config in pool}
    assert len({config["intent"] for config in pool}) == len(pool)
    assert not {_without_number(task.params) for task in TASKS} & {_without_number(c) for c in pool[:FIRST]}
    shipped_templates = {task.params["intent_template_id"] for task in TASKS}
    assert {task.params["intent_template_id"] for task in train} <= shipped_templates
    assert {task.params["sites"][0] for task in train} == {task.params["sites"][0] for task in TASKS}
    assert {task.max_steps for task in train} == {task.max_steps for task in TASKS}


def test_webarena_draw_rounds_leave_the_shipped_draw_unchanged():
    from agentgym_text.envs.webarena.sites.taskkit import draw_round, rng_for

    shipped = rng_for(0).random()
    with draw_round(3):
        other = rng_for(0).random()
    assert rng_for(0).random() == shipped != other


def test_webarena_train_split_refuses_a_task_file():
    with pytest.raises(ValueError, match="split='train' plays the package's training tasks"):
        gym.make("AgentBoard/WebArena-v0", split="train", task_config="tasks.json")


@pytest.fixture(scope="module")
def webarena_train():
    pytest.importorskip("playwright")
    env = gym.make("AgentBoard/WebArena-v0", split="train", num_tasks=FIRST)
    yield env
    env.close()


@needs_chromium
def test_the_expert_solves_a_sample_of_webarena_training_tasks(webarena_train):
    ids = webarena_train.unwrapped.task_ids
    for task_id in _spread(ids, 3):
        assert _solved(_play(webarena_train, task_id)), task_id


@needs_chromium
@pytest.mark.slow
def test_the_expert_solves_the_first_200_webarena_training_tasks(webarena_train):
    unsolved = [task_id for task_id in webarena_train.unwrapped.task_ids if not _solved(_play(webarena_train, task_id))]
    assert not unsolved


# ---- WebBrowsing ----------------------------------------------------------------------------------------------
def test_webbrowsing_training_tasks_are_recorded_from_webarena_training_tasks():
    from agentgym_text.envs.webarena.training import training_configs
    from agentgym_text.envs.webbrowsing.tasks import default_tasks, training_tasks

    test, train = default_tasks(), training_tasks(1000)
    assert len(train) == 1000
    first = list(train)[:FIRST]
    assert not set(test.task_ids) & {task.task_id for task in first}
    assert not {task.goal for task in test} & {task.goal for task in first}
    pool = training_configs()
    for task in first:
        assert pool[task.params["webarena_train_task"]]["intent"] == task.goal
    assert {task.params["website"] for task in first} == {task.params["website"] for task in test}


@pytest.fixture(scope="module")
def webbrowsing_train():
    pytest.importorskip("playwright")
    env = gym.make("AgentBench/WebBrowsing-v0", split="train", num_tasks=FIRST)
    yield env
    env.close()


@needs_chromium
def test_the_expert_solves_a_sample_of_webbrowsing_training_tasks(webbrowsing_train):
    for task_id in _spread(webbrowsing_train.unwrapped.task_ids, 3):
        info = _play(webbrowsing_train, task_id)
        assert _solved(info) and info["step_success_rate"] == 1.0, task_id


@needs_chromium
@pytest.mark.slow
def test_the_expert_solves_the_first_200_webbrowsing_training_tasks(webbrowsing_train):
    unsolved = [
        task_id for task_id in webbrowsing_train.unwrapped.task_ids if not _solved(_play(webbrowsing_train, task_id))
    ]
    assert not unsolved
