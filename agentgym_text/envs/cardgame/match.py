"""One game against the built-in opponent, in the agent's phases: guess (while a guess is possible), then act.

After the agent's action the opponent's whole turn (its guess, then its action) runs at once, so the agent
always sees the state at the start of its own next phase.
"""

from __future__ import annotations

from agentgym_text.envs.cardgame.game import (
    MAX_ROUNDS,
    Game,
    Move,
    apply_guess,
    apply_move,
    broken_rule,
    new_game,
    winner,
)
from agentgym_text.envs.cardgame.opponent import Opponent

__all__ = ["Match", "PHASE_RULE"]

PHASE_RULE = {
    "guess": 'it is the guess phase now; first guess a hidden enemy fish {"guess_type": ..., "target_position": ...}.',
    "action": "it is the action phase now, not the guess phase; send a move "
    '{"pick_fish": ..., "action": ..., "target_position": ...}.',
}


class Match:
    """``phase`` is "guess", "action" or "over"; ``result`` is 0 (agent won), 1 (opponent won), -1 (draw)."""

    def __init__(self, agent_lineup: list[str], enemy_lineup: list[str], seed: int, max_rounds: int = MAX_ROUNDS):
        self.game: Game = new_game(agent_lineup, enemy_lineup)
        self.opponent = Opponent(seed)
        self.max_rounds = max_rounds
        self.result: int | None = None
        self.phase = "guess"
        self.log: list[str] = []
        self.last_guess_right: bool | None = None
        self._begin_agent_turn()

    def copy(self) -> Match:
        other = Match.__new__(Match)
        other.game, other.opponent = self.game.copy(), self.opponent.copy()
        other.game.signals = list(self.game.signals)
        other.max_rounds, other.result, other.phase = self.max_rounds, self.result, self.phase
        other.log, other.last_guess_right = [], self.last_guess_right
        return other

    def _begin_agent_turn(self) -> None:
        self.phase = "guess" if self.game.hidden_alive(1) else "action"

    def _ended(self, final: bool = False) -> bool:
        result = winner(self.game, final)
        if result is None:
            return False
        self.result, self.phase = result, "over"
        return True

    def _flush(self) -> None:
        self.log.extend(self.game.events)
        self.game.events = []

    def guess(self, target: int, kind: str) -> bool:
        """The agent's guess (raises ``ActionError`` when not allowed now)."""
        if self.phase != "guess":
            raise broken_rule(f"Rule: {PHASE_RULE['action']}")
        self.log = []
        right = apply_guess(self.game, 0, target, kind)
        self.last_guess_right = right
        self._flush()
        if not self._ended():
            self.phase = "action"
        return right

    def pass_guess(self) -> None:
        """The agent lets its guess phase go by (AgentBench's agent does when it finds no guess)."""
        if self.phase != "guess":
            raise broken_rule(f"Rule: {PHASE_RULE['action']}")
        self.log = ["You did not guess"]
        self.last_guess_right = None
        self.phase = "action"

    def act(self, move: Move) -> None:
        """The agent's action, then the opponent's turn (raises ``ActionError`` when not allowed now)."""
        if self.phase != "action":
            raise broken_rule(f"Rule: {PHASE_RULE['guess']}")
        apply_move(self.game, 0, move)
        self.log = []
        self.last_guess_right = None
        self._flush()
        self.opponent.observe(self.game, agent_actor=move.fish)
        if self._ended():
            return
        self.opponent_turn()

    def opponent_turn(self) -> None:
        guess = self.opponent.guess(self.game)
        if guess is not None:
            if not apply_guess(self.game, 1, *guess):
                self.opponent.guessed_wrong(*guess)
            self._flush()
            if self._ended():
                return
        apply_move(self.game, 1, self.opponent.move(self.game))
        self._flush()
        self.opponent.observe(self.game)
        if self._ended():
            return
        self.game.round += 1
        if self.game.round > self.max_rounds:
            self._ended(final=True)
            return
        self._begin_agent_turn()
