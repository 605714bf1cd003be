"""ALFWorld's downloaded games (``json_2.1.1/<split>/<task>/<trial>/game.tw-pddl``) as worlds for our engine.

``gym.make("AgentBoard/AlfWorld-v0", game_dir=...)`` lists the games as alfworld's ``AlfredTWEnv`` does (every
``game.tw-pddl`` with a ``traj_data.json`` beside it, skipping movable-receptacle and sliced tasks), sorted as
AgentBoard sorts them; task ids are AgentBoard's (the last two folders). Each PDDL problem's init facts become a
world: receptacles with their types, locations and openability, objects with their types and receptacles, the
agent's start, and the goal from ``traj_data.json`` and the game's grammar.

Checked only on games this package exports (``gamefile.export_game``): the real downloads (2 GB) are not
available here. ``tests/test_alfworld_downloaded.py`` compares engine and official stack step by step on real
games when ``ALFWORLD_DATA`` points at a download. Facts the engine does not model (objects inside movable
receptacles, initial clean/hot/cool/toggled states) raise ``UnsupportedGame`` naming them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

__all__ = ["find_games", "world_from_game", "task_name", "UnsupportedGame", "MISSING_MESSAGE"]

MISSING_MESSAGE = (
    "No ALFWorld games under {path}. Downloaded games are not shipped (about 2 GB): run `pip install alfworld` "
    'then `alfworld-download`, and pass game_dir="$ALFWORLD_DATA/json_2.1.1/valid_unseen" (the 134 games '
    "AgentBoard evaluates on). Without game_dir the env plays games generated offline."
)
_UNSUPPORTED = ("inreceptacleobject", "isclean", "ishot", "iscool", "istoggled", "issliced", "holds", "opened")
_TOKENS = re.compile(r"\(|\)|[^\s()]+")


class UnsupportedGame(ValueError):
    """A downloaded game uses facts the engine does not model."""


def find_games(game_dir: str | Path) -> list[Path]:
    """The playable ``game.tw-pddl`` files under ``game_dir``, sorted; a clear error when there are none."""
    folder = Path(game_dir).expanduser()
    games = []
    if folder.is_dir():
        games = sorted(
            path
            for path in folder.rglob("game.tw-pddl")
            if (path.parent / "traj_data.json").is_file()
            and "movable" not in str(path.parent)
            and "Sliced" not in str(path.parent)
        )
    if not games:
        raise FileNotFoundError(MISSING_MESSAGE.format(path=folder))
    return games


def task_name(game_file: Path) -> str:
    """AgentBoard's name for a game: its task folder and trial folder."""
    return "/".join(game_file.parts[-3:-1])


def _facts(problem: str) -> tuple[dict[str, str], list[list[str]]]:
    """(object name -> PDDL type, init facts as [predicate, args...]) of a PDDL problem."""
    stack: list[list] = [[]]
    for token in _TOKENS.findall(re.sub(r";[^\n]*", "", problem)):
        if token == "(":
            stack.append([])
        elif token == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token)
    sections = {part[0].lower(): part[1:] for part in stack[0][0] if isinstance(part, list) and part}
    types: dict[str, str] = {}
    tokens, names, index = sections.get(":objects", []), [], 0
    while index < len(tokens):  # "name name - type" groups
        if tokens[index] == "-":
            types.update(dict.fromkeys(names, tokens[index + 1]))
            names, index = [], index + 2
        else:
            names.append(tokens[index])
            index += 1
    facts = [[str(x) for x in fact] for fact in sections.get(":init", []) if isinstance(fact, list)]
    return types, facts


def world_from_game(game_file: str | Path) -> dict[str, Any]:
    """The world dict (as ``generator.generate_world`` returns) of a downloaded game."""
    game_file = Path(game_file)
    game = json.loads(game_file.read_text())
    traj = json.loads((game_file.parent / "traj_data.json").read_text())
    types, facts = _facts(game["pddl_problem"])
    by_predicate: dict[str, list[list[str]]] = {}
    for fact in facts:
        by_predicate.setdefault(fact[0].lower(), []).append(fact[1:])
    unsupported = sorted(p for p in _UNSUPPORTED if by_predicate.get(p))
    if unsupported:
        raise UnsupportedGame(f"{game_file}: the engine does not model the initial facts {unsupported}")
    strip = lambda kind: kind[:-4] if kind.lower().endswith("type") else kind  # noqa: E731
    location = {r: loc for r, loc in by_predicate.get("receptacleatlocation", [])}
    openable = {args[0] for args in by_predicate.get("openable", [])}
    receptacles = [
        {"id": r, "type": strip(kind), "location": location[r], "openable": r in openable}
        for r, kind in by_predicate.get("receptacletype", [])
    ]
    inside: dict[str, str] = {}
    for o, r in by_predicate.get("inreceptacle", []):
        inside.setdefault(o, r)
    object_location = {o: loc for o, loc in by_predicate.get("objectatlocation", [])}
    objects = [
        {"id": o, "type": strip(kind), "receptacle": inside.get(o), "location": object_location.get(o)}
        for o, kind in by_predicate.get("objecttype", [])
    ]
    agent = next(args[1] for args in by_predicate.get("atlocation", []) if types.get(args[0]) == "agent")
    sentence = re.search(r"Your task is to: (.*?)\.\"", game["grammar"])
    params = traj["pddl_params"]
    return {
        "floorplan": traj.get("scene", {}).get("floor_plan", ""),
        "seed": None,
        "receptacles": receptacles,
        "objects": objects,
        "agent_location": agent,
        "goal": {
            "task_type": traj["task_type"],
            "object": params["object_target"],
            "receptacle": params["parent_target"],
            "toggle": params["toggle_target"],
            "sentence": sentence.group(1) if sentence else "",
        },
    }
