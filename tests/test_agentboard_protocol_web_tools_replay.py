"""The 'agentboard' protocol sends what AgentBoard's WebShop and tool runners send: every request of the recorded
episodes (``tests/reference/agentboard_protocol_web_tools.json``, written by
``tests/reference/record_agentboard_protocol_web_tools.py`` from AgentBoard's unmodified ``tasks/webshop.py`` and
``tasks/tool.py`` with its agents and LLM class on the fake checkout of
``tests/support/agentboard_checkout_web_tools.py``) byte for byte, and the actions the runners give the env."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentgym_text.agents.protocols.agentboard import AgentBoardProtocol
from agentgym_text.agents.protocols.agentboard.task import AgentBoardDialogue
from agentgym_text.agents.protocols.base import Opening
from tests.support.agentboard_checkout_web_tools import write_web_tools_checkout

REFERENCE = json.loads((Path(__file__).parent / "reference" / "agentboard_protocol_web_tools.json").read_text())
EPISODES = REFERENCE["episodes"]


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    return write_web_tools_checkout(tmp_path_factory.mktemp("agentboard"))


def _sent(request) -> dict:
    assert request.finish_reason is None
    return {
        "messages": request.messages,
        "temperature": request.temperature,
        "max_tokens": request.max_tokens,
        "stop": request.stop,
    }


def replay(checkout: Path, episode: dict) -> tuple[list[dict], list[str], AgentBoardDialogue]:
    protocol = AgentBoardProtocol(checkout, style=episode["style"], model=REFERENCE["model"])
    opening = episode["opening"]
    dialogue = protocol.begin(Opening(episode["env_id"], opening["goal"], opening["observation"], opening["info"], "x"))
    assert isinstance(dialogue, AgentBoardDialogue)
    requests: list[dict] = []
    actions: list[str] = []
    for turn in episode["turns"]:
        reading = None
        for reply in turn["replies"]:
            requests.append(_sent(dialogue.request()))
            reading = dialogue.read(reply)
        assert reading is not None and not reading.again
        if reading.action is not None:
            actions.append(reading.action)
        dialogue.observe(turn["observation"], {})
    return requests, actions, dialogue


def test_the_reference_covers_three_tasks_of_eight_turns_per_id():
    for env_id in ("AgentBoard/WebShop-v0", "AgentBoard/ToolQuery-v0", "AgentBoard/ToolOperation-v0"):
        played = {e["task_id"] for e in EPISODES if e["env_id"] == env_id and e["style"] == "vanilla"}
        assert len(played) >= 3
        assert all(len(e["turns"]) == 8 for e in EPISODES if e["env_id"] == env_id)
    assert any(e["style"] == "react" for e in EPISODES)


@pytest.mark.parametrize("episode", EPISODES, ids=[f"{e['task_id']}-{e['style']}" for e in EPISODES])
def test_every_request_and_env_action_is_agentboards(checkout, episode):
    requests, actions, dialogue = replay(checkout, episode)
    recorded = episode["requests"]
    if episode["env_id"] == "AgentBoard/WebShop-v0":
        # webshop.py executes reset[] first, and asks once more after the last step (a reply it never executes)
        actions = ["reset[]", *actions]
        trailing = dialogue.trailing_request("step_limit")
        assert trailing is not None and dialogue.trailing_request("success") is None
        requests.append(_sent(trailing))
    else:
        assert dialogue.trailing_request("step_limit") is None
    assert len(requests) == len(recorded)
    for ours, theirs in zip(requests, recorded):
        assert ours == theirs
    assert actions == episode["env_actions"]
