"""``AgentBench/DB-v0`` under ``--protocol agentbench``: every request equals the one AgentBench v0.2's DBBench task
loop sent in ``tests/reference/agentbench_dbbench.json`` (recorded by ``tests/reference/record_agentbench_protocol.py``
on the stand-in checkout's texts, fed the results this env printed), byte for byte, with the reply parser's paths:
statements (multi-line, failing, two blocks, long results), answers with and without ``Action:``, a missing sql
block, and the round limit with the history cut."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

from agentgym_text.agents.protocols.agentbench import AgentBenchProtocol
from tests.support.agentbench_checkout import write_checkout
from tests.support.agentbench_replay import play
from tests.support.db_agentbench_items import write_items

REFERENCE = json.loads((Path(__file__).parent / "reference" / "agentbench_dbbench.json").read_text())
ENDS = {
    "completed": ("success", "failure"),
    "agent validation failed": ("invalid_format",),
    "task limit reached": ("step_limit",),
}


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    root = tmp_path_factory.mktemp("agentbench")
    protocol = AgentBenchProtocol(write_checkout(root / "checkout"))
    env = gym.make("AgentBench/DB-v0", task_file=str(write_items(root))).unwrapped
    out = [play(protocol, "AgentBench/DB-v0", env, e["index"], e["replies"]) for e in REFERENCE["episodes"]]
    env.close()
    return out


def test_the_reference_covers_three_items_of_eight_turns_and_the_limit():
    lengths = [len(e["requests"]) for e in REFERENCE["episodes"]]
    assert sum(n >= 8 for n in lengths) >= 3 and max(lengths) == 16
    assert {e["status"] for e in REFERENCE["episodes"]} == set(ENDS)
    assert any("[NOTICE]" in e["requests"][-1][0]["content"] for e in REFERENCE["episodes"])


@pytest.mark.parametrize("position", range(len(REFERENCE["episodes"])))
def test_every_request_equals_agentbenchs(played, position):
    reference, ours = REFERENCE["episodes"][position], played[position]
    assert [info["sql_result"] for info in ours["infos"] if "sql_result" in info] == reference["results"]
    assert len(ours["requests"]) == len(reference["requests"])
    for sent, expected in zip(ours["requests"], reference["requests"]):
        assert sent == expected
    assert ours["end"] in ENDS[reference["status"]]


def test_the_request_settings_and_roles(tmp_path):
    protocol = AgentBenchProtocol(write_checkout(tmp_path))
    env = gym.make("AgentBench/DB-v0", task_file=str(write_items(tmp_path))).unwrapped
    observation, info = env.reset(options={"task_index": 0})
    from agentgym_text.agents.protocols.base import Opening

    request = protocol.begin(Opening("AgentBench/DB-v0", info["goal"], observation, info, "db")).request()
    assert (request.temperature, request.max_tokens, request.stop) == (0.0, 512, None)
    assert [m["role"] for m in request.messages] == ["user", "assistant", "user"]
    assert protocol.max_steps("AgentBench/DB-v0") == 16
    env.close()
