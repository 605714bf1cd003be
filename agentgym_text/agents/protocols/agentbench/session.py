"""What AgentBench v0.2's task servers share: the session history, its cut (``filter_messages``) and the client's
request (user/assistant roles, no system message, temperature 0, 512 tokens)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentgym_text.agents.protocols.base import Dialogue, Opening, Reading, Request

__all__ = ["AgentBenchTask", "AgentBenchDialogue", "segments", "filter_messages", "SEGMENT_LIMIT", "to_openai"]

SEGMENT_LIMIT = 3500
"""The history's size limit in AgentBench's segments (``Session.filter_messages``)."""
TEMPERATURE = 0.0
MAX_TOKENS = 512
"""``configs/agents/openai-chat.yaml``'s body."""


def segments(text: str) -> int:
    """AgentBench's size of ``text``: a run of letters counts one segment per started 7 letters, every other character
    except space and newline one.

    >>> segments("hello world"), segments("abcdefgh"), segments("a, b")
    (2, 2, 3)
    """
    count = 0
    run = 0
    for char in text:
        if char.isalpha():
            run += 1
            if run == 7:
                count += 1
                run = 0
            continue
        if run:
            count += 1
            run = 0
        if char not in (" ", "\n"):
            count += 1
    return count + (1 if run else 0)


def filter_messages(history: list[dict[str, str]]) -> list[dict[str, str]]:
    """The messages AgentBench's session sends for ``history`` (an odd number of user/agent turns, user first):
    the first kept, then the newest ones while their segments stay under ``SEGMENT_LIMIT``, never starting with a
    user turn after the first, and a notice on the first when turns were left out."""
    if len(history) % 2 != 1:
        raise ValueError("AgentBench's session sends an odd number of turns")
    total = segments(history[0]["content"])
    kept: list[dict[str, str]] = []
    for message in reversed(history[1:]):
        total += segments(message["content"])
        if total >= SEGMENT_LIMIT:
            break
        kept.append(message)
    if kept and kept[-1]["role"] == "user":
        kept.pop()
    first = dict(history[0])
    omitted = len(history) - len(kept) - 1
    if omitted > 0:
        first["content"] += f"\n\n[NOTICE] {omitted} messages are omitted."
    return [first, *reversed(kept)]


def to_openai(messages: list[dict[str, str]]) -> list[dict[str, str]]:
    """AgentBench's roles as the OpenAI client sends them ("agent" -> "assistant")."""
    return [{"role": "assistant" if m["role"] == "agent" else m["role"], "content": m["content"]} for m in messages]


class AgentBenchTask:
    """One task server's rules (a subclass per server, made with the checkout folder; it reads its texts there at
    construction and raises ``CheckoutError`` naming a missing file)."""

    round_limit: int | None = None
    """The task's own limit on steps (its config's ``round``/``max_round``/``max_step``), None: the env's."""

    def __init__(self, checkout: Path):
        self.checkout = checkout

    def env_kwargs(self) -> dict[str, Any]:
        """What the env needs to speak this task's words."""
        return {}

    def opening(self, opening: Opening) -> list[dict[str, str]]:
        """The turns the server injects before the first request (roles "user"/"agent"; ends with a user turn)."""
        raise NotImplementedError

    def read(self, reply: str, history: list[dict[str, str]]) -> Reading:
        """The action in ``reply`` (already in ``history`` as the last agent turn, which the task may rewrite)."""
        raise NotImplementedError

    def observe(self, observation: str, info: Mapping[str, Any], history: list[dict[str, str]]) -> list[dict[str, str]]:
        """The turns the server injects after a step (usually one user turn wrapping the observation)."""
        return [{"role": "user", "content": observation}]


class AgentBenchDialogue(Dialogue):
    """One episode: the session's history, sent through ``filter_messages`` every step."""

    def __init__(self, task: AgentBenchTask, opening: Opening):
        self.task = task
        self.history: list[dict[str, str]] = [m for m in task.opening(opening) if m]

    def request(self) -> Request:
        return Request(to_openai(filter_messages(self.history)), temperature=TEMPERATURE, max_tokens=MAX_TOKENS)

    def read(self, reply: str | None) -> Reading:
        self.history.append({"role": "agent", "content": reply or ""})
        return self.task.read(reply or "", self.history)

    def observe(self, observation: str, info: Mapping[str, Any]) -> str:
        injected = self.task.observe(observation, info, self.history)
        self.history.extend(injected)
        return "\n".join(m["content"] for m in injected)
