"""The evaluation runner with the expert and random agents: files, determinism, resume, step limits, CLI."""

import json
import subprocess
import sys

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401  (registers the ids)
from agentgym_text.agents import make_agent
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.eval import EvalConfig, run_eval
from agentgym_text.eval.plan import resolve_env_ids, select_tasks
from agentgym_text.eval.store import read_jsonl

MASTERMIND = "AgentQuest/Mastermind-v0"
SUDOKU = "AgentQuest/Sudoku-v0"


def _expert_guesses():
    tasks = gym.make(MASTERMIND).unwrapped.tasks
    return {task.task_id: task.params["expert_guesses"] for task in tasks}


def _episodes(folder):
    rows = list(read_jsonl(folder / "episodes.jsonl"))
    for row in rows:
        row.pop("wall_s")
    return sorted(rows, key=lambda row: row["key"])


def test_expert_run_writes_one_row_per_episode_and_per_step(tmp_path):
    result = run_eval(
        make_agent("expert"), EvalConfig(envs=MASTERMIND, tasks="6", num_envs=3, progress_bar=False), tmp_path
    )
    assert result.complete and result.finished == 6
    episodes = _episodes(tmp_path)
    guesses = _expert_guesses()
    assert [e["task_id"] for e in episodes] == [f"mastermind-00{i}" for i in range(6)]
    for episode in episodes:
        assert episode["success"] and episode["finish_reason"] == "success" and episode["progress_rate"] == 1.0
        assert episode["steps"] == guesses[episode["task_id"]] == episode["valid_steps"]
        assert episode["score_change_record"][-1] == [episode["steps"] - 1, 1.0]
        assert episode["goal"] and episode["initial_observation"].startswith("I have chosen")
    steps = list(read_jsonl(tmp_path / "trajectories.jsonl"))
    assert len(steps) == sum(e["steps"] for e in episodes)
    assert len({(s["episode"], s["step"]) for s in steps}) == len(steps)
    last = [s for s in steps if s["episode"] == episodes[0]["key"]][-1]
    assert last["terminated"] and last["observation"].endswith("You cracked the code!")
    settings = json.loads((tmp_path / "run.json").read_text())
    assert settings["agent"] == "expert" and settings["env_ids"] == [MASTERMIND]


def test_results_do_not_depend_on_the_number_of_concurrent_envs(tmp_path):
    config = dict(envs=SUDOKU, tasks="7", max_steps=12, progress_bar=False)
    run_eval(make_agent("random", seed=4), EvalConfig(num_envs=1, **config), tmp_path / "one")
    run_eval(make_agent("random", seed=4), EvalConfig(num_envs=3, **config), tmp_path / "many")
    one, many = _episodes(tmp_path / "one"), _episodes(tmp_path / "many")
    assert len(one) == 7 and one == many
    assert len({e["progress_rate"] for e in one}) > 1  # the random agent really varies


def test_async_vector_mode_gives_the_same_results(tmp_path):
    config = dict(envs=SUDOKU, tasks="4", max_steps=8, progress_bar=False, num_envs=2)
    run_eval(make_agent("random"), EvalConfig(vector_mode="sync", **config), tmp_path / "sync")
    run_eval(make_agent("random"), EvalConfig(vector_mode="async", **config), tmp_path / "async")
    assert _episodes(tmp_path / "sync") == _episodes(tmp_path / "async")


def test_step_limit_ends_episodes_with_step_limit(tmp_path):
    run_eval(
        make_agent("random"), EvalConfig(envs=SUDOKU, tasks="3", max_steps=3, num_envs=2, progress_bar=False), tmp_path
    )
    episodes = _episodes(tmp_path)
    assert [e["finish_reason"] for e in episodes] == ["step_limit"] * 3
    assert [e["steps"] for e in episodes] == [3] * 3 and all(e["budget"] == 3 for e in episodes)
    assert all(len(e["progress"]) == 3 and len(e["repetition"]) == 3 for e in episodes)


def test_rerun_skips_finished_episodes_and_adds_new_ones(tmp_path):
    first = run_eval(make_agent("expert"), EvalConfig(envs=MASTERMIND, tasks="3", progress_bar=False), tmp_path)
    second = run_eval(
        make_agent("expert"), EvalConfig(envs=MASTERMIND, tasks="5", num_envs=2, progress_bar=False), tmp_path
    )
    assert (first.finished, second.skipped, second.finished, second.planned) == (3, 3, 2, 5)
    keys = [e["key"] for e in read_jsonl(tmp_path / "episodes.jsonl")]
    assert len(keys) == len(set(keys)) == 5


def test_resume_repairs_files_left_by_a_crash_mid_episode(tmp_path):
    run_eval(make_agent("expert"), EvalConfig(envs=MASTERMIND, tasks="2", progress_bar=False), tmp_path)
    lines = (tmp_path / "episodes.jsonl").read_text().splitlines(keepends=True)
    # crash: the second episode's row was cut mid-write, and a third episode had written two steps
    (tmp_path / "episodes.jsonl").write_text(lines[0] + lines[1][:40])
    with (tmp_path / "trajectories.jsonl").open("a") as handle:
        for step in (1, 2):
            handle.write(json.dumps({"episode": f"{MASTERMIND}::mastermind-002::0", "step": step}) + "\n")
    result = run_eval(make_agent("expert"), EvalConfig(envs=MASTERMIND, tasks="3", progress_bar=False), tmp_path)
    assert (result.skipped, result.finished) == (1, 2)
    episodes = _episodes(tmp_path)
    assert [e["task_id"] for e in episodes] == ["mastermind-000", "mastermind-001", "mastermind-002"]
    steps = list(read_jsonl(tmp_path / "trajectories.jsonl"))
    assert len(steps) == sum(e["steps"] for e in episodes)
    assert len({(s["episode"], s["step"]) for s in steps}) == len(steps)


def test_resuming_with_another_agent_is_refused(tmp_path):
    run_eval(make_agent("expert"), EvalConfig(envs=MASTERMIND, tasks="1", progress_bar=False), tmp_path)
    with pytest.raises(ValueError, match="agent"):
        run_eval(make_agent("random"), EvalConfig(envs=MASTERMIND, tasks="1", progress_bar=False), tmp_path)


def test_task_selection_and_env_resolution():
    tasks = [TaskSpec(f"t{i}", difficulty="hard" if i >= 5 else "easy") for i in range(8)]
    assert [t.task_id for t in select_tasks(tasks, "quick")] == ["t0", "t1", "t5", "t6"]
    assert [t.task_id for t in select_tasks(tasks, "t7,t2")] == ["t7", "t2"]
    assert [t.task_id for t in select_tasks(tasks, "1:3")] == ["t1", "t2"]
    assert len(select_tasks(tasks, "all")) == 8
    assert [e.env_id for e in resolve_env_ids(f"{SUDOKU},{MASTERMIND}")] == [SUDOKU, MASTERMIND]
    assert MASTERMIND in [e.env_id for e in resolve_env_ids("all")]
    with pytest.raises(ValueError, match="unknown env id"):
        resolve_env_ids("Nope/Missing-v0")


def test_cli_eval_writes_results_metrics_and_report(tmp_path):
    out = tmp_path / "run"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "agentgym_text.cli",
            "eval",
            "--agent",
            "expert",
            "--envs",
            MASTERMIND,
            "--tasks",
            "2",
            "--max-steps",
            "30",
            "--num-envs",
            "1",
            "--out",
            str(out),
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "success 100.0%" in result.stdout and (out / "report.html").exists()
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["envs"][MASTERMIND]["episodes"] == 2
    report = subprocess.run(
        [sys.executable, "-m", "agentgym_text.cli", "report", str(out), "--out", str(tmp_path / "r.html")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert report.returncode == 0 and (tmp_path / "r.html").stat().st_size > 10_000


def test_wandb_logging_is_optional(tmp_path, monkeypatch, capsys):
    from agentgym_text.eval.wandb_log import log_to_wandb

    run_eval(make_agent("expert"), EvalConfig(envs=SUDOKU, tasks="1", max_steps=2, progress_bar=False), tmp_path)
    monkeypatch.setitem(sys.modules, "wandb", None)  # as if not installed
    assert log_to_wandb(tmp_path) is False
    assert "wandb is not installed" in capsys.readouterr().out


def test_repeated_actions_can_end_episodes_with_finish_reason_repetition(tmp_path):
    from agentgym_text.agents.base import Agent, Decision

    class Stubborn(Agent):
        name = "stubborn"

        def act(self, turns):
            return [Decision(action="put 1 at row 1 column 1") for _ in turns]

    config = EvalConfig(envs=SUDOKU, tasks="2", max_steps=20, stop_after_repeats=3, progress_bar=False)
    run_eval(Stubborn(), config, tmp_path)
    episodes = _episodes(tmp_path)
    assert [e["finish_reason"] for e in episodes] == ["repetition"] * 2
    assert [e["steps"] for e in episodes] == [4, 4]  # one new action, then three repeats
    assert episodes[0]["repetition"] == [0.0, 1.0, 1.0, 1.0]
