"""The 'agentboard' protocol sends what AgentBoard's WebArena runner sends: every request of the recorded episodes
(``tests/reference/agentboard_protocol_webarena.json``, written by
``tests/reference/record_agentboard_protocol_webarena.py`` from AgentBoard's unmodified ``tasks/webbrowse.py`` loop
with its agent and LLM class on the fake checkout of ``tests/support/agentboard_checkout_web_tools.py``; the browser
env stubbed) byte for byte, and the action AgentBoard takes from each reply is the one this suite's env reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.agentboard_checkout_web_tools import WEB_PARSE_ERROR, write_web_tools_checkout
from tests.test_agentboard_protocol_web_tools_replay import replay

REFERENCE = json.loads((Path(__file__).parent / "reference" / "agentboard_protocol_webarena.json").read_text())
EPISODES = REFERENCE["episodes"]


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    return write_web_tools_checkout(tmp_path_factory.mktemp("agentboard"))


def test_the_reference_covers_three_tasks_of_eight_turns_with_every_reply_form():
    assert len({e["task_id"] for e in EPISODES}) >= 3
    assert all(len(e["turns"]) == 8 for e in EPISODES)
    replies = [turn["replies"][0] for e in EPISODES for turn in e["turns"]]
    assert any("\n" in r for r in replies) and any(r.startswith("Action: ") for r in replies)
    assert any("@" not in r for r in replies)  # AgentBoard's parse error, shown in place of the page
    assert all(None in e["env_actions"] for e in EPISODES)


@pytest.mark.parametrize("episode", EPISODES, ids=[e["task_id"] for e in EPISODES])
def test_every_request_is_agentboards(checkout, episode):
    requests, actions, _ = replay(checkout, episode)
    recorded = episode["requests"]
    assert len(requests) == len(recorded)
    for ours, theirs in zip(requests, recorded):
        assert ours == theirs


@pytest.mark.parametrize("episode", EPISODES, ids=[e["task_id"] for e in EPISODES])
def test_the_env_reads_the_action_agentboard_extracts(episode):
    import gymnasium as gym

    import agentgym_text  # noqa: F401  (registers the envs)

    env = gym.make(episode["env_id"])
    env.reset(seed=EPISODES.index(episode))
    try:
        for turn, extracted in zip(episode["turns"], episode["env_actions"]):
            if extracted is None:  # AgentBoard's parse error: our env is given nothing
                assert turn["env_action"] is None
                assert turn["observation"].startswith("WINDOWED PAGE:{\n" + WEB_PARSE_ERROR.split("{s}")[0])
                continue
            observation, *_ = env.step(turn["env_action"])
            assert observation == turn["observation"]
            assert turn["env_action"].split("@")[1].strip() == extracted
    finally:
        env.close()
