"""Record AgentBoard's own ScienceWorld env on our shipped task instances (a reference for tests, never a runtime
dependency).

Runs AgentBoard's ``environment/scienceworld_env.py`` UNMODIFIED, taken from a snapshot of hkust-nlp/AgentBoard,
in a separate virtual environment with the scienceworld release AgentBoard ran on, and drives it the way
AgentBoard's ``tasks/scienceworld.py`` does (load with its simplification string, reset, initial observation =
reset text + "\\n" + inventory, ``step`` per action, validity = the action is in ``get_action_space(abstract=False)``
after the step). On each shipped instance it takes seeded random admissible actions plus a share of invalid ones
and the help action, and writes the trajectories (actions, observations, AgentBoard's validity, the concrete
action sets and the help answer) to ``tests/reference/scienceworld_agentboard.json``, which
``tests/test_scienceworld_words.py`` replays on ``AgentBoard/ScienceWorld-v0``.

AgentBoard's requirements.txt does not pin scienceworld; 1.1.3 (2023-01-19) was the newest release from before
AgentBoard's first release (2024-01) to its last commit (2024-04); 1.2.x came in 2024-07. So the reference venv
has scienceworld 1.1.3. Our package runs the installed one (1.2.3 here); ``--replay`` with the main venv's python
plays the same actions on it and ``--merge`` stores, beside each observation and action set, the installed
engine's where it differs (``installed_observation``, ``installed_actions``), so that the test can tell which
differences the engine version makes.

Usage (two stages; the second runs inside the reference venv)::

    python tests/reference/record_scienceworld.py --setup
    /tmp/agentboard-scienceworld-venv/bin/python tests/reference/record_scienceworld.py --record
    # the same actions on the installed engine, merged in as the "installed_*" fields:
    python tests/reference/record_scienceworld.py --record --replay tests/reference/scienceworld_agentboard.json \
        --out /tmp/scienceworld_agentboard_installed.json
    python tests/reference/record_scienceworld.py --merge /tmp/scienceworld_agentboard_installed.json

Both stages need Java. The JVM runs with the options our engine uses (``JVM_OPTIONS``: identity hashes pinned),
without which the simulator's hashed collections, and so its object order, differ from one JVM to the next.
The electrical tasks (power-component, conductivity) cannot load with AgentBoard's ``noElectricalAction`` (both
releases raise ValueError), so they are loaded without it, as our env does; ``load_error`` records the refusal.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
TASKS = HERE.parent.parent / "agentgym_text" / "envs" / "scienceworld" / "task_set.json"
OUT = HERE / "scienceworld_agentboard.json"
VENV = Path("/tmp/agentboard-scienceworld-venv")
SRC = Path("/tmp/agentboard-scienceworld-src")
GIT_DIR = "/work/.mirror/hkust-nlp+AgentBoard/repo"
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
    subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    subprocess.run([str(VENV / "bin" / "pip"), "install", "-q", *PINS], check=True)
    commit = subprocess.run(["git", f"--git-dir={git_dir}", "rev-parse", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    for name in FILES:
        text = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"HEAD:{name}"], check=True,
                              capture_output=True, text=True).stdout
        target = SRC / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    (SRC / "COMMIT").write_text(commit + "\n")


def _load_agentboard():
    """Import scienceworld_env without running environment/__init__.py (which imports every AgentBoard env)."""
    root = SRC / "agentboard"
    for package in ("environment", "common"):
        module = types.ModuleType(package)
        module.__path__ = [str(root / package)]
        sys.modules[package] = module
    import environment.scienceworld_env as scienceworld_env  # noqa: E402  (the unmodified file)

    return scienceworld_env


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


def _diff(before: list[str], after: list[str]) -> dict:
    old, new = set(before), set(after)
    return {"added": sorted(new - old), "removed": sorted(old - new)}


def record(out: Path, limit: int | None, replay: Path | None = None) -> None:
    os.environ["JAVA_TOOL_OPTIONS"] = " ".join(filter(None, (os.environ.get("JAVA_TOOL_OPTIONS"), JVM_OPTIONS)))
    scienceworld_env = _load_agentboard()
    import scienceworld

    instances = json.loads(TASKS.read_text())["instances"][:limit]
    played = json.loads(replay.read_text())["episodes"] if replay else None
    env = scienceworld_env.Scienceworld(envStepLimit=ENV_STEP_LIMIT, label_path=str(_label_file(instances)))
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
        obs, _ = env.reset()
        observation = obs + f"\n{env.inventory()}"
        concrete = env.get_action_space(abstract=False)
        help_text = env.step("check valid actions")[0]
        steps = []
        episode = {"task_id": f"scienceworld-{inst['task_name']}-var{inst['variation']}", "load_error": load_error,
                   "observation": observation, "help": help_text, "actions": sorted(set(concrete)), "steps": steps}
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
                          "score": None if info is None else info["score"], "actions": _diff(concrete, after)})
            concrete = after
            if done and played is None:
                break
        episodes.append(episode)
        print(f"{index + 1}/{len(instances)} {episode['task_id']} {time.time() - started:.0f}s", flush=True)
    env.env.close() if hasattr(env.env, "close") else env.env._gateway.shutdown()
    commit = (SRC / "COMMIT").read_text().strip() if (SRC / "COMMIT").exists() else "unknown"
    about = (f"AgentBoard's ScienceWorld env (hkust-nlp/AgentBoard {commit}, environment/scienceworld_env.py, "
             f"unmodified) with scienceworld {scienceworld.__version__} (JVM options {JVM_OPTIONS}): up to {STEPS} "
             f"seeded random steps per shipped instance, written by tests/reference/record_scienceworld.py")
    lines = ",\n".join(json.dumps(episode, separators=(",", ":")) for episode in episodes)  # one per line
    out.write_text(f'{{"about": {json.dumps(about)},\n"scienceworld": "{scienceworld.__version__}",\n'
                   f'"episodes": [\n{lines}\n]}}\n')
    print(f"wrote {len(episodes)} episodes to {out}")


def merge(installed: Path) -> None:
    """Store the installed engine's observations and action sets where they differ from the reference's."""
    data = json.loads(OUT.read_text())
    other = json.loads(installed.read_text())
    for episode, theirs in zip(data["episodes"], other["episodes"], strict=True):
        assert [s["action"] for s in episode["steps"]] == [s["action"] for s in theirs["steps"]], episode["task_id"]
        ours_set, their_set = set(episode["actions"]), set(theirs["actions"])
        for key in ("observation", "help"):
            if episode[key] != theirs[key]:
                episode["installed_" + key] = theirs[key]
        if ours_set != their_set:
            episode["installed_actions"] = _diff(sorted(ours_set), sorted(their_set))
        for step, their_step in zip(episode["steps"], theirs["steps"]):
            for name, change in (("ours", step["actions"]), ("theirs", their_step["actions"])):
                target = ours_set if name == "ours" else their_set
                target -= set(change["removed"])
                target |= set(change["added"])
            for key in ("observation", "valid", "valid_before"):
                step.pop("installed_" + key, None)
                if step[key] != their_step[key]:
                    step["installed_" + key] = their_step[key]
            step.pop("installed_actions", None)
            if ours_set != their_set:
                step["installed_actions"] = _diff(sorted(ours_set), sorted(their_set))
    data["installed_scienceworld"] = other["scienceworld"]
    lines = ",\n".join(json.dumps(episode, separators=(",", ":")) for episode in data["episodes"])
    head = {k: v for k, v in data.items() if k != "episodes"}
    OUT.write_text(json.dumps(head, indent=0)[:-2] + ',\n"episodes": [\n' + lines + "\n]}\n")
    print(f"merged {installed} (scienceworld {other['scienceworld']}) into {OUT}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--setup", action="store_true")
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--git-dir", default=GIT_DIR)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--limit", type=int, default=None, help="only the first N instances")
    parser.add_argument("--replay", type=Path, default=None, help="take the actions from this recording")
    parser.add_argument("--merge", type=Path, default=None, help="merge this installed-engine recording into --out")
    args = parser.parse_args()
    if args.setup:
        setup(args.git_dir)
    if args.record:
        record(args.out, args.limit, args.replay)
    if args.merge:
        merge(args.merge)
