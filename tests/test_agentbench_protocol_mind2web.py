"""AgentBench/WebBrowsing-v0 under ``--protocol agentbench`` against a HAND-DERIVED expectation (v0.2's Mind2Web
loop cannot be replayed on this env: it plays one annotated step per sample as a tournament over shuffled candidate
groups, with lxml pruning of Mind2Web's own pages). The expectation is written out here from v0.2's source
(``mind2web/task.py`` ``start_sample``, ``dataloader.py`` ``format_input_multichoice``) in the stand-in checkout's
words: every call sends the prompt file's turns with the last one set to the page and the question (the history is
emptied before each call, then cut by the session as any history), and a reply is read as
``postprocess_action_llm`` reads it."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import pytest

from agentgym_text.agents.protocols.agentbench import AgentBenchProtocol
from agentgym_text.agents.protocols.agentbench.mind2web import read_reply
from agentgym_text.agents.protocols.agentbench.session import filter_messages
from agentgym_text.agents.protocols.base import CheckoutError, Opening
from tests.support.agentbench_checkout import MIND2WEB_PROMPT, write_checkout

ENV_ID = "AgentBench/WebBrowsing-v0"
REPLIES = [
    "The search box first.\nAnswer: D.\nAction: TYPE\nValue: Nestwell 5 Tier Bookshelf",
    "Answer: B.\nAction: CLICK",
    "no letter at all, so A\nAction: SELECT\nValue: first",
    "Answer: Z. is no choice",
    "Answer: C.\nAction: CLICK",
    "Answer: E.\nAction: TYPE\nValue: two\nValue: lines",
]


def hand_derived(parts: dict[str, Any]) -> list[dict[str, str]]:
    """v0.2's messages for one call, by hand from its source, in the stand-in's words."""
    seq_in = f"Complete this web task on the page shown:\nGoal: {parts['task']}\nDone so far:\n"
    seq_in += "".join(f"- {action}\n" for action in parts["previous"]) or "(nothing)\n"
    seq_in += "Which element next? Choose a letter:\nA. none of these\n"
    seq_in += "".join(f"{chr(66 + i)}) {text}\n" for i, text in enumerate(parts["choices"]))
    history = [*MIND2WEB_PROMPT[:-1], {"role": "user", "content": f"Page:\n{parts['page']}\n--\n{seq_in}"}]
    return [
        {"role": "assistant" if m["role"] == "agent" else "user", "content": m["content"]}
        for m in filter_messages(history)
    ]


@pytest.fixture(scope="module")
def protocol(tmp_path_factory):
    return AgentBenchProtocol(write_checkout(tmp_path_factory.mktemp("checkout")))


@pytest.mark.parametrize("task_index", [0, 1, 2])
def test_every_request_equals_the_hand_derived_one(protocol, task_index):
    env = gym.make(ENV_ID, **protocol.env_kwargs(ENV_ID)).unwrapped
    try:
        observation, info = env.reset(options={"task_index": task_index})
        dialogue = protocol.begin(Opening(ENV_ID, info["goal"], observation, info, "webbrowsing"))
        parts, sent, refused = info["question"], 0, 0
        for reply in REPLIES * 3:
            request = dialogue.request()
            assert request.messages == hand_derived(parts), (task_index, sent)
            assert len(request.messages) <= len(MIND2WEB_PROMPT)  # nothing piles up: the history is emptied
            sent += 1
            reading = dialogue.read(reply)
            letter, op, value = read_reply(reply)
            assert reading.action == f"Answer: {letter}.\nAction: {op}\nValue: {value}".rstrip()
            observation, _, terminated, truncated, info = env.step(reading.action)
            refused += not info["valid"]
            parts = info.get("question", parts)  # a refused step asks the same question again
            dialogue.observe(observation, info)
            if terminated or truncated:
                break
        assert terminated and sent == len(env._annotation.steps) + refused, (sent, refused)
    finally:
        env.close()


def test_the_reply_reading_and_the_missing_file(tmp_path):
    assert read_reply("  Answer: C.\nAction: TYPE\nValue: New York\n") == ("C", "TYPE", "New York")
    assert read_reply("C. CLICK") == ("A", "", "")
    assert read_reply("Answer: G.\nAction: click") == ("A", "", "")
    write_checkout(tmp_path)
    (tmp_path / "data/mind2web/prompt/examples.json").unlink()
    with pytest.raises(CheckoutError, match="examples.json"):
        AgentBenchProtocol(tmp_path).check([ENV_ID])
