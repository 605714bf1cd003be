"""The game as AgentBench v0.2's game logic reports it to the agent's SDK at the agent's turn (the fields of its
``Assert`` and ``Action`` messages), built from this engine's state: what the ``agentbench`` protocol needs to word
v0.2's prompts. Keys, fish ids and the ``isEnemy`` flags are v0.2's (``isEnemy`` seen from the agent's side)."""

from __future__ import annotations

from typing import Any

from agentgym_text.envs.cardgame.game import Game, MoveReport
from agentgym_text.envs.cardgame.match import Match

__all__ = ["FISH_IDS", "sdk_view", "game_info", "move_message"]

FISH_IDS = {"spray": 1, "flame": 2, "eel": 3, "sunfish": 4}
"""v0.2's fish ids (its SDK's ``fish_type``)."""


def game_info(game: Game) -> dict[str, list[int]]:
    """``GameInfo``: enemy ids (-1 while hidden) and HP, own ids (negated once revealed), HP and attack."""
    mine, enemy = game.teams
    return {
        "EnemyFish": [FISH_IDS[f.kind] if f.revealed else -1 for f in enemy],
        "EnemyHP": [f.hp for f in enemy],
        "MyFish": [-FISH_IDS[f.kind] if f.revealed else FISH_IDS[f.kind] for f in mine],
        "MyHP": [f.hp for f in mine],
        "MyATK": [f.atk for f in mine],
    }


def move_message(report: MoveReport | None) -> dict[str, Any] | None:
    """An action's report as v0.2's logic writes it (``ActionFish``, ``skill`` with its targets, ``passive``)."""
    if report is None:
        return None
    message: dict[str, Any] = {
        "ActionFish": report.actor,
        "skill": {
            "type": report.skill,
            "isSkill": int(report.skill != "normalattack"),
            "targets": [{"pos": pos, "value": value, "isEnemy": side != 0} for side, pos, value in report.targets],
        },
    }
    if report.passives:
        message["passive"] = [
            {"source": pos, "type": name, "isEnemy": side != 0} for side, pos, name in report.passives
        ]
    return message


def sdk_view(match: Match) -> dict[str, Any]:
    """The phase, ``GameInfo``, both sides' latest actions (``MyAction``, ``EnemyAction``) and the answer to this
    turn's guess (``AssertReply``: None when the agent has not guessed this turn)."""
    game = match.game
    right = match.last_guess_right
    return {
        "phase": match.phase,
        "GameInfo": game_info(game),
        "MyAction": move_message(game.last_moves[0]),
        "EnemyAction": move_message(game.last_moves[1]),
        "AssertReply": None if right is None else {"AssertResult": right},
    }
