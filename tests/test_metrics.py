"""Every metric on hand-computed cases (AgentBoard §5 and Table 7, AgentQuest §3.2, AgentBench §4)."""

import pytest

from agentgym_text.eval.metrics import (
    AGENTBOARD_TASKS,
    TABLE7_WEIGHTS,
    difficulty_split,
    finish_reason_shares,
    grounding_accuracy,
    progress_curve,
    progress_rate,
    repetition_curve,
    subskill_scores,
    success_rate,
    summarize,
    weight_key,
)


def _episode(env_id="AgentQuest/Mastermind-v0", family="mastermind", category="game", **fields):
    row = {"env_id": env_id, "family": family, "category": category, "success": False, "progress_rate": 0.0,
           "steps": 0, "valid_steps": 0, "difficulty": "easy", "finish_reason": "step_limit", "budget": 4,
           "score_change_record": [], "repetition": [], "index": 0}
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


def test_table7_weights_are_the_papers():
    assert TABLE7_WEIGHTS["Memory"] == dict(zip(AGENTBOARD_TASKS, (1, 2, 1, 1, 2, 1, 3, 2, 3)))
    assert TABLE7_WEIGHTS["Grounding"]["alfworld"] == 2 and TABLE7_WEIGHTS["Grounding"]["jericho"] == 1
    assert TABLE7_WEIGHTS["Spatial Navigation"]["pddl"] == 0 and TABLE7_WEIGHTS["World Modeling"]["webarena"] == 3


def test_subskill_scores_weight_success_rates_by_table7():
    rates = {"alfworld": 1.0, "scienceworld": 0.5, "babyai": 0.0, "jericho": 0.0, "pddl": 1.0, "webshop": 0.0,
             "webarena": 0.0, "tool-query": 0.5, "tool-operation": 0.0}
    scores = subskill_scores(rates)
    assert scores["Memory"] == pytest.approx(5 / 16)  # (1·1 + 2·.5 + 2·1 + 2·.5) / 16
    assert scores["Planning"] == pytest.approx(6 / 20)  # (1 + 2·.5 + 3·1 + 2·.5) / 20
    assert scores["World Modeling"] == pytest.approx(6 / 18)
    assert scores["Self-Reflection"] == pytest.approx(7.5 / 17)
    assert scores["Grounding"] == pytest.approx(8 / 23)
    assert scores["Spatial Navigation"] == pytest.approx(1.5 / 5)


def test_subskill_scores_only_count_tasks_present_and_mark_zero_weight_as_none():
    scores = subskill_scores({"pddl": 0.5, "webshop": None})
    assert scores["Memory"] == 0.5 and scores["Spatial Navigation"] is None
    assert subskill_scores({"mastermind": 1.0, "pddl": 0.0})["Memory"] == pytest.approx(2 / 4)


def test_weight_keys_map_env_ids_to_agentboard_tasks():
    assert weight_key("AgentBoard/ScienceWorld-v0", "scienceworld") == "scienceworld"
    assert weight_key("AgentBoard/ToolOperation-v0", "tools") == "tool-operation"
    assert weight_key("AgentBoard/PDDL-v0", "pddl") == "pddl"
    assert weight_key("AgentQuest/Sudoku-v0", "sudoku") == "sudoku"
    assert weight_key("Mine/Other-v0", "other") is None


def test_summarize_macro_averages_categories_and_computes_subskills_from_sr_and_pr():
    episodes = [
        _episode("AgentBoard/BabyAI-v0", "babyai", "embodied", success=True, progress_rate=1.0, steps=2,
                 valid_steps=2, index=0),
        _episode("AgentBoard/BabyAI-v0", "babyai", "embodied", progress_rate=0.5, steps=2, valid_steps=1, index=1),
        _episode("AgentBoard/PDDL-v0", "pddl", "game", progress_rate=0.5, steps=4, valid_steps=2, index=2),
        _episode("AgentQuest/Mastermind-v0", "mastermind", "game", success=True, progress_rate=1.0, steps=4,
                 valid_steps=4, index=3),
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
    assert summary["subskills"]["extension_tasks"] == ["mastermind"]
