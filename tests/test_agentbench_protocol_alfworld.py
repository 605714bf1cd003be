"""AgentBench/ALFWorld-v0 under ``--protocol agentbench``: every request equals the one AgentBench v0.2's own ALFWorld
loop (``ALFWorld.alfworld_run`` with v0.2's ``utils.py``, run unmodified by ``tests/reference/
record_agentbench_protocol.py --tasks alfworld`` with a stub ``SingleAlfredTWEnv`` showing what this suite's env
showed) sent, byte for byte (``tests/reference/agentbench_alfworld.json``): the instruction, the ack, the example of
the game's type with its prefix, the task prefix, each previous turn cut before its commands, and replies with
thoughts, near misses, upper case, two ACTION lines, three repeats, an empty command and no ACTION: at all."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

from agentgym_text.agents.protocols.agentbench import AgentBenchProtocol
from agentgym_text.agents.protocols.base import CheckoutError
from tests.support.agentbench_checkout import write_checkout
from tests.support.agentbench_replay import play

ENV_ID = "AgentBench/ALFWorld-v0"
REFERENCE = json.loads((Path(__file__).parent / "reference" / "agentbench_alfworld.json").read_text())["episodes"]
ENDS = {"agent invalid action": {"invalid_format", "repetition"}, "completed": {"success", "failure"}}


@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    protocol = AgentBenchProtocol(write_checkout(tmp_path_factory.mktemp("checkout")))
    env = gym.make(ENV_ID, **protocol.env_kwargs(ENV_ID)).unwrapped
    try:
        return [play(protocol, ENV_ID, env, e["index"], e["replies"]) for e in REFERENCE]
    finally:
        env.close()


def test_the_reference_has_three_episodes_of_eight_turns_within_the_limit():
    assert sum(len(e["requests"]) >= 8 for e in REFERENCE) >= 3
    assert all(len(e["requests"]) == len(e["replies"]) <= 35 for e in REFERENCE)


def test_every_request_equals_agentbenchs_and_the_episode_ends_alike(replayed):
    for expected, played in zip(REFERENCE, replayed, strict=True):
        assert played["observations"] == expected["fed"], f"item {expected['index']}: the env showed other texts"
        assert len(played["requests"]) == len(expected["requests"])
        for turn, (sent, wanted) in enumerate(zip(played["requests"], expected["requests"])):
            assert sent == wanted, f"item {expected['index']} request {turn}"
        assert played["end"] in ENDS[expected["status"]], (expected["index"], played["end"])


def test_the_limit_strictness_and_the_example_by_type(tmp_path):
    protocol = AgentBenchProtocol(write_checkout(tmp_path))
    assert protocol.max_steps(ENV_ID) == 35
    assert protocol.env_kwargs(ENV_ID) == {"strict": True}
    task = protocol.task(ENV_ID)
    assert task.example("pick_two_obj_and_place")[0].endswith("put two pens on table.")
    assert task.example("look_at_obj_in_light")[0].endswith("look at a book under the lamp.")
    with pytest.raises(ValueError):
        task.example("unknown_type")


def test_a_checkout_without_the_prompts_file_is_named(tmp_path):
    write_checkout(tmp_path)
    (tmp_path / "src/server/tasks/alfworld/prompts/examples.json").unlink()
    with pytest.raises(CheckoutError, match="examples.json"):
        AgentBenchProtocol(tmp_path).check([ENV_ID])
