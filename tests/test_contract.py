"""The env contract (DESIGN.md), checked on every registered id with ``agentgym_text.testing.contract``."""

import gymnasium as gym
import pytest

from agentgym_text.testing import contract
from tests.conftest import ALL_ENV_IDS, HEAVY_ENV_IDS, PINNED_TASK, env_param, expert_task_params

IDS = [env_param(env_id) for env_id in ALL_ENV_IDS]


def _pin(env_id):
    """Heavy ids play their first task only in the fast suite (under -m slow they are drawn like the rest)."""
    return PINNED_TASK if env_id in HEAVY_ENV_IDS else None


def _slow_if_heavy(params):
    return [
        pytest.param(
            *p.values, marks=(*p.marks, *([pytest.mark.slow] if p.values[0] in HEAVY_ENV_IDS else [])), id=p.id
        )
        for p in params
    ]


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_env_checker_passes(env_id):
    contract.check_gymnasium_checker(env_id)


@pytest.mark.parametrize("env_id", IDS)
def test_info_schema_progress_and_rewards_hold_along_random_episodes(env_id):
    if env_id in HEAVY_ENV_IDS:
        contract.check_random_episodes(env_id, seeds=(0,), max_steps=10, options=PINNED_TASK)
    else:
        contract.check_random_episodes(env_id)


@pytest.mark.slow
@pytest.mark.parametrize("env_id", [p for p in IDS if p.values[0] in HEAVY_ENV_IDS])
def test_info_schema_along_long_random_episodes_of_heavy_ids(env_id):
    contract.check_random_episodes(env_id)


@pytest.mark.parametrize("env_id, task_id", expert_task_params())
def test_expert_solves_every_shipped_task(env_id, task_id):
    contract.check_expert_solves(env_id, task_id)


# heavy ids also test this on a cheaper sample in their own family tests
@pytest.mark.parametrize("env_id", _slow_if_heavy(IDS))
def test_random_agent_makes_less_progress_than_the_expert(env_id):
    env = gym.make(env_id)
    task_ids = env.unwrapped.task_ids
    env.close()
    sample = [task_ids[round(i * (len(task_ids) - 1) / 3)] for i in range(4)] if len(task_ids) > 4 else task_ids
    contract.check_random_below_expert(env_id, sample)


@pytest.mark.parametrize("env_id", IDS)
def test_garbage_action_is_invalid_not_fatal(env_id):
    contract.check_garbage_is_invalid(env_id, options=_pin(env_id))


@pytest.mark.parametrize("env_id", IDS)
def test_non_text_actions_are_format_errors(env_id):
    contract.check_non_text_actions(env_id, options=_pin(env_id))


@pytest.mark.parametrize("env_id", IDS)
def test_help_action_is_valid_and_lists_accepted_actions(env_id):
    contract.check_help_action(env_id, options=_pin(env_id))


@pytest.mark.parametrize("env_id", IDS)
def test_reset_options_are_checked_and_the_env_stays_usable(env_id):
    contract.check_reset_options(env_id)


@pytest.mark.parametrize("env_id", IDS)
def test_same_seed_same_trajectory_in_another_process(env_id):
    if env_id in HEAVY_ENV_IDS:
        contract.check_same_trajectory_in_another_process(env_id, max_steps=8, options=PINNED_TASK)
    else:
        contract.check_same_trajectory_in_another_process(env_id)


@pytest.mark.parametrize("env_id", IDS)
def test_step_limit_truncates_with_finish_reason(env_id):
    contract.check_step_limit(env_id, options=_pin(env_id))


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("env_id", _slow_if_heavy(IDS))
def test_vector_env_equals_single_envs(env_id, mode):
    contract.check_vector_equals_single(env_id, mode)
