"""The puzzle data (``puzzles.json``, written for this project) and the fact matcher the default host uses.

A puzzle has a story (what the player sees), a truth, 3-6 key points (AgentBench's "game progress",
AgentQuest's milestones), facts and a scripted question sequence. A fact is a list of term groups and an
answer: it matches a question when every group has a term in it. A single-word term matches a word that
starts with it ("drown" matches "drowned"; a term ending in "-ed" also matches its base, "died" matches
"die"); a term starting with "=" must be the whole word; a term with a
space is a phrase. A "yes" fact may carry the index of the key point it uncovers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

__all__ = ["Fact", "Puzzle", "load_puzzles", "normalise", "fact_matches", "best_fact"]

_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class Fact:
    groups: tuple[tuple[str, ...], ...]
    answer: str
    key_point: int | None = None


@dataclass(frozen=True)
class Puzzle:
    puzzle_id: str
    split: str
    title: str
    story: str
    truth: str
    key_points: tuple[str, ...]
    facts: tuple[Fact, ...]
    questions: tuple[str, ...]
    story_keys: tuple[str, ...] = ()
    """The story's key points (AgentBench's files have them; a question repeating one is refused)."""
    hints: int = 0
    """What progress is counted out of: AgentBench counts every line of its key cell; 0 means the key points."""

    @property
    def progress_total(self) -> int:
        return self.hints or len(self.key_points)


def normalise(text: str) -> tuple[str, ...]:
    """Lower-case words, apostrophes dropped ("didn't" -> "didnt")."""
    return tuple(_WORD.findall(text.lower().replace("'", "").replace("\u2019", "")))


def _term_in(term: str, words: tuple[str, ...], joined: str) -> bool:
    if " " in term:
        return f" {term} " in joined
    if term.startswith("="):
        return term[1:] in words
    stems = (term, term[:-1], term[:-2]) if term.endswith("ed") and len(term) >= 4 else (term,)
    return any(word.startswith(stem) for word in words for stem in stems if len(stem) >= 3)


def fact_matches(fact: Fact, words: tuple[str, ...]) -> bool:
    joined = " " + " ".join(words) + " "
    return all(any(_term_in(term, words, joined) for term in group) for group in fact.groups)


def best_fact(facts: tuple[Fact, ...], words: tuple[str, ...], uncovered: Collection[int] = ()) -> Fact | None:
    """The matching fact with the most term groups (the most specific). On ties a fact that uncovers a key
    point not yet uncovered wins, then the first listed."""
    best, best_rank = None, None
    for fact in facts:
        if not fact_matches(fact, words):
            continue
        fresh = fact.answer == "yes" and fact.key_point is not None and fact.key_point not in uncovered
        rank = (len(fact.groups), fresh)
        if best_rank is None or rank > best_rank:
            best, best_rank = fact, rank
    return best


def _puzzle(raw: dict) -> Puzzle:
    facts = tuple(
        Fact(
            tuple(tuple(term.lower() for term in group) for group in item["terms"]),
            item["answer"],
            item.get("key_point"),
        )
        for item in raw["facts"]
    )
    return Puzzle(
        raw["id"],
        raw["split"],
        raw["title"],
        raw["story"],
        raw["truth"],
        tuple(raw["key_points"]),
        facts,
        tuple(raw["questions"]),
    )


@lru_cache(maxsize=1)
def load_puzzles() -> tuple[Puzzle, ...]:
    data = json.loads(resources.files("agentgym_text.envs.lateral").joinpath("puzzles.json").read_text("utf-8"))
    return tuple(_puzzle(raw) for raw in data["puzzles"])
