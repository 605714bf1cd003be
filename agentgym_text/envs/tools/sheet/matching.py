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

    def cell(grid: Sequence[Sequence[str]], r: int, c: int) -> str:
        return grid[r][c] if r < len(grid) and c < len(grid[r]) else ""

    equal = sum(cell(current, r, c) == cell(golden, r, c) for r in range(rows) for c in range(cols))
    outside = sum(
        1 for r, row in enumerate(current) for c, value in enumerate(row) if value and (r >= rows or c >= cols)
    )
    total = rows * cols + outside
    return equal / total if total else 1.0
