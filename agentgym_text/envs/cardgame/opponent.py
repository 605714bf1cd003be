"""The built-in opponent: a rule-based player after AgentBench's baseline (its ``action2`` AI).

Guess: a position whose observed active skill and passive together identify one type is guessed with that
type; otherwise a random hidden live position and a random type not yet revealed (and not already guessed
wrong there). Act: a normal attack that kills the weakest enemy if one exists, else AOE while two or more
enemies live, else a normal attack by the strongest fish on the enemy fish that acted last (or the first
live enemy).
"""

from __future__ import annotations

import numpy as np

from agentgym_text.envs.cardgame.game import ACTIVE, FISH_TYPES, PASSIVE, Game, Move

__all__ = ["Opponent"]

_CLUES = {kind: {ACTIVE[kind], PASSIVE[kind]} for kind in FISH_TYPES}


class Opponent:
    """Plays side 1. ``observe(game)`` reads what it could see since the last call; ``guess``/``move`` decide."""

    side = 1

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.clues: list[set[str]] = [set() for _ in range(4)]
        self.wrong: set[tuple[int, str]] = set()
        self.last_enemy_actor: int | None = None
        self._seen = 0

    def copy(self) -> Opponent:
        other = Opponent.__new__(Opponent)
        other.rng = np.random.default_rng()
        other.rng.bit_generator.state = self.rng.bit_generator.state
        other.clues = [set(c) for c in self.clues]
        other.wrong = set(self.wrong)
        other.last_enemy_actor = self.last_enemy_actor
        other._seen = self._seen
        return other

    def observe(self, game: Game, agent_actor: int | None = None) -> None:
        """Take in the skills and passives the agent's fish showed (``game.signals``) and who acted last."""
        for side, pos, clue in game.signals[self._seen :]:
            if side == 0:
                self.clues[pos].add(clue)
        self._seen = len(game.signals)
        if agent_actor is not None:
            self.last_enemy_actor = agent_actor

    def guessed_wrong(self, pos: int, kind: str) -> None:
        self.wrong.add((pos, kind))

    def guess(self, game: Game) -> tuple[int, str] | None:
        hidden = game.hidden_alive(0)
        if not hidden:
            return None
        for pos in hidden:
            for kind in FISH_TYPES:
                if _CLUES[kind] <= self.clues[pos]:
                    return pos, kind
        known = {fish.kind for fish in game.teams[0] if fish.revealed}
        pos = hidden[int(self.rng.integers(len(hidden)))]
        kinds = [k for k in FISH_TYPES if k not in known and (pos, k) not in self.wrong] or list(FISH_TYPES)
        return pos, kinds[int(self.rng.integers(len(kinds)))]

    def move(self, game: Game) -> Move:
        mine, theirs = game.teams[1], game.teams[0]
        alive, enemies = game.alive(1), game.alive(0)
        strongest = max(alive, key=lambda p: (mine[p].atk, -p))
        weakest = min(enemies, key=lambda p: (theirs[p].hp, p))
        if mine[strongest].atk // 2 >= theirs[weakest].hp:
            return Move(strongest, "normal", weakest)
        if len(enemies) >= 2:
            for kind in ("spray", "eel"):
                for pos in alive:
                    if mine[pos].kind == kind:
                        return Move(pos, "active", enemies[0])
        target = self.last_enemy_actor if self.last_enemy_actor in enemies else enemies[0]
        return Move(strongest, "normal", target)
