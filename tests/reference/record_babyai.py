"""Record AgentBoard's own BabyAI env on our shipped task instances (a reference for tests, never a runtime dependency).

Runs AgentBoard's ``environment/babyai_env.py`` UNMODIFIED, taken from a snapshot of hkust-nlp/AgentBoard, in a
separate virtual environment with AgentBoard's pinned engine packages, and writes each instance's world (object
for object) and a seeded random trajectory (actions, observations, validity, admissible-action sets) to
``tests/reference/babyai_agentboard.json``, which ``tests/test_babyai_words.py`` replays on ``AgentBoard/BabyAI-v0``.

Usage (two stages; the second runs inside the reference venv)::

    python tests/reference/record_babyai.py --setup --git-dir PATH   # venv + AgentBoard source under /tmp
    /tmp/agentboard-venv/bin/python tests/reference/record_babyai.py --record

``--setup`` creates ``/tmp/agentboard-venv`` (gym 0.24.0, minigrid 2.3.0, gymnasium 0.29.1, numpy<2, matplotlib)
and writes AgentBoard's three needed files from a git mirror of hkust-nlp/AgentBoard (``--git-dir``, else
``$AGENTBOARD_GIT_DIR``) to ``/tmp/agentboard-src``. Nothing of AgentBoard's code is copied into this repository.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from agentboard_source import copy_files, import_env_module, main, make_venv  # sibling: this folder is on sys.path

HERE = Path(__file__).resolve().parent
TASKS = HERE.parent.parent / "agentgym_text" / "envs" / "babyai" / "tasks.json"
OUT = HERE / "babyai_agentboard.json"
VENV = Path("/tmp/agentboard-venv")
SRC = Path("/tmp/agentboard-src")
FILES = ("agentboard/environment/babyai_env.py", "agentboard/environment/base_env.py", "agentboard/common/registry.py")
PINS = ("gym==0.24.0", "minigrid==2.3.0", "gymnasium==0.29.1", "numpy<2", "matplotlib")
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
    return {"size": [level.grid.width, level.grid.height], "agent": [*map(int, level.agent_pos),
            int(level.agent_dir)], "mission": level.mission, "cells": cells}


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
        episode = {"task_id": task["task_id"], "goal": env.goal, "world": _world(env.env.unwrapped),
                   "observation": env._get_obs(),
                   "actions": env._get_action_space(), "steps": steps}
        for _ in range(STEPS):
            if env.done:
                break
            errors = sorted(env.error_message)
            if rng.random() < INVALID_SHARE:
                action = rng.choice(errors) if errors and rng.random() < 0.8 else "jump over the wall"
            else:
                action = rng.choice(env._get_action_space())
            obs, _reward, done, info = env.step(action)
            steps.append({"action": action, "observation": obs, "valid": bool(info.get("action_is_valid", True)),
                          "done": bool(done), "actions": env._get_action_space()})
        episodes.append(episode)
    commit = (SRC / "COMMIT").read_text().strip() if (SRC / "COMMIT").exists() else "unknown"
    about = (f"AgentBoard's BabyAI env (hkust-nlp/AgentBoard {commit}, environment/babyai_env.py, unmodified) "
             f"with minigrid {minigrid.__version__}, gymnasium {gymnasium.__version__}: {STEPS} seeded random "
             f"steps per shipped instance, written by tests/reference/record_babyai.py")
    lines = ",\n".join(json.dumps(episode, separators=(",", ":")) for episode in episodes)  # one per line
    OUT.write_text(f'{{"about": {json.dumps(about)},\n"episodes": [\n{lines}\n]}}\n')
    print(f"wrote {len(episodes)} episodes to {OUT}")


if __name__ == "__main__":
    main(__doc__, setup, lambda args: record())
