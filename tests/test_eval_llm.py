"""The OpenAI-compatible agent end to end: the real ``openai`` client against a scripted HTTP server on
127.0.0.1, with and without injected faults, killed midway and resumed."""

import os
import signal
import subprocess
import sys
import time

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401
from agentgym_text.agents.llm import LLMAgent
from agentgym_text.agents.llm_config import LLMConfig
from agentgym_text.eval import EvalConfig, run_eval
from agentgym_text.eval.metrics import summarize
from agentgym_text.eval.store import read_jsonl
from agentgym_text.testing.chat_server import ScriptedChatServer
from tests.support.scripted_policies import mastermind_policy

MASTERMIND = "AgentQuest/Mastermind-v0"


@pytest.fixture(scope="module")
def expert_guesses():
    return {task.task_id: task.params["expert_guesses"] for task in gym.make(MASTERMIND).unwrapped.tasks}


def _agent(server, **kwargs):
    config = LLMConfig(model="scripted-mastermind", base_url=server.base_url, api_key="test-key", **kwargs)
    return LLMAgent(config, backoff_s=0.01, max_backoff_s=0.05)


def _check_unique(folder):
    episodes = list(read_jsonl(folder / "episodes.jsonl"))
    steps = list(read_jsonl(folder / "trajectories.jsonl"))
    assert len({e["key"] for e in episodes}) == len(episodes)
    assert len({(s["episode"], s["step"]) for s in steps}) == len(steps)
    for episode in episodes:
        mine = sorted(s["step"] for s in steps if s["episode"] == episode["key"])
        assert mine == list(range(1, episode["steps"] + 1))
    return episodes, steps


@pytest.mark.parametrize("style", ["vanilla", "react"])
def test_scripted_policy_run_matches_its_known_outcome(tmp_path, expert_guesses, style):
    # The policy's first reply per episode is prose (one invalid step), then it plays the expert's guesses.
    with ScriptedChatServer(mastermind_policy(invalid_first=True)) as server:
        agent = _agent(server, style=style)
        result = run_eval(agent, EvalConfig(envs=MASTERMIND, tasks="8", num_envs=4, progress_bar=False), tmp_path)
        agent.close()
        calls = server.stats["calls"]
    assert result.complete and result.finished == 8
    episodes, steps = _check_unique(tmp_path)
    for episode in episodes:
        guesses = expert_guesses[episode["task_id"]]
        assert episode["success"] and episode["finish_reason"] == "success"
        assert episode["steps"] == guesses + 1 and episode["valid_steps"] == guesses
        assert episode["prompt_tokens"] > 0 and episode["completion_tokens"] > 0
    assert calls == sum(e["steps"] for e in episodes) + 1  # + the preflight request
    metrics = summarize(episodes)["envs"][MASTERMIND]
    expected_grounding = sum(g / (g + 1) for g in (expert_guesses[e["task_id"]] for e in episodes)) / 8
    assert metrics["success_rate"] == 1.0 and metrics["progress_rate"] == 1.0
    assert metrics["grounding_accuracy"] == pytest.approx(expected_grounding)
    assert metrics["finish_reasons"] == {"success": 1.0}
    first_steps = [s for s in steps if s["step"] == 1]
    assert all(not s["valid"] and s["reply"] == "I am not sure yet." for s in first_steps)
    if style == "react":
        assert all(s["thought"] for s in steps if s["step"] > 1)


def test_faults_on_a_fifth_of_calls_lose_no_episode(tmp_path, expert_guesses):
    with ScriptedChatServer(mastermind_policy(), fault_rate=0.2, fault_seed=7, timeout_s=1.0) as server:
        agent = _agent(server, timeout=0.4)
        result = run_eval(agent, EvalConfig(envs=MASTERMIND, tasks="10", num_envs=5, progress_bar=False), tmp_path)
        agent.close()
        stats = dict(server.stats)
    assert result.complete and result.finished == 10
    assert sum(stats.get(kind, 0) for kind in ("timeout", "http_500", "http_429", "garbage_body", "garbage_text")) >= 5
    episodes, steps = _check_unique(tmp_path)
    assert len(episodes) == 10 and all(e["success"] for e in episodes)
    malformed = [s for s in steps if (s.get("agent_error") or "").startswith("invalid_format")]
    assert malformed and all(not s["valid"] for s in malformed)
    assert sum(e["agent_errors"] for e in episodes) == len([s for s in steps if s.get("agent_error")])
    # every invalid step is a malformed reply: the rest followed the policy, one guess per valid step
    for episode in episodes:
        assert episode["valid_steps"] == expert_guesses[episode["task_id"]]


def test_context_overflow_ends_episodes_with_context_limit(tmp_path):
    sizes = []

    def measuring(messages):
        sizes.append(sum(len(m["content"]) for m in messages))
        return "Action: guess 0123"

    with ScriptedChatServer(measuring) as server:
        agent = _agent(server)
        run_eval(agent, EvalConfig(envs=MASTERMIND, tasks="1", max_steps=1, progress_bar=False), tmp_path / "probe")
        agent.close()
    # sizes[0] is the preflight request; room for the first prompt and one more turn, not two
    with ScriptedChatServer(lambda m: "Action: guess 0123", max_prompt_chars=sizes[1] + 120) as server:
        agent = _agent(server)
        result = run_eval(
            agent, EvalConfig(envs=MASTERMIND, tasks="3", num_envs=3, progress_bar=False), tmp_path / "run"
        )
        agent.close()
    assert result.complete
    episodes, _ = _check_unique(tmp_path / "run")
    assert [e["finish_reason"] for e in episodes] == ["context_limit"] * 3
    assert [e["steps"] for e in episodes] == [2] * 3 and not any(e["success"] for e in episodes)


def _eval_command(server, out, tasks):
    return [
        sys.executable,
        "-m",
        "agentgym_text.cli",
        "eval",
        "--agent",
        "openai",
        "--model",
        "scripted",
        "--base-url",
        server.base_url,
        "--api-key",
        "k",
        "--envs",
        MASTERMIND,
        "--tasks",
        str(tasks),
        "--num-envs",
        "2",
        "--out",
        str(out),
        "--timeout",
        "0.4",
        "--no-report",
        "--quiet",
    ]


def test_killed_run_resumes_without_duplicates(tmp_path, expert_guesses):
    def slow_policy(messages, _policy=mastermind_policy()):
        time.sleep(0.05)
        return _policy(messages)

    out = tmp_path / "run"
    with ScriptedChatServer(slow_policy, fault_rate=0.2, fault_seed=3, timeout_s=1.0) as server:
        process = subprocess.Popen(
            _eval_command(server, out, 12), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
        )
        deadline = time.time() + 120
        while time.time() < deadline:
            if len(list(read_jsonl(out / "episodes.jsonl"))) >= 3 or process.poll() is not None:
                break
            time.sleep(0.05)
        assert process.poll() is None, "the run finished before it could be killed"
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        killed_with = len(list(read_jsonl(out / "episodes.jsonl")))
        assert 3 <= killed_with < 12
        rerun = subprocess.run(_eval_command(server, out, 12), capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    assert f"{12 - killed_with} episodes played, {killed_with} already done" in rerun.stdout
    episodes, _ = _check_unique(out)
    assert sorted(e["task_id"] for e in episodes) == [f"mastermind-{i:03d}" for i in range(12)]
    assert all(e["success"] for e in episodes)
