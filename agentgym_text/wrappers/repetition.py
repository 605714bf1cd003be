"""``RepetitionTracker``: AgentQuest's repetition rate RR_t, counted incrementally."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from agentgym_text.core.info import FinishReason

__all__ = ["RepetitionTracker", "levenshtein_similarity"]

Similarity = Callable[[str, str], float]


def levenshtein_similarity(a: str, b: str) -> float:
    """1 - edit distance / length of the longer string (1.0 for two empty strings)."""
    return float(Levenshtein.normalized_similarity(a, b))


class RepetitionTracker(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Adds ``info["repeated"]`` and ``info["repetition_rate"]`` = (t - |A_t|) / (t - 1) (AgentQuest §3.2).

    An action is repeated when its similarity to some earlier *unique* action is at least ``threshold``;
    otherwise it joins the unique set A. Every action counts, invalid ones included. ``similarity`` is
    "exact", "levenshtein" or a callable ``(a, b) -> [0, 1]``. With ``stop_after`` set, that many repeated
    actions in a row truncate the episode with ``finish_reason="repetition"``.

    >>> import gymnasium as gym, agentgym_text
    >>> env = RepetitionTracker(gym.make("AgentQuest/Mastermind-v0"))
    >>> _ = env.reset(seed=0)
    >>> [env.step(a)[4]["repetition_rate"] for a in ("guess 0123", "guess 0123", "guess 4567")]
    [0.0, 1.0, 0.5]
    """

    def __init__(
        self,
        env: gym.Env,
        similarity: str | Similarity = "exact",
        threshold: float = 1.0,
        stop_after: int | None = None,
    ):
        gym.utils.RecordConstructorArgs.__init__(
            self,
            similarity=similarity if isinstance(similarity, str) else "callable",
            threshold=threshold,
            stop_after=stop_after,
        )
        gym.Wrapper.__init__(self, env)
        if not 0.0 <= threshold <= 1.0:
            raise ValueError("threshold is a similarity in [0, 1]")
        if isinstance(similarity, str) and similarity not in ("exact", "levenshtein"):
            raise ValueError("similarity must be 'exact', 'levenshtein' or a callable")
        self.similarity = similarity
        self.threshold = threshold
        self.stop_after = stop_after
        self._unique: list[str] = []
        self._unique_set: set[str] = set()
        self._steps = 0
        self._run = 0

    def reset(self, **kwargs: Any):
        self._unique, self._unique_set, self._steps, self._run = [], set(), 0, 0
        return self.env.reset(**kwargs)

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        repeated = self._observe(action if isinstance(action, str) else repr(action))
        self._run = self._run + 1 if repeated else 0
        info = dict(info)
        info["repeated"] = repeated
        info["repetition_rate"] = self.repetition_rate
        if self.stop_after is not None and self._run >= self.stop_after and not (terminated or truncated):
            truncated = True
            info["finish_reason"] = FinishReason.REPETITION.value
        return obs, reward, terminated, truncated, info

    @property
    def repetition_rate(self) -> float:
        if self._steps < 2:
            return 0.0
        return (self._steps - len(self._unique)) / (self._steps - 1)

    def _observe(self, action: str) -> bool:
        self._steps += 1
        if self._is_repeat(action):
            return True
        self._unique.append(action)
        self._unique_set.add(action)
        return False

    def _is_repeat(self, action: str) -> bool:
        if action in self._unique_set and self.threshold <= 1.0:
            return True
        if self.similarity == "exact":
            return self.threshold <= 0.0 and bool(self._unique)
        if self.similarity == "levenshtein":
            match = process.extractOne(
                action, self._unique, scorer=Levenshtein.normalized_similarity, score_cutoff=self.threshold
            )
            return match is not None
        return any(self.similarity(action, earlier) >= self.threshold for earlier in self._unique)
