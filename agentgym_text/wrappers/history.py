"""``HistoryWindow``: the observation becomes a prompt-ready rendering of the goal and the latest turns."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import gymnasium as gym

__all__ = ["HistoryWindow", "approximate_tokens"]


def approximate_tokens(text: str) -> int:
    """A tokenizer-free estimate: about four characters per token."""
    return math.ceil(len(text) / 4)


class HistoryWindow(gym.ObservationWrapper, gym.utils.RecordConstructorArgs):
    """Render goal + the most recent turns as the observation, AgentBoard's sliding window.

    Keeps at most ``max_turns`` turns and, if set, at most ``max_tokens`` tokens (``count_tokens``, default
    ~4 characters a token) or ``max_chars`` characters; the newest observation is always kept. Where older
    turns were dropped, a line says how many. The raw observation stays in ``info["raw_observation"]``.

    >>> import gymnasium as gym, agentgym_text
    >>> env = HistoryWindow(gym.make("AgentQuest/Mastermind-v0"), max_turns=1)
    >>> _ = env.reset(seed=0)
    >>> _ = env.step("guess 0123")
    >>> print(env.step("guess 4567")[0].splitlines()[1])
    [2 earlier turns omitted]
    """

    def __init__(
        self,
        env: gym.Env,
        max_turns: int | None = None,
        max_tokens: int | None = None,
        max_chars: int | None = None,
        count_tokens: Callable[[str], int] = approximate_tokens,
    ):
        gym.utils.RecordConstructorArgs.__init__(self, max_turns=max_turns, max_tokens=max_tokens, max_chars=max_chars)
        gym.ObservationWrapper.__init__(self, env)
        space_limit = getattr(env.observation_space, "max_length", None)
        self.max_turns = max_turns
        self.max_tokens = max_tokens
        self.max_chars = min(filter(None, (max_chars, space_limit)), default=None)
        self.count_tokens = count_tokens
        self._goal = ""
        self._turns: list[tuple[str | None, str]] = []
        self._pending_action: str | None = None

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        self._goal = str(info.get("goal", ""))
        self._turns = []
        self._pending_action = None
        info = dict(info, raw_observation=obs)
        return self.observation(obs), info

    def step(self, action: Any):
        self._pending_action = action if isinstance(action, str) else repr(action)
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, reward, terminated, truncated, dict(info, raw_observation=self._turns[-1][1])

    def observation(self, observation: str) -> str:
        self._turns.append((self._pending_action, str(observation)))
        self._pending_action = None
        return self.render_window()

    def render_window(self) -> str:
        """The current prompt text: goal, omission marker, then the kept turns oldest first."""
        header = f"Goal: {self._goal}" if self._goal else ""
        total = len(self._turns)
        body, kept = "", 0  # the kept turns' blocks, oldest first; grown one block at a time (linear per step)
        for action, observation in reversed(self._turns):
            block = (f"Action: {action}\n" if action is not None else "") + f"Observation: {observation}"
            candidate = f"{block}\n{body}" if kept else block
            if kept and not self._fits(self._join(header, candidate, total - kept - 1)):
                break
            body, kept = candidate, kept + 1
            if self.max_turns is not None and kept >= self.max_turns:
                break
        text = self._join(header, body, total - kept)
        if self.max_chars is not None and len(text) > self.max_chars:
            text = text[-self.max_chars :]
        return text

    def _fits(self, text: str) -> bool:
        if self.max_chars is not None and len(text) > self.max_chars:
            return False
        return self.max_tokens is None or self.count_tokens(text) <= self.max_tokens

    @staticmethod
    def _join(header: str, body: str, omitted: int) -> str:
        parts = [header] if header else []
        if omitted:
            parts.append(f"[{omitted} earlier turn{'s' if omitted != 1 else ''} omitted]")
        if body:
            parts.append(body)
        return "\n".join(parts)
