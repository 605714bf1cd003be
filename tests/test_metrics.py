"""Every metric on hand-computed cases (AgentBoard §5 and Table 7, AgentQuest §3.2, AgentBench §4)."""

import pytest

from agentgym_text.eval.metrics import (
    difficulty_split,
    finish_reason_shares,
    grounding_accuracy,
    progress_curve,
    progress_rate,
    registered_weights,
    repetition_curve,
    subskill_scores,
    success_rate,
    summarize,
)


def _episode(env_id="AgentQuest/Mastermind-v0", family="mastermind", category="game", **fields):
    row = {
        "env_id": env_id,
        "family": family,
        "category": category,
        "success": False,
        "progress_rate": 0.0,
        "steps": 0,
        "valid_steps": 0,
        "difficulty": "easy",
        "finish_reason": "step_limit",
        "budget": 4,
        "score_change_record": [],
        "repetition": [],
        "index": 0,
    }
    row.update(fields)
    return row


def test_success_progress_and_grounding_rates():
    episodes = [
        _episode(success=True, progress_rate=1.0, steps=4, valid_steps=4),
        _episode(progress_rate=0.5, steps=4, valid_steps=1),
        _episode(progress_rate=0.25, steps=2, valid_steps=1),
        _episode(progress_rate=0.0, steps=0, valid_steps=0),  # ended before a step (context limit)
    ]
    assert success_rate(episodes) == 0.25
    assert progress_rate(episodes) == pytest.approx(1.75 / 4)
    # per episode valid/steps = 1, 0.25, 0.5; the no-step episode has no grounding
    assert grounding_accuracy(episodes) == pytest.approx((1 + 0.25 + 0.5) / 3)
    assert success_rate([]) is None and grounding_accuracy([_episode()]) is None


def test_hard_easy_split():
    episodes = [
        _episode(difficulty="easy", success=True, progress_rate=1.0),
        _episode(difficulty="easy", progress_rate=0.5),
        _episode(difficulty="hard", progress_rate=0.2),
    ]
    split = difficulty_split(episodes)
    assert split["easy"] == {"episodes": 2, "success_rate": 0.5, "progress_rate": 0.75}
    assert split["hard"] == {"episodes": 1, "success_rate": 0.0, "progress_rate": 0.2}
    assert difficulty_split(episodes[:2])["hard"] == {"episodes": 0, "success_rate": None, "progress_rate": None}


def test_progress_curve_forward_fills_score_changes_like_agentboard():
    # AgentBoard: score_change_record [(step index, new PR)], forward-filled over steps 0..max-1, mean, 0 first
    episodes = [
        _episode(score_change_record=[[0, 0.5], [3, 1.0]], budget=5),
        _episode(score_change_record=[[2, 0.25]], budget=5),
        _episode(score_change_record=[], budget=5),
    ]
    expected = [0.0, 0.5 / 3, 0.5 / 3, 0.75 / 3, 1.25 / 3, 1.25 / 3]
    assert progress_curve(episodes) == pytest.approx(expected)
    assert progress_curve(episodes, length=2) == pytest.approx(expected[:3])
    assert progress_curve([]) == []


def test_repetition_curve_keeps_the_last_rate_after_an_episode_ends():
    # RR_t for actions a, a, b: 0, 1/1, 1/2; a second episode of one action stays at 0
    episodes = [_episode(repetition=[0.0, 1.0, 0.5], budget=4), _episode(repetition=[0.0], budget=4)]
    assert repetition_curve(episodes) == pytest.approx([0.0, 0.0, 0.5, 0.25, 0.25])


def test_finish_reason_shares():
    reasons = ["success", "step_limit", "success", "context_limit", "invalid_format"]
    shares = finish_reason_shares([_episode(finish_reason=r) for r in reasons])
    assert shares == {"context_limit": 0.2, "invalid_format": 0.2, "step_limit": 0.2, "success": 0.4}
    assert list(shares) == sorted(shares)


_TABLE7 = {  # AgentBoard Table 7, columns alfworld .. tool-operation
    "Memory": (1, 2, 1, 1, 2, 1, 3, 2, 3),
    "Planning": (1, 2, 2, 3, 3, 2, 3, 2, 2),
    "World Modeling": (3, 3, 2, 3, 1, 1, 3, 1, 1),
    "Self-Reflection": (3, 2, 2, 1, 3, 2, 2, 1, 1),
    "Grounding": (2, 3, 2, 1, 3, 3, 3, 3, 3),
    "Spatial Navigation": (1, 1, 1, 1, 0, 0, 1, 0, 0),
}
_COLUMNS = {
    "AgentBoard/AlfWorld-v0": 0,
    "AgentBoard/ScienceWorld-v0": 1,
    "AgentBoard/BabyAI-v0": 2,
    "AgentBoard/Jericho-v0": 3,
    "AgentBoard/PDDL-v0": 4,
    "AgentBoard/WebShop-v0": 5,
    "AgentBoard/WebArena-v0": 6,
    "AgentBoard/ToolQuery-v0": 7,
    "AgentBoard/ToolOperation-v0": 8,
}


def test_registered_agentboard_envs_carry_the_papers_table7_weights():
    weights = registered_weights()
    present = [env_id for env_id in _COLUMNS if env_id in weights]
    assert len(present) >= 5
    for env_id in present:
        assert weights[env_id]["source"] == "AgentBoard Table 7"
        assert weights[env_id]["weights"] == {skill: row[_COLUMNS[env_id]] for skill, row in _TABLE7.items()}
    # ids that play an AgentBoard task under another benchmark's protocol carry that task's column
    assert all(
        entry["source"] == "ours" or entry["source"].startswith("AgentBoard Table 7") for entry in weights.values()
    )


def test_subskill_scores_weight_success_rates_by_table7():
    rates = dict(zip(_COLUMNS, (1.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.5, 0.0)))
    table = {env_id: {skill: row[col] for skill, row in _TABLE7.items()} for env_id, col in _COLUMNS.items()}
    scores = subskill_scores(rates, table)
    assert scores["Memory"] == pytest.approx(5 / 16)  # (1·1 + 2·.5 + 2·1 + 2·.5) / 16
    assert scores["Planning"] == pytest.approx(6 / 20)  # (1 + 2·.5 + 3·1 + 2·.5) / 20
    assert scores["World Modeling"] == pytest.approx(6 / 18)
    assert scores["Self-Reflection"] == pytest.approx(7.5 / 17)
    assert scores["Grounding"] == pytest.approx(8 / 23)
    assert scores["Spatial Navigation"] == pytest.approx(1.5 / 5)


def test_subskill_scores_only_count_envs_present_and_mark_zero_weight_as_none():
    table = {k: v["weights"] for k, v in registered_weights().items()}
    scores = subskill_scores({"AgentBoard/PDDL-v0": 0.5, "AgentBoard/ToolQuery-v0": None}, table)
    assert scores["Memory"] == 0.5 and scores["Spatial Navigation"] is None
    mixed = subskill_scores({"AgentQuest/Mastermind-v0": 1.0, "AgentBoard/PDDL-v0": 0.0}, table)
    assert mixed["Memory"] == pytest.approx(2 / 4)


def test_summarize_macro_averages_categories_and_computes_subskills_from_sr_and_pr():
    episodes = [
        _episode(
            "AgentBoard/BabyAI-v0",
            "babyai",
            "embodied",
            success=True,
            progress_rate=1.0,
            steps=2,
            valid_steps=2,
            index=0,
        ),
        _episode("AgentBoard/BabyAI-v0", "babyai", "embodied", progress_rate=0.5, steps=2, valid_steps=1, index=1),
        _episode("AgentBoard/PDDL-v0", "pddl", "game", progress_rate=0.5, steps=4, valid_steps=2, index=2),
        _episode(
            "AgentQuest/Mastermind-v0",
            "mastermind",
            "game",
            success=True,
            progress_rate=1.0,
            steps=4,
            valid_steps=4,
            index=3,
        ),
        _episode("Mine/Other-v0", "other", "tool", progress_rate=0.2, steps=1, valid_steps=1, index=4),
    ]
    summary = summarize(episodes)
    assert summary["envs"]["AgentBoard/BabyAI-v0"]["success_rate"] == 0.5
    assert summary["envs"]["AgentBoard/BabyAI-v0"]["grounding_accuracy"] == 0.75
    game = summary["categories"]["game"]
    assert game["success_rate"] == 0.5 and game["progress_rate"] == 0.75 and game["grounding_accuracy"] == 0.75
    overall = summary["overall"]
    assert overall["success_rate"] == pytest.approx((0.5 + 0 + 1 + 0) / 4)
    assert overall["progress_rate"] == pytest.approx((0.75 + 0.5 + 1 + 0.2) / 4)
    sr = summary["subskills"]["from_success_rate"]
    pr = summary["subskills"]["from_progress_rate"]
    # Memory: babyai 1, pddl 2, mastermind 2 (ours); SR .5, 0, 1 -> (.5 + 0 + 2) / 5; PR .75, .5, 1 -> 3.75 / 5
    assert sr["Memory"] == pytest.approx(2.5 / 5) and pr["Memory"] == pytest.approx(3.75 / 5)
    assert summary["subskills"]["unweighted_envs"] == ["Mine/Other-v0"]
    assert summary["subskills"]["weights"]["AgentQuest/Mastermind-v0"]["source"] == "ours"
