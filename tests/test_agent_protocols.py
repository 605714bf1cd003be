"""Agent protocols as one concept: what the LLM agent sends and reads is the protocol's, end to end through the
runner (requests, sampling settings, thoughts asked again, the text the model saw in each row, the protocol's
budget), and a missing checkout or an id a protocol does not cover stops the CLI before anything is written."""

from collections.abc import Mapping
from typing import Any

import pytest

import agentgym_text  # noqa: F401
from agentgym_text.agents.llm import LLMAgent
from agentgym_text.agents.llm_config import LLMConfig
from agentgym_text.agents.protocols import (
    AgentProtocol,
    CheckoutError,
    Dialogue,
    Opening,
    Reading,
    Request,
    make_protocol,
)
from agentgym_text.agents.protocols.ours import OursProtocol
from agentgym_text.cli import main
from agentgym_text.eval import EvalConfig, run_eval
from agentgym_text.eval.store import read_jsonl
from agentgym_text.testing.chat_server import ScriptedChatServer

MASTERMIND = "AgentQuest/Mastermind-v0"


class _Numbered(Dialogue):
    """A protocol written here: one user message listing every observation so far, numbered; a reply starting
    "Thought" is kept and asked again; observations go to the model as "#n: <text>"."""

    def __init__(self, opening: Opening):
        self.lines = [f"#0: {opening.bare_observation}"]
        self.thoughts = 0

    def request(self) -> Request:
        text = "\n".join(self.lines) + "\nYour move:"
        return Request([{"role": "user", "content": text}], temperature=0.25, max_tokens=17, stop=["\n\n"])

    def read(self, reply: str | None) -> Reading:
        if reply and reply.startswith("Thought"):
            self.thoughts += 1
            self.lines.append(reply)
            return Reading(None, again=True)
        return Reading(reply.strip() if reply else None)

    def observe(self, observation: str, info: Mapping[str, Any]) -> str:
        seen = f"#{len(self.lines)}: {observation}"
        self.lines.append(seen)
        return seen


class _NumberedProtocol(AgentProtocol):
    name = "numbered"

    def begin(self, opening: Opening) -> Dialogue:
        return _Numbered(opening)

    def max_steps(self, env_id: str) -> int | None:
        return 3


def _policy(messages):
    """Thinks once before its first guess, then guesses 0123, 4567, 0123, ..."""
    text = messages[-1]["content"]
    if "Thought" not in text:
        return "Thought: start low."
    return "guess 4567" if text.count("#") % 2 == 0 else "guess 0123"


def test_a_protocol_decides_requests_settings_thoughts_budget_and_what_the_rows_keep(tmp_path):
    with ScriptedChatServer(_policy, keep_requests=True) as server:
        config = LLMConfig(model="m", base_url=server.base_url, api_key="k", temperature=0.9, max_tokens=99)
        agent = LLMAgent(config, protocol=_NumberedProtocol(), backoff_s=0.01)
        result = run_eval(agent, EvalConfig(envs=MASTERMIND, tasks="2", progress_bar=False), tmp_path)
        agent.close()
        requests = [r for r in server.requests if r["messages"][0]["content"] != "ping"]
    assert result.complete and result.finished == 2
    episodes = list(read_jsonl(tmp_path / "episodes.jsonl"))
    steps = list(read_jsonl(tmp_path / "trajectories.jsonl"))
    assert [e["steps"] for e in episodes] == [3, 3]  # the protocol's budget, not the task's
    assert all(e["finish_reason"] == "step_limit" for e in episodes)
    assert len(requests) == 2 * (3 + 1)  # one request a step, and one more for each episode's thought
    assert all(
        (r["temperature"], r["max_tokens"], r["stop"]) == (0.25, 17, ["\n\n"]) and len(r["messages"]) == 1
        for r in requests
    )
    for step in steps:
        assert step["model_observation"] == f"#{step['step'] + 1}: {step['observation']}"
    first = requests[0]["messages"][0]["content"]
    assert first.startswith("#0: ") and "You have" not in first  # the bare first observation, no budget line
    assert [s["action"] for s in steps if s["episode"] == episodes[0]["key"]] == [
        "guess 0123",
        "guess 4567",
        "guess 0123",
    ]


def test_the_default_protocol_is_ours_and_keeps_rows_as_they_were(tmp_path):
    with ScriptedChatServer(lambda messages: "Action: guess 0123") as server:
        agent = LLMAgent(LLMConfig(model="m", base_url=server.base_url, api_key="k"), backoff_s=0.01)
        assert isinstance(agent.protocol, OursProtocol) and agent.describe()["protocol"] == "ours"
        run_eval(agent, EvalConfig(envs=MASTERMIND, tasks="1", max_steps=2, progress_bar=False), tmp_path)
        agent.close()
    steps = list(read_jsonl(tmp_path / "trajectories.jsonl"))
    assert steps and all("model_observation" not in step for step in steps)


def test_make_protocol_names_and_checkouts(tmp_path):
    assert make_protocol().name == "ours"
    with pytest.raises(ValueError, match="unknown protocol 'theirs'"):
        make_protocol("theirs")
    with pytest.raises(CheckoutError, match="AGENTGYM_TEXT_AGENTBENCH_DIR"):
        make_protocol("agentbench", agentbench_dir="")
    with pytest.raises(CheckoutError, match=str(tmp_path / "missing")):
        make_protocol("agentbench", agentbench_dir=str(tmp_path / "missing"))


def _eval_cli(tmp_path, *extra):
    out = tmp_path / "run"
    code = main(
        ["eval", "--agent", "openai", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--quiet"]
        + ["--no-report", "--out", str(out), *extra]
    )
    return code, out


def test_a_missing_checkout_exits_2_naming_the_folder_and_writes_nothing(tmp_path, capsys):
    missing = tmp_path / "no-agentbench"
    code, out = _eval_cli(
        tmp_path, "--envs", "AgentBench/DB-v0", "--protocol", "agentbench", "--agentbench-dir", str(missing)
    )
    assert code == 2 and str(missing) in capsys.readouterr().err
    assert not out.exists()


def test_an_id_the_protocol_does_not_cover_exits_2_before_anything_is_written(tmp_path, capsys):
    code, out = _eval_cli(tmp_path, "--envs", MASTERMIND, "--protocol", "agentbench", "--agentbench-dir", str(tmp_path))
    assert code == 2 and f"does not cover {MASTERMIND}" in capsys.readouterr().err
    assert not out.exists()
