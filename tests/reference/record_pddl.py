"""Record AgentBoard's own PDDL env (a reference for tests, never a runtime dependency).

Runs AgentBoard's ``environment/pddl_env/pddl_env.py`` and its bundled pddlgym fork UNMODIFIED, taken from a
snapshot of hkust-nlp/AgentBoard, in a separate virtual environment (gym 0.24, nltk, numpy<2, matplotlib,
imageio, scikit-image). Three recordings:

- ``--record`` (``tests/reference/pddl_agentboard.json``): the 60 problems AgentBoard evaluates (gripper
  prob01-20, blockworld problem1-10 in pddlgym's lexicographic order, barman p01-20, tyreworld p01-10). Per
  problem: the problem file's text, pddlgym's parsed initial state and goal, the first observation and goal text, a
  seeded random trajectory of 30 steps (listed actions plus a share of invalid ones, ``look around`` and ``check
  valid actions``) with each step's observation, validity, progress and done flag, and at every state reached the
  exhaustive probes: every listed action in each of its written forms (:func:`variants`: AgentBoard's listing
  text as it is and stripped, with a final period, ``name arg arg`` with and without one), each sent to the env
  and the env put back, their outcomes coded by :func:`outcome_code`.
- ``--record --problems ours`` (``tests/reference/pddl_agentboard_ours.json``): the same on agentgym-text's 60
  shipped problems, put in a copy of AgentBoard's files under AgentBoard's file names and its domains' spelling
  (:func:`_our_problems_tree`; AgentBoard's code and domain files untouched).
- ``--record --data DIR --progress-out OUT``: AgentBoard's env on our 60 problems labelled from ``DIR/pddl/test.jsonl``
  as its loader labels them; writes ``OUT/pddl.json`` (task id, AgentBoard's difficulty label, actions, its progress
  after each) for ``benchmarks/agentboard_data.py``. ``--record --fixture`` does the same on the lines
  :func:`fixture_lines` writes, to ``tests/reference/pddl_agentboard_progress.json``, which
  ``tests/test_pddl_agentboard_data.py`` replays with the same lines.

``tests/test_pddl_words.py`` replays the first two on ``AgentBoard/PDDL-v0``.

Usage (two stages; the second runs inside the reference venv)::

    python tests/reference/record_pddl.py --setup --git-dir PATH   # venv + AgentBoard source under /tmp
    PYTHONHASHSEED=0 /tmp/agentboard-pddl-venv/bin/python tests/reference/record_pddl.py --record [--problems ours]
    PYTHONHASHSEED=0 /tmp/agentboard-pddl-venv/bin/python tests/reference/record_pddl.py --record --fixture
    PYTHONHASHSEED=0 /tmp/agentboard-pddl-venv/bin/python tests/reference/record_pddl.py --record --data DIR \\
        --progress-out OUT

(``--out PATH`` writes elsewhere: under another PYTHONHASHSEED AgentBoard's own listings come out in another order.)

``--setup`` creates ``/tmp/agentboard-pddl-venv`` and writes AgentBoard's ``environment/pddl_env`` folder,
``environment/base_env.py`` and ``common/registry.py`` from a git mirror (``--git-dir``, else
``$AGENTBOARD_GIT_DIR``) to ``/tmp/agentboard-pddl-src``. AgentBoard calls ``nltk.download('punkt')`` (no network
here: it fails and returns) and ``nltk.word_tokenize``, which needs the Punkt sentence model: setup writes an
untrained English ``punkt_tab`` model (empty parameter files) under ``/tmp/agentboard-pddl-src/nltk_data``. It
differs from the trained one only in where it ends sentences (abbreviations), which no recorded action exercises
(each is one sentence). Nothing of AgentBoard's code is copied into this repository; the recording holds
AgentBoard's problem files' text (Apache-2.0, as AgentBoard's code) so the replay test needs no network.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys
from pathlib import Path

from agentboard_source import copy_files, git, import_env_module, main, make_venv  # sibling: this folder is on sys.path

HERE = Path(__file__).resolve().parent
OUT = HERE / "pddl_agentboard.json"
OUT_OURS = HERE / "pddl_agentboard_ours.json"
PROGRESS_OUT = HERE / "pddl_agentboard_progress.json"
VENV = Path("/tmp/agentboard-pddl-venv")
SRC = Path("/tmp/agentboard-pddl-src")
FOLDER = "agentboard/environment/pddl_env"
FILES = ("agentboard/environment/base_env.py", "agentboard/common/registry.py")
PINS = ("gym==0.24.0", "nltk", "numpy<2", "matplotlib", "imageio", "scikit-image")
GAMES = {"gripper": 20, "blockworld": 10, "barman": 20, "tyreworld": 10}
"""AgentBoard's eval order (eval_configs/main_results_all_tasks.yaml) and problem counts (tasks/pddl.py)."""
STEPS = 30
INVALID_SHARE = 0.25
NOT_VALID = "The action is not valid and therefore takes no effect. Please check valid actions."
NO_EFFECT = ("The action is not valid and therefore takes no effect. Please remember to satisfy the restriction of "
             "actions. You can also check valid actions.")
"""AgentBoard's two refusals (its pddl_env.py's words)."""
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


def _load_agentboard(src: Path = SRC):
    """AgentBoard's pddl_env module, unmodified (with its bundled pddlgym on the path), from ``src``."""
    os.environ.setdefault("NLTK_DATA", str(SRC / "nltk_data"))
    os.chdir(src)  # pddl_env.py puts <cwd>/agentboard/environment/pddl_env on sys.path for pddlgym
    return import_env_module(src, "pddl_env.pddl_env")


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


def variants(listed: str, operator_form: str) -> list[str]:
    """The ways an agent writes one listed action that the recorder probes: AgentBoard's listing text as it is
    (trailing space included) and stripped, the listing text ending in a period, and ``name arg arg`` without and
    with a final period (shared with tests/test_pddl_words.py, which probes our env with the same texts)."""
    stripped = listed.strip()
    forms = [listed, stripped, stripped if stripped.endswith(".") else stripped + ".", operator_form, operator_form + "."]
    return list(dict.fromkeys(forms))


def outcome_code(observation: str, valid: bool, progress: float) -> list:
    """A probe's outcome, compact: AgentBoard's two refusals by letter (N: not valid, E: no effect), any other
    observation by the hash of its words (whitespace runs as one space), then validity and progress."""
    refusals = {NOT_VALID: "N", NO_EFFECT: "E"}
    text = " ".join(observation.split())
    return [refusals.get(text) or hashlib.sha1(text.encode()).hexdigest()[:10], int(valid), round(progress, 6)]


def _listing(env) -> list[list[str]]:
    """The applicable actions at the current state: [AgentBoard's text, ``name arg arg``], sorted."""
    return sorted([env.literal_to_text(lit), " ".join([lit.predicate.name, *(str(v.name) for v in lit.variables)])]
                  for lit in env.env.action_space.all_ground_literals(env.last_obs))


def probe(env, text: str) -> list:
    """AgentBoard's answer to ``text`` at the current state, the env then put back as it was."""
    saved = (env.last_obs, env.reward, env.done, env.won, env.steps, len(env.states), len(env.history),
             dict(env.infos), env.env.get_state())
    obs, reward, done, info = env.step(text)
    code = outcome_code(obs, bool(info.get("action_is_valid")), reward)
    env.last_obs, env.reward, env.done, env.won, env.steps = saved[:5]
    del env.states[saved[5]:], env.history[saved[6]:]
    env.infos.clear()
    env.infos.update(saved[7])
    env.env.set_state(saved[8])
    return code


def probes(env) -> list:
    """Every listed action at the current state in each of its written forms: per action [text, name-arg form,
    outcome] when every form gets the same outcome, else [text, name-arg form, [outcome per form]]."""
    rows = []
    for listed, operator_form in _listing(env):
        outcomes = [probe(env, text) for text in variants(listed, operator_form)]
        same = all(outcome == outcomes[0] for outcome in outcomes)
        rows.append([listed, operator_form, outcomes[0] if same else outcomes])
    return rows


def record(out: Path = OUT, ours: bool = False) -> None:
    """AgentBoard's 60 problems, or (``ours``) our 60 shipped problems in AgentBoard's env (see _our_problems_tree)."""
    pddl_env = _load_agentboard(_our_problems_tree() if ours else SRC)
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
            episode = {"game": game, "problem_index": index, "file": Path(problem.problem_fname).name}
            if ours:  # our problem files are in the repository
                episode["task_id"] = _task_id(game, episode["file"])
            else:
                episode.update({"problem_text": Path(problem.problem_fname).read_text(),
                                "init": _atoms(first.literals), "goal_atoms": _atoms(first.goal.literals)})
            episode.update({"objects": sorted(obj.name for obj in first.objects), "goal": env.goal,
                            "observation": env._get_obs(), "probes": probes(env), "steps": steps})
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
                              "progress": reward, "done": bool(done), "won": bool(env.won), "probes": probes(env)})
            episodes.append(episode)
            print(f"{game} {index}: {len(steps)} steps, won={env.won}", file=sys.stderr)
    commit = (SRC / "COMMIT").read_text().strip() if (SRC / "COMMIT").exists() else "unknown"
    problems = ("agentgym-text's 60 shipped problems (in AgentBoard's file names and domain spelling)" if ours else
                "its 60 problems")
    about = (f"AgentBoard's PDDL env (hkust-nlp/AgentBoard {commit}, environment/pddl_env/pddl_env.py and its "
             f"bundled pddlgym, unmodified) with gym {gym.__version__}, nltk {nltk.__version__} (untrained Punkt "
             f"model) on {problems}: {STEPS} seeded random steps per problem, and at every state reached every "
             "listed action probed in each of its written forms (record_pddl.variants; outcomes coded by "
             "record_pddl.outcome_code; the probes' texts are the state's listing), written by "
             "tests/reference/record_pddl.py. Observations are in pddlgym's set order (PYTHONHASHSEED=0).")
    if not ours:
        about += (" The problem files' text in each episode is AgentBoard's data (Apache-2.0, hkust-nlp/AgentBoard), "
                  "kept here as test input only.")
    lines = ",\n".join(json.dumps(episode, separators=(",", ":")) for episode in episodes)  # one per line
    out.write_text(f'{{"about": {json.dumps(about)},\n"episodes": [\n{lines}\n]}}\n')
    print(f"wrote {len(episodes)} episodes to {out}")


OURS = HERE.parent.parent / "agentgym_text" / "envs" / "pddl" / "problems"
OUR_SRC = Path("/tmp/agentboard-pddl-ours-src")
OUR_FILES = {"gripper": ("gripper", "prob{:02d}"), "blockworld": ("blocksworld", "problem{}"),
             "barman": ("barman", "p{:02d}"), "tyreworld": ("tyreworld", "p{:02d}")}
"""Per AgentBoard game: our domain folder, and how AgentBoard names its problem files (our pNN becomes number N)."""
SPELLING = {"blocksworld": [("(:domain blocks)", "(:domain blocksworld-4ops)"), ("(ontable ", "(on-table "),
                            ("(handempty)", "(arm-empty)")],
            "tyreworld": [("(open ", "(isopen ")]}
"""Our PDDL spelling to AgentBoard's domain files' (the same domains: names only)."""
MAX_NUM_STEPS = 30


def _our_problems_tree() -> Path:
    """A copy of AgentBoard's files whose four game folders hold our 60 shipped problems, in AgentBoard's file
    names and its domains' spelling (AgentBoard's code and domain files untouched)."""
    import shutil

    shutil.rmtree(OUR_SRC, ignore_errors=True)
    shutil.copytree(SRC, OUR_SRC)
    for game, (domain, name) in OUR_FILES.items():
        folder = OUR_SRC / FOLDER / "pddlgym" / "pddl" / game
        shutil.rmtree(folder)
        folder.mkdir()
        for path in sorted((OURS / domain).glob("p*.pddl")):
            text = path.read_text()
            for ours, theirs in SPELLING.get(domain, []):
                text = text.replace(ours, theirs)
            (folder / (name.format(int(path.stem[1:])) + ".pddl")).write_text(text)
    return OUR_SRC


def _task_id(game: str, problem_file: str) -> str:
    domain, name = OUR_FILES[game]
    number = int(problem_file.removesuffix(".pddl").removeprefix(name.split("{")[0]))
    return f"pddl-{domain}-p{number:02d}"


def fixture_lines() -> list[dict]:
    """60 annotation lines in AgentBoard's format, written here (AgentBoard's own are GPL-2.0): every fourth line
    from the second "hard", the others "easy", plus fields AgentBoard's PDDL loader does not read."""
    return [{"difficulty": "hard" if k % 4 == 1 else "easy", "goal": "not read", "additional_info": {"k": k}}
            for k in range(60)]


def record_progress(data: Path, out: Path) -> None:
    """AgentBoard's env on our 60 problems, labelled from ``data``/pddl/test.jsonl as its loader labels them (line
    order over its games, ``difficulty`` required), each played for its 30 steps by seeded random actions; writes
    ``out`` (a file): per episode our task id, AgentBoard's difficulty label, the actions and AgentBoard's progress
    after each."""
    pddl_env = _load_agentboard(_our_problems_tree())
    difficulties = []
    for text in (data / "pddl" / "test.jsonl").read_text().splitlines():  # tasks/pddl.py's load_annotation
        if text.strip():
            line = json.loads(text.strip())
            if "difficulty" not in line:
                raise ValueError("No difficulty in annotation file")
            difficulties.append(line["difficulty"])
    episodes = []
    for game, count in GAMES.items():  # tasks/pddl.py's get_all_environment_configs
        for index in range(count):
            config = {"game_name": game, "problem_index": index, "difficulty": difficulties[len(episodes)]}
            env = pddl_env.PDDL.from_config(config)
            task_id = _task_id(game, Path(env.env.unwrapped._problem.problem_fname).name)
            rng = random.Random(task_id)
            actions, progress = [], []
            for _ in range(MAX_NUM_STEPS):
                listing = sorted(a for a in env._get_action_space() if a not in ("check valid actions", "look around"))
                if rng.random() < INVALID_SHARE or not listing:
                    action = _invalid_action(rng, env, listing or ["check valid actions"])
                else:
                    action = rng.choice(listing)
                _, reward, done, _ = env.step(action)
                actions.append(action)
                progress.append(reward)
                if done:
                    break
            episodes.append({"task_id": task_id, "difficulty": env.difficulty, "won": bool(env.won),
                             "actions": actions, "progress": progress})
            print(f"{task_id}: {len(actions)} steps, progress {progress[-1]:.3f}", file=sys.stderr)
    commit = (OUR_SRC / "COMMIT").read_text().strip() if (OUR_SRC / "COMMIT").exists() else "unknown"
    about = (f"AgentBoard's PDDL env (hkust-nlp/AgentBoard {commit}, unmodified) on agentgym-text's 60 shipped "
             f"problems, labelled from {data}/pddl/test.jsonl (with --fixture: the lines record_pddl.fixture_lines "
             f"writes): {MAX_NUM_STEPS} seeded random steps each, "
             "AgentBoard's progress after each; written by tests/reference/record_pddl.py --record --data or --fixture.")
    out.parent.mkdir(parents=True, exist_ok=True)
    lines = ",\n".join(json.dumps(episode, separators=(",", ":")) for episode in episodes)
    out.write_text(f'{{"about": {json.dumps(about)},\n"episodes": [\n{lines}\n]}}\n')
    print(f"wrote {len(episodes)} episodes to {out}")


def _options(parser) -> None:
    parser.add_argument("--out", type=Path, default=None,
                        help=f"where --record writes (default: {OUT}, or {OUT_OURS} with --problems ours)")
    parser.add_argument("--problems", choices=("agentboard", "ours"), default="agentboard",
                        help="AgentBoard's 60 problem files, or our 60 shipped problems in AgentBoard's env")
    parser.add_argument("--data", type=Path, default=None,
                        help="with --record: an AgentBoard data folder (pddl/test.jsonl); plays our 60 problems "
                             "labelled from it and writes --progress-out/pddl.json instead")
    parser.add_argument("--progress-out", type=Path, default=None, help="the folder --data writes pddl.json to")
    parser.add_argument("--fixture", action="store_true",
                        help=f"with --record: as --data, on the lines fixture_lines() writes, to {PROGRESS_OUT.name}")


def _record(args) -> None:
    if args.fixture:
        folder = Path("/tmp/agentboard-pddl-fixture")
        (folder / "pddl").mkdir(parents=True, exist_ok=True)
        (folder / "pddl" / "test.jsonl").write_text("".join(json.dumps(line) + "\n" for line in fixture_lines()))
        record_progress(folder, (args.out or PROGRESS_OUT).resolve())
    elif args.data is not None:
        if args.progress_out is None:
            raise SystemExit("--data needs --progress-out OUT (the folder for pddl.json)")
        record_progress(args.data.resolve(), args.progress_out.resolve() / "pddl.json")
    else:
        record((args.out or (OUT_OURS if args.problems == "ours" else OUT)).resolve(), ours=args.problems == "ours")


if __name__ == "__main__":
    main(__doc__, setup, _record, _options)
