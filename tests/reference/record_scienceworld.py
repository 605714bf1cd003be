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


def _label_file(instances: list[dict]) -> Path:
    """Our instances as AgentBoard's label lines (data/scienceworld/test.jsonl's fields)."""
    path = SRC / "labels.jsonl"
    with path.open("w") as out:
        for inst in instances:
            out.write(json.dumps({"goal": inst["goal"], "subgoals": [pattern for _, pattern in inst["subgoals"]],
                                  "difficulty": "easy",
                                  "additional_info": {"env_name": inst["task_name"], "var": inst["variation"]}})
                      + "\n")
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


if __name__ == "__main__":
    arguments = main(__doc__, setup, lambda args: record(args.out, args.limit, args.replay), _options)
    if arguments.merge:
        merge(arguments.out, arguments.merge)
