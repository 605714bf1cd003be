"""``agentgym-text demos``: expert demonstrations as chat rows (``integrations.demos``, ``agents.demonstrator``)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from agentgym_text.agents.demonstrator import reads_as, reply_text
from agentgym_text.agents.protocols import Opening, make_protocol
from agentgym_text.cli import main
from agentgym_text.eval.store import read_jsonl
from agentgym_text.integrations.demos import DEMOS, DemoConfig, make_demos
from tests.support.agentbench_checkout import write_checkout as write_agentbench
from tests.support.agentboard_checkout import write_checkout as write_agentboard

ROOT = Path(__file__).resolve().parents[1]
CHEAP = ["AgentQuest/Mastermind-v0", "AgentBoard/BabyAI-v0", "AgentBoard/PDDL-v0"]


def _demos(out: Path, **settings) -> tuple:
    settings = {"envs": CHEAP, "episodes": 6, "progress_bar": False, **settings}
    result = make_demos(DemoConfig(**settings), out)
    return result, list(read_jsonl(out / DEMOS))


@pytest.fixture(scope="module")
def ours(tmp_path_factory):
    out = tmp_path_factory.mktemp("demos") / "ours"
    return out, *_demos(out, num_envs=2)


def _steps(out: Path) -> dict[tuple[str, str, int], dict]:
    """The run's step rows by (env id, task id, step)."""
    return {(row["env_id"], row["task_id"], row["step"]): row for row in read_jsonl(out / "trajectories.jsonl")}


def test_rows_are_chats_ending_with_the_experts_turn(ours):
    # that HF datasets loads them and TRL's SFTTrainer trains on them: tests/test_integrations_trl.py (make test-rl)
    out, result, rows = ours
    assert result.run.complete and result.mismatches == []
    assert result.solved == result.episodes == result.written == 6
    assert len(rows) == result.rows == len((out / DEMOS).read_text().splitlines())
    fields = {"messages", "env_id", "task_id", "seed", "split", "progress", "success", "steps", "step", "detours"}
    assert all(set(row) == fields | {"protocol", "style"} for row in rows)  # one schema for every row
    assert Counter(row["env_id"] for row in rows).keys() == set(CHEAP)
    for row in rows:
        roles = [m["role"] for m in row["messages"]]
        assert roles == ["system", "user", "assistant"]  # ours: one row per step, the request and the reply
        assert row["messages"][-1]["weight"] == 1
        assert row["split"] == "train" and row["success"] and row["progress"] == 1.0
        assert (row["protocol"], row["style"]) == ("ours", "vanilla")
    per_episode = Counter((row["env_id"], row["task_id"], row["seed"]) for row in rows)
    steps = {(row["env_id"], row["task_id"], row["seed"]): row["steps"] for row in rows}
    assert all(count == steps[key] for key, count in per_episode.items())  # a row for every step


def test_the_experts_turns_read_back_through_the_protocol_as_the_actions_played(ours):
    out, _, rows = ours
    played = _steps(out)
    protocol = make_protocol("ours")
    for row in rows:
        dialogue = protocol.begin(Opening(row["env_id"], "", "", {}, _family(row["env_id"])))
        action = dialogue.read(row["messages"][-1]["content"]).action
        assert action == played[(row["env_id"], row["task_id"], row["step"])]["action"]
    # the next step's request shows the action and what the env answered
    first, second = rows[0], rows[1]
    assert first["task_id"] == second["task_id"] and second["step"] == 2
    assert f"Action: {played[(first['env_id'], first['task_id'], 1)]['action']}" in second["messages"][1]["content"]


def _family(env_id: str) -> str:
    from agentgym_text.core.registry import get_entry

    return get_entry(env_id).family


def test_a_rerun_plays_nothing_and_an_interrupted_run_completes(ours, tmp_path):
    out, _, rows = ours
    before = (out / DEMOS).read_bytes()
    again, _ = _demos(out, num_envs=2)
    assert again.run.finished == 0 and again.run.skipped == 6
    assert (out / DEMOS).read_bytes() == before
    cut = tmp_path / "cut"
    _demos(cut, episodes=6)
    episodes = (cut / "episodes.jsonl").read_text().splitlines(keepends=True)
    (cut / "episodes.jsonl").write_text("".join(episodes[:2]) + episodes[2][:20])  # killed while writing the third
    resumed, _ = _demos(cut, episodes=6)
    assert resumed.run.skipped == 2 and resumed.run.finished == 4
    assert (cut / DEMOS).read_bytes() == before


def test_only_solved_episodes_unless_all_episodes(tmp_path):
    settings = {"envs": ["AgentQuest/Mastermind-v0", "AgentQuest/Sudoku-v0"], "episodes": 4, "detours": 0.3}
    result, rows = _demos(tmp_path / "solved", **settings)
    # Mastermind's expert recovers from any guess; Sudoku's detours write digits it does not undo
    assert result.episodes == 4 and 2 <= result.solved < 4
    assert all(row["success"] for row in rows)
    assert len({row["task_id"] for row in rows}) == result.written == result.solved
    everything, all_rows = _demos(tmp_path / "all", all_episodes=True, **settings)
    assert everything.written == 4 and any(not row["success"] for row in all_rows)


def test_detour_turns_are_marked_and_kept_out_of_the_targets(tmp_path):
    out = tmp_path / "detours"
    result, rows = _demos(out, envs=["AgentQuest/Mastermind-v0"], episodes=4, detours=0.4, seed=3)
    assert result.solved == result.episodes == 4 and result.written == 4
    assert all(row["success"] for row in rows)
    played = _steps(out)
    by_episode: dict[str, list[dict]] = {}
    for row in rows:
        by_episode.setdefault(row["task_id"], []).append(row)
    assert sum(episode[0]["detours"] for episode in by_episode.values()) > 0
    for task_id, episode in by_episode.items():
        first = episode[0]
        assert len(episode) == first["steps"] - first["detours"]  # a detour step has no row of its own
        detour_steps = set(range(1, first["steps"] + 1)) - {row["step"] for row in episode}
        for step in detour_steps:  # the detour shows in the next request's history
            action = played[(first["env_id"], task_id, step)]["action"]
            later = [row for row in episode if row["step"] > step]
            assert later and f"Action: {action}" in later[0]["messages"][1]["content"]
    _, plain_rows = _demos(tmp_path / "plain", envs=["AgentQuest/Mastermind-v0"], episodes=4)
    assert all(row["detours"] == 0 for row in plain_rows)


def test_same_seed_same_rows_in_another_process(tmp_path):
    script = (
        "import sys; from agentgym_text.integrations.demos import DemoConfig, make_demos; "
        "make_demos(DemoConfig(envs=['AgentQuest/Mastermind-v0', 'AgentBoard/BabyAI-v0'], episodes=4, detours=0.3, "
        "seed=5, progress_bar=False), sys.argv[1])"
    )
    for name in ("a", "b"):
        subprocess.run([sys.executable, "-c", script, str(tmp_path / name)], check=True, cwd=ROOT)
    first = (tmp_path / "a" / DEMOS).read_bytes()
    assert first and first == (tmp_path / "b" / DEMOS).read_bytes()
    assert any(json.loads(line)["detours"] for line in first.decode().splitlines())


def test_mix_shares_the_episodes_by_weight(tmp_path):
    mix = {"AgentQuest/Mastermind-v0": 3, "AgentBoard/BabyAI-v0": 1}
    result, rows = _demos(tmp_path, envs=[], mix=mix, episodes=4)
    assert result.counts == {"AgentQuest/Mastermind-v0": 3, "AgentBoard/BabyAI-v0": 1}
    episodes = Counter(env_id for env_id, _, _ in {(r["env_id"], r["task_id"], r["seed"]) for r in rows})
    assert episodes == Counter(result.counts)
    with pytest.raises(ValueError, match="no weight"):
        make_demos(DemoConfig(envs=CHEAP, episodes=2, mix=mix), tmp_path / "bad")


def test_agentboard_protocol_rows_with_a_checkout(tmp_path):
    checkout = write_agentboard(tmp_path / "AgentBoard")
    result, rows = _demos(
        tmp_path / "run", envs=["AgentBoard/BabyAI-v0", "AgentBoard/PDDL-v0"], episodes=2,
        protocol="agentboard", agentboard_dir=str(checkout),
    )  # fmt: skip
    assert result.mismatches == [] and result.solved == result.episodes == 2
    protocol = make_protocol("agentboard", agentboard_dir=str(checkout))
    assert protocol.name == "agentboard"
    for row in rows:
        assert [m["role"] for m in row["messages"]] == ["system", "user", "assistant"] and row["step"] >= 1
        assert row["messages"][1]["content"].endswith("Your next action: ")  # the checkout's own tail
    played = _steps(tmp_path / "run")
    for row in rows:
        assert reads_as(row["messages"][-1]["content"], played[(row["env_id"], row["task_id"], row["step"])]["action"])


def test_agentbench_protocol_rows_are_whole_conversations(tmp_path):
    checkout = write_agentbench(tmp_path / "AgentBench")
    result, rows = _demos(
        tmp_path / "run", envs=["AgentBench/LateralThinking-v0", "AgentBench/WebShop-v0"], episodes=4, split="test",
        protocol="agentbench", agentbench_dir=str(checkout),
    )  # fmt: skip
    assert result.mismatches == [] and result.solved == result.episodes == 4
    assert len(rows) == 4 and all(row["step"] is None for row in rows)  # one row per episode
    played = _steps(tmp_path / "run")
    for row in rows:
        messages = row["messages"]
        assert "system" not in {m["role"] for m in messages} and messages[-1]["role"] == "assistant"
        assert all(a["role"] != b["role"] for a, b in zip(messages, messages[1:]))  # user and assistant alternate
        ours = [m for m in messages if m["role"] == "assistant" and m["weight"] == 1]
        assert len(ours) == row["steps"]
        actions = [played[(row["env_id"], row["task_id"], step)]["action"] for step in range(1, row["steps"] + 1)]
        assert all(reads_as(m["content"], action) for m, action in zip(ours, actions))
    webshop = next(row for row in rows if row["env_id"] == "AgentBench/WebShop-v0")
    assert any(m["role"] == "assistant" and m["weight"] == 0 for m in webshop["messages"])  # the prompt's example


def test_reply_text_reads_back_in_every_protocol_format():
    assert reply_text("ours", "go north") == "Action: go north"
    assert reply_text("agentboard", "go north") == "Action: go north"
    assert reply_text("ours", "Action: Operation\n```sql\nSELECT 1;\n```", whole=True).startswith("Action: Operation")
    assert reply_text("agentbench", "Action: search[x]", agentbench_task="webshop") == "Action: search[x]"
    assert reads_as("Action: go north.", "go north") and not reads_as("Action: go south", "go north")


def test_cli_writes_demos_and_refuses_bad_options(tmp_path, capsys):
    out = tmp_path / "cli"
    code = main(["demos", "--envs", "AgentQuest/Mastermind-v0", "--episodes", "2", "--out", str(out), "--quiet"])
    assert code == 0 and len(list(read_jsonl(out / DEMOS))) > 0
    assert "2 of 2 solved" in capsys.readouterr().out
    assert (
        main(["demos", "--envs", "AgentQuest/Mastermind-v0", "--episodes", "2", "--out", str(out), "--detours", "1"])
        == 2
    )
    assert main(["demos", "--envs", "AgentBoard/Jericho-v0", "--episodes", "2", "--out", str(out)]) == 2
    assert "no training split" in capsys.readouterr().err


def test_instances_plan_one_episode_each_keyed_by_kwargs_and_seed():
    from agentgym_text.core.registry import get_entry
    from agentgym_text.eval.plan import plan_instances

    entry = get_entry("AgentQuest/Mastermind-v0")
    instances = [({"num_tasks": 61}, "mastermind-060", 0), ({"num_tasks": 61}, "mastermind-060", 1)]
    instances.append(({"num_tasks": 62}, "mastermind-060", 0))
    plans = plan_instances(entry, instances, env_kwargs={"length": 4}, start_index=5)
    assert len({plan.key for plan in plans}) == 3 and [plan.index for plan in plans] == [5, 6, 7]
    assert [plan.seed for plan in plans] == [0, 1, 0]
    assert dict(plans[2].env_kwargs) == {"length": 4, "num_tasks": 62}
    assert all(plan.budget > 0 and plan.task_id == "mastermind-060" for plan in plans)
    with pytest.raises(ValueError, match="no task"):
        plan_instances(entry, [({"num_tasks": 61}, "mastermind-061", 0)])
