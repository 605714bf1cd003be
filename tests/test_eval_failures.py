"""Evaluation never fails silently: dead endpoints, refused keys, unknown models, endpoints that die mid-run,
reruns, and CLI input checks, all through the real command line."""

import subprocess
import sys

import pytest

from agentgym_text.eval.store import read_jsonl
from agentgym_text.testing.chat_server import ScriptedChatServer
from tests.support.scripted_policies import mastermind_policy

MASTERMIND = "AgentQuest/Mastermind-v0"


def _cli(*args, timeout=120):
    return subprocess.run(
        [sys.executable, "-m", "agentgym_text.cli", *map(str, args)], capture_output=True, text=True, timeout=timeout
    )


def _eval(base_url, out, *extra, tasks=4, key="k", model="scripted", timeout=120):
    return _cli(
        "eval",
        "--agent",
        "openai",
        "--model",
        model,
        "--base-url",
        base_url,
        "--api-key",
        key,
        "--envs",
        MASTERMIND,
        "--tasks",
        tasks,
        "--num-envs",
        2,
        "--out",
        out,
        "--timeout",
        1,
        "--max-retries",
        1,
        "--no-report",
        "--quiet",
        *extra,
        timeout=timeout,
    )


def test_dead_endpoint_fails_fast_with_exit_2_and_writes_nothing(tmp_path):
    # fast: the CLI gives up at its preflight (15 s is a runaway guard: TimeoutExpired if it plays on)
    result = _eval("http://127.0.0.1:9/v1", tmp_path / "run", timeout=15)
    assert result.returncode == 2
    assert "Cannot reach the endpoint http://127.0.0.1:9/v1" in result.stderr and "Traceback" not in result.stderr
    assert not list(read_jsonl(tmp_path / "run" / "episodes.jsonl"))


def test_wrong_key_and_unknown_model_are_named(tmp_path):
    with ScriptedChatServer(mastermind_policy(), api_key="right", models=["scripted"]) as server:
        wrong_key = _eval(server.base_url, tmp_path / "a", key="wrong")
        unknown = _eval(server.base_url, tmp_path / "b", key="right", model="nope")
    assert wrong_key.returncode == 2 and "refused the API key (HTTP 401)" in wrong_key.stderr
    assert unknown.returncode == 2 and "does not serve the model 'nope'" in unknown.stderr


def test_unknown_model_on_a_server_without_a_model_list(tmp_path):
    def policy(messages):
        return "Action: guess 0123"

    with ScriptedChatServer(policy) as server:
        server.models = None
        ok = _eval(server.base_url, tmp_path / "ok", tasks=1, model="scripted")
        server.models = ["scripted"]  # the chat route now refuses other names, the list route still answers
    assert ok.returncode == 0, ok.stderr


def test_endpoint_dying_mid_run_is_agent_error_then_replayed_after_the_fix(tmp_path):
    out = tmp_path / "run"
    expert = mastermind_policy()
    served = {"n": 0}

    with ScriptedChatServer(lambda m: expert(m), fault_kinds=["http_500"]) as server:

        def policy(messages, _server=server):
            served["n"] += 1
            if served["n"] == 6:  # the server breaks down after a few good replies
                _server.fault_rate = 1.0
            return expert(messages)

        server.policy = policy
        broken = _eval(server.base_url, out)
        episodes = list(read_jsonl(out / "episodes.jsonl"))
        assert broken.returncode == 1, broken.stdout + broken.stderr
        assert "warning: the agent could not be reached" in broken.stderr
        assert "agent_error" in broken.stderr
        assert episodes and all(e["finish_reason"] == "agent_error" for e in episodes if not e["success"])
        failed = [e for e in episodes if e["finish_reason"] == "agent_error"]
        assert failed
        server.fault_rate = 0.0  # fixed
        fixed = _eval(server.base_url, out)
    assert fixed.returncode == 0, fixed.stderr
    assert f"{len(failed)} of them again" in fixed.stdout
    final = list(read_jsonl(out / "episodes.jsonl"))
    assert len(final) == 4 and len({e["key"] for e in final}) == 4
    assert all(e["success"] for e in final)
    steps = list(read_jsonl(out / "trajectories.jsonl"))
    assert len({(s["episode"], s["step"]) for s in steps}) == len(steps)


def test_rerun_flags_and_a_rerun_with_nothing_to_do(tmp_path):
    out = tmp_path / "run"
    with ScriptedChatServer(mastermind_policy()) as server:
        first = _eval(server.base_url, out, tasks=2)
        again = _eval(server.base_url, out, tasks=2)
        rerun = _eval(server.base_url, out, "--rerun", tasks=2)
    assert first.returncode == again.returncode == rerun.returncode == 0
    assert f"all 2 episodes already in {out / 'episodes.jsonl'}; use --rerun to play them again" in again.stdout
    assert "2 episodes played" in rerun.stdout and len(list(read_jsonl(out / "episodes.jsonl"))) == 2


def test_rerun_failed_plays_unsuccessful_episodes_again(tmp_path):
    out = tmp_path / "run"
    first = _cli(
        "eval",
        "--agent",
        "random",
        "--envs",
        MASTERMIND,
        "--tasks",
        3,
        "--max-steps",
        2,
        "--out",
        out,
        "--no-report",
        "--quiet",
    )
    again = _cli(
        "eval",
        "--agent",
        "random",
        "--envs",
        MASTERMIND,
        "--tasks",
        3,
        "--max-steps",
        2,
        "--out",
        out,
        "--no-report",
        "--quiet",
        "--rerun-failed",
    )
    assert first.returncode == 0 and again.returncode == 0
    assert "3 episodes played, 3 of them again" in again.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--tasks", "no-such-task"], "no env of AgentQuest/Mastermind-v0 has: no-such-task"),
        (["--tasks", "mastermind-001,nope,mastermind-002"], "has: nope;"),
        (["--max-steps", "0"], "--max-steps must be at least 1"),
        (["--num-envs", "0"], "--num-envs must be at least 1"),
    ],
)
def test_eval_input_errors_exit_2(tmp_path, args, message):
    result = _cli("eval", "--agent", "expert", "--envs", MASTERMIND, "--out", tmp_path, "--no-report", *args)
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr


def test_play_unknown_task_is_one_line(tmp_path):
    result = _cli("play", MASTERMIND, "--task", "nope")
    assert result.returncode == 2
    assert result.stderr.strip() == (f"error: unknown task 'nope'; `agentgym-text tasks {MASTERMIND}` lists them")


def test_tasks_command_and_version():
    listing = _cli("tasks", MASTERMIND)
    lines = listing.stdout.strip().splitlines()
    assert listing.returncode == 0 and len(lines) == 60
    task_id, difficulty, goal = lines[0].split("\t")
    assert task_id == "mastermind-000" and difficulty in ("easy", "hard") and "secret code" in goal
    version = _cli("--version")
    assert version.returncode == 0 and version.stdout.startswith("agentgym-text ")


def test_demo_run_twice_still_shows_the_report(tmp_path):
    for _ in range(2):
        result = _cli("demo", "--out", tmp_path / "demo", "--tasks", "1", "--quiet", timeout=600)
        assert result.returncode == 0, result.stderr
        assert "report:" in result.stdout
    assert "already in" in result.stdout
