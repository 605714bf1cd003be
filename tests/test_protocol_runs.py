"""``agentgym-text eval --agent openai --protocol agentboard|agentbench`` as a user runs it, against a local scripted
server: one request a step, each row keeping the action as the protocol parsed it and the observation as the model
read it, and the report showing the paper's table with the protocol named."""

from __future__ import annotations

import json
from pathlib import Path

from agentgym_text.cli import main
from agentgym_text.eval.store import read_jsonl
from agentgym_text.testing.chat_server import ScriptedChatServer
from tests.support.agentbench_checkout import write_checkout as write_agentbench
from tests.support.agentboard_checkout import write_checkout as write_agentboard
from tests.support.db_agentbench_items import write_items


def _eval(tmp_path: Path, policy, *args: str) -> tuple[int, list[dict], Path]:
    out = tmp_path / "run"

    def answer(messages):
        return "pong" if messages[-1]["content"] == "ping" else policy(messages)  # the preflight takes no reply

    with ScriptedChatServer(answer, keep_requests=True) as server:
        code = main(
            ["eval", "--agent", "openai", "--model", "scripted", "--base-url", server.base_url, "--quiet"]
            + ["--out", str(out), *args]
        )
        requests = [r for r in server.requests if r["messages"][-1]["content"] != "ping"]
    return code, requests, out


def test_agentboard_protocol_run_rows_and_report(tmp_path):
    checkout = write_agentboard(tmp_path / "AgentBoard")
    replies = iter(["Action: turn left", "I will turn.\nAction: turn right", "check valid actions"] * 20)
    code, requests, out = _eval(
        tmp_path,
        lambda messages: next(replies),
        "--protocol", "agentboard", "--agentboard-dir", str(checkout),
        "--envs", "AgentBoard/BabyAI-v0", "--tasks", "2", "--max-steps", "6",
    )  # fmt: skip
    assert code in (0, 1)
    steps = list(read_jsonl(out / "trajectories.jsonl"))
    assert len(steps) == len(requests) == 12  # one request a step
    assert [s["action"] for s in steps[:3]] == ["turn left", "turn right", "check valid actions"]
    for request in requests:
        assert [m["role"] for m in request["messages"]] == ["system", "user"] and request["stop"] == "\n"
        assert not request["messages"][1]["content"].rstrip().endswith("steps.")
    second = requests[1]["messages"][1]["content"]
    assert f"Action: turn left\nObservation: {steps[0]['observation']}" in second  # the env's text, as the row has it
    tables = json.loads((out / "run.json").read_text())["tables"]
    assert tables["agentboard"]["protocol"] == "agentboard"
    assert "AgentBoard: protocol agentboard" in (out / "report.html").read_text()


def test_agentbench_protocol_run_rows_and_report(tmp_path):
    checkout = write_agentbench(tmp_path / "AgentBench")
    replies = iter(["Action: Operation\n```sql\nSELECT 1;\n```"] * 3 + ["Action: Answer\nFinal Answer: [1]"])
    code, requests, out = _eval(
        tmp_path,
        lambda messages: next(replies, ""),
        "--protocol", "agentbench", "--agentbench-dir", str(checkout), "--envs", "AgentBench/DB-v0",
        "--tasks", "1", "--env-arg", f"task_file={write_items(tmp_path)}",
    )  # fmt: skip
    assert code in (0, 1)
    steps = list(read_jsonl(out / "trajectories.jsonl"))
    assert len(steps) == len(requests) == 4
    for step, request in zip(steps[:3], requests[1:]):
        # what the model read next: the row's model_observation, or the observation when the protocol kept it as is
        assert request["messages"][-1]["content"] == step.get("model_observation", step["observation"])
        assert step["action"] == "Action: Operation\n```sql\nSELECT 1;\n```"  # as the protocol parsed it
        assert request["temperature"] == 0 and request["max_tokens"] == 512
        assert "system" not in {m["role"] for m in request["messages"]}
    tables = json.loads((out / "run.json").read_text())["tables"]["agentbench"]
    assert tables["protocol"] == "agentbench" and tables["columns"][0]["environment"] == "DB"
    assert tables["overall"] == tables["columns"][0]["score"] / 13.0
    html = (out / "report.html").read_text()
    assert "AgentBench (Table 2): protocol agentbench" in html and "overall (1 of 8 environments)" in html


def test_agentboard_webshop_asks_once_more_after_its_last_step_and_plays_nothing(tmp_path):
    # AgentBoard's webshop.py asks for a 30th action after the 29th step and drops it: tokens spent, nothing played
    from tests.support.agentboard_checkout_web_tools import write_web_tools_checkout

    checkout = write_web_tools_checkout(tmp_path / "AgentBoard")
    code, requests, out = _eval(
        tmp_path,
        lambda messages: "search[red shirt]",
        "--protocol", "agentboard", "--agentboard-dir", str(checkout), "--envs", "AgentBoard/WebShop-v0",
        "--tasks", "1",
    )  # fmt: skip
    assert code in (0, 1)
    steps = list(read_jsonl(out / "trajectories.jsonl"))
    (episode,) = list(read_jsonl(out / "episodes.jsonl"))
    assert episode["finish_reason"] == "step_limit" and len(steps) == 29
    assert len(requests) == 30
    last = requests[-1]["messages"][1]["content"]
    assert last != requests[-2]["messages"][1]["content"]
    assert steps[-1]["observation"] in last  # it shows the 29th step's answer
    assert episode["trailing_reply"] == "search[red shirt]"
    assert episode["prompt_tokens"] > 0 and episode["completion_tokens"] == 30 * steps[0]["completion_tokens"]
