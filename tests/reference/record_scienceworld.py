"""Record AgentBoard's own ScienceWorld env on our shipped task instances (a reference for tests, never a runtime
dependency).

Runs AgentBoard's ``environment/scienceworld_env.py`` UNMODIFIED, taken from a snapshot of hkust-nlp/AgentBoard,
in a separate virtual environment with the scienceworld release AgentBoard ran on, and drives it the way
AgentBoard's ``tasks/scienceworld.py`` does (load with its simplification string, reset, initial observation =
reset text + "\\n" + inventory, ``step`` per action, validity = the action is in ``get_action_space(abstract=False)``
after the step; the first observation and action set come from the one ``reset()`` call). On each shipped
instance it takes up to 10 seeded random admissible actions, with a share of unknown ones and of the help action,
and writes the trajectories (actions, observations, AgentBoard's validity after the step and the validity of the
state before, the simulator's score, and fingerprints of the action sets: by name, ``digest``, and by template and
object ids, ``combination_digest``) to ``tests/reference/scienceworld_agentboard.json``, which
``tests/test_scienceworld_words.py`` replays on ``AgentBoard/ScienceWorld-v0``. The ids are read by watching the
listing AgentBoard asks for (the engine object's method is wrapped, AgentBoard's code is not touched): the
simulator renames ambiguous objects at every listing, so names alone differ between calls.

AgentBoard's requirements.txt does not pin scienceworld; 1.1.3 (2023-01-19) was the newest release from before
AgentBoard's first release (2024-01) to its last commit (2024-04); 1.2.x came in 2024-07. So the reference venv
has scienceworld 1.1.3. Our package runs the installed one (1.2.3 here); ``--replay`` with the main venv's python
plays the same actions on it and ``--merge`` stores, beside each observation and action set, the installed
engine's where it differs (``installed_observation``, ``installed_actions``, ...), so that the test can tell
which differences the engine version makes.

Usage (two stages; the second runs inside the reference venv)::

    python tests/reference/record_scienceworld.py --setup --git-dir PATH
    /tmp/agentboard-scienceworld-venv/bin/python tests/reference/record_scienceworld.py --record
    # the same actions on the installed engine, merged in as the "installed_*" fields:
    /tmp/agentboard-scienceworld-installed-venv/bin/python tests/reference/record_scienceworld.py --record \
        --replay tests/reference/scienceworld_agentboard.json --out /tmp/scienceworld_agentboard_installed.json
    python tests/reference/record_scienceworld.py --merge /tmp/scienceworld_agentboard_installed.json

Progress (``--progress``, run with the installed venv's python, as our env runs the installed engine): AgentBoard's
env is given annotation lines (``data/scienceworld/test.jsonl``'s fields; by default written here from our shipped
instances: goal, our subgoal patterns as its regexes, key ``<task>_<variation>``), and on the instance of each of
the 30 tasks with the shortest gold path it plays our gold path with seeded detours (a random listed action, unknown text or the help
action) for up to AgentBoard's 30 steps, stopping where AgentBoard's ``done`` does, and records AgentBoard's
progress (its ``reward``) and ``done`` after every action to ``tests/reference/scienceworld_agentboard_progress.json``
(with the lines), which ``tests/test_scienceworld_agentboard_data.py`` replays with ``agentboard_data=``.
``--data DIR`` takes the lines from DIR's ``scienceworld/test.jsonl`` instead (every line; the path is ours where
the instance is shipped, else the simulator's gold path); ``--progress-out OUT`` also writes ``OUT/scienceworld.json``
for ``benchmarks/agentboard_data.py --recorded OUT``; ``--fixture-out DIR`` writes the lines as a data folder::

    /tmp/agentboard-scienceworld-installed-venv/bin/python tests/reference/record_scienceworld.py --record \
        --progress [--data DIR] [--progress-out OUT] [--fixture-out DIR]

``--setup`` (run with the package's python) creates ``/tmp/agentboard-scienceworld-venv`` (scienceworld 1.1.3,
jsonlines) and ``/tmp/agentboard-scienceworld-installed-venv`` (the installed scienceworld release, jsonlines) and
writes AgentBoard's two needed files from a git mirror (``--git-dir``, else ``$AGENTBOARD_GIT_DIR``) to
``/tmp/agentboard-scienceworld-src``.
Nothing of AgentBoard's code is copied into this repository. Both stages need Java; recording takes about 2
minutes per engine on a quiet 2-core machine (8-10 minutes under load). The JVM runs with the options our engine
uses (``JVM_OPTIONS``: identity hashes pinned), without which the simulator's hashed collections, and so its object order, differ from one JVM to the next.
The electrical tasks (power-component, conductivity) cannot load with AgentBoard's ``noElectricalAction`` (both
releases raise ValueError), so they are loaded without it, as our env does; ``load_error`` records the refusal.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import time
from pathlib import Path

from agentboard_source import copy_files, import_env_module, main, make_venv  # sibling: this folder is on sys.path

HERE = Path(__file__).resolve().parent
TASKS = HERE.parent.parent / "agentgym_text" / "envs" / "scienceworld" / "task_set.json"
OUT = HERE / "scienceworld_agentboard.json"
VENV = Path("/tmp/agentboard-scienceworld-venv")
INSTALLED_VENV = Path("/tmp/agentboard-scienceworld-installed-venv")
SRC = Path("/tmp/agentboard-scienceworld-src")
FILES = ("agentboard/environment/scienceworld_env.py", "agentboard/common/registry.py")
PINS = ("scienceworld==1.1.3", "jsonlines")
JVM_OPTIONS = "-XX:+UnlockExperimentalVMOptions -XX:hashCode=2 -XX:+UseSerialGC"  # engine.JVM_OPTIONS
SIMPLIFICATIONS = "selfWateringFlowerPots,openContainers,openDoors,noElectricalAction"  # build_simplification_str
ENV_STEP_LIMIT = 30  # eval_configs/main_results_all_tasks.yaml
STEPS = 10
PROGRESS_OUT = HERE / "scienceworld_agentboard_progress.json"
PROGRESS_STEPS = 30  # AgentBoard's max_num_steps
DETOUR_SHARE = 0.15
INVALID_SHARE = 0.15
HELP_SHARE = 0.05
INVALID_ACTIONS = ("fly to the moon", "pick up unicorn", "go to moon", "open", "look around please",
                   "take thermometer", "teleport to kitchen", "focus on", "move to kitchen", "1")
"""Text AgentBoard hands to the simulator: unknown verbs, unknown objects, missing objects, a bare number."""


def setup(git_dir: str) -> None:
    from importlib.metadata import version

    for venv, pins in ((VENV, PINS), (INSTALLED_VENV, (f"scienceworld=={version('scienceworld')}", "jsonlines"))):
        make_venv(venv, pins)
    copy_files(git_dir, FILES, SRC)


def label_lines(instances: list[dict]) -> list[dict]:
    """Our instances as AgentBoard's label lines (data/scienceworld/test.jsonl's fields)."""
    return [{"goal": inst["goal"], "subgoals": [pattern for _, pattern in inst["subgoals"]],
             "difficulty": "hard" if len(inst["subgoals"]) + 1 > 3 else "easy",
             "additional_info": {"env_name": inst["task_name"], "var": inst["variation"]}} for inst in instances]


def _label_file(instances: list[dict], lines: list[dict] | None = None) -> Path:
    path = SRC / "labels.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in (lines or label_lines(instances))))
    return path


def digest(actions) -> str:
    """A short fingerprint of an action set (the help action left out): the reference keeps these, not the lists."""
    text = "\n".join(sorted(set(actions) - {"check valid actions"}))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def combination_digest(combinations) -> str:
    """A fingerprint of the combinations by template and object ids: the simulator renames ambiguous objects at
    every listing ("paint in wood cup", then "red paint in wood cup"), so the names alone differ between calls."""
    return digest(f"{entry['template_id']}:{','.join(map(str, entry['obj_ids']))}" for entry in combinations)


def record(out: Path, limit: int | None, replay: Path | None = None) -> None:
    os.environ["JAVA_TOOL_OPTIONS"] = " ".join(filter(None, (os.environ.get("JAVA_TOOL_OPTIONS"), JVM_OPTIONS)))
    scienceworld_env = import_env_module(SRC, "scienceworld_env")  # the unmodified file
    import scienceworld

    instances = json.loads(TASKS.read_text())["instances"][:limit]
    played = json.loads(replay.read_text())["episodes"] if replay else None
    env = scienceworld_env.Scienceworld(envStepLimit=ENV_STEP_LIMIT, label_path=str(_label_file(instances)))
    # Watch (not change) the listing AgentBoard's get_action_space(abstract=False) asks for, to keep the ids.
    listed: dict = {}
    original = env.env.getValidActionObjectCombinationsWithTemplates

    def watched():
        listed["last"] = original()
        return listed["last"]

    env.env.getValidActionObjectCombinationsWithTemplates = watched
    episodes = []
    started = time.time()
    for index, inst in enumerate(instances):
        rng = random.Random(index)
        load_error = None
        try:
            env.load(inst["task_name"], inst["variation"], SIMPLIFICATIONS)
        except ValueError as error:
            load_error = str(error)
            env.load(inst["task_name"], inst["variation"], SIMPLIFICATIONS.replace(",noElectricalAction", ""))
        # tasks/scienceworld.py's evaluate_env: reset, first observation, then per step: step, validity listing
        obs, reset_info = env.reset()
        observation = obs + f"\n{env.inventory()}"
        concrete = list(reset_info["valid"])  # the listing scienceworld's reset made (the first state's)
        steps = []
        episode = {"task_id": f"scienceworld-{inst['task_name']}-var{inst['variation']}", "load_error": load_error,
                   "observation": observation, "actions": digest(concrete), "steps": steps}
        for number in range(STEPS if played is None else len(played[index]["steps"])):
            draw = rng.random()
            if played is not None:
                action = played[index]["steps"][number]["action"]
            elif draw < HELP_SHARE:
                action = "check valid actions"
            elif draw < HELP_SHARE + INVALID_SHARE:
                action = rng.choice(INVALID_ACTIONS)
            else:
                action = rng.choice(sorted(set(concrete) - {"check valid actions"}))
            obs, reward, done, info = env.step(action)
            after = env.get_action_space(abstract=False)
            steps.append({"action": action, "observation": obs, "valid": action in after,
                          "valid_before": action in concrete, "progress": reward, "done": bool(done),
                          "score": None if info is None else info["score"], "actions": digest(after),
                          "combinations": combination_digest(listed["last"])})
            concrete = after
            if done and played is None:
                break
        episodes.append(episode)
        print(f"{index + 1}/{len(instances)} {episode['task_id']} {time.time() - started:.0f}s", flush=True)
    env.env.close() if hasattr(env.env, "close") else env.env._gateway.shutdown()
    commit = (SRC / "COMMIT").read_text().strip() if (SRC / "COMMIT").exists() else "unknown"
    about = (f"AgentBoard's ScienceWorld env (hkust-nlp/AgentBoard {commit}, environment/scienceworld_env.py, "
             f"unmodified) with scienceworld {scienceworld.__version__} (JVM options {JVM_OPTIONS}): up to {STEPS} "
             f"seeded random steps per shipped instance, written by tests/reference/record_scienceworld.py; "
             f"action sets as fingerprints (digest, combination_digest)")
    lines = ",\n".join(json.dumps(episode, separators=(",", ":")) for episode in episodes)  # one per line
    out.write_text(f'{{"about": {json.dumps(about)},\n"scienceworld": "{scienceworld.__version__}",\n'
                   f'"episodes": [\n{lines}\n]}}\n')
    print(f"wrote {len(episodes)} episodes to {out}")


def _canonical(name: str) -> str:
    try:
        from scienceworld.utils import infer_task
    except ImportError:  # releases before 1.2 take the names as they are
        return name
    return infer_task(name)


def _load(env, task_name: str, variation: int) -> str | None:
    """AgentBoard's load; the electrical tasks without noElectricalAction (the simulator refuses it there)."""
    try:
        env.load(task_name, variation, SIMPLIFICATIONS)
        return None
    except ValueError as error:
        env.load(task_name, variation, SIMPLIFICATIONS.replace(",noElectricalAction", ""))
        return str(error)


def _simulator_gold(env, task_name: str, variation: int) -> list[str]:
    """The simulator's gold path for an instance we do not ship (the load is then made again without it)."""
    simplifications = SIMPLIFICATIONS if _load(env, task_name, variation) is None else SIMPLIFICATIONS.replace(
        ",noElectricalAction", "")
    env.env.load(task_name, variation, simplifications, generateGoldPath=True)
    return [str(action) for action in env.getGoldActionSequence()]


def record_progress(args) -> None:
    """AgentBoard's progress along gold paths with detours, on the given (or our) annotation lines."""
    os.environ["JAVA_TOOL_OPTIONS"] = " ".join(filter(None, (os.environ.get("JAVA_TOOL_OPTIONS"), JVM_OPTIONS)))
    scienceworld_env = import_env_module(SRC, "scienceworld_env")  # the unmodified file
    import scienceworld

    instances = json.loads(TASKS.read_text())["instances"]
    gold = {f"scienceworld-{inst['task_name']}-var{inst['variation']}": inst["gold_actions"] for inst in instances}
    if args.data:
        lines = [json.loads(text) for text in (Path(args.data) / "scienceworld" / "test.jsonl").read_text().splitlines()
                 if text.strip()]
    else:
        shortest = {}  # per task, the instance with the shortest gold path (more of them reach AgentBoard's done)
        for inst in instances:
            if len(inst["gold_actions"]) < len(shortest.get(inst["task_name"], inst)["gold_actions"]) or (
                    inst["task_name"] not in shortest):
                shortest[inst["task_name"]] = inst
        lines = label_lines(list(shortest.values()))
    lines = lines[:args.limit]
    env = scienceworld_env.Scienceworld(envStepLimit=ENV_STEP_LIMIT, label_path=str(_label_file([], lines)))
    episodes = []
    started = time.time()
    for index, label in enumerate(env.labels.values()):  # AgentBoard's order: its dict of lines by key
        task_name, variation = label["task_name"], label["var"]
        task_id = f"scienceworld-{_canonical(task_name)}-var{variation}"
        path = gold.get(task_id) or _simulator_gold(env, task_name, variation)
        rng = random.Random(index)
        load_error = _load(env, task_name, variation)
        obs, reset_info = env.reset()  # tasks/scienceworld.py's evaluate_env, as in record()
        concrete = list(reset_info["valid"])
        actions, progress, done_flags, next_gold = [], [], [], 0
        for _ in range(PROGRESS_STEPS):
            draw = rng.random()
            if draw < HELP_SHARE:
                action = "check valid actions"
            elif draw < HELP_SHARE + INVALID_SHARE / 2:
                action = rng.choice(INVALID_ACTIONS)
            elif draw < HELP_SHARE + INVALID_SHARE / 2 + DETOUR_SHARE or next_gold >= len(path):
                action = rng.choice(sorted(set(concrete) - {"check valid actions"}))
            else:
                action, next_gold = path[next_gold], next_gold + 1
            obs, reward, done, info = env.step(action)
            concrete = env.get_action_space(abstract=False)
            actions.append(action)
            progress.append(reward)
            done_flags.append(bool(done))
            if done:
                break
        episodes.append({"task_id": task_id, "load_error": load_error, "actions": actions, "progress": progress,
                         "done": done_flags})
        print(f"{index + 1}/{len(env.labels)} {task_id} progress {progress[-1]:.2f} "
              f"{time.time() - started:.0f}s", flush=True)
    env.env.close() if hasattr(env.env, "close") else env.env._gateway.shutdown()
    commit = (SRC / "COMMIT").read_text().strip() if (SRC / "COMMIT").exists() else "unknown"
    about = (f"AgentBoard's ScienceWorld env (hkust-nlp/AgentBoard {commit}, environment/scienceworld_env.py, "
             f"unmodified) with scienceworld {scienceworld.__version__} (JVM options {JVM_OPTIONS}) given the lines "
             f"below: its progress and done after every action of our gold paths with seeded detours (up to "
             f"{PROGRESS_STEPS} steps), written by tests/reference/record_scienceworld.py --progress")
    body = ",\n".join(json.dumps(episode, separators=(",", ":")) for episode in episodes)
    text = (f'{{"about": {json.dumps(about)},\n"scienceworld": "{scienceworld.__version__}",\n'
            f'"lines": {json.dumps(lines)},\n"episodes": [\n{body}\n]}}\n')
    if args.data is None:
        PROGRESS_OUT.write_text(text)
        print(f"wrote {len(episodes)} episodes to {PROGRESS_OUT}")
    if args.progress_out:
        target = Path(args.progress_out) / "scienceworld.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        print(f"wrote {len(episodes)} episodes to {target}")
    if args.fixture_out:
        target = Path(args.fixture_out) / "scienceworld" / "test.jsonl"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("".join(json.dumps(line) + "\n" for line in lines))
        print(f"wrote {len(lines)} lines to {target}")


def merge(reference: Path, installed: Path) -> None:
    """Store, beside each field of the reference, the installed engine's value where it differs."""
    data = json.loads(reference.read_text())
    other = json.loads(installed.read_text())
    for episode, theirs in zip(data["episodes"], other["episodes"], strict=True):
        assert [s["action"] for s in episode["steps"]] == [s["action"] for s in theirs["steps"]], episode["task_id"]
        for key in ("observation", "actions"):
            episode.pop("installed_" + key, None)
            if episode[key] != theirs[key]:
                episode["installed_" + key] = theirs[key]
        for step, their_step in zip(episode["steps"], theirs["steps"]):
            for key in ("observation", "valid", "valid_before", "score", "actions", "combinations"):
                step.pop("installed_" + key, None)
                if step[key] != their_step[key]:
                    step["installed_" + key] = their_step[key]
    data["installed_scienceworld"] = other["scienceworld"]
    lines = ",\n".join(json.dumps(episode, separators=(",", ":")) for episode in data["episodes"])
    reference.write_text(f'{{"about": {json.dumps(data["about"])},\n"scienceworld": "{data["scienceworld"]}",\n'
                         f'"installed_scienceworld": "{other["scienceworld"]}",\n"episodes": [\n{lines}\n]}}\n')
    print(f"merged {installed} (scienceworld {other['scienceworld']}) into {reference}")


def _options(parser) -> None:
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--limit", type=int, default=None, help="only the first N instances")
    parser.add_argument("--replay", type=Path, default=None, help="take the actions from this recording")
    parser.add_argument("--merge", type=Path, default=None, help="merge this installed-engine recording into --out")
    parser.add_argument("--progress", action="store_true", help="record AgentBoard's progress (see above)")
    parser.add_argument("--data", default=None, help="--progress: the lines of this AgentBoard data folder")
    parser.add_argument("--progress-out", default=None, help="--progress: also write OUT/scienceworld.json")
    parser.add_argument("--fixture-out", default=None, help="--progress: write the lines as a data folder here")


if __name__ == "__main__":
    arguments = main(__doc__, setup,
                     lambda args: record_progress(args) if args.progress else record(args.out, args.limit,
                                                                                       args.replay), _options)
    if arguments.merge:
        merge(arguments.out, arguments.merge)
