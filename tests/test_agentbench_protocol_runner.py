"""``agentgym-text eval --agent openai --protocol agentbench`` end to end: the requests a chat server receives from
the runner and ``LLMAgent`` equal AgentBench v0.2's (the first episode of ``tests/reference/agentbench_<task>.json``),
so the runner's budget, wrappers and info carry what the protocol needs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentgym_text.cli import main
from agentgym_text.testing.chat_server import ScriptedChatServer
from tests.support.agentbench_checkout import write_checkout
from tests.support.db_agentbench_items import write_items

REFERENCE = Path(__file__).parent / "reference"


def _eval(tmp_path: Path, task: str, env_id: str, env_args: list[str]) -> tuple[int, list, dict]:
    expected = json.loads((REFERENCE / f"agentbench_{task}.json").read_text())["episodes"][0]
    replies, seen = list(expected["replies"]), []

    def policy(messages):
        if messages[-1]["content"] == "ping":  # the preflight
            return "pong"
        seen.append([{"role": m["role"], "content": m["content"]} for m in messages])
        return replies.pop(0) if replies else ""  # an empty reply ends a game AgentBench would play on

    with ScriptedChatServer(policy) as server:
        code = main(
            ["eval", "--agent", "openai", "--model", "scripted", "--base-url", server.base_url, "--protocol"]
            + ["agentbench", "--agentbench-dir", str(write_checkout(tmp_path / "checkout")), "--envs", env_id]
            + ["--tasks", "1", "--out", str(tmp_path / "run"), "--quiet", "--no-report"]
            + [part for arg in env_args for part in ("--env-arg", arg)]
        )
    return code, seen, expected


def test_db_through_the_runner(tmp_path):
    code, seen, expected = _eval(tmp_path, "dbbench", "AgentBench/DB-v0", [f"task_file={write_items(tmp_path)}"])
    assert code == 0 and seen == expected["requests"]


def test_kg_through_the_runner(tmp_path):
    pytest.importorskip("pyoxigraph")
    from tests.support import kg_agentbench_items as kg

    with kg.sparql_endpoint() as url:
        args = [f"task_file={kg.write_items(tmp_path)}", f"sparql_url={url}"]
        code, seen, expected = _eval(
            tmp_path, "knowledgegraph", "AgentBench/KG-v0", [*args, f"ontology_dir={kg.write_ontology(tmp_path)}"]
        )
    assert code == 0 and seen == expected["requests"]


def test_ltp_through_the_runner(tmp_path):
    pytest.importorskip("openpyxl")
    from tests.support.agentbench_scripts import host_policy, write_workbook

    with ScriptedChatServer(host_policy) as host:
        args = [f"task_file={write_workbook(tmp_path / 'standard.xlsx')}", "host_model=scripted"]
        code, seen, expected = _eval(
            tmp_path, "ltp", "AgentBench/LateralThinking-v0", [*args, f"host_base_url={host.base_url}"]
        )
    assert code == 0 and seen[: len(expected["requests"])] == expected["requests"]
    assert len(seen) == len(expected["requests"]) + 1  # the empty reply's request


def test_card_game_through_the_runner(tmp_path):
    """Retries are requests of one step (the protocol asks again); the env gets the protocol's options."""
    code, seen, expected = _eval(tmp_path, "card_game", "AgentBench/CardGame-v0", [])
    assert code == 0 and seen == expected["requests"]
    rows = [json.loads(line) for line in (tmp_path / "run" / "trajectories.jsonl").read_text().splitlines()]
    assert len(rows) == len(expected["fed"]) - 1  # one row per env step, the retries inside them
    assert all(row["valid"] and json.loads(row["action"]) for row in rows)
    assert rows[0]["model_observation"].startswith("\nThe board now:")  # the stand-in's action prompt


@pytest.mark.parametrize(("population", "solved"), [("1", True), ("2", False)])
def test_an_update_ended_by_an_unreadable_reply_is_judged_by_the_table(tmp_path, population, solved):
    """As AgentBench v0.2 hashes a modification item's table however the episode ended, the runner asks the env
    (``judge_as_ended``) when the protocol ends an episode unanswered."""
    update = f"UPDATE Cities SET Population = '{population}' WHERE City = 'montreal'"
    replies = [f"Action: Operation\n```sql\n{update}\n```", "Done."]

    def policy(messages):
        return "pong" if messages[-1]["content"] == "ping" else replies.pop(0)

    with ScriptedChatServer(policy) as server:
        code = main(
            ["eval", "--agent", "openai", "--model", "scripted", "--base-url", server.base_url, "--protocol"]
            + ["agentbench", "--agentbench-dir", str(write_checkout(tmp_path / "checkout")), "--envs"]
            + ["AgentBench/DB-v0", "--tasks", "2:3", "--out", str(tmp_path / "run"), "--quiet", "--no-report"]
            + ["--env-arg", f"task_file={write_items(tmp_path)}"]
        )
    (episode,) = [json.loads(line) for line in (tmp_path / "run" / "episodes.jsonl").read_text().splitlines()]
    assert code == 0 and not replies
    assert episode["finish_reason"] == "invalid_format" and episode["success"] is solved
