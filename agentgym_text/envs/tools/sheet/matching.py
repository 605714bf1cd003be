"""AgentBoard's sheet match score, counting shape mismatches (the original compared only the overlap).

score = (cells inside the golden shape equal to the golden cell) /
        (cells of the golden shape + non-empty cells of the current sheet outside it)
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["match_ratio"]


def match_ratio(current: Sequence[Sequence[str]], golden: Sequence[Sequence[str]]) -> float:
    """Share of cells that agree with the golden sheet; missing cells read as empty."""
    rows = len(golden)
    cols = max((len(row) for row in golden), default=0)
    equal = outside = 0
    for r, want in enumerate(golden):
        want = list(want) + [""] * (cols - len(want))
        have = list(current[r][:cols]) if r < len(current) else []
        have += [""] * (cols - len(have))
        equal += sum(map(str.__eq__, have, want))
    for r, row in enumerate(current):
        tail = row[cols:] if r < rows else row
        outside += sum(1 for value in tail if value)
    total = rows * cols + outside
    return equal / total if total else 1.0
