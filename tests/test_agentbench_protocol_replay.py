"""The four AgentBench ids of this file under ``--protocol agentbench``: every request equals the one AgentBench
v0.2's own task loop sent, byte for byte (``tests/reference/agentbench_<task>.json``, recorded by
``tests/reference/record_agentbench_protocol.py`` on the stand-in checkout's texts, its stubs fed what this suite's
envs gave for the same replies), with scripted replies that walk each task's reply parser: statements, answers,
missing blocks and the DB round limit with the history cut; OS outputs (long, empty, several blocks, reversed Act
lines), answer, finish, no action and the round limit; KG calls, failures, bad ids, cut replies, escaped underscores
and the round limit; LTP moves, story repeats, abort points and multi-line replies."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

from agentgym_text.agents.protocols.agentbench import AgentBenchProtocol
from agentgym_text.envs.os.sandbox import sandbox_problem
from tests.support import db_agentbench_items, os_agentbench_items
from tests.support.agentbench_checkout import write_checkout
from tests.support.agentbench_replay import play
from tests.support.agentbench_scripts import ENV_IDS, host_policy, write_workbook

REFERENCE = Path(__file__).parent / "reference"
TASKS = ("dbbench", "os_interaction", "knowledgegraph", "ltp")
ENDS = {
    "completed": {"success", "failure", "invalid_action", None},  # None: the replies ran out (LTP plays on)
    "agent validation failed": {"invalid_format"},
    "agent invalid action": {"invalid_action"},
    "task limit reached": {"step_limit"},
}


def _reference(task: str) -> list[dict[str, Any]]:
    return json.loads((REFERENCE / f"agentbench_{task}.json").read_text())["episodes"]


@contextmanager
def _env(task: str, folder: Path) -> Iterator[Any]:
    if task == "dbbench":
        env = gym.make(ENV_IDS[task], task_file=str(db_agentbench_items.write_items(folder)))
    elif task == "os_interaction":
        if sandbox_problem() is not None:
            pytest.skip(str(sandbox_problem()))
        root = os_agentbench_items.write_items(folder / "os")
        env = gym.make(
            ENV_IDS[task],
            task_file=str(root / "data/1/sample.json"),
            script_dir=str(root / "scripts/1"),
            sandbox="bwrap",
            prewarm=False,
        )
    elif task == "knowledgegraph":
        pytest.importorskip("pyoxigraph")
        from tests.support import kg_agentbench_items as kg

        with kg.sparql_endpoint() as url:
            env = gym.make(
                ENV_IDS[task],
                task_file=str(kg.write_items(folder)),
                sparql_url=url,
                ontology_dir=str(kg.write_ontology(folder)),
            )
            yield env.unwrapped
            env.close()
        return
    else:
        pytest.importorskip("openpyxl")
        from agentgym_text.testing.chat_server import ScriptedChatServer

        with ScriptedChatServer(host_policy) as server:
            env = gym.make(
                ENV_IDS[task],
                task_file=str(write_workbook(folder / "standard.xlsx")),
                host_model="scripted",
                host_base_url=server.base_url,
            )
            yield env.unwrapped
            env.close()
        return
    yield env.unwrapped
    env.close()


@pytest.fixture(scope="module", params=TASKS)
def replayed(request, tmp_path_factory) -> tuple[str, list[dict], list[dict]]:
    task = request.param
    folder = tmp_path_factory.mktemp(task)
    protocol = AgentBenchProtocol(write_checkout(folder / "checkout"))
    reference = _reference(task)
    with _env(task, folder) as env:
        ours = [play(protocol, ENV_IDS[task], env, e["index"], e["replies"]) for e in reference]
    return task, reference, ours


@pytest.mark.parametrize("task", TASKS)
def test_each_reference_has_three_episodes_of_eight_turns_or_the_limit(task):
    limits = {"dbbench": 16, "os_interaction": 8, "knowledgegraph": 15, "ltp": 25}
    episodes = _reference(task)
    assert sum(len(e["requests"]) >= 8 for e in episodes) >= 3
    assert all(len(e["requests"]) == len(e["replies"]) <= limits[task] for e in episodes)
    assert all(m["role"] in ("user", "assistant") for e in episodes for r in e["requests"] for m in r)


def test_every_request_equals_agentbenchs_and_the_episode_ends_alike(replayed):
    task, reference, ours = replayed
    for expected, played in zip(reference, ours):
        fed = {
            "dbbench": [info.get("sql_result") for info in played["infos"]],
            "os_interaction": [info.get("os_output") for info in played["infos"]],
            "knowledgegraph": [[i["valid"], o] for i, o in zip(played["infos"], played["observations"])],
            "ltp": [info.get("host_reply") for info in played["infos"]],
        }[task]
        assert fed == expected["fed"], f"{task} {expected['index']}: the env gave other results than were recorded"
        assert len(played["requests"]) == len(expected["requests"])
        for turn, (sent, wanted) in enumerate(zip(played["requests"], expected["requests"])):
            assert sent == wanted, f"{task} item {expected['index']} request {turn}"
        assert played["end"] in ENDS[expected["status"]], (task, expected["index"], played["end"])


def test_the_round_limits_and_the_request_settings(tmp_path):
    protocol = AgentBenchProtocol(write_checkout(tmp_path))
    limits = {ENV_IDS[t]: protocol.max_steps(ENV_IDS[t]) for t in TASKS}
    assert limits == {
        "AgentBench/DB-v0": 16,
        "AgentBench/OS-v0": 8,
        "AgentBench/KG-v0": 15,
        "AgentBench/LateralThinking-v0": 25,
    }
    from agentgym_text.agents.protocols.base import Opening

    info = {"question": "q?", "entities": ["A", "B"]}
    request = protocol.begin(Opening("AgentBench/KG-v0", "q?", "", info, "kg")).request()
    assert (request.temperature, request.max_tokens, request.stop) == (0.0, 512, None)
    assert request.messages[-1] == {"role": "user", "content": "Next question: q?\nKnown entities: [A; B]"}
