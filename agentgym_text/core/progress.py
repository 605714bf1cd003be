"""Progress scorers: subgoal matching (AgentBoard's r_t) and match scores (fraction of goal conditions met).

A ``Progress`` reading is what a family reports after each step; ``TextEnv`` turns readings into the
best-so-far ``progress_rate``, the current ``progress_now`` and the reward.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Progress", "Subgoal", "SubgoalTracker", "match_score"]


@dataclass(slots=True)  # built every step: a frozen dataclass costs ~1 µs more per instance
class Progress:
    """One progress reading.

    ``now`` is the current score in [0, 1] (may go down); ``best`` is a score the family keeps itself when
    "best so far" is not simply the max of ``now`` (sticky subgoals met at different times). ``subgoals`` and
    ``subgoals_done`` are empty for tasks without subgoals.
    """

    now: float
    best: float | None = None
    subgoals: tuple[str, ...] = ()
    subgoals_done: tuple[bool, ...] = ()


@dataclass(frozen=True)
class Subgoal:
    """A named milestone, met when ``pattern`` matches an observation or ``predicate(state)`` is true.

    >>> Subgoal("open the door", pattern=r"door is (now )?open").met("The door is now open.", None)
    True
    """

    name: str
    pattern: str | None = None
    predicate: Callable[[Any], bool] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if (self.pattern is None) == (self.predicate is None):
            raise ValueError("a Subgoal needs exactly one of pattern or predicate")

    def met(self, observation: str, state: Any) -> bool:
        if self.pattern is not None:
            return re.search(self.pattern, observation, flags=re.IGNORECASE) is not None
        assert self.predicate is not None
        return bool(self.predicate(state))


class SubgoalTracker:
    """Tracks which subgoals have been met; met subgoals stay met.

    With ``ordered=True`` subgoal k can only be credited once subgoals 0..k-1 are (AgentBoard's sequential
    annotation); a single update may credit several in a row.

    >>> tracker = SubgoalTracker([Subgoal("a", pattern="alpha"), Subgoal("b", pattern="beta")], ordered=True)
    >>> tracker.update("beta", None).best
    0.0
    >>> tracker.update("alpha beta", None).best
    1.0
    """

    def __init__(self, subgoals: Sequence[Subgoal], ordered: bool = True):
        self.subgoals = tuple(subgoals)
        self.ordered = ordered
        self.done = [False] * len(self.subgoals)

    def reset(self) -> None:
        self.done = [False] * len(self.subgoals)

    def update(self, observation: str, state: Any = None) -> Progress:
        now_flags = [goal.met(observation, state) for goal in self.subgoals]
        for index, met_now in enumerate(now_flags):
            if self.done[index] or not met_now:
                continue
            if self.ordered and not all(self.done[:index]):
                continue
            self.done[index] = True
        # A pattern subgoal is an event (seen once, it stays seen); a predicate subgoal is a state that can
        # be undone, so the current score counts predicates as they hold now.
        current = [
            met_now if goal.predicate is not None else done
            for goal, met_now, done in zip(self.subgoals, now_flags, self.done)
        ]
        total = len(self.subgoals) or 1
        return Progress(
            now=sum(current) / total,
            best=sum(self.done) / total,
            subgoals=tuple(goal.name for goal in self.subgoals),
            subgoals_done=tuple(self.done),
        )


def match_score(satisfied: Iterable[bool]) -> float:
    """Fraction of goal conditions that hold (1.0 for an empty goal).

    >>> match_score([True, False, True, True])
    0.75
    """
    flags = list(satisfied)
    return sum(flags) / len(flags) if flags else 1.0
