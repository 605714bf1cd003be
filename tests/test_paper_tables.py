"""The papers' tables: AgentBench's Table 2 metrics and overall score by hand, AgentBoard's main table, AgentQuest's
rates, each only for the benchmarks a run covers, with the protocol named; in run.json and in the report."""

import json

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401
from agentgym_text.agents import make_agent
from agentgym_text.eval import EvalConfig, run_eval
from agentgym_text.eval.metrics import summarize
from agentgym_text.eval.paper_tables import AGENTBENCH_TABLE_2, paper_tables
from agentgym_text.eval.report import write_report


def _row(env_id, index, success, progress, **extra):
    return {
        "key": f"{env_id}::{index}",
        "index": index,
        "env_id": env_id,
        "family": "f",
        "category": "game",
        "task_id": str(index),
        "success": success,
        "progress_rate": progress,
        "steps": 2,
        "valid_steps": 2,
        "grounding_accuracy": 1.0,
        "finish_reason": "success" if success else "failure",
        "difficulty": "easy",
        **extra,
    }


def test_agentbench_scores_and_overall_as_table_2_computes_them():
    rows = [
        _row("AgentBench/OS-v0", 0, True, 1.0),
        _row("AgentBench/OS-v0", 1, False, 0.0),
        _row("AgentBench/KG-v0", 2, False, 0.2, scores={"f1": 0.5}),
        _row("AgentBench/KG-v0", 3, True, 1.0, scores={"f1": 1.0}),
        _row("AgentBench/LateralThinking-v0", 4, False, 0.25),
        _row("AgentBench/WebBrowsing-v0", 5, False, 0.5, scores={"step_success_rate": 0.6}),
        _row("AgentBench/WebShop-v0", 7, False, 0.9, scores={"purchase_reward": 0.4}),
        _row("AgentBench/WebShop-v0", 8, False, 0.3),  # no purchase: reward 0
        _row("AgentBench/CardGame-v0", 9, True, 1.0, scores={"dcg_score": 1.0}),
        _row("AgentBench/CardGame-v0", 10, False, 0.6, scores={"dcg_score": 0.15}),  # progress is not the reward
        _row("AgentBench/OS-v0", 6, False, 0.0, finish_reason="agent_error"),  # not played: not rated
    ]
    table = paper_tables(summarize(rows), rows, "agentbench")["agentbench"]
    scores = {c["environment"]: c["score"] for c in table["columns"]}
    assert scores == pytest.approx({"OS": 50.0, "KG": 75.0, "DCG": 57.5, "LTP": 25.0, "WS": 20.0, "WB": 60.0})
    assert [c["environment"] for c in table["columns"]] == ["OS", "KG", "DCG", "LTP", "WS", "WB"]  # Table 2's order
    by_hand = (50.0 / 10.8 + 75.0 / 13.9 + 57.5 / 12.0 + 25.0 / 3.5 + 20.0 / 30.7 + 60.0 / 11.6) / 6
    assert table["overall"] == pytest.approx(by_hand)
    assert table["protocol"] == "agentbench" and table["environments_run"] == 6
    assert [c.weight_inverse for c in AGENTBENCH_TABLE_2] == [10.8, 13.0, 13.9, 12.0, 3.5, 13.0, 30.7, 11.6]


def test_a_table_is_there_only_for_a_benchmark_the_run_covers():
    rows = [_row("AgentQuest/Mastermind-v0", 0, True, 1.0, repetition=[0.0, 0.5])]
    tables = paper_tables(summarize(rows), rows, None)
    assert set(tables) == {"agentquest"} and tables["agentquest"]["protocol"] == "ours"
    assert tables["agentquest"]["rows"][0]["repetition_rate"] == 0.5
    board = [_row("AgentBoard/PDDL-v0", 0, True, 1.0), _row("AgentBoard/BabyAI-v0", 1, False, 0.5)]
    board[1]["category"] = "embodied"
    table = paper_tables(summarize(board), board, "agentboard")["agentboard"]
    assert set(table["categories"]) == {"embodied", "game"}
    assert table["overall"]["progress_rate"] == pytest.approx(0.75)


def test_run_json_and_the_report_carry_the_tables(tmp_path):
    run_eval(
        make_agent("expert"),
        EvalConfig(
            envs=["AgentBench/KG-v0", "AgentBench/WebShop-v0", "AgentQuest/Mastermind-v0"],
            tasks="2",
            progress_bar=False,
        ),
        tmp_path,
    )
    tables = json.loads((tmp_path / "run.json").read_text())["tables"]
    assert set(tables) == {"agentbench", "agentquest"}
    kg, shop = tables["agentbench"]["columns"]
    assert (kg["environment"], kg["metric"], kg["score"]) == ("KG", "F1", 100.0)  # the expert's answers: F1 1
    assert (shop["environment"], shop["metric"], shop["score"]) == ("WS", "reward", 100.0)  # its purchases: 1.0
    assert tables["agentbench"]["overall"] == pytest.approx((100.0 / 13.9 + 100.0 / 30.7) / 2)
    html = write_report([tmp_path]).read_text()
    assert "AgentBench (Table 2): protocol ours" in html and "AgentQuest: protocol ours" in html
    assert "AgentBoard: protocol" not in html


def test_an_episode_keeps_a_score_its_refused_last_step_did_not_report(tmp_path):
    from agentgym_text.agents.base import Agent, Decision
    from agentgym_text.eval.store import read_jsonl

    class ExpertThenNonsense(Agent):
        name = "expert-then-nonsense"
        needs = frozenset({"expert_action"})

        def act(self, turns):
            return [Decision(action=t.expert_action if t.step < 2 else "nonsense") for t in turns]

    run_eval(
        ExpertThenNonsense(),
        EvalConfig(envs=["AgentBench/CardGame-v0"], tasks="1", max_steps=3, progress_bar=False),
        tmp_path,
    )
    steps = list(read_jsonl(tmp_path / "trajectories.jsonl"))
    (episode,) = list(read_jsonl(tmp_path / "episodes.jsonl"))
    assert [step["valid"] for step in steps] == [True, True, False]
    env = gym.make("AgentBench/CardGame-v0")
    env.reset(options={"task_id": episode["task_id"]})
    for step in steps[:2]:
        _, _, _, _, info = env.step(step["action"])
    env.close()
    assert episode["scores"]["dcg_score"] == info["dcg_score"] > 0.0  # the value of the last step that reported it
