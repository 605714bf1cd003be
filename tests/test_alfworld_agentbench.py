"""AgentBench/ALFWorld-v0: AgentBench v0.2's protocol (hand-checked cases), its split files, and a replay of AgentBench's
own task code (``tests/reference/alfworld_agentbench.json``, written by ``tests/reference/record_alfworld_agentbench.py``).
"""

import json
import math
from collections import Counter
from pathlib import Path

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401

pytest.importorskip("alfworld")
pytest.importorskip("nltk")

from agentgym_text.agents.prompts import prompt_variants  # noqa: E402
from agentgym_text.agents.prompts.examples import replay_example  # noqa: E402
from agentgym_text.envs.alfworld.agentbench_v02_text import (  # noqa: E402
    NO_MARKER,
    RepeatRule,
    bleu,
    closest_command,
    first_observation,
    marked_action,
    with_actions,
)
from agentgym_text.envs.alfworld.gamefile import export_game, game_name  # noqa: E402
from agentgym_text.envs.alfworld.generator import generate_world  # noqa: E402
from agentgym_text.envs.alfworld.split_file import SplitFileError  # noqa: E402

ENV_ID = "AgentBench/ALFWorld-v0"
RECORDED = Path(__file__).parent / "reference" / "alfworld_agentbench.json"
FINISH = {"completed": "success", "agent invalid action": None, "task limit reached": "step_limit"}


@pytest.fixture(scope="module")
def env():
    made = gym.make(ENV_ID)
    yield made
    made.close()


# ---- the protocol, by hand ---------------------------------------------------------------------------------------
def test_first_observation_drops_the_banner_and_lists_the_available_actions(env):
    obs, info = env.reset(options={"task_id": "alfworld-pick-FloorPlan1-0"})
    intro = env.unwrapped.world.reset()
    assert intro.startswith("-= Welcome to TextWorld, ALFRED! =-\n\n")
    room = intro.split("\n\n")[1]
    assert first_observation(intro) == room + "\nYour task is to: put some bread on countertop."
    listed = env.unwrapped.world.admissible()
    # AgentBench's text, then the budget line every env's first observation ends with
    assert obs == (
        room + "\nYour task is to: put some bread on countertop. AVAILABLE ACTIONS: " + "\n".join(listed) + "\n"
        "You have 35 steps."
    )
    assert info["max_steps"] == 35 and info["goal"] == "put some bread on countertop."


def test_every_observation_ends_with_the_available_actions():
    assert (
        with_actions("Nothing happens.", ["look", "inventory"])
        == "Nothing happens. AVAILABLE ACTIONS: look\ninventory\n"
    )
    made = gym.make(ENV_ID)
    made.reset(options={"task_id": "alfworld-pick-FloorPlan1-0"})
    obs, *_ = made.step("ACTION: go to garbagecan 1")
    listed = made.unwrapped.world.admissible()
    assert obs.endswith(" AVAILABLE ACTIONS: " + "\n".join(listed) + "\n")
    assert obs.startswith("You arrive at garbagecan 1. On the garbagecan 1, you see")
    made.close()


@pytest.mark.parametrize(
    ("reply", "command"),
    [
        ("THOUGHT: the bread may be on a counter.\n ACTION: Go To CounterTop 1\nthen I take it", "go to countertop 1"),
        ("ACTION:look", "look"),
        ("ACTION: look ACTION: inventory", "look action: inventory"),  # the first marker, to the end of its line
        ("ACTION:\ngo to desk 1", ""),  # nothing after the marker on its line
        ("Action: look", None),  # the marker is case-sensitive
        ("go to desk 1", None),
    ],
)
def test_the_action_is_read_after_the_marker(reply, command):
    assert marked_action(reply) == command


def test_bleu_is_nltk_method_4_by_hand():
    # reference "go to cabinet 1", candidate "go to cabinet 2": precisions 3/4, 2/3, 1/2 and 0/1, the last smoothed by
    # method 4 to 1 / (2 * 5 / ln 4); no brevity penalty (same length)
    expected = (3 / 4 * 2 / 3 * 1 / 2 * (math.log(4) / 10)) ** 0.25
    assert bleu("go to cabinet 1", "go to cabinet 2") == pytest.approx(expected, rel=1e-12)
    assert bleu("go to cabinet 1", "go to cabinet 1") == pytest.approx(1.0)
    assert bleu("look", "dance with the broom") == 0.0


def test_a_command_is_mapped_to_the_admissible_one_of_highest_bleu():
    listed = ["go to cabinet 1", "go to cabinet 2", "go to countertop 1", "inventory", "look"]
    assert closest_command("go to the countertop 1", listed) == "go to countertop 1"
    assert closest_command("go to cabinet", listed) == "go to cabinet 1"  # equal scores: the first listed
    assert closest_command("go to cabinet 2", listed) == "go to cabinet 2"  # admissible: unchanged
    assert closest_command("dance with the broom", listed) == "dance with the broom"  # nothing above 0.01
    assert closest_command("anything", []) == "anything"


def test_a_mapped_command_is_played_and_an_unmapped_one_does_nothing():
    made = gym.make(ENV_ID)
    made.reset(options={"task_id": "alfworld-pick-FloorPlan1-0"})
    obs, _, _, _, info = made.step("ACTION: go to the garbagecan 1")
    assert obs.startswith("You arrive at garbagecan 1.") and info["valid"]
    obs, _, terminated, _, info = made.step("ACTION: dance with the broom")
    assert obs.startswith("Nothing happens. AVAILABLE ACTIONS: ") and not info["valid"] and not terminated
    made.close()


def test_three_identical_replies_fail_from_the_fourth_reply_on():
    rule = RepeatRule()
    assert [rule.failed_after("a") for _ in range(3)] == [False, False, False]  # only three replies so far
    assert rule.failed_after("a") is True
    rule = RepeatRule()
    assert [rule.failed_after(r) for r in ("a", "b", "b", "b")] == [False, False, False, True]
    made = gym.make(ENV_ID)
    made.reset(options={"task_id": "alfworld-pick-FloorPlan1-0"})
    results = [made.step(reply) for reply in ("ACTION: look", "ACTION: inventory", "ACTION: look", "ACTION: look")]
    assert [r[2] for r in results] == [False, False, False, False]
    *_, terminated, _, info = made.step("ACTION: look")
    assert terminated and info["finish_reason"] == "repetition" and not info["success"]
    made.close()


def test_the_same_command_with_different_thoughts_is_no_repeat():
    made = gym.make(ENV_ID)
    made.reset(options={"task_id": "alfworld-pick-FloorPlan1-0"})
    for n in range(5):
        *_, terminated, _, _ = made.step(f"THOUGHT: try {n}.\nACTION: look")
        assert not terminated
    made.close()


def test_a_reply_without_the_marker_ends_the_episode_when_strict():
    made = gym.make(ENV_ID, strict=True)
    made.reset(options={"task_id": "alfworld-pick-FloorPlan1-0"})
    obs, reward, terminated, truncated, info = made.step("go to garbagecan 1")
    assert (obs, terminated, truncated) == (NO_MARKER, True, False)
    assert info["finish_reason"] == "invalid_format" and info["invalid_reason"] == "unparsable"
    made.reset(options={"task_id": "alfworld-pick-FloorPlan1-0"})
    *_, terminated, _, info = made.step("ACTION:   ")
    assert terminated and info["finish_reason"] == "invalid_format"
    made.reset(options={"task_id": "alfworld-pick-FloorPlan1-0"})
    while not made.unwrapped.episode_over:  # the strict env's expert marks its commands
        action = made.unwrapped.expert_action()
        assert action.startswith("ACTION: ")
        *_, info = made.step(action)
    assert info["success"]
    made.close()


def test_by_default_a_reply_without_the_marker_is_read_as_the_command():
    made = gym.make(ENV_ID)
    made.reset(options={"task_id": "alfworld-pick-FloorPlan1-0"})
    obs, _, terminated, _, info = made.step("Go to garbagecan 1")
    assert obs.startswith("You arrive at garbagecan 1.") and info["valid"] and not terminated
    obs, _, terminated, _, info = made.step("ACTION:   \nlook")
    assert not terminated and not info["valid"] and info["invalid_reason"] == "empty"
    made.close()


def test_the_budget_is_35_steps():
    made = gym.make(ENV_ID)
    obs, info = made.reset(options={"task_id": "alfworld-pick-FloorPlan1-0"})
    assert obs.endswith("\nYou have 35 steps.") and info["max_steps"] == 35
    for step in range(35):
        *_, terminated, truncated, info = made.step(f"THOUGHT: {step}\nACTION: look")
        assert not terminated and truncated == (step == 34)
    assert info["finish_reason"] == "step_limit"
    made.close()


def test_default_tasks_are_50_in_agentbench_test_proportions(env):
    ids = env.unwrapped.task_ids
    assert len(ids) == 50
    assert list(Counter(task_id.split("-")[1] for task_id in ids).items()) == [
        ("pick", 9),
        ("clean", 9),
        ("heat", 8),
        ("cool", 8),
        ("look", 8),
        ("picktwo", 8),
    ]
    board = gym.make("AgentBoard/AlfWorld-v0")
    assert set(ids) <= set(board.unwrapped.task_ids)  # the same generated games
    board.close()


@pytest.mark.parametrize("name", ["put", "clean", "heat", "cool", "examine", "puttwo"])
def test_the_one_shot_example_of_each_task_type_replays(name):
    variant = prompt_variants("alfworld")["agentbench_v02"]
    example = variant["examples_by_type"][name]
    assert replay_example(ENV_ID, example["task_id"], example["example"], env_kwargs=variant["env_kwargs"]) == []


# ---- task_file= ----------------------------------------------------------------------------------------------------
GAMES = [("pick", 1, 0), ("look", 301, 0), ("heat", 1, 0)]


@pytest.fixture(scope="module")
def data_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("alfworld_data")
    split: dict[str, list[str]] = {"pick_and_place": [], "look_at_obj": [], "pick_heat_then_place": []}
    names = []
    for (short, floorplan, seed), key in zip(GAMES, split, strict=True):
        world = generate_world(floorplan, short, seed)
        relative = f"json_2.1.1/valid_unseen/{game_name(world)}"
        export_game(world, root / relative)
        split[key].append(f"{relative}/game.tw-pddl")
        names.append(game_name(world))
    (root / "standard.json").write_text(json.dumps(split))
    return root, names


def test_task_file_plays_the_split_in_file_order(data_root):
    root, names = data_root
    made = gym.make(ENV_ID, task_file=str(root / "standard.json"), game_dir=str(root))
    assert made.unwrapped.task_ids == names
    for task_id in names:
        obs, info = made.reset(options={"task_id": task_id})
        assert obs.startswith("You are in the middle of a room.") and " AVAILABLE ACTIONS: " in obs
        assert info["max_steps"] == 35 and info["goal"]
        while not made.unwrapped.episode_over:
            *_, info = made.step(made.unwrapped.expert_action())
        assert info["success"] and info["progress_rate"] == 1.0
    made.close()


def _split(tmp_path, content) -> str:
    path = tmp_path / "split.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not a JSON file"),
        ([], "expected {task type: \\[game paths\\]}"),
        ({"pick_and_place": "json_2.1.1/x/game.tw-pddl"}, "must map to a list of game paths"),
        ({"pick_and_place": []}, "names no games"),
        ({"pick_and_place": ["json_2.1.1/valid_unseen/nowhere/trial_T0/game.tw-pddl"]}, "no game.tw-pddl"),
        ({"pick_and_place": ["../outside/game.tw-pddl"]}, "not a path inside game_dir"),
    ],
)
def test_a_bad_split_file_is_refused_with_its_name(tmp_path, data_root, content, message):
    root, _ = data_root
    with pytest.raises(SplitFileError, match=message):
        gym.make(ENV_ID, task_file=_split(tmp_path, content), game_dir=str(root))


def test_a_game_named_twice_or_sliced_is_refused(tmp_path, data_root):
    root, names = data_root
    path = f"json_2.1.1/valid_unseen/{names[0]}/game.tw-pddl"
    with pytest.raises(SplitFileError, match="games named twice"):
        gym.make(ENV_ID, task_file=_split(tmp_path, {"pick_and_place": [path, path]}), game_dir=str(root))
    sliced = root / "json_2.1.1/valid_unseen/pick_and_place_simple-BreadSliced-None-Fridge-1/trial_T0"
    sliced.mkdir(parents=True)
    for name in ("game.tw-pddl", "traj_data.json"):
        (sliced / name).write_text((root / "json_2.1.1/valid_unseen" / names[0] / name).read_text())
    relative = f"{sliced.relative_to(root)}/game.tw-pddl"
    with pytest.raises(SplitFileError, match="sliced"):
        gym.make(ENV_ID, task_file=_split(tmp_path, {"pick_and_place": [relative]}), game_dir=str(root))


def test_task_file_needs_game_dir_and_refuses_the_shipped_task_options(tmp_path, data_root):
    root, _ = data_root
    split = str(root / "standard.json")
    with pytest.raises(SplitFileError, match="needs game_dir="):
        gym.make(ENV_ID, task_file=split)
    with pytest.raises(SplitFileError, match="no such file"):
        gym.make(ENV_ID, task_file=str(tmp_path / "missing.json"), game_dir=str(root))
    for option in ({"num_tasks": 3}, {"task_type": "pick"}, {"floorplan": 1}):
        with pytest.raises(ValueError, match="pass one or the other"):
            gym.make(ENV_ID, task_file=split, game_dir=str(root), **option)
    with pytest.raises(ValueError, match="strict= is an option of AgentBench's protocol"):
        gym.make("AgentBoard/AlfWorld-v0", strict=True)


# ---- AgentBench's own task code ----------------------------------------------------------------------------------
def _episodes():
    return json.loads(RECORDED.read_text())["episodes"]


def test_the_recording_covers_every_ending():
    statuses = Counter(episode["status"] for episode in _episodes())
    assert set(statuses) == {"completed", "agent invalid action", "task limit reached"}
    replies = [reply for episode in _episodes() for reply in episode["replies"]]
    played = [command for episode in _episodes() for command in episode["played"]]
    assert any("ACTION:" not in reply for reply in replies)  # a reply without the marker ended a sample
    assert any(" the " in reply and "ACTION:" in reply for reply in replies)  # near misses, mapped by BLEU
    assert "dance with the broom" in played  # an unmapped command reaches the game as it is


@pytest.mark.parametrize("number", range(24))
def test_agentbench_task_code_gives_the_same_observations_and_result(number):
    episode = _episodes()[number]
    made = gym.make(ENV_ID, strict=True)
    try:
        obs, _ = made.reset(options={"task_id": episode["task_id"]})
        first = episode["init_prompt"].removeprefix("Here is your task. ").rstrip("\n")
        assert obs == first + "\nYou have 35 steps."
        terminated = truncated = False
        info: dict = {}
        for step, reply in enumerate(episode["replies"]):
            obs, _, terminated, truncated, info = made.step(reply)
            if step < len(episode["observations"]):
                assert obs == episode["observations"][step], (step, reply)
        assert terminated or truncated
        assert info["success"] == episode["result"]
        expected = FINISH[episode["status"]]
        if expected is None:  # AgentBench's one status for both: a reply without ACTION: or three repeats
            no_marker = "ACTION:" not in episode["replies"][-1]
            expected = "invalid_format" if no_marker else "repetition"
            assert len(episode["observations"]) == len(episode["replies"]) - no_marker
        assert info["finish_reason"] == expected
    finally:
        made.close()


# ---- AgentQuest/ALFWorld-v0 --------------------------------------------------------------------------------------
def test_agentquest_is_agentboards_env_with_60_steps():
    quest, board = gym.make("AgentQuest/ALFWorld-v0"), gym.make("AgentBoard/AlfWorld-v0")
    assert quest.unwrapped.task_ids == board.unwrapped.task_ids
    assert {task.max_steps for task in quest.unwrapped.tasks} == {60}
    obs_q, info_q = quest.reset(options={"task_index": 5})
    obs_b, info_b = board.reset(options={"task_index": 5})
    assert obs_q == obs_b.replace("You have 30 steps.", "You have 60 steps.") and info_q["max_steps"] == 60
    for _ in range(6):
        action = board.unwrapped.expert_action()
        assert quest.step(action)[0] == board.step(action)[0]
    quest.close()
    board.close()
    with pytest.raises(ValueError, match="budget must be a positive number"):
        gym.make("AgentBoard/AlfWorld-v0", budget=0)
