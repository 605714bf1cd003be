"""The random agent: a uniform choice over the actions ``check valid actions`` would list."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agentgym_text.agents.base import Agent, Decision, Turn
from agentgym_text.core.info import HELP_ACTION

__all__ = ["RandomAgent"]


class RandomAgent(Agent):
    """Uniform over ``env.unwrapped.admissible_actions()``; seeded per episode, so runs are reproducible.

    >>> from agentgym_text.agents.base import Turn
    >>> agent = RandomAgent(seed=1)
    >>> turn = Turn(0, "x", "f", "k", 7, 0, "", "", admissible_actions=["a", "b", "c"])
    >>> agent.begin_episode(turn)
    >>> [d.action for d in agent.act([turn])][0] in {"a", "b", "c"}
    True
    """

    name = "random"
    needs = frozenset({"admissible_actions"})

    def __init__(self, seed: int = 0):
        self.seed = seed
        self._rngs: dict[int, np.random.Generator] = {}

    def begin_episode(self, turn: Turn) -> None:
        self._rngs[turn.slot] = np.random.default_rng([self.seed, turn.seed])

    def act(self, turns: Sequence[Turn]) -> list[Decision]:
        decisions = []
        for turn in turns:
            rng = self._rngs.setdefault(turn.slot, np.random.default_rng([self.seed, turn.seed]))
            actions = turn.admissible_actions or []
            action = actions[int(rng.integers(len(actions)))] if actions else HELP_ACTION
            decisions.append(Decision(action=action))
        return decisions

    def describe(self) -> dict:
        return {"agent": self.name, "seed": self.seed}
