"""Seeded puzzle generation: a random full grid, then clues removed while the solution stays unique."""

from __future__ import annotations

import numpy as np

from agentgym_text.envs.sudoku.backtracking import count_solutions, fill_random
from agentgym_text.envs.sudoku.grid import EMPTY, SIZE

__all__ = ["generate_puzzle"]


def generate_puzzle(seed: int, target_clues: int) -> tuple[str, str]:
    """(puzzle, solution) with a unique solution and as few clues as reachable down to ``target_clues``."""
    rng = np.random.default_rng(seed)
    solution = fill_random(lambda digits: [digits[i] for i in rng.permutation(len(digits))])
    puzzle = list(solution)
    for index in rng.permutation(SIZE * SIZE):
        if sum(ch != EMPTY for ch in puzzle) <= target_clues:
            break
        kept = puzzle[index]
        puzzle[index] = EMPTY
        if count_solutions("".join(puzzle), limit=2) != 1:
            puzzle[index] = kept
    return "".join(puzzle), solution
