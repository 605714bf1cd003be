"""The expert: each puzzle's scripted question sequence, which uncovers every key point under the default host."""

from __future__ import annotations

from collections.abc import Collection

from agentgym_text.envs.lateral.puzzles import Puzzle, normalise

__all__ = ["next_question", "ask_key_point"]


def next_question(puzzle: Puzzle, asked: Collection[tuple[str, ...]]) -> str:
    """The first scripted question not asked yet; once all are asked, a final answer stating the truth."""
    for question in puzzle.questions:
        if normalise(question) not in asked:
            return question
    return "answer: " + puzzle.truth


def ask_key_point(puzzle: Puzzle, uncovered: Collection[int]) -> str | None:
    """For puzzles from a task file (no scripted questions): the first key point not yet uncovered, asked back as
    a question (a host model confirms it)."""
    for index, point in enumerate(puzzle.key_points):
        if index not in uncovered:
            return f"Is it true that {point.rstrip('.?! ')}?"
    return None
