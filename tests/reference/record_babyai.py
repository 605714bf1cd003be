"""Record AgentBoard's own BabyAI env on our shipped task instances (a reference for tests, never a runtime dependency).

Runs AgentBoard's ``environment/babyai_env.py`` UNMODIFIED, taken from a snapshot of hkust-nlp/AgentBoard, in a
separate virtual environment with AgentBoard's pinned engine packages, and writes

- ``tests/reference/babyai_agentboard.json``: each instance's world (object for object) and a seeded random
  trajectory (actions, observations, validity, admissible-action sets), which ``tests/test_babyai_words.py``
  replays on ``AgentBoard/BabyAI-v0``;
- ``tests/reference/babyai_agentboard_progress.json``: annotation lines written here in AgentBoard's format
  (``fixture_line``: patterns built from each instance's mission, with "**" and "*" parts, ``subgoals_k``
  alternatives and lines holding both ``subgoals`` and ``subgoals_1``), fed to AgentBoard's own loader
  (``tasks/babyai.py``'s ``load_annotation`` and ``get_all_environment_configs``, unmodified, with AgentBoard's
  level list from ``eval_configs/main_results_all_tasks.yaml``) and env, and a goal-seeking seeded random
  trajectory of up to 30 steps per instance with AgentBoard's progress and done flag after each action, which
  ``tests/test_babyai_agentboard_data.py`` replays with ``agentboard_data=``.

With ``--data DIR --progress-out OUT`` it instead feeds the lines of ``DIR/babyai/test.jsonl`` (AgentBoard's own
data, never committed) and writes ``OUT/babyai.json`` for ``benchmarks/agentboard_data.py --recorded OUT``.

Usage (two stages; the second runs inside the reference venv)::

    python tests/reference/record_babyai.py --setup --git-dir PATH   # venv + AgentBoard source under /tmp
    /tmp/agentboard-venv/bin/python tests/reference/record_babyai.py --record [--data DIR --progress-out OUT]

``--setup`` creates ``/tmp/agentboard-venv`` (gym 0.24.0, minigrid 2.3.0, gymnasium 0.29.1, numpy<2, matplotlib,
pyyaml) and writes AgentBoard's needed files from a git mirror of hkust-nlp/AgentBoard (``--git-dir``, else
``$AGENTBOARD_GIT_DIR``) to ``/tmp/agentboard-src``. Nothing of AgentBoard's code is copied into this repository.
"""

from __future__ import annotations

import json
import random
import re
import sys
import types
from pathlib import Path

from agentboard_source import copy_files, import_env_module, main, make_venv  # sibling: this folder is on sys.path

HERE = Path(__file__).resolve().parent
TASKS = HERE.parent.parent / "agentgym_text" / "envs" / "babyai" / "tasks.json"
OUT = HERE / "babyai_agentboard.json"
PROGRESS_OUT = HERE / "babyai_agentboard_progress.json"
VENV = Path("/tmp/agentboard-venv")
SRC = Path("/tmp/agentboard-src")
FILES = (
    "agentboard/environment/babyai_env.py",
    "agentboard/environment/base_env.py",
    "agentboard/common/registry.py",
    "agentboard/tasks/babyai.py",
    "eval_configs/main_results_all_tasks.yaml",
)
PINS = ("gym==0.24.0", "minigrid==2.3.0", "gymnasium==0.29.1", "numpy<2", "matplotlib", "pyyaml")
MAX_STEPS = 30
"""AgentBoard's max_num_steps."""
STEPS = 10
INVALID_SHARE = 0.2
"""Share of steps that send an action AgentBoard has a specific error message for (or an unknown one)."""


def setup(git_dir: str) -> None:
    make_venv(VENV, PINS)
    copy_files(git_dir, FILES, SRC)


def _world(level) -> dict:
    """The instance object for object: every non-wall cell's (x, y, type, color, state), the agent, the mission."""
    cells = []
    for y in range(level.grid.height):
        for x in range(level.grid.width):
            obj = level.grid.get(x, y)
            if obj is not None and obj.type != "wall":
                cells.append([x, y, *(int(v) for v in obj.encode())])
    return {
        "size": [level.grid.width, level.grid.height],
        "agent": [*map(int, level.agent_pos), int(level.agent_dir)],
        "mission": level.mission,
        "cells": cells,
    }


def record() -> None:
    babyai_env = import_env_module(SRC, "babyai_env")  # the unmodified file
    import gymnasium
    import minigrid

    tasks = json.loads(TASKS.read_text())["tasks"]
    episodes = []
    for index, task in enumerate(tasks):
        rng = random.Random(index)
        env = babyai_env.BabyAI(game_name=f"BabyAI-{task['level']}-v0", seed=task["seed"])
        steps = []
        episode = {
            "task_id": task["task_id"],
            "goal": env.goal,
            "world": _world(env.env.unwrapped),
            "observation": env._get_obs(),
            "actions": env._get_action_space(),
            "steps": steps,
        }
        for _ in range(STEPS):
            if env.done:
                break
            errors = sorted(env.error_message)
            if rng.random() < INVALID_SHARE:
                action = rng.choice(errors) if errors and rng.random() < 0.8 else "jump over the wall"
            else:
                action = rng.choice(env._get_action_space())
            obs, _reward, done, info = env.step(action)
            steps.append(
                {
                    "action": action,
                    "observation": obs,
                    "valid": bool(info.get("action_is_valid", True)),
                    "done": bool(done),
                    "actions": env._get_action_space(),
                }
            )
        episodes.append(episode)
    commit = (SRC / "COMMIT").read_text().strip() if (SRC / "COMMIT").exists() else "unknown"
    about = (
        f"AgentBoard's BabyAI env (hkust-nlp/AgentBoard {commit}, environment/babyai_env.py, unmodified) "
        f"with minigrid {minigrid.__version__}, gymnasium {gymnasium.__version__}: {STEPS} seeded random "
        f"steps per shipped instance, written by tests/reference/record_babyai.py"
    )
    lines = ",\n".join(json.dumps(episode, separators=(",", ":")) for episode in episodes)  # one per line
    OUT.write_text(f'{{"about": {json.dumps(about)},\n"episodes": [\n{lines}\n]}}\n')
    print(f"wrote {len(episodes)} episodes to {OUT}")


# ---- progress along AgentBoard's annotations -------------------------------------------------------------------

_OBJECT = re.compile(r"\b(?:(red|green|blue|purple|yellow|grey) )?(ball|box|key|door|object)\b")


def _clause_patterns(clause: str, star: str) -> list[str]:
    """Patterns in AgentBoard's style for one clause of a mission ("go to the red ball", "open a door", ...)."""
    found = _OBJECT.search(clause)
    if found is None:
        return ["You are not carrying anything."]
    color, kind = found.group(1) or "", found.group(2)
    thing = f"{color} {kind}" if color else f"{star} {kind}"
    if clause.startswith("open"):
        door = f"{color} closed door" if color else f"closed door {star}"
        return [f" There is a {door} {star}", f" There is a {color or star} open door {star}"]
    if clause.startswith("pick up"):
        held = f"{color} {kind}" if kind != "object" else f"{star}"
        return [f"There is a {thing} {star}", f"You are carrying a {held}."]
    return [f"There is a {thing} {star}", f" There is a {thing} {star} right in front of you 1 steps away."]


def fixture_line(index: int, task: dict) -> dict:
    """An annotation line in AgentBoard's format for one of our instances, written here (not AgentBoard's data)."""
    star = "*" if index % 7 == 3 else "**"
    clauses = re.split(r", then | and | after you ", task["goal"])
    patterns = [pattern for clause in clauses for pattern in _clause_patterns(clause.strip(), star)]
    if index % 6 == 1:
        patterns.append("You are not carrying anything.")  # true at most steps: tests one credit per step
    if index % 9 == 4:
        patterns.append("The task is completed")
    line = {"id": index, "task": "babyai", "goal": task["goal"]}
    other = [
        pattern.replace("There is a", "There is a ** ") if "There is" in pattern else pattern
        for pattern in reversed(patterns)
    ]
    if index % 5 == 2:  # alternatives
        line["subgoals_1"], line["subgoals_2"] = patterns, other
    elif index % 10 == 9:  # both keys, as in some lines of AgentBoard's own file
        line["subgoals"], line["subgoals_1"] = patterns, other
    else:
        line["subgoals"] = patterns
    line["difficulty"] = "hard" if len(patterns) > 3 else "easy"
    line["additional_info"] = {"subtask": f"BabyAI-{task['level']}-v0"}
    return line


def _stub(name: str, **attributes) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    module.__path__ = []
    sys.modules[name] = module
    return module


def agentboard_env_configs(label_path: Path) -> list[dict]:
    """AgentBoard's own loader (``tasks/babyai.py``, unmodified) on ``label_path``: its env configs in order.

    The task module's imports of the LLM, agent and logging machinery are stubbed (only its two loader methods
    run, on a stand-in for the task object holding the YAML config's babyai fields)."""
    import yaml

    _stub("llm", load_llm=None)
    _stub("agents", load_agent=None)
    sys.modules["environment"].load_environment = None  # the package stub import_env_module made
    _stub("utils")
    _stub("utils.logging")
    _stub("utils.logging.logger", TaskLogger=None)
    _stub("utils.logging.agent_logger", AgentLogger=lambda name: None)
    tasks_package = _stub("tasks")
    tasks_package.__path__ = [str(SRC / "agentboard" / "tasks")]
    _stub("tasks.base_task", BaseTask=object)
    import importlib

    evaluator = importlib.import_module("tasks.babyai").EvalBabyai
    config = yaml.safe_load((SRC / "eval_configs" / "main_results_all_tasks.yaml").read_text())["env"]["babyai"]
    task = types.SimpleNamespace(
        seed=config["seed"],
        env_num_per_task=config["env_num_per_task"],
        game_level=config["game_level"],
        label_path=str(label_path),
    )
    task.load_annotation = lambda path: evaluator.load_annotation(task, path)
    return evaluator.get_all_environment_configs(task)


def _goal_objects(goal: str) -> list[tuple[str, str]]:
    return [(color, kind) for color, kind in _OBJECT.findall(goal) if kind != "object"]


def _choose(rng: random.Random, env, goal: str) -> str:
    """A goal-seeking random action: often one naming a goal object, else a high-level or any listed action, with
    some refused actions and "check" requests."""
    actions = [action for action in env._get_action_space() if "check" not in action]
    draw = rng.random()
    if draw < 0.06:
        errors = sorted(env.error_message)
        return rng.choice(errors) if errors else "jump over the wall"
    if draw < 0.09:
        return "check valid actions"
    objects = _goal_objects(goal)
    aimed = [action for action in actions if any(color in action and kind in action for color, kind in objects)]
    if aimed and draw < 0.55:
        return rng.choice(aimed)
    high = [action for action in actions if action.startswith(("go ", "pickup", "toggle and"))]
    if high and draw < 0.8:
        return rng.choice(high)
    return rng.choice(actions)


def record_progress(label_path: Path, out: Path, committed: bool) -> None:
    """Play each instance of AgentBoard's loader output on ``label_path`` and write AgentBoard's progress."""
    babyai_env = import_env_module(SRC, "babyai_env")  # the unmodified file
    tasks = json.loads(TASKS.read_text())["tasks"]
    configs = agentboard_env_configs(label_path)
    lines = [json.loads(text) for text in label_path.read_text().splitlines() if text.strip()]
    assert len(configs) == len(tasks) == len(lines)
    episodes = []
    for index, (task, config) in enumerate(zip(tasks, configs)):
        env = babyai_env.BabyAI.from_config(config)
        assert (env.game_name, env.seed) == (f"BabyAI-{task['level']}-v0", task["seed"]), (env.game_name, task)
        rng = random.Random(1000 + index)
        actions, progress, done = [], [], []
        for _ in range(MAX_STEPS):
            action = _choose(rng, env, env.goal)
            _obs, reward, finished, _info = env.step(action)
            actions.append(action)
            progress.append(float(reward))
            done.append(bool(finished))
            if finished:
                break
        episode = {"task_id": task["task_id"], "actions": actions, "progress": progress}
        if committed:
            episode = {"task_id": task["task_id"], "annotation": lines[index], **episode, "done": done}
        episodes.append(episode)
    commit = (SRC / "COMMIT").read_text().strip() if (SRC / "COMMIT").exists() else "unknown"
    about = (
        f"AgentBoard's BabyAI loader and env (hkust-nlp/AgentBoard {commit}, tasks/babyai.py and "
        f"environment/babyai_env.py, unmodified): annotation lines written by tests/reference/record_babyai.py's "
        f"fixture_line, goal-seeking seeded random actions (at most {MAX_STEPS}), AgentBoard's progress and done "
        f"flag after each"
    )
    body = ",\n".join(json.dumps(episode, separators=(",", ":")) for episode in episodes)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(f'{{"about": {json.dumps(about)},\n"episodes": [\n{body}\n]}}\n')
    steps = sum(len(episode["actions"]) for episode in episodes)
    print(f"wrote {len(episodes)} episodes, {steps} steps, to {out}")


def record_all(args) -> None:
    if args.data is not None:
        if args.progress_out is None:
            raise SystemExit("--data needs --progress-out OUT (the folder for babyai.json)")
        record_progress(Path(args.data) / "babyai" / "test.jsonl", Path(args.progress_out) / "babyai.json", False)
        return
    record()
    tasks = json.loads(TASKS.read_text())["tasks"]
    label_path = Path("/tmp/agentboard-babyai-fixture/babyai/test.jsonl")
    label_path.parent.mkdir(parents=True, exist_ok=True)
    label_path.write_text("".join(json.dumps(fixture_line(index, task)) + "\n" for index, task in enumerate(tasks)))
    record_progress(label_path, PROGRESS_OUT, True)


def _options(parser) -> None:
    parser.add_argument("--data", default=None, help="AgentBoard's data folder: record its babyai/test.jsonl instead")
    parser.add_argument("--progress-out", default=None, help="with --data: the folder to write babyai.json to")


if __name__ == "__main__":
    main(__doc__, setup, record_all, _options)
