"""The 'agentboard' protocol sends what AgentBoard's harness sends: every request of the recorded episodes
(``tests/reference/agentboard_protocol.json``, written by ``tests/reference/record_agentboard_protocol.py`` from
AgentBoard's unmodified runners, agents and LLM class on the fake checkout of ``tests/support/agentboard_checkout.py``)
byte for byte, the actions its runners give the env, and the history its trimming loop drops."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentgym_text.agents.protocols.agentboard import AgentBoardProtocol
from agentgym_text.agents.protocols.agentboard.task import AgentBoardDialogue
from agentgym_text.agents.protocols.agentboard.tokens import TokenCounter
from agentgym_text.agents.protocols.base import Opening
from tests.support.agentboard_checkout import LITERALS, write_checkout

REFERENCE = json.loads((Path(__file__).parent / "reference" / "agentboard_protocol.json").read_text())
EPISODES = REFERENCE["episodes"]
IDS = (
    "AgentBoard/BabyAI-v0",
    "AgentBoard/AlfWorld-v0",
    "AgentBoard/ScienceWorld-v0",
    "AgentBoard/Jericho-v0",
    "AgentBoard/PDDL-v0",
)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    return write_checkout(tmp_path_factory.mktemp("agentboard"))


def _words(text: str) -> int:
    return len(text.split())


def replay(checkout: Path, episode: dict) -> tuple[list[dict], list[str], list[int]]:
    """Our requests, env actions and dropped-history counts over the recorded replies and observations."""
    protocol = AgentBoardProtocol(checkout, style=episode["style"], model=REFERENCE["model"])
    if "context_length" in episode:  # the recorder's tiktoken stand-in counts words
        protocol.counter = TokenCounter(_words, "words", per_message=3)
        protocol.room = episode["context_length"] - protocol.max_tokens
    opening = episode["opening"]
    family = episode["env_id"].split("/")[1].split("-")[0].lower()
    dialogue = protocol.begin(
        Opening(episode["env_id"], opening["goal"], opening["observation"], opening["info"], family)
    )
    assert isinstance(dialogue, AgentBoardDialogue)
    requests, actions, dropped = [], [], []
    for turn in episode["turns"]:
        reading = None
        for reply in turn["replies"]:
            request = dialogue.request()
            assert request.finish_reason is None
            requests.append(
                {
                    "messages": request.messages,
                    "temperature": request.temperature,
                    "max_tokens": request.max_tokens,
                    "stop": request.stop,
                }
            )
            dropped.append(dialogue.dropped)
            reading = dialogue.read(reply)
        assert reading is not None and not reading.again
        actions.append(reading.action or "")
        dialogue.observe(turn["observation"], {})
    return requests, actions, dropped


@pytest.mark.parametrize(
    "episode",
    EPISODES,
    ids=[f"{e['task_id']}-{e['style']}{'-trim' if 'context_length' in e else ''}" for e in EPISODES],
)
def test_every_request_and_env_action_is_agentboards(checkout, episode):
    requests, actions, _ = replay(checkout, episode)
    assert len(requests) == len(episode["requests"])
    for index, (ours, theirs) in enumerate(zip(requests, episode["requests"])):
        assert ours == theirs, f"request {index}"
    assert actions == episode["env_actions"]


@pytest.mark.parametrize("env_id", IDS)
def test_each_id_is_recorded_over_three_tasks_of_eight_turns_and_react(env_id):
    vanilla = [e for e in EPISODES if e["env_id"] == env_id and e["style"] == "vanilla" and "context_length" not in e]
    long_enough = {e["task_id"] for e in vanilla if len(e["turns"]) >= 8 and len(e["requests"]) >= 8}
    assert len(long_enough) >= 3
    replies = [reply for e in vanilla for turn in e["turns"] for reply in turn["replies"]]
    assert any(reply.startswith("Action: ") for reply in replies)
    assert any("\n" in reply for reply in replies)
    assert any("Action" not in reply and "\n" not in reply for reply in replies)
    react = [e for e in EPISODES if e["env_id"] == env_id and e["style"] == "react"]
    thoughts = [reply for e in react for turn in e["turns"] for reply in turn["replies"] if reply.startswith("Think")]
    assert react and len(thoughts) >= 3


def test_the_requests_carry_the_checkouts_literals_and_the_llm_configs_settings():
    request = EPISODES[0]["requests"][0]
    assert request["temperature"] == 0.0 and request["max_tokens"] == 100 and request["stop"] == "\n"
    user = request["messages"][1]["content"]
    assert user.endswith(LITERALS["action"]) and LITERALS["goal"] in user and LITERALS["help"] in user


def test_trimming_drops_the_oldest_entries_one_at_a_time_as_agentboards_loop(checkout):
    (episode,) = [e for e in EPISODES if "context_length" in e]
    requests, _, dropped = replay(checkout, episode)
    assert requests == episode["requests"]
    assert max(dropped) > 0 and any(count % 2 for count in dropped)  # entries, not pairs: an Action can lead
    last = requests[-1]["messages"]
    assert sum(_words(m["role"]) + _words(m["content"]) + 3 for m in last) + 3 <= episode["context_length"] - 100
    odd = dropped.index(next(count for count in dropped if count % 2))
    history = requests[odd]["messages"][1]["content"].split("check valid actions\n", 1)[1]
    assert history.startswith("Action: ")


def test_without_trimming_the_whole_history_is_sent(checkout):
    (episode,) = [e for e in EPISODES if "context_length" in e]
    untrimmed = {**episode}
    untrimmed.pop("context_length")
    requests, _, dropped = replay(checkout, untrimmed)
    assert set(dropped) == {0}
    assert len(requests[-1]["messages"][1]["content"]) > len(episode["requests"][-1]["messages"][1]["content"])
