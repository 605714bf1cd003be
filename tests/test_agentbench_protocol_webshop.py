"""AgentBench/WebShop-v0 under ``--protocol agentbench``: every request equals the one AgentBench v0.2's own WebShop
loop (``WebShop.start_sample``, run unmodified by ``tests/reference/record_agentbench_protocol.py --tasks webshop``
with a stub ``WebAgentTextEnv`` showing what this suite's env showed) sent, byte for byte
(``tests/reference/agentbench_webshop.json``): the opening with the one-shot turns, each page and its Available
Actions in the checkout's words, the history cut, replies with lower-case, spaced and late markers, clicks naming
nothing, a reply without a marked action and the ten rounds."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

from agentgym_text.agents.protocols.agentbench import AgentBenchProtocol
from agentgym_text.agents.protocols.agentbench.webshop import split_turn
from agentgym_text.agents.protocols.base import CheckoutError, Opening
from tests.support.agentbench_checkout import write_checkout
from tests.support.agentbench_replay import play

ENV_ID = "AgentBench/WebShop-v0"
REFERENCE = json.loads((Path(__file__).parent / "reference" / "agentbench_webshop.json").read_text())["episodes"]
ENDS = {
    "completed": {"success", "failure"},
    "agent validation failed": {"invalid_format"},
    "task limit reached": {"step_limit"},
}


@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    protocol = AgentBenchProtocol(write_checkout(tmp_path_factory.mktemp("checkout")))
    env = gym.make(ENV_ID, **protocol.env_kwargs(ENV_ID)).unwrapped
    try:
        return [play(protocol, ENV_ID, env, e["index"], e["replies"]) for e in REFERENCE]
    finally:
        env.close()


def test_the_reference_has_three_episodes_of_eight_turns_within_ten_rounds():
    assert sum(len(e["requests"]) >= 8 for e in REFERENCE) >= 3
    assert all(len(e["requests"]) == len(e["replies"]) <= 10 for e in REFERENCE)
    assert {e["status"] for e in REFERENCE} == set(ENDS)
    assert any("[NOTICE]" in r[0]["content"] for e in REFERENCE for r in e["requests"])  # the history was cut


def test_every_request_equals_agentbenchs_and_the_episode_ends_alike(replayed):
    for expected, played in zip(REFERENCE, replayed, strict=True):
        assert played["observations"] == expected["fed"], f"item {expected['index']}: the env showed other pages"
        assert [a.removeprefix("Action: ") for a in played["actions"]] == expected["actions"]
        assert len(played["requests"]) == len(expected["requests"])
        for turn, (sent, wanted) in enumerate(zip(played["requests"], expected["requests"])):
            assert sent == wanted, f"item {expected['index']} request {turn}"
        assert played["end"] in ENDS[expected["status"]], (expected["index"], played["end"])


def test_limit_strictness_and_the_turn_split(tmp_path):
    protocol = AgentBenchProtocol(write_checkout(tmp_path))
    assert protocol.max_steps(ENV_ID) == 10
    assert protocol.env_kwargs(ENV_ID) == {"strict": True}
    info = {"first_observation": "WebShop [SEP] Search\n\nAvailable Actions:\n{'has_search_bar': True}"}
    dialogue = protocol.begin(Opening(ENV_ID, "g", info["first_observation"] + "\nYou have 10 steps.", info, "webshop"))
    request = dialogue.request()
    assert (request.temperature, request.max_tokens) == (0.0, 512)
    assert request.messages[-1]["content"] == "Page:\nWebShop [SEP] Search\n\nYou may do:\n{'has_search_bar': True}"
    assert dialogue.read("Action:click[x]").action == "Action: click[x]"
    assert dialogue.read("click[x]").finish_reason == "invalid_format"
    with pytest.raises(ValueError):
        split_turn("a page without its actions")


def test_a_checkout_without_the_webshop_module_is_named(tmp_path):
    protocol = AgentBenchProtocol(write_checkout(tmp_path, skip=("src/server/tasks/webshop/__init__.py",)))
    with pytest.raises(CheckoutError, match="webshop"):
        protocol.check([ENV_ID])
