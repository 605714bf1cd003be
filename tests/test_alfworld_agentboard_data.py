"""agentboard_data= on AgentBoard/AlfWorld-v0: AgentBoard's annotation lines (fixture files written here, in its
format) matched to games by task/trial, its regex progress rule by hand, the errors, and the replay of AgentBoard's
own env (tests/reference/alfworld_agentboard.json, written by tests/reference/record_alfworld.py)."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401

pytest.importorskip("alfworld")

from agentgym_text.core.agentboard_data import SETTING, AgentBoardDataError  # noqa: E402
from agentgym_text.envs.alfworld.gamefile import export_game, game_name  # noqa: E402
from agentgym_text.envs.alfworld.generator import generate_world  # noqa: E402
from agentgym_text.envs.alfworld.tasks import load_world, make_tasks  # noqa: E402
from tests.support.agentboard_fixtures import write_task_file  # noqa: E402

RECORDING = Path(__file__).parent / "reference" / "alfworld_agentboard.json"
SMALL = {"task_type": "heat", "floorplan": 1, "num_tasks": 2}
"""Two generated heat games on FloorPlan1: heat an apple for the garbage can, heat a cup for the sink basin."""
APPLE = ["You pick up the apple", "You heat the apple", r"take apple \d+ from", "Nothing happens"]
PLAN = [
    "go to countertop 2",
    "check valid actions",  # lists "take apple 1 from countertop 2"
    "jump",  # "Nothing happens."
    "take apple 1 from countertop 2",
    "go to microwave 1",
    "heat apple 1 with microwave 1",
    "go to garbagecan 1",
    "move apple 1 to garbagecan 1",
]


@pytest.fixture(autouse=True)
def _no_setting(monkeypatch):
    monkeypatch.delenv(SETTING, raising=False)


def _names() -> list[str]:
    tasks, games = make_tasks(**SMALL)
    return [game_name(load_world(games, task.task_id)) for task in tasks]


def _line(name: str, subgoals: list[str], difficulty: str = "hard") -> dict:
    return {"difficulty": difficulty, "subgoals": subgoals, "additional_info": {"description": name}}


def _data(tmp_path: Path, lines: list | None = None) -> Path:
    apple, cup = _names()
    default = [_line(cup, ["You pick up the cup"], "easy"), _line(apple, APPLE)]
    return write_task_file(tmp_path, "alfworld", default if lines is None else lines)


def _play(env, actions: list[str]) -> list[dict]:
    infos = []
    for action in actions:
        *_, info = env.step(action)
        infos.append(info)
    return infos


def test_names_are_alfworlds_folder_layout():
    assert _names() == [
        "pick_heat_then_place_in_recep-Apple-None-GarbageCan-1/trial_T0",
        "pick_heat_then_place_in_recep-Cup-None-SinkBasin-1/trial_T1",
    ]


@pytest.mark.parametrize(
    ("fixes", "expected"),
    [
        # every reply is searched, a match stays, n + 1 slots, 1.0 once won; the listing is not searched
        (True, [0, 0, 1 / 5, 2 / 5, 2 / 5, 3 / 5, 3 / 5, 1.0]),
        # AgentBoard's own rule: the listing is searched too, so "take apple 1 from" is credited at step 2
        (False, [0, 1 / 5, 2 / 5, 3 / 5, 3 / 5, 4 / 5, 4 / 5, 1.0]),
    ],
)
def test_progress_is_agentboards_regex_rule_by_hand(tmp_path, fixes, expected):
    env = gym.make("AgentBoard/AlfWorld-v0", **SMALL, agentboard_data=str(_data(tmp_path)), agentboard_fixes=fixes)
    apple_task = env.unwrapped.task_ids[0]
    _, info = env.reset(options={"task_id": apple_task})
    assert (info["difficulty"], info["max_steps"], info["subgoals"]) == ("hard", 30, APPLE)
    assert info["goal"] == "heat some apple and put it in garbagecan."
    infos = _play(env, PLAN)
    assert [info["progress_rate"] for info in infos] == pytest.approx(expected)
    assert infos[-1]["success"] and infos[2]["valid"] is False
    assert infos[-2]["subgoals_done"] == [True, True, not fixes, True]
    env.close()


def test_lines_match_games_by_name_not_order_and_give_difficulty(tmp_path):
    env = gym.make("AgentBoard/AlfWorld-v0", **SMALL, agentboard_data=str(_data(tmp_path)))
    tasks = env.unwrapped.tasks
    assert [task.difficulty for task in tasks] == ["hard", "easy"]  # the file lists the cup's line first
    assert [task.task_id for task in tasks] == [task.task_id for task in make_tasks(**SMALL)[0]]
    assert all(task.max_steps == 30 for task in tasks)
    _, info = env.reset(options={"task_index": 1})
    assert (info["subgoals"], info["difficulty"]) == (["You pick up the cup"], "easy")
    env.close()


def test_agentboards_look_answers_the_last_go_to_or_open_and_its_listing_names_itself():
    actions = ("look", "go to countertop 2", "take apple 1 from countertop 2", "look", "check valid actions")
    replies = {}
    for fixes in (True, False):
        env = gym.make("AgentBoard/AlfWorld-v0", **SMALL, agentboard_fixes=fixes)
        first, _ = env.reset(options={"task_index": 0})
        replies[fixes] = [first.split("\n")[0], *(env.step(action)[0] for action in actions)]
        env.close()
    room, look, arrival, _, stale_look, listing = replies[False]
    assert look == room and stale_look == arrival and "apple 1" in stale_look  # the apple was taken
    assert replies[True][4] != stale_look and "apple 1" not in replies[True][4]
    assert listing.endswith(", check valid actions") and not replies[True][5].endswith("check valid actions")


def test_the_setting_names_the_folder(tmp_path, monkeypatch):
    monkeypatch.setenv(SETTING, str(_data(tmp_path)))
    env = gym.make("AgentBoard/AlfWorld-v0", **SMALL)
    assert [task.difficulty for task in env.unwrapped.tasks] == ["hard", "easy"]
    env.close()


def test_without_the_folder_the_tasks_and_subgoals_are_ours():
    env = gym.make("AgentBoard/AlfWorld-v0", **SMALL)
    _, info = env.reset(options={"task_index": 0})
    assert info["subgoals"][0] == "find the apple" and env.unwrapped.tasks[0].difficulty == "hard"
    env.close()


def _bad(tmp_path, lines, message, **kwargs):
    write_task_file(tmp_path, "alfworld", lines)
    with pytest.raises(AgentBoardDataError, match=message):
        gym.make("AgentBoard/AlfWorld-v0", **{**SMALL, **kwargs}, agentboard_data=str(tmp_path))


def test_bad_folders_and_lines_are_named(tmp_path):
    apple, cup = _names()
    with pytest.raises(AgentBoardDataError, match="does not exist"):
        gym.make("AgentBoard/AlfWorld-v0", **SMALL, agentboard_data=str(tmp_path / "nowhere"))
    with pytest.raises(AgentBoardDataError, match="alfworld/test.jsonl is missing"):
        gym.make("AgentBoard/AlfWorld-v0", **SMALL, agentboard_data=str(tmp_path))
    real = "pick_and_place_simple-Pencil-None-Shelf-308/trial_T20190908_121952_610012"
    _bad(tmp_path, [_line(apple, []), _line(real, [])], r"line 2: .*names none of the env's generated games.*game_dir")
    _bad(tmp_path, [_line(apple, []), _line(apple, [])], r"line 2: the game .* is annotated twice \(first on line 1\)")
    _bad(tmp_path, [_line(apple, [])], r"has no line for 1 of the env's 2 games .*Cup")
    _bad(tmp_path, [_line(apple, []), _line(cup, ["(unclosed"])], r"line 2: the subgoal '\(unclosed' is not a Python")
    _bad(tmp_path, [_line(apple, []), _line(cup, "You pick")], r"line 2: the field 'subgoals' must be list")
    _bad(tmp_path, [_line(apple, []), _line(cup, [3])], r"line 2: every entry of 'subgoals' must be a string")
    _bad(tmp_path, [_line(apple, []), {"difficulty": "easy", "subgoals": []}], r"line 2: the field 'additional_info")
    _bad(tmp_path, [_line(apple, [], "medium"), _line(cup, [])], r"line 1: difficulty must be one of")
    _bad(tmp_path, [_line(apple, []), "{not json"], r"line 2: not JSON")


def test_downloaded_games_are_annotated_by_their_folders(tmp_path):
    games = tmp_path / "valid_unseen"
    world = generate_world(1, "heat", 0)
    export_game(world, games / game_name(world))
    data = write_task_file(tmp_path / "data", "alfworld", [_line(game_name(world), APPLE[:2])])
    env = gym.make("AgentBoard/AlfWorld-v0", game_dir=str(games), agentboard_data=str(data))
    _, info = env.reset()
    assert info["task_id"] == game_name(world) and info["subgoals"] == APPLE[:2]
    infos = _play(env, ["go to countertop 2", "take apple 1 from countertop 2"])
    assert [info["progress_rate"] for info in infos] == pytest.approx([0, 1 / 3])
    env.close()
    write_task_file(tmp_path / "data", "alfworld", [_line("other-task/trial_T9", [])])
    with pytest.raises(AgentBoardDataError, match=r"line 1: .*names none of the games under game_dir \(1"):
        gym.make("AgentBoard/AlfWorld-v0", game_dir=str(games), agentboard_data=str(tmp_path / "data"))


# ---- the replay of AgentBoard's own env --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def recording():
    return json.loads(RECORDING.read_text())


@pytest.fixture(scope="module")
def recorded_data(recording, tmp_path_factory):
    return write_task_file(tmp_path_factory.mktemp("agentboard"), "alfworld", recording["labels"])


def _replay(recording, folder, fixes):
    """Per recorded step: (ours, theirs) for observation, validity, progress, done."""
    env = gym.make("AgentBoard/AlfWorld-v0", agentboard_data=str(folder), agentboard_fixes=fixes)
    rows = []
    for episode in recording["episodes"]:
        first, info = env.reset(options={"task_id": episode["task_id"]})
        assert first.split("\n")[0] == episode["observation"], episode["task_id"]
        assert info["difficulty"] == episode["difficulty"]
        assert "Your task is to: " + info["goal"].removesuffix(".") + "." == episode["goal"]
        for step in episode["steps"]:
            observation, _, terminated, _, info = env.step(step["action"])
            rows.append(
                (
                    (observation, info["valid"], info["progress_rate"], terminated),
                    (step["observation"], step["valid"], step["progress"], step["done"]),
                )
            )
    env.close()
    return rows


def test_replay_of_agentboards_env_agrees_on_every_step_with_fixes_off(recording, recorded_data):
    rows = _replay(recording, recorded_data, fixes=False)
    assert len(recording["episodes"]) == 24 and len(rows) > 400
    differing = [(ours, theirs) for ours, theirs in rows if not _same(ours, theirs)]
    assert differing == []


def _same(ours: tuple, theirs: tuple) -> bool:
    return ours[0] == theirs[0] and ours[1] == theirs[1] and abs(ours[2] - theirs[2]) < 1e-9 and ours[3] == theirs[3]


def test_with_fixes_on_only_look_and_the_listing_differ(recording, recorded_data):
    fixed = _replay(recording, recorded_data, fixes=True)
    actions = [step["action"] for episode in recording["episodes"] for step in episode["steps"]]
    for action, (ours, theirs) in zip(actions, fixed, strict=True):
        if action not in ("look", "check valid actions"):
            assert ours[0] == theirs[0], action
        assert ours[2] <= theirs[2] + 1e-9  # the listing no longer credits subgoals
    assert any(ours[2] < theirs[2] for ours, theirs in fixed)
