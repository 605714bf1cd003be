"""What ``ChatEnv(env_id, protocol=...)`` sends for one scripted episode: the reference the adapters' protocol tests
compare the messages their framework hands the model with."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentgym_text.agents.protocols import AgentProtocol, make_protocol
from agentgym_text.integrations.chat import ChatEnv
from tests.support.agentbench_checkout import write_checkout as write_agentbench
from tests.support.agentboard_checkout_web_tools import write_web_tools_checkout as write_agentboard

REPLIES: dict[str, list[str]] = {
    "AgentBoard/ToolQuery-v0": [
        'get_weather_today with Action Input: {"city": "Paris"}',
        "check_valid_actions with Action Input: {}\nthen more",
        "bad reply",
    ]
    * 3,
    "AgentBoard/WebShop-v0": ["Action: search[red shoes]", "click[back to search]\nthen buy", "check valid actions"],
    "AgentBench/KG-v0": ["Action: get_relations(Barack Obama)", "I think.\nAction: get_neighbors(#0, people)"],
    "AgentBench/LateralThinking-v0": ["Is the man alive?", "Did he die at sea?", "Was it an accident?"],
}
"""Scripted replies per id: bare actions, "Action: ..." prefixes and multi-line replies."""


def reply(env_id: str, turn: int) -> str:
    """The scripted reply to the ``turn``-th request (0-based) of an episode of ``env_id``, cycling ``REPLIES``."""
    replies = REPLIES[env_id]
    return replies[turn % len(replies)]


def protocols(root: Path) -> dict[str, AgentProtocol]:
    """The two originals' protocols, reading the stand-in checkouts written under ``root``."""
    return {
        "agentboard": make_protocol("agentboard", agentboard_dir=str(write_agentboard(root / "AgentBoard"))),
        "agentbench": make_protocol("agentbench", agentbench_dir=str(write_agentbench(root / "AgentBench"))),
    }


def chat_requests(
    env_id: str, protocol: AgentProtocol, *, task_id: str | None = None, seed: int = 0, **kw: Any
) -> list[list[dict[str, Any]]]:
    """Every request ``ChatEnv`` under ``protocol`` gives for the episode the scripted replies play to its end."""
    chat = ChatEnv(env_id, protocol=protocol, **kw)
    try:
        messages, _ = chat.reset(seed=seed, options={"task_id": task_id} if task_id else None)
        requests = [messages]
        while True:
            messages, _, terminated, truncated, _ = chat.step(reply(env_id, len(requests) - 1))
            if terminated or truncated:
                return requests
            requests.append(messages)
    finally:
        chat.close()
