"""Record AgentBoard's own Jericho env on the 20 game files (a reference for tests, never a runtime dependency).

Runs AgentBoard's ``environment/jericho_env.py`` UNMODIFIED, with the annotation loader and action cleaning of its
``tasks/jericho.py`` (the class's own methods, its imports of AgentBoard's LLM and agent code stubbed), both taken
from a snapshot of hkust-nlp/AgentBoard, in a separate virtual environment with jericho from PyPI. For each game it
plays a seeded random trajectory (walkthrough commands with their abbreviations written out, commands built from
the game's dictionary, and odd forms: "take lamp, then go north", "look. inventory", "n") and records each step's
observation, validity, progress rate and done flag to ``tests/reference/jericho_agentboard.json``, with the
annotation lines it fed AgentBoard's loader. ``tests/test_jericho_agentboard_data.py`` replays it on
``AgentBoard/Jericho-v0`` with ``agentboard_data=`` a folder holding the same lines, ``agentboard_fixes=False``.

The annotation lines are fixtures written here: patterns cut from the game's own replies along its walkthrough
(punctuation and case kept, so AgentBoard's normalisation matters), a pattern no reply holds on some games, two
patterns from one reply on others (AgentBoard credits one a step), and one line in the ``subgoals_k`` form.
Never AgentBoard's own data. The help action is not played: AgentBoard answers it with jericho's
``get_valid_actions``, which needs spaCy's ``en_core_web_sm`` model (not on PyPI); AgentBoard's goals and first
observations are prose in its env code and are not recorded.

Usage (two stages; the second runs inside the reference venv)::

    python tests/reference/record_jericho.py --setup --git-dir PATH   # venv + AgentBoard source under /tmp
    /tmp/agentboard-jericho-venv/bin/python tests/reference/record_jericho.py --record --game-dir DIR
    # AgentBoard's progress on AgentBoard's own lines, for benchmarks/agentboard_data.py --recorded OUT:
    /tmp/agentboard-jericho-venv/bin/python tests/reference/record_jericho.py --record --game-dir DIR \\
        --data AGENTBOARD_DATA --progress-out OUT

``--game-dir`` defaults to ``$AGENTGYM_TEXT_JERICHO_DIR``. Nothing of AgentBoard's code or data is copied into this
repository.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys
import tempfile
import types
from pathlib import Path

from agentboard_source import copy_files, import_env_module, main, make_venv  # sibling: this folder is on sys.path

HERE = Path(__file__).resolve().parent
GOALS = HERE.parent.parent / "agentgym_text" / "envs" / "jericho" / "goals.json"
OUT = HERE / "jericho_agentboard.json"
VENV = Path("/tmp/agentboard-jericho-venv")
SRC = Path("/tmp/agentboard-jericho-src")
FILES = (
    "agentboard/environment/jericho_env.py",
    "agentboard/environment/base_env.py",
    "agentboard/common/registry.py",
    "agentboard/tasks/jericho.py",
)
PINS = ("jericho==3.3.1", "gym==0.24.0", "numpy<2")
STEPS = 30
"""AgentBoard's ``max_num_steps``."""
VERBS = ("take", "examine", "open", "drop", "push", "read", "close", "eat", "climb")
DIRECTIONS = ("north", "south", "east", "west", "up", "down", "enter", "exit")
ODD = ("xyzzy", "fooble the wizzle", "look. inventory", "inventory, then look", "wait", ", look", "get all", "n", "l")
WRITTEN_OUT = {"n": "north", "s": "south", "e": "east", "w": "west", "u": "up", "d": "down", "ne": "northeast",
               "nw": "northwest", "se": "southeast", "sw": "southwest", "l": "look", "i": "inventory", "z": "wait"}
"""Walkthrough abbreviations written out, as the prompts ask agents to write commands (one-letter ones stay in ODD)."""
UNREACHABLE = "A pattern no reply of this game holds"


def setup(git_dir: str) -> None:
    make_venv(VENV, PINS)
    copy_files(git_dir, FILES, SRC)


def _agentboard_task_class():
    """``EvalJericho`` from AgentBoard's ``tasks/jericho.py``, its imports of the LLM, agent and logging code stubbed
    (only its annotation loader, config builder and action cleaning run here)."""
    import_env_module(SRC, "base_env")  # installs the environment/common package stubs
    stubs = {
        "llm": {"load_llm": None},
        "agents": {"load_agent": None},
        "utils": {},
        "utils.logging": {},
        "utils.logging.logger": {"TaskLogger": None},
        "utils.logging.agent_logger": {"AgentLogger": lambda name: None},
        "tasks": {},
        "tasks.base_task": {"BaseTask": object},
    }
    for name, attributes in stubs.items():
        module = types.ModuleType(name)
        module.__path__ = [str(SRC / "agentboard" / name.replace(".", "/"))]
        module.__dict__.update(attributes)
        sys.modules[name] = module
    sys.modules["environment"].load_environment = None
    import importlib

    return importlib.import_module("tasks.jericho").EvalJericho


def _fixture_lines(games: list[str], game_dir: Path) -> list[dict]:
    """Annotation lines written here: patterns cut from each game's replies along its walkthrough."""
    from environment.jericho_env import Jericho
    from jericho import FrotzEnv

    lines = []
    for index, game in enumerate(games):
        rng = random.Random(1000 + index)
        frotz = FrotzEnv(str(_game_file(game_dir, game)))
        frotz.reset()
        replies = []
        for command in frotz.get_walkthrough()[:STEPS]:
            reply = Jericho.clean_up_text(None, frotz.step(command)[0]).strip()
            if len(reply.split()) >= 4:
                replies.append(reply)
        frotz.close()
        picks = sorted(rng.sample(range(len(replies)), min(len(replies), 3 + index % 4)))
        patterns = []
        for pick in picks:
            words = replies[pick].split()
            start = rng.randrange(0, max(1, len(words) - 4))
            patterns.append(" ".join(words[start : start + rng.randint(2, 5)]))
        if index % 3 == 1:
            patterns.append(UNREACHABLE)
        if index % 4 == 2 and patterns:  # two patterns one reply holds: AgentBoard credits one a step
            words = replies[picks[0]].split()
            patterns.insert(1, " ".join(words[-3:]))
        difficulty = "hard" if len(patterns) > 4 else "easy"
        if index == 5:  # AgentBoard's loader keeps only the last key: none of these patterns is scored
            lines.append({"subgoals_1": patterns, "subgoals_2": patterns[::-1], "difficulty": difficulty})
        else:
            lines.append({"subgoals": patterns, "difficulty": difficulty})
    return lines


def _game_file(game_dir: Path, game: str) -> Path:
    return game_dir / (game + (".z8" if game in ("afflicted", "anchor", "snacktime", "partyfoul") else ".z5"))


def _actions(frotz, rng: random.Random) -> list[str]:
    """A seeded random trajectory: walkthrough commands in order, dictionary commands, and odd forms."""
    walkthrough = list(frotz.get_walkthrough())
    nouns = sorted(word.word for word in frotz.get_dictionary() if word.is_noun and len(word.word) > 2)
    actions = []
    while len(actions) < STEPS:
        draw = rng.random()
        if draw < 0.55 and walkthrough:
            command = walkthrough.pop(0)
            actions.append(WRITTEN_OUT.get(command.lower(), command))
        elif draw < 0.75 and nouns:
            actions.append(f"{rng.choice(VERBS)} {rng.choice(nouns)}")
        elif draw < 0.9:
            actions.append(rng.choice(DIRECTIONS))
        else:
            actions.append(rng.choice(ODD))
    return actions


def _play(task_class, config: dict, rng: random.Random) -> list[dict]:
    from environment.jericho_env import Jericho
    from jericho import FrotzEnv

    env = Jericho.from_config(config)  # the unmodified env: FrotzEnv(game_file), jericho's default seed
    listing = FrotzEnv(config["game_file"])
    actions = _actions(listing, rng)
    listing.close()
    steps = []
    for action in actions:
        command = task_class.parse_action(None, action)
        observation, progress, done, info = env.step(command)
        steps.append(
            {
                "action": action,
                "observation_sha256": hashlib.sha256(observation.encode()).hexdigest(),  # the game's text is not ours
                "valid": bool(info.get("action_is_valid", False)),
                "progress": float(progress),
                "done": bool(done),
                "won": bool(env.won),
            }
        )
        if done:
            break
    env.env.close()
    return steps


def _configs(task_class, games: list[str], game_dir: Path, label_path: Path) -> list[dict]:
    task = object.__new__(task_class)
    task.game_name, task.game_dir, task.label_path = games, str(game_dir), str(label_path)
    return task.get_all_environment_configs({"name": "jericho", "game_name": games})


def record(args) -> None:
    game_dir = Path(args.game_dir or os.environ.get("AGENTGYM_TEXT_JERICHO_DIR", ""))
    if not game_dir.is_dir():
        raise SystemExit("pass --game-dir (or set AGENTGYM_TEXT_JERICHO_DIR) to the folder of the 20 game files")
    task_class = _agentboard_task_class()
    import jericho

    games = [record["game"] for record in json.loads(GOALS.read_text())["games"]]  # AgentBoard's config order
    with tempfile.TemporaryDirectory() as scratch:
        if args.data:
            label_path = Path(args.data) / "jericho" / "test.jsonl"
            lines = None
        else:
            lines = _fixture_lines(games, game_dir)
            label_path = Path(scratch) / "jericho" / "test.jsonl"
            label_path.parent.mkdir(parents=True)
            label_path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        configs = _configs(task_class, games, game_dir, label_path)
        episodes = []
        for index, (game, config) in enumerate(zip(games, configs)):
            steps = _play(task_class, config, random.Random(index))
            episodes.append({"task_id": f"jericho-{game}", "difficulty": config["difficulty"], "steps": steps})
    if args.progress_out:
        out = Path(args.progress_out)
        out.mkdir(parents=True, exist_ok=True)
        rows = [
            {
                "task_id": episode["task_id"],
                "actions": [step["action"] for step in episode["steps"]],
                "progress": [step["progress"] for step in episode["steps"]],
            }
            for episode in episodes
        ]
        (out / "jericho.json").write_text(json.dumps({"episodes": rows}, indent=1) + "\n")
        print(f"wrote {len(rows)} episodes to {out / 'jericho.json'}")
        return
    commit = (SRC / "COMMIT").read_text().strip() if (SRC / "COMMIT").exists() else "unknown"
    about = (
        f"AgentBoard's Jericho env (hkust-nlp/AgentBoard {commit}, environment/jericho_env.py unmodified, the "
        f"annotation loader and parse_action of tasks/jericho.py) with jericho {jericho.__version__}: up to "
        f"{STEPS} seeded random steps per game on fixture annotation lines, written by "
        "tests/reference/record_jericho.py"
    )
    body = ",\n".join(json.dumps(episode, separators=(",", ":")) for episode in episodes)  # one per line
    OUT.write_text(f'{{"about": {json.dumps(about)},\n"lines": {json.dumps(lines)},\n"episodes": [\n{body}\n]}}\n')
    print(f"wrote {len(episodes)} episodes, {sum(len(e['steps']) for e in episodes)} steps to {OUT}")


def _options(parser) -> None:
    parser.add_argument("--game-dir", default=None, help="the 20 game files (else $AGENTGYM_TEXT_JERICHO_DIR)")
    parser.add_argument("--data", default=None, help="AgentBoard's data folder: record on its jericho lines")
    parser.add_argument("--progress-out", default=None, help="write OUT/jericho.json for benchmarks/agentboard_data.py")


if __name__ == "__main__":
    main(__doc__, setup, record, _options)
