"""Record AgentBoard's own PDDL env on its 60 problem files (a reference for tests, never a runtime dependency).

Runs AgentBoard's ``environment/pddl_env/pddl_env.py`` and its bundled pddlgym fork UNMODIFIED, taken from a
snapshot of hkust-nlp/AgentBoard, in a separate virtual environment (gym 0.24, nltk, numpy<2, matplotlib,
imageio, scikit-image), on the 60 problems AgentBoard evaluates (gripper prob01-20, blockworld problem1-10 in
pddlgym's lexicographic order, barman p01-20, tyreworld p01-10). For each problem it writes the problem file's
text, pddlgym's parsed initial state and goal, the first observation, goal text and action listing, and a seeded
random trajectory (admissible actions plus a share of invalid ones, ``look around`` and ``check valid actions``)
with each step's observation, validity, progress rate, done flag and action listing to
``tests/reference/pddl_agentboard.json``, which ``tests/test_pddl_words.py`` replays on ``AgentBoard/PDDL-v0``.

Usage (two stages; the second runs inside the reference venv)::

    python tests/reference/record_pddl.py --setup --git-dir PATH   # venv + AgentBoard source under /tmp
    PYTHONHASHSEED=0 /tmp/agentboard-pddl-venv/bin/python tests/reference/record_pddl.py --record

(``--out PATH`` writes elsewhere: under another PYTHONHASHSEED AgentBoard's own listings come out in another order.)

``--setup`` creates ``/tmp/agentboard-pddl-venv`` and writes AgentBoard's ``environment/pddl_env`` folder,
``environment/base_env.py`` and ``common/registry.py`` from a git mirror (``--git-dir``, else
``$AGENTBOARD_GIT_DIR``) to ``/tmp/agentboard-pddl-src``. AgentBoard calls ``nltk.download('punkt')`` (no network
here: it fails and returns) and ``nltk.word_tokenize``, which needs the Punkt sentence model: setup writes an
untrained English ``punkt_tab`` model (empty parameter files) under ``/tmp/agentboard-pddl-src/nltk_data``. It
differs from the trained one only in where it ends sentences (abbreviations), which no recorded action exercises
(each is one sentence). Nothing of AgentBoard's code is copied into this repository; the recording holds the
problem files' text (Apache-2.0, as AgentBoard's code) so the replay test needs no network.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

from agentboard_source import copy_files, git, import_env_module, main, make_venv  # sibling: this folder is on sys.path

HERE = Path(__file__).resolve().parent
OUT = HERE / "pddl_agentboard.json"
VENV = Path("/tmp/agentboard-pddl-venv")
SRC = Path("/tmp/agentboard-pddl-src")
FOLDER = "agentboard/environment/pddl_env"
FILES = ("agentboard/environment/base_env.py", "agentboard/common/registry.py")
PINS = ("gym==0.24.0", "nltk", "numpy<2", "matplotlib", "imageio", "scikit-image")
GAMES = {"gripper": 20, "blockworld": 10, "barman": 20, "tyreworld": 10}
"""AgentBoard's eval order (eval_configs/main_results_all_tasks.yaml) and problem counts (tasks/pddl.py)."""
STEPS = 15
INVALID_SHARE = 0.25
"""Share of steps that send something other than a listed action (unknown text, wrong objects, look, check)."""


def setup(git_dir: str) -> None:
    make_venv(VENV, PINS)
    names = [n for n in git(git_dir, "ls-tree", "-r", "--name-only", "HEAD", FOLDER).decode().splitlines()
             if n.endswith((".py", ".pddl", ".png", ".jpg"))]  # pddlgym's renderers read their images on import
    copy_files(git_dir, [*names, *FILES], SRC)
    punkt = SRC / "nltk_data" / "tokenizers" / "punkt_tab" / "english"
    punkt.mkdir(parents=True, exist_ok=True)
    for name in ("collocations.tab", "sent_starters.txt", "abbrev_types.txt", "ortho_context.tab"):
        (punkt / name).write_text("")


def _load_agentboard():
    """AgentBoard's pddl_env module, unmodified (with its bundled pddlgym on the path)."""
    os.environ.setdefault("NLTK_DATA", str(SRC / "nltk_data"))
    os.chdir(SRC)  # pddl_env.py puts <cwd>/agentboard/environment/pddl_env on sys.path for pddlgym
    return import_env_module(SRC, "pddl_env.pddl_env")


def _atoms(literals) -> list[list[str]]:
    return sorted([lit.predicate.name, *(str(v.name) for v in lit.variables)] for lit in literals)


def _invalid_action(rng: random.Random, env, listing: list[str]) -> str:
    """Something other than a listed action: AgentBoard's two error messages, or its look/check commands."""
    objects = sorted(obj.name for obj in env.last_obs.objects)
    kind = rng.random()
    if kind < 0.2:
        return "look around"
    if kind < 0.35:
        return "check valid actions"
    if kind < 0.55:
        return rng.choice(["jump over the wall", "do nothing", "pickup", "hello"])
    # a listed action's words with one object swapped: parses, usually inapplicable ("restriction" message)
    words = rng.choice(listing).split()
    slots = [i for i, w in enumerate(words) if w.strip(".").lower() in objects]
    if slots:
        words[rng.choice(slots)] = rng.choice(objects)
    return " ".join(words)


def record(out: Path = OUT) -> None:
    pddl_env = _load_agentboard()
    import gym
    import nltk

    episodes = []
    for game, count in GAMES.items():
        for index in range(count):
            rng = random.Random(f"{game}-{index}")
            env = pddl_env.PDDL(problem_index=index, game_name=game)
            problem = env.env.unwrapped._problem
            first = env.last_obs
            steps = []
            episode = {
                "game": game, "problem_index": index, "file": Path(problem.problem_fname).name,
                "problem_text": Path(problem.problem_fname).read_text(),
                "objects": sorted(obj.name for obj in first.objects),
                "init": _atoms(first.literals), "goal_atoms": _atoms(first.goal.literals),
                "goal": env.goal, "observation": env._get_obs(), "actions": env._get_action_space(),
                "steps": steps,
            }
            for _ in range(STEPS):
                if env.done:
                    break
                listing = sorted(a for a in env._get_action_space() if a not in ("check valid actions", "look around"))
                if rng.random() < INVALID_SHARE or not listing:
                    action = _invalid_action(rng, env, listing or ["check valid actions"])
                else:
                    action = rng.choice(listing)
                obs, reward, done, info = env.step(action)
                steps.append({"action": action, "observation": obs, "valid": bool(info.get("action_is_valid")),
                              "progress": reward, "done": bool(done), "won": bool(env.won),
                              "actions": env._get_action_space()})
            episodes.append(episode)
            print(f"{game} {index}: {len(steps)} steps, won={env.won}", file=sys.stderr)
    commit = (SRC / "COMMIT").read_text().strip() if (SRC / "COMMIT").exists() else "unknown"
    about = (f"AgentBoard's PDDL env (hkust-nlp/AgentBoard {commit}, environment/pddl_env/pddl_env.py and its "
             f"bundled pddlgym, unmodified) with gym {gym.__version__}, nltk {nltk.__version__} (untrained Punkt "
             f"model): {STEPS} seeded random steps per problem, written by tests/reference/record_pddl.py. "
             "Action listings are in pddlgym's set order (PYTHONHASHSEED=0). The problem files' text in each episode "
             "is AgentBoard's data (Apache-2.0, hkust-nlp/AgentBoard), kept here as test input only.")
    lines = ",\n".join(json.dumps(episode, separators=(",", ":")) for episode in episodes)  # one per line
    out.write_text(f'{{"about": {json.dumps(about)},\n"episodes": [\n{lines}\n]}}\n')
    print(f"wrote {len(episodes)} episodes to {out}")


if __name__ == "__main__":
    main(__doc__, setup, lambda args: record(args.out.resolve()),
         lambda parser: parser.add_argument("--out", type=Path, default=OUT,
                                            help="where --record writes (default: %(default)s)"))
