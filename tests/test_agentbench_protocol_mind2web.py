"""AgentBench/WebBrowsing-v0 under ``--protocol agentbench``: every request equals the one AgentBench v0.2's own
Mind2Web task sent, byte for byte (``tests/reference/agentbench_mind2web.json``, recorded by
``tests/reference/record_agentbench_protocol.py --tasks mind2web``: v0.2's ``Mind2Web.start_sample``,
``format_input_multichoice`` and ``dom_utils`` unmodified, on the stand-in checkout's texts, one sample per request
made of the env's page, task, previous actions and candidates), on three authored Mind2Web tasks of nine steps
(``tests/support/mind2web_agentbench_items.py``) with scripted replies that walk the reply reader; and each reply
is scored as v0.2 keeps its prediction (the element and the operation)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

from agentgym_text.agents.protocols.agentbench import AgentBenchProtocol
from agentgym_text.agents.protocols.agentbench.mind2web import read_reply
from agentgym_text.agents.protocols.base import CheckoutError
from agentgym_text.envs.webbrowsing.actions import parse_answer
from agentgym_text.envs.webbrowsing.metrics import operation_string
from tests.support import mind2web_agentbench_items as items
from tests.support.agentbench_checkout import MIND2WEB_PROMPT, write_checkout
from tests.support.agentbench_replay import play

ENV_ID = "AgentBench/WebBrowsing-v0"
REFERENCE = Path(__file__).parent / "reference" / "agentbench_mind2web.json"


def _reference() -> list[dict[str, Any]]:
    return json.loads(REFERENCE.read_text())["episodes"]


@pytest.fixture(scope="module")
def replayed(tmp_path_factory) -> list[tuple[dict, dict, list[dict]]]:
    folder = tmp_path_factory.mktemp("mind2web")
    protocol = AgentBenchProtocol(write_checkout(folder / "checkout"))
    env = gym.make(ENV_ID, task_file=str(items.write_items(folder)), **protocol.env_kwargs(ENV_ID)).unwrapped
    try:
        out = []
        for expected in _reference():
            played = play(protocol, ENV_ID, env, expected["index"], expected["replies"])
            out.append((expected, played, items.samples(env, played)))
        return out
    finally:
        env.close()


def test_the_reference_has_three_tasks_of_eight_requests_or_more():
    episodes = _reference()
    assert len(episodes) >= 3 and all(len(e["requests"]) >= 8 for e in episodes)
    assert all(len(e["requests"]) == len(e["replies"]) == len(e["predictions"]) for e in episodes)
    # every request is the prompt file's turns with the question last (the history is emptied before each call)
    assert all(len(r) == len(MIND2WEB_PROMPT) for e in episodes for r in e["requests"])
    assert all(m["role"] in ("user", "assistant") for e in episodes for r in e["requests"] for m in r)


def test_every_request_equals_agentbenchs(replayed):
    for expected, played, samples in replayed:
        assert [s["choices"] for s in samples] == expected["fed"], f"task {expected['index']}: other candidates"
        assert len(played["requests"]) == len(expected["requests"])
        for turn, (sent, wanted) in enumerate(zip(played["requests"], expected["requests"])):
            assert sent == wanted, f"task {expected['index']} request {turn}"
        assert all(info["valid"] for info in played["infos"]), "every step is asked once, as in v0.2"
        assert played["end"] in ("success", "failure")


def test_each_answer_is_scored_as_agentbench_keeps_its_prediction(replayed):
    for expected, played, samples in replayed:
        for turn, (action, sample, (element, operation)) in enumerate(
            zip(played["actions"], samples, expected["predictions"])
        ):
            answer = parse_answer(action, len(sample["choices"]), refuse_incomplete=False)
            chosen = sample["choices"][ord(answer.letter) - ord("B")] if answer.letter != "A" else ""
            assert (chosen, operation_string(answer.op, answer.value)) == (element, " ".join(operation.split())), (
                f"task {expected['index']} reply {turn}"
            )


def test_the_reply_reading_and_the_missing_file(tmp_path):
    assert read_reply("  Answer: C.\nAction: TYPE\nValue: New York\n") == ("C", "TYPE", "New York")
    assert read_reply("C. CLICK") == ("A", "", "")
    assert read_reply("Answer: G.\nAction: click") == ("A", "", "")
    write_checkout(tmp_path)
    (tmp_path / "data/mind2web/prompt/examples.json").unlink()
    with pytest.raises(CheckoutError, match="examples.json"):
        AgentBenchProtocol(tmp_path).check([ENV_ID])
