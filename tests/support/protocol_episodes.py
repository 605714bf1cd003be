"""What ``ChatEnv(env_id, protocol=...)`` sends for one scripted episode: the reference the adapters' protocol tests
compare the messages their framework hands the model with."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agentgym_text.agents.protocols import AgentProtocol, make_protocol
from agentgym_text.integrations.chat import ChatEnv
from tests.support.agentbench_checkout import write_checkout as write_agentbench
from tests.support.agentboard_checkout import write_checkout as write_agentboard

REPLIES: dict[str, list[str]] = {
    "AgentBoard/BabyAI-v0": ["Action: turn left", "I will turn.\nAction: turn right", "check valid actions"] * 3,
    "AgentBoard/AlfWorld-v0": ["Action: look", "inventory", "go to desk 1\nthen open it"] * 3,
    "AgentBench/KG-v0": ["Action: get_relations(Barack Obama)", "I think.\nAction: get_neighbors(#0, people)"] * 4,
    "AgentBench/LateralThinking-v0": ["Is the man alive?", "Did he die at sea?", "Was it an accident?"] * 3,
}
"""Scripted replies per id: bare actions, "Action: ..." prefixes and multi-line replies."""


def protocols(root: Path) -> dict[str, AgentProtocol]:
    """The two originals' protocols, reading the stand-in checkouts written under ``root``."""
    return {
        "agentboard": make_protocol("agentboard", agentboard_dir=str(write_agentboard(root / "AgentBoard"))),
        "agentbench": make_protocol("agentbench", agentbench_dir=str(write_agentbench(root / "AgentBench"))),
    }


def chat_requests(
    env_id: str, protocol: AgentProtocol, replies: Sequence[str], *, task_id: str | None = None, seed: int = 0, **kw: Any
) -> list[list[dict[str, Any]]]:
    """Every request ``ChatEnv`` under ``protocol`` gives for the episode the ``replies`` play (until it ends)."""
    chat = ChatEnv(env_id, protocol=protocol, **kw)
    try:
        messages, _ = chat.reset(seed=seed, options={"task_id": task_id} if task_id else None)
        requests = [messages]
        for reply in replies:
            messages, _, terminated, truncated, _ = chat.step(reply)
            if terminated or truncated:
                break
            requests.append(messages)
        return requests
    finally:
        chat.close()
