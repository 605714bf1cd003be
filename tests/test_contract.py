"""The env contract (DESIGN.md), checked on every registered id."""

import hashlib
import os
import subprocess
import sys

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

from agentgym_text.core.info import FORMAT_ERRORS
from agentgym_text.core.text_env import ENGINE_ERROR
from agentgym_text.testing import assert_info_contract, garbage_actions, random_valid_rollout, trajectory_digest
from tests.conftest import ALL_ENV_IDS

FUZZ_ACTIONS = 2_000


@pytest.mark.parametrize("env_id", ALL_ENV_IDS)
def test_gymnasium_env_checker_passes(env_id, make_env):
    check_env(make_env(env_id).unwrapped, skip_render_check=True)


@pytest.mark.parametrize("env_id", ALL_ENV_IDS)
def test_info_schema_progress_and_rewards_hold_along_random_episodes(env_id, make_env):
    env = make_env(env_id)
    for seed in range(3):
        records = random_valid_rollout(env, seed=seed, max_steps=40)
        previous = 0.0
        for record in records:
            assert_info_contract(record["info"])
            assert record["info"]["progress_rate"] >= previous
            previous = record["info"]["progress_rate"]
        total_reward = sum(record.get("reward", 0.0) for record in records)
        assert total_reward == pytest.approx(records[-1]["info"]["progress_rate"])
        assert all(isinstance(record["observation"], str) and record["observation"] for record in records)


@pytest.mark.parametrize("env_id", ALL_ENV_IDS)
def test_expert_trajectory_rewards_sum_to_final_progress(env_id, make_env):
    env = make_env(env_id)
    obs, info = env.reset(seed=0, options={"task_index": 0})
    total, done = 0.0, False
    while not done:
        obs, reward, terminated, truncated, info = env.step(env.unwrapped.expert_action())
        assert_info_contract(info)
        total += reward
        done = terminated or truncated
    assert info["success"] and info["progress_rate"] == 1.0 and info["finish_reason"] == "success"
    assert total == pytest.approx(1.0)
    assert env.unwrapped.expert_action() is None


@pytest.mark.parametrize("env_id", ALL_ENV_IDS)
def test_garbage_action_is_invalid_not_fatal(env_id, make_env):
    env = make_env(env_id, max_episode_steps=FUZZ_ACTIONS + 1)
    obs, info = env.reset(seed=0)
    for action in garbage_actions(FUZZ_ACTIONS, seed=hash(env_id) % 1000):
        obs, reward, terminated, truncated, info = env.step(action)
        assert info["valid"] is False, f"garbage accepted: {action[:80]!r}"
        assert info["invalid_reason"] and info["invalid_reason"] != ENGINE_ERROR, info["invalid_reason"]
        assert isinstance(obs, str) and len(obs) > 10
        assert reward == 0.0 and not terminated and not truncated
        assert_info_contract(info)


@pytest.mark.parametrize("env_id", ALL_ENV_IDS)
def test_non_text_actions_are_format_errors(env_id, make_env):
    env = make_env(env_id).unwrapped
    env.reset(seed=0)
    for action in (None, 42, 3.5, ["go"], {"a": 1}, b"\xff\xfe"):
        obs, reward, terminated, truncated, info = env.step(action)
        assert not info["valid"] and info["invalid_reason"] in {reason.value for reason in FORMAT_ERRORS}


@pytest.mark.parametrize("env_id", ALL_ENV_IDS)
def test_help_action_is_valid_and_lists_actions(env_id, make_env):
    env = make_env(env_id)
    env.reset(seed=0)
    for form in ("check valid actions", "Check Valid Actions.", "check_valid_actions"):
        obs, _, _, _, info = env.step(form)
        assert info["valid"] and info["invalid_reason"] is None
        assert "valid" in obs.lower() or "action" in obs.lower()


_DIGEST_SCRIPT = """
import sys, hashlib, gymnasium as gym, agentgym_text
from agentgym_text.testing import random_valid_rollout, trajectory_digest
env = gym.make(sys.argv[1])
print(hashlib.sha256(trajectory_digest(random_valid_rollout(env, seed=int(sys.argv[2]), max_steps=25)).encode()).hexdigest())
"""


@pytest.mark.parametrize("env_id", ALL_ENV_IDS)
def test_same_seed_same_trajectory_in_another_process(env_id, make_env):
    digests = [
        hashlib.sha256(
            trajectory_digest(random_valid_rollout(make_env(env_id), seed=7, max_steps=25)).encode()
        ).hexdigest()
        for _ in range(2)
    ]
    assert digests[0] == digests[1]
    other = subprocess.run(
        [sys.executable, "-c", _DIGEST_SCRIPT, env_id, "7"], capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
    )
    assert other.stdout.strip().splitlines()[-1] == digests[0]


@pytest.mark.parametrize("env_id", ALL_ENV_IDS)
def test_task_can_be_chosen_by_id_or_index(env_id, make_env):
    env = make_env(env_id)
    task_ids = env.unwrapped.task_ids
    assert len(set(task_ids)) == len(task_ids) > 0
    _, info = env.reset(options={"task_id": task_ids[-1]})
    assert info["task_id"] == task_ids[-1]
    _, info = env.reset(options={"task_index": 0})
    assert info["task_id"] == task_ids[0]


@pytest.mark.parametrize("env_id", ALL_ENV_IDS)
def test_step_limit_truncates_with_finish_reason(env_id, make_env):
    env = make_env(env_id, max_episode_steps=3)
    env.reset(seed=0)
    results = [env.step("check valid actions") for _ in range(3)]
    assert [r[3] for r in results] == [False, False, True]
    assert results[-1][4]["finish_reason"] == "step_limit"
