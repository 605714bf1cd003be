"""The budget an episode states is the one enforced: first observation, info, ChatEnv's system prompt, under
``max_episode_steps``, ``StepLimit`` (inside or outside) and the eval runner's ``--max-steps``."""

import gymnasium as gym
import pytest

from agentgym_text.integrations import ChatEnv
from agentgym_text.testing.contract import stated_budget
from agentgym_text.wrappers import StepLimit

ENV_ID = "AgentQuest/Mastermind-v0"


@pytest.mark.parametrize(
    ("make_kwargs", "outer", "expected"),
    [
        ({}, None, 60),
        ({"max_episode_steps": 3}, None, 3),
        ({"max_episode_steps": 90}, None, 90),
        ({}, 2, 2),
        ({}, 500, 60),
        ({"max_episode_steps": 7}, 500, 7),
        ({"max_episode_steps": 7}, 4, 4),
    ],
)
def test_first_observation_and_info_state_the_budget_enforced(make_kwargs, outer, expected):
    env = gym.make(ENV_ID, **make_kwargs)
    if outer is not None:
        env = StepLimit(env, outer)
    obs, info = env.reset(seed=0)
    assert stated_budget(obs) == info["max_steps"] == expected
    steps = 0
    truncated = terminated = False
    while not (truncated or terminated):
        _, _, terminated, truncated, info = env.step("check valid actions")
        steps += 1
        assert info["max_steps"] == expected
    assert steps == expected and info["finish_reason"] == "step_limit"
    obs, info = env.reset(seed=1)  # the next episode states it again (the limit is not used up by one reset)
    assert stated_budget(obs) == info["max_steps"] == expected
    env.close()


def test_chat_env_system_prompt_states_the_enforced_budget():
    chat = ChatEnv(ENV_ID, max_episode_steps=3)
    messages, info = chat.reset(seed=0)
    assert info["max_steps"] == 3
    assert "You have 3 steps;" in messages[0]["content"]
    assert stated_budget(messages[1]["content"]) == 3
    chat.env.close()
