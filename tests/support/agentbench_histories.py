"""Seeded random chat histories for checking AgentBench's history cut (stdlib only: the reference recorder imports it
in AgentBench's venv, the test in ours, and both get the same histories)."""

from __future__ import annotations

import random

PIECES = ("a", "word", "seventh", "abcdefghijkl", "été", "naïveté", "42", "3.14", "!", "#", " ", "\n", "  ", ", ")
"""Words of 1 to 12 letters (some accented), digits, punctuation, blanks and newlines."""


def histories(seed: int = 0, count: int = 60) -> list[list[dict[str, str]]]:
    """``count`` histories of 1 to 41 turns (user first, alternating), sizes around the 3500-segment cut."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        turns = rng.randrange(0, 21) * 2 + 1
        size = rng.choice([5, 50, 300, 900])
        out.append(
            [
                {
                    "role": "user" if i % 2 == 0 else "agent",
                    "content": "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, size))),
                }
                for i in range(turns)
            ]
        )
    return out
