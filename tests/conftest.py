import gymnasium as gym
import pytest

import agentgym_text

ALL_ENV_IDS = [entry.env_id for entry in agentgym_text.list_envs()]


@pytest.fixture
def make_env():
    """gym.make that closes what it made at the end of the test."""
    made: list[gym.Env] = []

    def factory(env_id: str, **kwargs) -> gym.Env:
        env = gym.make(env_id, **kwargs)
        made.append(env)
        return env

    yield factory
    for env in made:
        env.close()
