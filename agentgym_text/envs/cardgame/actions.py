"""Reading the agent's text as AgentBench's JSON moves.

A guess is ``{"guess_type": "eel", "target_position": 1}``; an action is ``{"pick_fish": "spray", "action":
"normal", "target_position": 2}``. The JSON object may follow some thinking text (AgentBench's agents write
their reasoning first); the last object in the text with one of those keys is the move.
"""

from __future__ import annotations

import json
import re

from agentgym_text.core.info import InvalidReason
from agentgym_text.envs.cardgame.game import FISH_TYPES, Move, broken_rule

__all__ = ["parse_guess", "parse_move", "format_guess", "format_move", "read_object"]

_OBJECT = re.compile(r"\{[^{}]{0,400}\}")
_MOVE_KEYS = ("pick_fish", "action", "target_position")
_GUESS_KEYS = ("guess_type", "target_position")


def format_guess(target: int, kind: str) -> str:
    return json.dumps({"guess_type": kind, "target_position": target})


def format_move(kind: str, action: str, target: int) -> str:
    return json.dumps({"pick_fish": kind, "action": action, "target_position": target})


def read_object(text: str) -> dict | None:
    """The last JSON object in ``text`` that has a guess or move key, else None."""
    found = None
    for match in _OBJECT.finditer(text):
        try:
            value = json.loads(match.group(0))
        except ValueError:
            try:  # a Python-style dict with single quotes
                value = json.loads(match.group(0).replace("'", '"'))
            except ValueError:
                continue
        if isinstance(value, dict) and any(key in value for key in _MOVE_KEYS + _GUESS_KEYS):
            found = value
    return found


def _position(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).strip().isdigit():
        raise broken_rule(
            f"target_position must be a number from 0 to 3, not {value!r:.40}.", InvalidReason.BAD_ARGUMENT
        )
    return int(str(value).strip())


def _fish_name(value: object, field: str) -> str:
    name = str(value).strip().lower() if isinstance(value, str) else ""
    if name not in FISH_TYPES:
        raise broken_rule(
            f"{field} must be one of {', '.join(FISH_TYPES)}, not {value!r:.40}.", InvalidReason.BAD_ARGUMENT
        )
    return name


def parse_guess(value: dict) -> tuple[int, str]:
    missing = [key for key in _GUESS_KEYS if key not in value]
    if missing:
        raise broken_rule(f"A guess needs the keys {_GUESS_KEYS}; missing {missing}.", InvalidReason.UNPARSABLE)
    return _position(value["target_position"]), _fish_name(value["guess_type"], "guess_type")


def parse_move(value: dict, own_lineup: list[str]) -> Move:
    missing = [key for key in _MOVE_KEYS if key not in value]
    if missing:
        raise broken_rule(f"An action needs the keys {_MOVE_KEYS}; missing {missing}.", InvalidReason.UNPARSABLE)
    kind = _fish_name(value["pick_fish"], "pick_fish")
    action = str(value["action"]).strip().lower() if isinstance(value["action"], str) else ""
    if action not in ("normal", "active"):
        raise broken_rule(
            f"action must be 'normal' or 'active', not {value['action']!r:.40}.", InvalidReason.BAD_ARGUMENT
        )
    return Move(own_lineup.index(kind), action, _position(value["target_position"]))
