"""`agentgym-text demo` over every registered env (slow: it builds every family's engine)."""

import json
import subprocess
import sys
from collections import Counter

import gymnasium as gym
import pytest

import agentgym_text


@pytest.mark.slow
@pytest.mark.timeout(1800)  # as the subprocess's own bound: about 4 minutes alone, over 10 on a loaded machine
def test_demo_runs_expert_and_random_on_every_env_and_writes_the_report(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "agentgym_text.cli", "demo", "--out", str(tmp_path), "--quiet"],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"report: {(tmp_path / 'report.html').resolve()}" in result.stdout
    expert = json.loads((tmp_path / "expert" / "metrics.json").read_text())
    random = json.loads((tmp_path / "random" / "metrics.json").read_text())
    ids = {entry.env_id for entry in agentgym_text.list_envs()}
    assert set(expert["envs"]) == ids == set(random["envs"]), result.stderr[-3000:]
    # The expert solves every task whose gold path fits the step budget; a path that does not fit (ScienceWorld keeps
    # AgentBoard's 30 steps where a gold path is longer) ends at the budget, and the demo's summary counts it.
    episodes = [json.loads(line) for line in (tmp_path / "expert" / "episodes.jsonl").read_text().splitlines()]
    short = [row for row in episodes if not row["success"]]
    assert all(row["finish_reason"] == "step_limit" for row in short), short
    for row in short:
        with gym.make(row["env_id"]) as env:
            tasks = env.unwrapped.tasks
            gold = tasks[tasks.index_of(row["task_id"])].params.get("gold_actions", ())
        assert len(gold) > row["budget"], row["task_id"]
    if short:
        counts = Counter(row["env_id"] for row in short)
        each = ", ".join(f"{env_id}: {count}" for env_id, count in sorted(counts.items()))
        assert f"{len(short)} of {len(episodes)} episodes ran out of their step budget ({each})" in result.stdout
    assert len(short) <= 4, short
