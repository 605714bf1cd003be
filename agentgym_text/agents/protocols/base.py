"""What an agent protocol is: how one episode becomes chat requests, and how a reply becomes an action.

A protocol (``AgentProtocol``) is made once per run with its settings; ``begin`` makes a ``Dialogue`` for one
episode from its first observation. The agent then, each step, sends ``dialogue.request()``, gives the reply to
``dialogue.read`` (the action for the env, or a request to ask again), and after the env's step hands the new
observation to ``dialogue.observe``, which returns the text the model will see for it. The loop that drives it
(``agents.llm.LLMAgent``, ``integrations.chat.ChatEnv``) is the same for every protocol; a protocol only decides
words, order, sampling settings and parsing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym

__all__ = ["Request", "Reading", "Opening", "Dialogue", "AgentProtocol", "CheckoutError", "checkout_file"]


@dataclass(frozen=True)
class Request:
    """One chat-completions request: the messages and the sampling settings the protocol fixes (None: the
    agent's own setting)."""

    messages: list[dict[str, str]]
    temperature: float | None = None
    max_tokens: int | None = None
    stop: str | list[str] | None = None
    finish_reason: str | None = None
    """Set when the original harness stops before sending this request: the episode ends here, unsent, with this
    reason (``context_limit``: it does not fit the model's context; or a runner's own early stop)."""
    note: str | None = None
    """Why, with ``finish_reason``."""


@dataclass(frozen=True)
class Reading:
    """What a reply means. ``action`` goes to the env (None: no action could be read, an invalid format).
    ``again``: the reply was a thought the protocol keeps; ask once more before stepping (ReAct).
    ``finish_reason``: the protocol ends the episode here without stepping (its own rule, e.g. a repeated reply).
    """

    action: str | None
    again: bool = False
    finish_reason: str | None = None
    note: str | None = None
    """Why the reply could not be read, when it could not."""
    thought: str | None = None
    """The reasoning the reply gave before its action, when the protocol reads one."""


@dataclass(frozen=True)
class Opening:
    """An episode's start: the env id, the env's goal, the first observation as ``reset`` returned it (through the
    protocol's wrappers), the reset info, the env's family and its text."""

    env_id: str
    goal: str
    observation: str
    info: Mapping[str, Any] = field(default_factory=dict)
    family: str = ""
    text_format: str | None = None
    """The env's text when its family speaks more than one."""

    @property
    def bare_observation(self) -> str:
        """The family's first text without this package's goal, action and budget lines
        (``info["first_observation"]``; the observation itself when the env does not give it)."""
        first = self.info.get("first_observation")
        return str(first if first is not None else self.observation)


class Dialogue:
    """One episode's conversation under a protocol."""

    def request(self) -> Request:
        """The request to send now."""
        raise NotImplementedError

    def read(self, reply: str | None) -> Reading:
        """The meaning of the model's ``reply`` to the last request (None: there was no reply text)."""
        raise NotImplementedError

    def observe(self, observation: str, info: Mapping[str, Any]) -> str:
        """Take the env's answer to the last action; returns the text the model sees for it."""
        raise NotImplementedError

    def trailing_request(self, finish_reason: str) -> Request | None:
        """A request the original harness still sends after an episode ended with ``finish_reason`` and whose reply
        it never uses (tokens spent, nothing played); None when it sends none, as most do."""
        return None


class AgentProtocol:
    """A way of talking to a model about an env, made once per run."""

    name: str = ""

    def covers(self, env_id: str) -> bool:
        """Whether this protocol can play ``env_id``."""
        return True

    def check(self, env_ids: Sequence[str]) -> None:
        """Raise ``ValueError`` naming the ids this protocol cannot play."""
        missing = [env_id for env_id in env_ids if not self.covers(env_id)]
        if missing:
            raise ValueError(f"the {self.name!r} protocol does not cover {', '.join(missing)}")

    def begin(self, opening: Opening) -> Dialogue:
        raise NotImplementedError

    def env_wrappers(self) -> list[Callable[[gym.Env], gym.Env]]:
        """Wrappers every env played under this protocol needs (ours: the history window)."""
        return []

    def env_kwargs(self, env_id: str) -> dict[str, Any]:
        """Constructor kwargs an env played under this protocol needs (e.g. the original's text)."""
        return {}

    def max_steps(self, env_id: str) -> int | None:
        """The original harness's step budget for ``env_id`` (None: the env's own)."""
        return None

    def describe(self) -> dict[str, Any]:
        """JSON-able settings for ``run.json``."""
        return {"protocol": self.name}


class CheckoutError(ValueError):
    """A checkout of an original's repository is missing or lacks a file the protocol reads (the message names the
    folder and the file)."""


def checkout_file(root: str | Path | None, relative: str, what: str, setting: str) -> Path:
    """``root/relative``, which must exist; ``CheckoutError`` naming both otherwise.

    >>> checkout_file(None, "a.json", "a checkout of hkust-nlp/AgentBoard", "X_DIR")
    Traceback (most recent call last):
    agentgym_text.agents.protocols.base.CheckoutError: no folder given for a checkout of hkust-nlp/AgentBoard (pass it, or set X_DIR)
    """
    if root is None or str(root) == "":
        raise CheckoutError(f"no folder given for {what} (pass it, or set {setting})")
    path = Path(root).expanduser() / relative
    if not Path(root).expanduser().is_dir():
        raise CheckoutError(f"{root} is not a folder: expected {what}")
    if not path.is_file():
        raise CheckoutError(f"{root} is not {what}: {relative} is missing there")
    return path
