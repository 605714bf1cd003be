"""Task datasets: test rows are the shipped tasks, train rows come from a range that does not overlap them; a
multi-task set mixes ids by weight."""

import json
import subprocess
import sys
from collections import Counter

import gymnasium as gym
import pytest

from agentgym_text.core.registry import extra_installed
from agentgym_text.integrations.datasets import count_tasks, make_env, tasks, train_splits
from agentgym_text.integrations.mixture import parse_mixture


def test_test_split_is_every_shipped_task_with_its_prompt():
    rows = tasks("AgentQuest/Mastermind-v0", "test")
    env = gym.make("AgentQuest/Mastermind-v0")
    assert [row["task_id"] for row in rows] == env.unwrapped.task_ids
    env.close()
    row = rows[3]
    assert set(row) >= {
        "env_id",
        "env_kwargs",
        "task_id",
        "seed",
        "goal",
        "system_prompt",
        "first_observation",
        "prompt",
    }
    assert row["prompt"] == [
        {"role": "system", "content": row["system_prompt"]},
        {"role": "user", "content": row["first_observation"]},
    ]
    assert row["goal"] in row["first_observation"]


def test_mastermind_train_rows_do_not_overlap_the_shipped_tasks_and_replay():
    train = tasks("AgentQuest/Mastermind-v0", "train", limit=20)
    assert len(train) == 20
    shipped_ids = set(gym.make("AgentQuest/Mastermind-v0").unwrapped.task_ids)
    assert not shipped_ids & {row["task_id"] for row in train}
    row = train[-1]
    env = make_env(row["env_id"], row["env_kwargs"])
    shipped_secrets = {task.params["secret"] for task in env.unwrapped.tasks if task.task_id in shipped_ids}
    train_secrets = {env.unwrapped.tasks[env.unwrapped.tasks.index_of(r["task_id"])].params["secret"] for r in train}
    assert not shipped_secrets & train_secrets
    obs, info = env.reset(seed=row["seed"], options={"task_id": row["task_id"]})
    assert info["task_id"] == row["task_id"] and obs in row["first_observation"]
    env.close()


@pytest.mark.skipif(not extra_installed("babyai"), reason="babyai extra")
def test_babyai_train_rows_are_agentboard_levels_in_its_text_and_budget_that_replay():
    train = tasks("AgentBoard/BabyAI-v0", "train", limit=6)
    test = tasks("AgentBoard/BabyAI-v0", "test", limit=8)
    assert [row["env_kwargs"] for row in train] == [{"split": "train"}] * 6
    assert all(row["seed"] == 0 and row["max_steps"] == 30 for row in train)
    assert all(row["first_observation"].startswith("In front of you in this room") for row in train)  # AgentBoard's
    assert not {row["first_observation"] for row in test} & {row["first_observation"] for row in train}
    again = tasks("AgentBoard/BabyAI-v0", "train", limit=6)
    assert [row["first_observation"] for row in again] == [row["first_observation"] for row in train]


@pytest.mark.skipif(not extra_installed("babyai"), reason="babyai extra")
def test_train_rows_take_env_kwargs_that_change_how_they_are_played_not_which():
    clear = tasks(
        "AgentBoard/BabyAI-v0", "train", limit=2, env_kwargs={"text_format": "clear", "max_episode_steps": 60}
    )
    default = tasks("AgentBoard/BabyAI-v0", "train", limit=2)
    assert [row["task_id"] for row in clear] == [row["task_id"] for row in default]
    assert all(row["max_steps"] == 60 and "\nYou see: " in row["first_observation"] for row in clear)
    with pytest.raises(ValueError, match="sets split itself"):
        tasks("AgentBoard/BabyAI-v0", "train", limit=1, env_kwargs={"split": "test"})
    with pytest.raises(ValueError, match="problem_file name tasks of their own"):
        tasks("AgentBoard/PDDL-v0", "train", limit=1, env_kwargs={"problem_file": "p.pddl"})


@pytest.mark.parametrize("env_id", sorted(i for i, split in train_splits().items() if not split.available))
def test_families_without_a_generator_say_so(env_id):
    with pytest.raises(ValueError, match="no training split: " + train_splits()[env_id].unavailable[:20]):
        tasks(env_id, "train", limit=1)


def test_unknown_split_is_refused():
    with pytest.raises(ValueError, match="split must be one of"):
        tasks("AgentQuest/Mastermind-v0", "dev")


@pytest.mark.parametrize(
    "env_id",
    [
        "AgentBoard/AlfWorld-v0",
        "AgentBench/OS-v0",
        "AgentBench/CardGame-v0",
        "AgentBench/LateralThinking-v0",
        "AgentQuest/Sudoku-v0",
        "AgentBoard/PDDL-v0",
        "AgentBoard/WebShop-v0",
    ],
)
def test_families_with_a_training_range_give_rows_apart_from_the_test_tasks(env_id):
    from agentgym_text.integrations.datasets import tasks

    train = tasks(env_id, "train", limit=3)
    test_ids = {row["task_id"] for row in tasks(env_id, "test")}
    assert len(train) == 3 and not {row["task_id"] for row in train} & test_ids
    assert all(row["first_observation"] and row["system_prompt"] for row in train)
    row = train[-1]
    env = gym.make(env_id, **row["env_kwargs"])
    try:
        env.reset(seed=row["seed"], options={"task_id": row["task_id"]})
        done = False
        while not done:
            *_, terminated, truncated, info = env.step(env.unwrapped.expert_action())
            done = terminated or truncated
        assert info["success"], f"the expert does not solve training task {row['task_id']}"
    finally:
        env.close()


def test_count_tasks_and_env_kwargs_describe_the_same_rows():
    assert count_tasks("AgentQuest/Mastermind-v0", "test") == len(tasks("AgentQuest/Mastermind-v0", "test"))
    rows = tasks("AgentQuest/Mastermind-v0", "test", limit=2, env_kwargs={"max_episode_steps": 7})
    assert [row["env_kwargs"] for row in rows] == [{"max_episode_steps": 7}] * 2
    assert [row["max_steps"] for row in rows] == [7, 7]


MASTERMIND, SUDOKU = "AgentQuest/Mastermind-v0", "AgentQuest/Sudoku-v0"
MIXTURE_SCRIPT = """
import json, sys
from agentgym_text.integrations.datasets import tasks
rows = tasks({sys.argv[1]: 3, sys.argv[2]: 1}, "train", size=12, mix_seed=5)
print(json.dumps([[r["env_id"], r["task_id"], r["seed"], r["env_kwargs"], r["first_observation"]] for r in rows]))
"""


def test_a_mixture_gives_each_id_its_weighted_share_by_largest_remainder():
    assert parse_mixture({MASTERMIND: 5, SUDOKU: 3, "AgentBench/OS-v0": 2}).counts(7) == {
        MASTERMIND: 4,  # quotas 3.5, 2.1, 1.4: one row left over, to the largest remainder
        SUDOKU: 2,
        "AgentBench/OS-v0": 1,
    }
    assert parse_mixture([MASTERMIND, SUDOKU, "AgentBench/OS-v0"]).counts(4) == {
        MASTERMIND: 2,  # equal remainders: the id listed first
        SUDOKU: 1,
        "AgentBench/OS-v0": 1,
    }
    as_text = parse_mixture(f"{MASTERMIND}=3, {SUDOKU}=1")
    assert as_text == parse_mixture({MASTERMIND: 3, SUDOKU: 1.0}) and not as_text.single
    assert parse_mixture(f"{MASTERMIND},{SUDOKU}").weights == parse_mixture([MASTERMIND, SUDOKU]).weights
    assert parse_mixture([f"{MASTERMIND}=3", f"{SUDOKU}=1"]) == as_text == parse_mixture(as_text.spec())
    rows = tasks(as_text.spec(), "test", size=10)
    assert Counter(row["env_id"] for row in rows) == {MASTERMIND: 8, SUDOKU: 2}
    assert count_tasks({MASTERMIND: 3, SUDOKU: 1}, "test", size=10) == 10
    # each id's share is the first rows of its split, as tasks(env_id, split, limit=share) gives them
    for env_id, share in ((MASTERMIND, 8), (SUDOKU, 2)):
        mine = sorted(row["task_id"] for row in rows if row["env_id"] == env_id)
        assert mine == sorted(row["task_id"] for row in tasks(env_id, "test", limit=share))


def test_a_mixture_is_interleaved_and_the_same_in_another_process():
    rows = tasks({MASTERMIND: 3, SUDOKU: 1}, "train", size=12, mix_seed=5)
    mine = [[r["env_id"], r["task_id"], r["seed"], r["env_kwargs"], r["first_observation"]] for r in rows]
    other = subprocess.run(
        [sys.executable, "-c", MIXTURE_SCRIPT, MASTERMIND, SUDOKU], capture_output=True, text=True, check=True
    )
    assert json.loads(other.stdout) == mine
    order = [row["env_id"] for row in rows]
    assert Counter(order) == {MASTERMIND: 9, SUDOKU: 3}
    assert sum(a != b for a, b in zip(order, order[1:])) >= 3  # shuffled together, not one id's block then the other's
    reordered = tasks({MASTERMIND: 3, SUDOKU: 1}, "train", size=12, mix_seed=6)
    assert [r["task_id"] for r in reordered] != [r["task_id"] for r in rows]
    assert sorted(r["task_id"] for r in reordered) == sorted(r["task_id"] for r in rows)
    window = tasks({MASTERMIND: 3, SUDOKU: 1}, "train", size=12, mix_seed=5, offset=4, limit=3)
    assert [r["task_id"] for r in window] == [r["task_id"] for r in rows[4:7]]


def test_each_mixed_row_resets_its_own_ids_env_to_its_task():
    rows = tasks([MASTERMIND, SUDOKU], "train", size=6)
    assert {row["env_id"] for row in rows} == {MASTERMIND, SUDOKU}
    for row in rows:
        env = make_env(row["env_id"], row["env_kwargs"])
        observation, info = env.reset(seed=row["seed"], options={"task_id": row["task_id"]})
        assert info["task_id"] == row["task_id"] and observation in row["first_observation"]
        env.close()


def test_one_plain_id_keeps_its_order_and_size_takes_its_first_rows():
    assert [r["task_id"] for r in tasks(MASTERMIND, "test", size=5)] == [f"mastermind-00{i}" for i in range(5)]
    assert count_tasks(MASTERMIND, "train") == 200 and count_tasks(MASTERMIND, "test", size=7) == 7


def test_an_id_short_of_its_share_is_an_error_naming_the_size_that_fits():
    with pytest.raises(ValueError, match=r"AgentQuest/Sudoku-v0 has 60 test rows, its share is 100 .* to 120 or less"):
        count_tasks({MASTERMIND: 1, SUDOKU: 1}, "test", size=200)


@pytest.mark.parametrize(
    "spec, message",
    [
        (f"{MASTERMIND}=x,{SUDOKU}=1", "weight of 'AgentQuest/Mastermind-v0' must be a positive number, not 'x'"),
        (f"{MASTERMIND}=0,{SUDOKU}=1", "must be a positive number, not '0'"),
        (f"{MASTERMIND}=-2,{SUDOKU}=1", "must be a positive number"),
        (f"{MASTERMIND}=nan,{SUDOKU}=1", "must be a positive number"),
        (f"{MASTERMIND}=2,{SUDOKU}", "give every id .* a weight, or none"),
        (f"{MASTERMIND}=2,,{SUDOKU}=1", "empty entry"),
        ("=2", "names no env id"),
        (f"{MASTERMIND}=1,{MASTERMIND}=2", "more than once"),
        ("AgentQuest/Nothing-v0=1", "unknown env id 'AgentQuest/Nothing-v0'"),
        ({MASTERMIND: "three"}, "must be a positive number"),
        ({MASTERMIND: True}, "must be a positive number"),
    ],
)
def test_a_bad_mixture_is_a_clear_value_error(spec, message):
    with pytest.raises(ValueError, match=message):
        tasks(spec, "test", size=4)
