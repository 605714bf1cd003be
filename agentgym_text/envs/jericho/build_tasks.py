"""Derive each game's goal and subgoals from its walkthrough; writes ``goals.json`` (reviewable, shipped).

Run ``python -m agentgym_text.envs.jericho.build_tasks --game-dir <folder of the 20 games>``.

For each game the walkthrough is replayed under several emulator seeds. The task's target is the walkthrough
prefix that (a) plays identically (score, room, inventory after every command) under every one of those seeds,
(b) fits in ``MAX_PREFIX`` commands, so AgentBoard's 30-step budget leaves room, and (c) has at most
``MAX_SUBGOALS`` milestones. Milestones are read on the engine's state along the prefix: each room entered for
the first time, each object first carried, each rise of the score. The goal text names the last room and the
objects in words.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from agentgym_text.envs.jericho.engine import GameState, JerichoGame, check_game_file, resolve_game_dir

__all__ = ["GAMES", "TITLES", "MAX_PREFIX", "MAX_SUBGOALS", "GOALS_FILE", "derive_game", "main"]

GAMES = (
    "905 acorncourt afflicted balances dragon jewel library omniquest reverb snacktime zenon zork1 zork2 zork3 "
    "detective night pentari weapon huntdark loose"
).split()
"""AgentBoard's 20 Jericho games, in AgentBoard's order."""
TITLES = {
    "905": "9:05",
    "acorncourt": "Acorn Court",
    "afflicted": "Afflicted",
    "balances": "Balances",
    "dragon": "Dragon Adventure",
    "jewel": "Jewel of Knowledge",
    "library": "All Quiet on the Library Front",
    "omniquest": "OmniQuest",
    "reverb": "Reverberations",
    "snacktime": "Snack Time!",
    "zenon": "Escape from the Starship Zenon",
    "zork1": "Zork I",
    "zork2": "Zork II",
    "zork3": "Zork III",
    "detective": "Detective",
    "night": "Night at the Computer Center",
    "pentari": "Pentari",
    "weapon": "The Weapon",
    "huntdark": "Hunter, in Darkness",
    "loose": "Mother Loose",
}
FILE_SUFFIX = {"afflicted": ".z8", "snacktime": ".z8"}
MAX_PREFIX = 25
MAX_SUBGOALS = 15
VERIFY_SEEDS = [int(s) for s in np.random.default_rng(20261123).integers(1, 2**31 - 1, size=12)]
GOALS_FILE = Path(__file__).with_name("goals.json")


def _replay(
    game: JerichoGame, path: Path, md5: str, seed: int, commands: list[str], texts: list[str] | None = None
) -> list[GameState]:
    game.load(path, md5, seed)
    states = [game.state(names=True)]
    for command in commands:
        text = game.step(command)
        if texts is not None:
            texts.append(text)
        states.append(game.state(names=True))
        if game.game_over() or game.victory():
            break
    return states


def _refused(game: JerichoGame, commands: list[str]) -> set[int]:
    """Walkthrough commands the game's parser refuses without taking a turn (the expert leaves them out)."""
    from jericho.util import clean, recognized

    refused = set()
    for index, command in enumerate(commands):
        before = game.state()
        text = game.step(command)
        if not recognized(clean(text)) and game.state() == before:
            refused.add(index)
    return refused


def _key(state: GameState) -> tuple:
    return state.score, state.location, tuple(sorted(state.inventory))


def _readable(name: str) -> bool:
    return bool(name) and "(" not in name and any(ch.islower() for ch in name)


def _room_name(state: GameState, text: str) -> str:
    """The object's name, else the heading the game printed on arrival (some .z8 games leave names empty)."""
    if _readable(state.location_name):
        return state.location_name
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("(")]
    return lines[0].rstrip(".") if lines and len(lines[0]) < 40 else f"room {state.location}"


def _item_name(name: str, command: str, item: int) -> str:
    if _readable(name):
        return name
    words = command.lower().split()
    if len(words) >= 2 and words[-1] not in ("all", "up"):
        return words[-1]
    return f"object {item}"


def _milestones(states: list[GameState], commands: list[str], texts: list[str]) -> list[dict]:
    start = states[0]
    seen_rooms, seen_items, best = {start.location}, set(start.inventory), start.score
    found = []
    for step, state in enumerate(states[1:], start=1):
        by = commands[step - 1]
        if state.location not in seen_rooms:
            seen_rooms.add(state.location)
            room = _room_name(state, texts[step - 1])
            found.append(
                {"kind": "room", "id": state.location, "name": room, "step": step, "by": by, "text": f"reach {room}"}
            )
        for item, name in zip(state.inventory, state.inventory_names):
            if item not in seen_items:
                seen_items.add(item)
                name = _item_name(name, by, item)
                found.append(
                    {"kind": "item", "id": item, "name": name, "step": step, "by": by, "text": f"get the {name}"}
                )
        if state.score > best:
            best = state.score
            found.append(
                {
                    "kind": "score",
                    "value": state.score,
                    "step": step,
                    "by": by,
                    "text": f"score {state.score} points ({by})",
                }
            )
    return found


def _goal_text(title: str, subgoals: list[dict], won: bool) -> str:
    rooms = [goal["name"] for goal in subgoals if goal["kind"] == "room"]
    items = [goal["name"] for goal in subgoals if goal["kind"] == "item"]
    parts = []
    if items:
        listed = ", ".join(f"the {name}" for name in items[:-1])
        parts.append("get " + (f"{listed} and the {items[-1]}" if listed else f"the {items[-1]}"))
    if rooms:
        parts.append(f"make your way to {rooms[-1]}")
    if any(goal["kind"] == "score" for goal in subgoals):
        parts.append("earn the points for what you achieve on the way")
    text = "; ".join(parts) if parts else "make progress in the story"
    ending = " and finish the game" if won else ""
    return f"In {title}, {text}{ending}."


def derive_game(game: JerichoGame, name: str, folder: Path) -> dict:
    """The task record of one game (see the module docstring)."""
    path = folder / f"{name}{FILE_SUFFIX.get(name, '.z5')}"
    md5 = check_game_file(path)
    game.load(path, md5, VERIFY_SEEDS[0])
    full = game.walkthrough()
    skip = _refused(game, full[: MAX_PREFIX + 10])
    walkthrough = [command for index, command in enumerate(full) if index not in skip]
    game.load(path, md5, VERIFY_SEEDS[0])
    max_score = game.max_score()
    texts: list[str] = []
    runs = [_replay(game, path, md5, VERIFY_SEEDS[0], walkthrough[:MAX_PREFIX], texts)]
    runs += [_replay(game, path, md5, seed, walkthrough[:MAX_PREFIX]) for seed in VERIFY_SEEDS[1:]]
    reference = runs[0]
    agree = len(reference) - 1
    for run in runs[1:]:
        same = 0
        for a, b in zip(reference[1:], run[1:]):
            if _key(a) != _key(b):
                break
            same += 1
        agree = min(agree, same)
    milestones = _milestones(reference[: agree + 1], walkthrough, texts)
    while len(milestones) > MAX_SUBGOALS:
        last_step = milestones[MAX_SUBGOALS]["step"] - 1
        milestones = [goal for goal in milestones if goal["step"] <= last_step]
    steps = max(goal["step"] for goal in milestones) if milestones else 0
    game.load(path, md5, VERIFY_SEEDS[0])
    for command in walkthrough[:steps]:
        game.step(command)
    won = game.victory()
    return {
        "game": name,
        "file": path.name,
        "md5": md5,
        "title": TITLES[name],
        "goal": _goal_text(TITLES[name], milestones, won),
        "steps": steps,
        "skip": sorted(i for i in skip if i < steps + len(skip)),
        "walkthrough_length": len(walkthrough),
        "seed_robust_steps": agree,
        "max_score": max_score,
        "trace": [[s.score, s.location] for s in reference[: steps + 1]],
        "subgoals": milestones,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--game-dir", default=None, help="folder of the 20 game files (else $AGENTGYM_TEXT_JERICHO_DIR)"
    )
    parser.add_argument("--out", default=str(GOALS_FILE))
    args = parser.parse_args(argv)
    folder = resolve_game_dir(args.game_dir)
    game = JerichoGame()
    records = []
    for name in GAMES:
        record = derive_game(game, name, folder)
        records.append(record)
        print(
            f"{name:11s} steps {record['steps']:2d}  subgoals {len(record['subgoals']):2d}  "
            f"robust {record['seed_robust_steps']:2d}  {record['goal']}"
        )
    game.close()
    Path(args.out).write_text(
        json.dumps({"verify_seeds": VERIFY_SEEDS, "max_prefix": MAX_PREFIX, "games": records}, indent=1) + "\n"
    )


if __name__ == "__main__":
    main()
