"""``ChatEnv`` under an agent protocol: the dialogue (``agents.protocols``) words every request, reads every reply.

``ProtocolChat`` holds one episode's ``Dialogue``: ``open`` begins it from the reset, ``answer`` reads the model's
reply, steps the env (unless the reply was a thought the protocol keeps, or the protocol ends the episode) and hands
the observation to the dialogue. Each returns the next request's messages.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gymnasium as gym

from agentgym_text.agents.protocols import AgentProtocol, Dialogue, Opening, Request, make_protocol

__all__ = [
    "ProtocolChat",
    "resolve_protocol",
    "make_protocol_env",
    "StepResult",
    "APPEND_ONLY_PROTOCOLS",
    "require_append_only",
    "new_turns",
]


def resolve_protocol(protocol: AgentProtocol | str) -> AgentProtocol:
    """``protocol`` itself, or the protocol of that name with its default settings."""
    return make_protocol(protocol) if isinstance(protocol, str) else protocol


def make_protocol_env(env_id: str, protocol: AgentProtocol, make_kwargs: dict[str, Any]) -> gym.Env:
    """``gym.make(env_id)`` with the protocol's kwargs and step budget (the caller's kwargs win), then its wrappers."""
    kwargs = {**protocol.env_kwargs(env_id), **make_kwargs}
    budget = protocol.max_steps(env_id)
    if budget and "max_episode_steps" not in kwargs:
        kwargs["max_episode_steps"] = budget
    env = gym.make(env_id, **kwargs)
    wrappers: list[Callable[[gym.Env], gym.Env]] = protocol.env_wrappers()
    for wrapper in wrappers:
        env = wrapper(env)
    return env


@dataclass
class StepResult:
    messages: list[dict[str, Any]]
    reward: float
    terminated: bool
    truncated: bool
    info: dict[str, Any]


class ProtocolChat:
    """One episode's dialogue under ``protocol`` on ``env``."""

    def __init__(self, protocol: AgentProtocol, env: gym.Env, env_id: str, family: str):
        self.protocol = protocol
        self.env = env
        self.env_id = env_id
        self.family = family
        self.dialogue: Dialogue | None = None

    def open(self, observation: str, info: dict[str, Any]) -> list[dict[str, Any]]:
        text_format = getattr(self.env.unwrapped, "text_format", None)
        opening = Opening(self.env_id, str(info.get("goal", "")), observation, info, self.family, text_format)
        self.dialogue = self.protocol.begin(opening)
        return self.messages()

    def request(self) -> Request:
        """The request to send now: its messages, and the sampling settings and early stop the protocol fixes."""
        if self.dialogue is None:
            raise RuntimeError("reset() first")
        return self.dialogue.request()

    def messages(self) -> list[dict[str, Any]]:
        return copy.deepcopy(list(self.request().messages))

    def answer(self, text: str, info: dict[str, Any]) -> StepResult:
        """Read ``text``; step the env with its action (the raw text when none could be read, so the env answers
        it as invalid) unless the protocol asks again (no step: reward 0, not over) or ends the episode (no step:
        terminated, ``info["finish_reason"]`` the protocol's)."""
        if self.dialogue is None:
            raise RuntimeError("reset() first")
        answered = [*self.messages(), {"role": "assistant", "content": text}]
        reading = self.dialogue.read(text)
        if reading.finish_reason:  # no request follows: the conversation ends with the reply that ended it
            judged = bool(getattr(self.env.unwrapped, "judge_as_ended", lambda: False)())
            ended = {**info, "finish_reason": reading.finish_reason, "success": judged}
            return StepResult(answered, 0.0, True, False, ended)
        if reading.again:
            return StepResult(self.messages(), 0.0, False, False, info)
        action = reading.action if reading.action is not None else text
        observation, reward, terminated, truncated, new_info = self.env.step(action)
        self.dialogue.observe(str(observation), new_info)
        return StepResult(self.messages(), float(reward), bool(terminated), bool(truncated), new_info)


APPEND_ONLY_PROTOCOLS = ("agentbench",)
"""The protocols whose every request is the last one, the model's reply as sent and the turns the env's answer adds
(AgentBench's session history). ``ours`` and ``agentboard`` rebuild their whole prompt every step."""


def require_append_only(protocol: AgentProtocol | str, framework: str) -> None:
    """``ValueError`` naming ``framework`` when ``protocol`` rebuilds its requests, which a framework that keeps one
    growing conversation cannot send."""
    name = protocol if isinstance(protocol, str) else protocol.name
    if name not in APPEND_ONLY_PROTOCOLS:
        raise ValueError(
            f"{framework} keeps one conversation that only grows, and the {name!r} protocol rebuilds its whole request "
            f"every step: {framework} supports the protocols {', '.join(map(repr, APPEND_ONLY_PROTOCOLS))} "
            "(or none: this package's prompts)"
        )


def new_turns(
    sent: list[dict[str, Any]], reply: str, request: list[dict[str, Any]], framework: str
) -> list[dict[str, Any]]:
    """The turns ``request`` (the protocol's next messages) adds after ``sent`` (its last request) and the model's
    ``reply``; ``ValueError`` naming ``framework`` when it does not extend them (the protocol cut or rewrote its
    history, e.g. AgentBench's ``filter_messages`` once the history outgrows its limit)."""
    before = [*_turns(sent), {"role": "assistant", "content": reply}]
    if len(request) <= len(before) or _turns(request[: len(before)]) != before:
        raise ValueError(
            f"the protocol's request no longer extends the conversation {framework} keeps (it cut or rewrote earlier "
            f"turns), so {framework} cannot send it: play this episode with ChatEnv(..., protocol=...) itself"
        )
    return copy.deepcopy(request[len(before) :])


def _turns(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"role": m.get("role"), "content": m.get("content")} for m in messages]
