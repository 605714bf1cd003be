"""The agent interface the evaluation runner drives: one batched ``act`` call per vector-env step."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

from agentgym_text.agents.protocols.base import AgentProtocol, Opening

__all__ = ["Agent", "ProtocolAgent", "Decision", "Turn", "NEEDS"]

NEEDS = frozenset({"expert_action", "admissible_actions"})
"""What an agent may ask the runner to fetch from each sub-env before a step (``Agent.needs``)."""


@dataclass
class Turn:
    """What an agent sees for one sub-env at one step.

    ``observation`` is what the env returned (a prompt-ready window when the agent wraps the env in
    ``HistoryWindow``); ``expert_action`` / ``admissible_actions`` are filled only when the agent lists
    them in ``needs``; ``text_format`` names the env's text when it speaks more than one (the prompt follows it).
    """

    slot: int
    env_id: str
    family: str
    episode_key: str
    seed: int
    step: int
    goal: str
    observation: str
    info: dict[str, Any] = field(default_factory=dict)
    expert_action: str | None = None
    admissible_actions: list[str] | None = None
    text_format: str | None = None


@dataclass
class Decision:
    """An agent's answer for one turn.

    ``action`` is sent to the env. ``finish_reason`` (only ``"context_limit"`` today) ends the episode
    without stepping. ``error`` names what went wrong getting the action (``"invalid_format"``,
    ``"retries_exhausted"``, ...); the action is then empty, which the env counts as an invalid step.
    """

    action: str
    reply: str | None = None
    thought: str | None = None
    error: str | None = None
    finish_reason: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    attempts: int = 1
    latency_s: float = 0.0


class Agent:
    """Base class: subclasses implement ``act`` (and may override the rest)."""

    name: str = "agent"
    needs: frozenset[str] = frozenset()

    def env_wrappers(self) -> list[Callable[[gym.Env], gym.Env]]:
        """Wrappers the runner applies to every sub-env for this agent (e.g. a history window)."""
        return []

    def begin_episode(self, turn: Turn) -> None:
        """Called once per episode with its first observation, before the first ``act``."""

    def act(self, turns: Sequence[Turn]) -> list[Decision]:
        """One decision per turn, in order; all turns belong to different sub-envs of one vector env."""
        raise NotImplementedError

    def observe(self, turn: Turn) -> str | None:
        """Called after each step with the env's answer; returns the text the agent's model sees for it when that
        differs from the observation (a protocol's wording), else None. Recorded in the step's row."""
        return None

    def end_episode(self, turn: Turn) -> None:
        """Called once when an episode ends (for any reason), with its last turn."""

    def trailing_request(self, turn: Turn, finish_reason: str) -> Decision | None:
        """Called when an episode has ended with ``finish_reason``, before ``end_episode``: the request the agent's
        protocol still sends then, whose reply nothing plays (AgentBoard's WebShop asks once more after its last
        step), as a decision carrying its tokens and reply; None when there is none."""
        return None

    def check_envs(self, env_ids: Sequence[str]) -> None:
        """Raise ``ValueError`` naming the env ids this agent cannot play (before anything is played)."""

    def max_steps(self, env_id: str) -> int | None:
        """The step budget this agent's protocol sets for ``env_id`` (None: the env's own)."""
        return None

    def env_kwargs(self, env_id: str) -> dict[str, Any]:
        """Constructor kwargs ``env_id`` needs for this agent (e.g. the text its protocol reads)."""
        return {}

    def describe(self) -> dict[str, Any]:
        """JSON-able settings recorded in ``run.json``."""
        return {"agent": self.name}

    def resume_settings(self) -> dict[str, Any]:
        """The settings a resumed run must match (those that change what the agent does)."""
        return self.describe()

    def preflight(self) -> None:
        """Check, before any episode, that the agent can act at all; raise with a message a person reads."""

    def close(self) -> None:
        """Release clients, threads and connections."""


class ProtocolAgent(Agent):
    """An agent that speaks an agent protocol (``self.protocol``): the protocol's wrappers, ids, step budgets and env
    kwargs are the agent's, and each episode's dialogue begins from the ``opening`` of its first turn."""

    protocol: AgentProtocol

    def env_wrappers(self) -> list[Callable[[gym.Env], gym.Env]]:
        return self.protocol.env_wrappers()

    def check_envs(self, env_ids: Sequence[str]) -> None:
        self.protocol.check(env_ids)

    def max_steps(self, env_id: str) -> int | None:
        return self.protocol.max_steps(env_id)

    def env_kwargs(self, env_id: str) -> dict[str, Any]:
        return self.protocol.env_kwargs(env_id)

    @staticmethod
    def opening(turn: Turn) -> Opening:
        """The episode's start as the protocol's ``begin`` takes it."""
        return Opening(turn.env_id, turn.goal, turn.observation, turn.info, turn.family, turn.text_format)
