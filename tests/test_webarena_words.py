"""AgentBoard/WebArena-v0 against AgentBoard's own browser env: its progress rate replayed with ``agentboard_fixes=False``.

``tests/reference/webarena_agentboard.json`` was written by ``tests/reference/record_webarena.py``, which runs
AgentBoard's unmodified ``browser_env`` (Chromium, accessibility tree, its progress evaluators) on our sites with a
spread of our shipped tasks as WebArena configs; the steps are the tasks' gold steps (elements by role and name) with
seeded detours. Here the same configs are AgentBoard's annotation lines (``agentboard_data=``), our env plays the
same steps on freshly served sites, and its progress must equal AgentBoard's after every recorded step.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("playwright")
from agentgym_text.envs.webarena.browser import find_chromium  # noqa: E402

try:
    find_chromium()
except ImportError as error:  # MissingDependency
    pytest.skip(str(error), allow_module_level=True)

from agentgym_text.envs.webarena.env import WebArenaEnv  # noqa: E402
from agentgym_text.envs.webarena.expert import resolve_step  # noqa: E402
from agentgym_text.envs.webarena.sites import SiteServer  # noqa: E402
from agentgym_text.envs.webarena.tasks import TASKS_FILE  # noqa: E402
from tests.support.agentboard_fixtures import webarena_line, write_task_file  # noqa: E402

REFERENCE = Path(__file__).resolve().parent / "reference" / "webarena_agentboard.json"
EPISODES = json.loads(REFERENCE.read_text())["episodes"]


def annotation_lines() -> list[dict]:
    """Our 245 shipped configs as AgentBoard's lines, as the recorder gave them to AgentBoard's env."""
    lines = []
    for config in json.loads(TASKS_FILE.read_text()):
        line = webarena_line({**config, "storage_state": None, "require_login": False}, "easy")
        lines.append(line)
    return lines


def test_reference_covers_each_kind_of_progress():
    progress = [step["progress"] for episode in EPISODES for step in episode["steps"] if step["found"]]
    assert len(EPISODES) >= 15 and len(progress) >= 40
    assert 0.0 in progress and 1.0 in progress and any(0 < p < 1 for p in progress)
    # a step whose element AgentBoard's observation did not show (after scrolling) ends its recorded episode
    assert sum(not step["found"] for episode in EPISODES for step in episode["steps"]) <= 2


def test_fixes_off_progress_equals_agentboards_on_every_recorded_step(tmp_path):
    folder = write_task_file(tmp_path, "webarena", annotation_lines())
    server = SiteServer()
    sites = server.start()
    env = WebArenaEnv(sites=sites, agentboard_data=str(folder), agentboard_fixes=False)
    ours, theirs = [], []
    try:
        for episode in EPISODES:
            server.reset()
            env.reset(options={"task_id": episode["task_id"]})
            for recorded in episode["steps"]:
                if not recorded["found"]:
                    break
                resolved = resolve_step(recorded["step"], env._state, env._shown, env._urls)
                assert resolved is not None and resolved[1], (episode["task_id"], recorded["step"])
                _, _, terminated, _, info = env.step(resolved[0])
                ours.append((episode["task_id"], info["progress_rate"]))
                theirs.append((episode["task_id"], recorded["progress"]))
                if terminated:
                    break
    finally:
        env.close()
        server.close()
    assert ours == [(task, pytest.approx(progress, abs=1e-12)) for task, progress in theirs]
