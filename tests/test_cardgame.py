"""AgentBench/CardGame-v0 (Aquawar): rules of every skill, passive and the guess, the opponent, the env."""

import json

import numpy as np
import pytest

from agentgym_text.core import ActionError
from agentgym_text.envs.cardgame.actions import read_object
from agentgym_text.envs.cardgame.env import CardGameEnv
from agentgym_text.envs.cardgame.game import (
    MAX_HP,
    Fish,
    Game,
    Move,
    apply_guess,
    apply_move,
    new_game,
    winner,
)
from agentgym_text.envs.cardgame.match import Match
from agentgym_text.envs.cardgame.opponent import Opponent
from agentgym_text.envs.cardgame.tasks import make_tasks

TEST_IDS = make_tasks("test").task_ids


def game_of(agent, enemy):
    return Game([[Fish(k) for k in agent], [Fish(k) for k in enemy]])


AGENT = ["spray", "flame", "eel", "sunfish"]


# ---- active skills ---------------------------------------------------------------------------------
def test_normal_attack_deals_half_the_attack():
    game = game_of(AGENT, ["spray", "flame", "spray", "flame"])
    apply_move(game, 0, Move(0, "normal", 1))
    assert game.teams[1][1].hp == MAX_HP - 100


@pytest.mark.parametrize("actor", [0, 2])  # spray and eel both have AOE
def test_aoe_hits_every_live_enemy_for_35_percent(actor):
    game = game_of(AGENT, ["spray", "flame", "spray", "flame"])
    game.teams[1][3].hp = 0
    apply_move(game, 0, Move(actor, "active", 0))
    assert [f.hp for f in game.teams[1]] == [330, 330, 330, 0]


@pytest.mark.parametrize("actor", [1, 3])  # flame and sunfish both have Infight
def test_infight_hurts_a_teammate_by_75_and_adds_140_attack(actor):
    game = game_of(AGENT, ["spray", "flame", "spray", "flame"])
    mate = 0
    apply_move(game, 0, Move(actor, "active", mate))
    assert game.teams[0][mate].hp == MAX_HP - 75
    assert game.teams[0][actor].atk == 340
    assert all(f.hp == MAX_HP for f in game.teams[1])


def test_infight_on_itself_or_a_dead_teammate_breaks_a_rule():
    game = game_of(AGENT, ["spray", "flame", "spray", "flame"])
    with pytest.raises(ActionError, match="itself"):
        apply_move(game, 0, Move(1, "active", 1))
    game.teams[0][0].hp = 0
    with pytest.raises(ActionError, match="live teammate"):
        apply_move(game, 0, Move(1, "active", 0))


def test_dead_fish_cannot_act_and_dead_enemy_cannot_be_attacked():
    game = game_of(AGENT, ["spray", "flame", "spray", "flame"])
    game.teams[0][0].hp = 0
    game.teams[1][2].hp = 0
    with pytest.raises(ActionError, match="dead fish cannot act"):
        apply_move(game, 0, Move(0, "normal", 1))
    with pytest.raises(ActionError, match="live enemy"):
        apply_move(game, 0, Move(1, "normal", 2))


# ---- passives --------------------------------------------------------------------------------------
def test_deflect_keeps_30_percent_and_splits_70_among_live_teammates():
    game = game_of(AGENT, ["eel", "spray", "flame", "sunfish"])
    game.teams[1][3].hp = 0  # the dead one gets nothing
    apply_move(game, 0, Move(0, "normal", 0))  # 100 damage to the eel
    assert [f.hp for f in game.teams[1]] == [370, 365, 365, 0]
    assert "deflect" in [s[2] for s in game.signals]


def test_deflect_does_not_trigger_without_an_attacker_or_teammates():
    game = game_of(AGENT, ["eel", "spray", "flame", "sunfish"])
    apply_guess(game, 0, 1, "spray")  # guess damage has no attacker
    assert [f.hp for f in game.teams[1]] == [350, 350, 350, 350]
    lone = game_of(AGENT, ["eel", "spray", "flame", "sunfish"])
    for pos in (1, 2, 3):
        lone.teams[1][pos].hp = 0
    apply_move(lone, 0, Move(0, "normal", 0))
    assert lone.teams[1][0].hp == 300


def test_deflect_fish_gains_40_attack_per_200_damage_taken():
    game = game_of(AGENT, ["sunfish", "spray", "flame", "eel"])
    game.teams[0][0].atk = 1000  # a normal attack of 500
    apply_move(game, 0, Move(0, "normal", 0))  # sunfish keeps 150, teammates 116 each
    assert game.teams[1][0].hp == 250 and game.teams[1][0].atk == 200  # 150 < 200
    game.teams[0][0].atk = 400
    apply_move(game, 0, Move(0, "normal", 0))  # keeps 60 more: 210 in total
    assert game.teams[1][0].atk == 240 and game.teams[1][0].wound == 10


def test_counter_strikes_the_attacker_when_a_teammate_drops_below_30_percent():
    game = game_of(AGENT, ["spray", "flame", "spray", "sunfish"])
    game.teams[1][1].hp = 150
    apply_move(game, 0, Move(0, "normal", 1))  # flame at 50 < 120: spray 0 and spray 2 counter, not itself
    assert game.teams[1][1].hp == 50
    assert game.teams[0][0].hp == MAX_HP - 60
    assert [s for s in game.signals if s[2] == "counter"] == [(1, 0, "counter"), (1, 2, "counter")]


def test_counter_does_not_trigger_above_30_percent_or_without_an_attacker():
    game = game_of(AGENT, ["spray", "flame", "spray", "sunfish"])
    apply_move(game, 0, Move(0, "normal", 1))
    assert game.teams[0][0].hp == MAX_HP
    game.teams[1][1].hp = 130
    apply_guess(game, 0, 1, "flame")  # 50 guess damage, no attacker: no counter
    assert game.teams[1][1].hp == 80 and game.teams[0][0].hp == MAX_HP


# ---- guesses and the end ---------------------------------------------------------------------------
def test_right_guess_reveals_and_damages_every_live_enemy_by_50():
    game = game_of(AGENT, ["eel", "spray", "flame", "sunfish"])
    game.teams[1][3].hp = 0
    assert apply_guess(game, 0, 2, "flame") is True
    assert game.teams[1][2].revealed
    assert [f.hp for f in game.teams[1]] == [350, 350, 350, 0]


def test_wrong_guess_changes_nothing_and_guesses_need_a_live_hidden_fish():
    game = game_of(AGENT, ["eel", "spray", "flame", "sunfish"])
    assert apply_guess(game, 0, 2, "eel") is False
    assert all(f.hp == MAX_HP and not f.revealed for f in game.teams[1])
    apply_guess(game, 0, 0, "eel")
    with pytest.raises(ActionError, match="already revealed"):
        apply_guess(game, 0, 0, "eel")
    game.teams[1][1].hp = 0
    with pytest.raises(ActionError, match="live fish"):
        apply_guess(game, 0, 1, "spray")
    with pytest.raises(ActionError):
        apply_guess(game, 0, 2, "shark")


def test_winner_by_elimination_and_at_the_round_limit():
    game = new_game(AGENT, AGENT)
    assert winner(game) is None
    game.teams[1][0].hp = 0
    assert winner(game, final=True) == 0
    for fish in game.teams[1]:
        fish.hp = 0
    assert winner(game) == 0
    draw = new_game(AGENT, AGENT)
    assert winner(draw, final=True) == -1


def test_match_runs_guess_then_action_then_the_opponent_turn():
    match = Match(AGENT, ["eel", "spray", "flame", "sunfish"], seed=3)
    assert match.phase == "guess"
    with pytest.raises(ActionError, match="guess phase"):
        match.act(Move(0, "normal", 0))
    match.guess(0, "eel")
    assert match.phase == "action"
    with pytest.raises(ActionError, match="action phase"):
        match.guess(1, "spray")
    match.act(Move(0, "normal", 1))
    assert match.phase in ("guess", "action") and match.game.round == 2
    assert any(event.startswith("The enemy") for event in match.log)


def test_opponent_guesses_a_type_its_clues_identify():
    match = Match(AGENT, ["eel", "spray", "flame", "sunfish"], seed=0)
    opponent = Opponent(seed=0)
    match.game.signals += [(0, 2, "aoe"), (0, 2, "deflect")]
    opponent.observe(match.game)
    assert opponent.guess(match.game) == (2, "eel")


def test_opponent_finishes_off_a_weak_enemy_else_uses_aoe():
    game = game_of(AGENT, ["sunfish", "spray", "flame", "eel"])
    opponent = Opponent(seed=0)
    game.teams[0][3].hp = 90
    assert opponent.move(game) == Move(0, "normal", 3)
    game.teams[0][3].hp = 400
    assert opponent.move(game) == Move(1, "active", 0)


# ---- the env ---------------------------------------------------------------------------------------


def test_random_agent_progresses_less_than_the_expert():
    env = CardGameEnv()
    random_progress, wins = [], 0
    for index in range(10):
        rng = np.random.default_rng(index)
        obs, info = env.reset(options={"task_index": index})
        while not env.episode_over and info["step"] < 60:
            actions = env.admissible_actions()
            obs, _, _, _, info = env.step(actions[int(rng.integers(len(actions)))])
        random_progress.append(info["progress_rate"])
        wins += info["success"]
    assert np.mean(random_progress) < 0.9 and wins < 10


@pytest.mark.parametrize(
    "action, reason, text",
    [
        ("I attack!", "unparsable", "No move found"),
        ('{"guess_type": "shark", "target_position": 1}', "bad_argument", "guess_type"),
        ('{"guess_type": "eel", "target_position": 7}', "bad_argument", "target_position"),
        ('{"guess_type": "eel"}', "unparsable", "missing"),
        ('{"pick_fish": "eel", "action": "normal", "target_position": 1}', "precondition_failed", "guess phase"),
        ("x" * 5000, "unparsable", "No move found"),
    ],
)
def test_bad_moves_are_invalid_with_the_rule_they_break(action, reason, text):
    env = CardGameEnv()
    env.reset(options={"task_index": 0})
    obs, reward, terminated, truncated, info = env.step(action)
    assert not info["valid"] and info["invalid_reason"] == reason and text in obs
    assert reward == 0.0 and not terminated


def test_action_phase_rules_reach_the_agent():
    env = CardGameEnv()
    env.reset(options={"task_index": 0})
    env.step(env.expert_action())  # the guess
    lineup = [f.kind for f in env.match.game.teams[0]]
    obs, _, _, _, info = env.step(json.dumps({"pick_fish": lineup[1], "action": "activ", "target_position": 0}))
    assert info["invalid_reason"] == "bad_argument"
    infight = next(k for k in lineup if k in ("flame", "sunfish"))
    me = lineup.index(infight)
    obs, _, _, _, info = env.step(json.dumps({"pick_fish": infight, "action": "active", "target_position": me}))
    assert info["invalid_reason"] == "precondition_failed" and "itself" in obs


def test_move_json_may_follow_thinking_text():
    assert read_object('I think eel. {"guess_type": "eel", "target_position": 2}') == {
        "guess_type": "eel",
        "target_position": 2,
    }


def test_train_split_is_any_number_of_games_disjoint_from_test():
    train = CardGameEnv(split="train", num_tasks=300)
    test_games = {json.dumps(t.params, sort_keys=True) for t in make_tasks("test")}
    assert len(train.task_ids) == 300
    assert not test_games & {json.dumps(t.params, sort_keys=True) for t in train.tasks}


@pytest.mark.slow
def test_expert_wins_a_seeded_1000_game_match_against_the_builtin_opponent():
    env = CardGameEnv(split="train", num_tasks=1000)
    wins = 0
    for index in range(1000):
        env.reset(options={"task_index": index})
        while not env.episode_over:
            env.step(env.expert_action())
        wins += env.match.result == 0
    assert wins >= 990  # measured: 1000/1000 (benchmarks/games.py --match 1000)


def test_action_in_the_wrong_phase_names_the_phase_rule():
    env = CardGameEnv()
    env.reset(options={"task_index": 1})
    obs, _, _, _, info = env.step("{'pick_fish': 'eel', 'action': 'normal', 'target_position': 0}")
    assert info["invalid_reason"] == "precondition_failed" and "guess phase" in obs
    env.step(env.expert_action())
    obs, _, _, _, info = env.step('{"guess_type": "eel", "target_position": 0}')
    assert info["invalid_reason"] == "precondition_failed" and "action phase" in obs


def test_dcg_score_is_agentbench_reward_for_the_game_so_far():
    env = CardGameEnv()
    obs, info = env.reset(options={"task_index": 0})
    assert info["dcg_score"] == 0.0
    scores = []
    while not env.episode_over:
        obs, _, _, _, info = env.step(env.expert_action())
        enemy = env.unwrapped.match.game.teams[1]
        removed = sum(400 - fish.hp for fish in enemy)
        won = 0.7 if env.unwrapped.match.result == 0 else 0.0
        assert info["dcg_score"] == pytest.approx(won + 0.3 * removed / 1600)
        scores.append(info["dcg_score"])
    assert scores == sorted(scores) and 0.0 < scores[0] and info["success"] and scores[-1] == pytest.approx(1.0)
    obs, _, _, _, info = env.step("I attack!")  # a refused step: the family adds nothing to the info
    assert "dcg_score" not in info or env.episode_over


# ---- what AgentBench's logic reports (agentbench_sdk=True) ------------------------------------------
def test_move_reports_name_the_targets_aims_and_passives_the_events_show():
    game = game_of(AGENT, ["eel", "spray", "sunfish", "flame"])
    game.teams[1][3].hp = 130  # below 30% after the next hit: the counter fires
    apply_move(game, 0, Move(0, "active", 2))
    report = game.last_moves[0]
    assert (report.actor, report.skill) == (0, "aoe")
    assert report.targets == tuple((1, pos, 70) for pos in range(4))
    triggered = [e for e in game.events if " passive Counter:" in e or " passive Deflect: kept" in e]
    shown = [(1, int(e.split()[2]), e.split()[4].rstrip(":").lower()) for e in triggered]
    assert report.passives == tuple(shown) and {p[2] for p in shown} == {"deflect", "counter"}
    apply_move(game, 1, Move(1, "normal", 3))
    assert game.last_moves[1].targets == ((0, 3, 100),) and game.last_moves[0] is report
    apply_move(game, 0, Move(1, "active", 3))
    assert (game.last_moves[0].skill, game.last_moves[0].targets, game.last_moves[0].passives) == (
        "infight",
        ((0, 3, 75),),
        (),
    )


def test_the_sdk_view_follows_the_game_and_leaves_the_text_alone():
    env = CardGameEnv(agentbench_sdk=True, agent_lineup=["sunfish", "eel", "flame", "spray"])
    plain = CardGameEnv()
    _, info = env.reset(options={"task_index": 0})
    plain.reset(options={"task_index": 0})
    assert info["aquawar"]["GameInfo"]["MyFish"] == [4, 3, 2, 1] and info["aquawar"]["MyAction"] is None
    while not env.episode_over:
        action = env.expert_action()
        _, _, _, _, info = env.step(action)
        view, game = info["aquawar"], env.match.game
        assert view["phase"] == env.match.phase
        assert view["GameInfo"]["EnemyHP"] == [f.hp for f in game.teams[1]]
        assert [i != -1 for i in view["GameInfo"]["EnemyFish"]] == [f.revealed for f in game.teams[1]]
        assert [i < 0 for i in view["GameInfo"]["MyFish"]] == [f.revealed for f in game.teams[0]]
        if "guess_type" in json.loads(action):
            assert view["AssertReply"] == {"AssertResult": env.match.last_guess_right}
        else:
            assert view["AssertReply"] is None and view["MyAction"]["ActionFish"] == game.last_moves[0].actor
    with pytest.raises(ValueError, match="agent_lineup"):
        CardGameEnv(agent_lineup=["spray", "spray", "eel", "sunfish"])
