"""TextWorld games built here with textworld's own challenge generators, one cache entry per game.

A game is (challenge, settings, seed). ``build_game`` makes it with ``textworld.challenges`` and compiles it
with the bundled Inform 7 into ``$AGENTGYM_TEXT_CACHE/textworld/<key>/`` (``build_cached``: checksummed, locked,
rebuilt when this module or textworld's version changes), then replays the winning policy once to record the
subgoals (``subgoals.json``). Nothing is built until a game is first played; ``prefetch`` builds many with a
progress bar.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from agentgym_text.core.cache import build_cached, progress_bar, source_key

__all__ = ["CHALLENGES", "GameFiles", "build_game", "prefetch", "derive_subgoals", "generation_seed", "INFOS"]

CHALLENGES = {"coin": "tw-coin_collector", "treasure": "tw-treasure_hunter", "cooking": "tw-cooking"}
"""Our short challenge names -> textworld's registered challenge names."""
GENERATION_ATTEMPTS = 50
"""Layouts tried before a game is given up. A hard treasure hunt (level 9) often needs a few: two of the first 200
training games need 6; a seed that generates at its first attempt gives the same game whatever this bound."""


def generation_seed(seed: int, attempt: int) -> int:
    """The seed textworld gets for a game's ``attempt``-th layout (0: the game's own seed). The first five are the
    seed plus multiples of 100,003 (as games have always been built); from the sixth, seeds in a block of 64 of the
    game's own above 2**31, so no game's retries reach another game's seed or retries (a stride alone would: a test
    seed plus ten strides is a training seed)."""
    if attempt < 5:
        return seed + attempt * 100_003
    return (2**31 + seed * 64 + attempt) % 2**32


INFOS = dict(
    admissible_commands=True,
    policy_commands=True,
    facts=True,
    won=True,
    lost=True,
    score=True,
    max_score=True,
    objective=True,
    verbs=True,
)


class GameFiles:
    """The built files of one game: ``game.z8`` (+ textworld's ``game.json``) and ``subgoals.json``."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.path = folder / "game.z8"
        meta = json.loads((folder / "subgoals.json").read_text())
        self.subgoals: list[dict] = meta["subgoals"]
        self.walkthrough: list[str] = meta["walkthrough"]


def _request_infos():
    import textworld

    return textworld.EnvInfos(**INFOS)


def derive_subgoals(path: Path) -> dict[str, Any]:
    """Replay the winning policy; each command that changes the world's facts is a subgoal (its new facts)."""
    import textworld

    env = textworld.start(str(path), request_infos=_request_infos())
    try:
        state = env.reset()
        start = {str(fact) for fact in state.facts}
        walkthrough = list(state.policy_commands)
        subgoals, facts = [], start
        for command in walkthrough:
            state, _, _ = env.step(command)
            now = {str(fact) for fact in state.facts}
            added, removed = sorted(now - facts), sorted(facts - now)
            held_at_start = set(added) <= start and not set(removed) & start
            if (added or removed) and not held_at_start:
                subgoals.append({"text": command, "added": added, "removed": removed})
            facts = now
        if not state.won:
            raise RuntimeError(f"textworld's winning policy does not win {path}")
    finally:
        env.close()
    return {"walkthrough": walkthrough, "subgoals": subgoals}


def _build(challenge: str, settings: Mapping[str, Any], seed: int, folder: Path) -> None:
    import textworld
    from textworld.challenges import CHALLENGES as TW_CHALLENGES
    from textworld.generator import QuestGenerationError, compile_game

    make = TW_CHALLENGES[CHALLENGES[challenge]][1]
    for attempt in range(GENERATION_ATTEMPTS):
        # textworld cannot lay out every quest on every map; it asks for another seed, so derived seeds are tried
        # in a fixed order (the one used is recorded)
        used_seed = generation_seed(seed, attempt)
        options = textworld.GameOptions()
        options.seeds = used_seed
        options.path = str(folder / "game.z8")
        options.force_recompile = True
        try:
            game = make(dict(settings), options)
            break
        except QuestGenerationError:
            if attempt == GENERATION_ATTEMPTS - 1:
                raise
    compile_game(game, options)
    record = derive_subgoals(folder / "game.z8")
    record["generation_seed"] = used_seed
    (folder / "subgoals.json").write_text(json.dumps(record, indent=1))


def build_game(challenge: str, settings: Mapping[str, Any], seed: int, *, quiet: bool = False) -> GameFiles:
    """The game's files, built at first use (about 5 s) and reused from the cache after."""
    import textworld

    key = source_key(
        sys.modules[__name__], textworld.__version__, challenge, json.dumps(dict(settings), sort_keys=True), seed
    )
    folder = build_cached(
        f"textworld/{challenge}", key, lambda staging: _build(challenge, settings, seed, staging), quiet=quiet
    )
    return GameFiles(folder)


def prefetch(games: Iterable[tuple[str, Mapping[str, Any], int]], *, quiet: bool = False) -> list[GameFiles]:
    """Build (or find) many games, with a progress bar."""
    games = list(games)
    return [
        build_game(challenge, settings, seed, quiet=True)
        for challenge, settings, seed in progress_bar(games, total=len(games), desc="TextWorld games", quiet=quiet)
    ]
