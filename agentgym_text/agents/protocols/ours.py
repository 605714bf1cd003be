"""This package's own protocol (the default): the family's system prompt, instruction and example
(``prompt.json``), the goal, the history window (``HistoryWindow``) and a reply-format line, one request a step."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import gymnasium as gym

from agentgym_text.agents.parsing import parse_reply
from agentgym_text.agents.prompts import build_messages, load_prompt
from agentgym_text.agents.protocols.base import AgentProtocol, Dialogue, Opening, Reading, Request
from agentgym_text.core.info import FinishReason
from agentgym_text.core.registry import reads_whole_replies
from agentgym_text.wrappers.history import HistoryWindow, approximate_tokens

__all__ = ["OursProtocol"]


class _OursDialogue(Dialogue):
    def __init__(self, protocol: OursProtocol, opening: Opening):
        self._protocol = protocol
        self._whole = reads_whole_replies(opening.env_id)
        self._prompt = load_prompt(opening.family, opening.text_format)
        self._goal = opening.goal
        self._window = opening.observation

    def request(self) -> Request:
        messages = build_messages(self._prompt, self._goal, self._window, self._protocol.style)
        window = self._protocol.context_window
        needed = sum(approximate_tokens(message["content"]) for message in messages) + self._protocol.max_tokens
        return Request(
            messages, finish_reason=None if window is None or needed <= window else FinishReason.CONTEXT_LIMIT.value
        )

    def read(self, reply: str | None) -> Reading:
        parsed = parse_reply(reply, react=self._protocol.style == "react", whole=self._whole)
        return Reading(
            parsed.action, note=None if parsed.action is not None else "no action in the reply", thought=parsed.thought
        )

    def observe(self, observation: str, info: Mapping[str, Any]) -> str:
        self._window = observation
        return str(info.get("raw_observation", observation))


class OursProtocol(AgentProtocol):
    """``style``: "vanilla" (the reply is an action) or "react" (a thought, then an action); ``history_tokens``: the
    window's size; ``context_window`` (with ``max_tokens``, the reply's room): a prompt that would not fit ends the
    episode unsent."""

    name = "ours"

    def __init__(
        self,
        style: str = "vanilla",
        history_tokens: int = 3000,
        context_window: int | None = None,
        max_tokens: int = 256,
    ):
        self.style = style
        self.history_tokens = history_tokens
        self.context_window = context_window
        self.max_tokens = max_tokens

    def begin(self, opening: Opening) -> Dialogue:
        return _OursDialogue(self, opening)

    def env_wrappers(self) -> list[Callable[[gym.Env], gym.Env]]:
        return [functools.partial(HistoryWindow, max_tokens=self.history_tokens)]

    def describe(self) -> dict[str, Any]:
        return {"protocol": self.name, "style": self.style}
