"""`agentgym-text demo` over every registered env (slow: it builds every family's engine)."""

import json
import subprocess
import sys

import pytest

import agentgym_text


@pytest.mark.slow
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
    for env_id, metrics in expert["envs"].items():
        assert metrics["success_rate"] == 1.0, env_id
