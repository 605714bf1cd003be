"""The runner plays every planned episode: several slots per id (worker processes for families not declared
thread-safe), a worker killed mid-episode (engine_error, exit 1, replayed once by the next run), and stdout intact
after concurrent slots."""

import json
import os
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import pytest

from agentgym_text.eval import EvalConfig, run_eval
from agentgym_text.eval.store import read_jsonl
from tests.conftest import ALL_ENV_IDS, HEAVY_ENV_IDS, USABLE_ENV_IDS, env_param
from tests.support.dying_worker import ExpertKillingOneWorker

MASTERMIND = "AgentQuest/Mastermind-v0"
TASKS_PER_ID = 8
SLOTS = 4

_SCRIPT = """
import json, sys
from agentgym_text.agents import make_agent
from agentgym_text.eval import EvalConfig, run_eval
env_ids, out = json.loads(sys.argv[1]), sys.argv[2]
result = run_eval(make_agent("expert"), EvalConfig(envs=env_ids, tasks="{tasks}", num_envs={slots},
                                                   progress_bar=False), out)
print("planned", result.planned, "unplayed", len(result.unplayed), "complete", result.complete)
print("stdout still works")
"""


def _run_slots(env_ids: list[str], out: Path) -> subprocess.CompletedProcess:
    script = _SCRIPT.format(tasks=TASKS_PER_ID, slots=SLOTS)
    return subprocess.run(
        [sys.executable, "-c", script, json.dumps(env_ids), str(out)],
        capture_output=True,
        text=True,
        timeout=1800,
        cwd=Path(__file__).resolve().parents[1],
    )


def _check_every_episode_played(env_ids: list[str], out: Path, result: subprocess.CompletedProcess) -> None:
    assert result.returncode == 0, result.stderr[-3000:]
    assert "stdout still works" in result.stdout, (result.stdout, result.stderr[-3000:])
    rows = list(read_jsonl(out / "episodes.jsonl"))
    for env_id in env_ids:
        env = gym.make(env_id)
        expected = min(TASKS_PER_ID, len(env.unwrapped.task_ids))
        env.close()
        mine = [row for row in rows if row["env_id"] == env_id]
        assert len(mine) == len({row["key"] for row in mine}) == expected, env_id
        lost = [row["task_id"] for row in mine if row["finish_reason"] == "engine_error"]
        assert not lost, f"{env_id}: engine_error in {lost}"
    assert json.loads((out / "run.json").read_text())["unplayed"] == []


def test_four_slots_play_every_planned_episode_of_every_cheap_id(tmp_path):
    env_ids = [env_id for env_id in USABLE_ENV_IDS if env_id not in HEAVY_ENV_IDS]
    assert len(env_ids) >= 10
    _check_every_episode_played(env_ids, tmp_path, _run_slots(env_ids, tmp_path))


@pytest.mark.slow
@pytest.mark.parametrize("env_id", [env_param(env_id) for env_id in ALL_ENV_IDS if env_id in HEAVY_ENV_IDS])
def test_four_slots_play_every_planned_episode_of_a_heavy_id(env_id, tmp_path):
    _check_every_episode_played([env_id], tmp_path, _run_slots([env_id], tmp_path))


def test_a_killed_worker_is_engine_error_then_replayed_once(tmp_path):
    marker = tmp_path / "killed"
    victim = "mastermind-002"
    config = EvalConfig(envs=MASTERMIND, tasks="6", num_envs=2, vector_mode="async", progress_bar=False)
    first = run_eval(ExpertKillingOneWorker(victim, marker), config, tmp_path / "run")
    assert marker.exists() and first.engine_errors == 1 and not first.complete  # the CLI exits 1 on this
    rows = {row["task_id"]: row for row in read_jsonl(tmp_path / "run" / "episodes.jsonl")}
    assert len(rows) == 6 and rows[victim]["finish_reason"] == "engine_error"
    assert all(row["success"] for task, row in rows.items() if task != victim)  # the other slot went on

    again = run_eval(ExpertKillingOneWorker(victim, marker), config, tmp_path / "run")
    assert again.complete and again.finished == 1 and again.replayed == 1
    rows = list(read_jsonl(tmp_path / "run" / "episodes.jsonl"))
    assert sorted(row["task_id"] for row in rows) == [f"mastermind-00{i}" for i in range(6)]
    assert all(row["success"] for row in rows)
    steps = list(read_jsonl(tmp_path / "run" / "trajectories.jsonl"))
    assert len({(s["episode"], s["step"]) for s in steps}) == len(steps) == sum(row["steps"] for row in rows)


def test_cli_exits_1_and_names_what_was_not_played(tmp_path):
    """An env whose engine cannot start: its planned episodes are named on the console and in run.json."""
    env = dict(os.environ, AGENTGYM_TEXT_JERICHO_DIR=str(tmp_path / "no-games-here"))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "agentgym_text.cli",
            "eval",
            "--agent",
            "expert",
            "--envs",
            f"{MASTERMIND},AgentBoard/Jericho-v0",
            "--tasks",
            "2",
            "--out",
            str(tmp_path / "run"),
            "--no-report",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert result.returncode == 1, result.stderr
    assert "AgentBoard/Jericho-v0" in result.stderr and "not played" in result.stderr
    unplayed = json.loads((tmp_path / "run" / "run.json").read_text())["unplayed"]
    assert unplayed and all(row["env_id"] == "AgentBoard/Jericho-v0" and row["reason"] for row in unplayed)
    assert "PARTIAL" in result.stdout or "success" not in result.stdout
