"""AgentBoard/PDDL-v0 with AgentBoard's data folder (``agentboard_data=``): the lines label our 60 problems in
AgentBoard's order, difficulty comes from the file, progress is AgentBoard's goal-fact rule, bad files are refused.

The files are written here in AgentBoard's format (its own data is GPL-2.0 and never in the repository).
``tests/reference/pddl_agentboard_progress.json`` was recorded by ``tests/reference/record_pddl.py --record
--fixture`` from AgentBoard's own env playing our problems, labelled by the lines its ``fixture_lines`` writes.
"""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401  (registers the ids)
from agentgym_text.core.agentboard_data import SETTING, AgentBoardDataError
from agentgym_text.envs.pddl.agentboard_data import agentboard_order
from agentgym_text.envs.pddl.tasks import shipped_tasks
from tests.support.agentboard_fixtures import write_task_file
from tests.support.pddl_recorder import RECORDER

ENV_ID = "AgentBoard/PDDL-v0"
RECORDED = Path(__file__).resolve().parent / "reference" / "pddl_agentboard_progress.json"
fixture_lines = RECORDER.fixture_lines
"""60 lines in AgentBoard's format: every fourth line from the second "hard", the others "easy" (the recorder's)."""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return write_task_file(tmp_path / "data", "pddl", fixture_lines())


def _make(**kwargs) -> gym.Env:
    return gym.make(ENV_ID, **kwargs)


# ---- matching: line order over gripper, blockworld (pddlgym's name order), barman, tyreworld ---------------
def test_lines_go_to_gripper_blockworld_in_name_order_barman_tyreworld():
    order = agentboard_order()
    assert len(order) == len(set(order)) == 60
    assert order[:2] == ["pddl-gripper-p01", "pddl-gripper-p02"] and order[19] == "pddl-gripper-p20"
    # pddlgym sorts blockworld's problem1..problem10 by name: problem1, problem10, problem2, ..., problem9
    assert order[20:24] == [
        "pddl-blocksworld-p01",
        "pddl-blocksworld-p10",
        "pddl-blocksworld-p02",
        "pddl-blocksworld-p03",
    ]
    assert order[29] == "pddl-blocksworld-p09"
    assert order[30] == "pddl-barman-p01" and order[49] == "pddl-barman-p20"
    assert order[50] == "pddl-tyreworld-p01" and order[59] == "pddl-tyreworld-p10"


def test_difficulty_is_the_lines_and_the_instances_are_ours(folder: Path):
    env = _make(agentboard_data=str(folder))
    tasks = list(env.unwrapped.tasks)
    assert [task.task_id for task in tasks] == agentboard_order()  # AgentBoard's order
    labels = {task.task_id: task.difficulty for task in tasks}
    assert labels["pddl-blocksworld-p10"] == "hard"  # the 22nd line (ours by goal size: easy)
    assert labels["pddl-blocksworld-p01"] == labels["pddl-blocksworld-p02"] == "easy"
    assert [labels[task_id] for task_id in agentboard_order()] == [line["difficulty"] for line in fixture_lines()]
    ours = {task.task_id: task for task in shipped_tasks()}
    for task in tasks:  # the same problem, goal and budget; only the label (and where it came from) differ
        assert task.params["problem"] == ours[task.task_id].params["problem"] and task.goal == ours[task.task_id].goal
        assert task.params["agentboard_line"].endswith(f"line {agentboard_order().index(task.task_id) + 1}")
    _, info = env.reset(options={"task_id": "pddl-blocksworld-p10"})
    assert info["difficulty"] == "hard"
    without = _make()
    assert without.unwrapped.tasks[without.unwrapped.tasks.index_of("pddl-blocksworld-p10")].difficulty == "easy"


def test_the_setting_names_the_folder_when_the_option_does_not(folder: Path, monkeypatch):
    monkeypatch.setenv(SETTING, str(folder))
    env = _make()
    assert env.unwrapped.task_ids == agentboard_order()
    monkeypatch.delenv(SETTING)
    assert _make().unwrapped.task_ids == [task.task_id for task in shipped_tasks()]  # ours, in our order


def test_domain_keeps_the_lines_of_that_domain(folder: Path):
    env = _make(agentboard_data=str(folder), domain="blocksworld")
    assert env.unwrapped.task_ids == [task_id for task_id in agentboard_order() if "blocksworld" in task_id]


# ---- progress: AgentBoard's rule, by hand ----------------------------------------------------------------
def test_progress_by_hand_best_fraction_of_goal_facts_on_state_changing_steps(folder: Path):
    """pddl-blocksworld-p01: three blocks on the table; goal "b1 is on b3", "b3 is on the table" (the second true
    from the start). AgentBoard credits progress only on steps that change the state, as the best fraction so far."""
    env = _make(agentboard_data=str(folder))
    _, info = env.reset(options={"task_id": "pddl-blocksworld-p01"})
    assert info["goal"] == "The goal is to satisfy the following conditions: b1 is on b3., b3 is on the table."
    script = [
        ("check valid actions", True, 0.0),  # no state change: nothing credited, though 1 of 2 facts holds
        ("look around", True, 0.0),
        ("stack b1 b1", False, 0.0),  # read, changes nothing
        ("Pickup b2.", True, 0.5),  # the state changes: 1 of 2 goal facts true
        ("putdown b2", True, 0.5),
        ("pickup b3", True, 0.5),  # b3 leaves the table: 0 of 2 now, the best stays
        ("Putdown b3.", True, 0.5),
        ("pickup b1", True, 0.5),
        ("Stack b1 on b3.", True, 1.0),
    ]
    for action, valid, progress in script:
        _, _, terminated, _, info = env.step(action)
        assert (info["valid"], info["progress_rate"]) == (valid, progress), action
    assert terminated and info["success"]
    assert info["difficulty"] == "easy"


def test_progress_now_drops_while_the_rate_keeps_its_best(folder: Path):
    env = _make(agentboard_data=str(folder))
    env.reset(options={"task_id": "pddl-blocksworld-p01"})
    env.step("pickup b2")
    _, _, _, _, info = env.step("putdown b2")
    assert info["progress_now"] == info["progress_rate"] == 0.5
    _, _, _, _, info = env.step("pickup b3")
    assert info["progress_now"] == 0.0 and info["progress_rate"] == 0.5


def _replay_recording(folder: Path, fixes: bool) -> tuple[int, int, int, int]:
    recorded = json.loads(RECORDED.read_text())["episodes"]
    env = _make(agentboard_data=str(folder), agentboard_fixes=fixes, max_episode_steps=10_000)
    steps = agree = labels = 0
    for episode in recorded:
        _, info = env.reset(options={"task_id": episode["task_id"]})
        labels += info["difficulty"] == episode["difficulty"]
        for action, expected in zip(episode["actions"], episode["progress"], strict=True):
            _, _, terminated, _, info = env.step(action)
            steps += 1
            agree += info["progress_rate"] == pytest.approx(expected, abs=1e-9)
        assert terminated == episode["won"] == info["success"], episode["task_id"]
    return agree, steps, labels, len(recorded)


@pytest.mark.parametrize("fixes", [False, True])  # no metric fix: the same either way
def test_agentboards_own_env_on_our_problems_gives_the_same_progress_on_every_step(folder: Path, fixes: bool):
    agree, steps, labels, episodes = _replay_recording(folder, fixes)
    print(f"fixes={fixes}: progress agrees on {agree}/{steps} steps; difficulty on {labels}/{episodes} episodes")
    assert episodes == 60 and steps > 1000
    assert agree == steps and labels == episodes


# ---- budget --------------------------------------------------------------------------------------------
def test_every_task_has_agentboards_30_steps_unless_overridden():
    env = _make()
    assert env.spec.max_episode_steps == 30 and {task.max_steps for task in env.unwrapped.tasks} == {30}
    obs, info = env.reset(options={"task_id": "pddl-gripper-p20"})  # its expert plan is longer than 30
    assert info["max_steps"] == 30 and "You have 30 steps." in obs
    _, info = _make(max_episode_steps=80).reset(options={"task_id": "pddl-gripper-p20"})
    assert info["max_steps"] == 80


# ---- bad input: one clear error naming the file and line -------------------------------------------------
def test_a_missing_folder_or_task_file_is_refused(tmp_path: Path):
    with pytest.raises(AgentBoardDataError, match="does not exist"):
        _make(agentboard_data=str(tmp_path / "nowhere"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(AgentBoardDataError, match=r"pddl/test\.jsonl is missing"):
        _make(agentboard_data=str(tmp_path / "empty"))


def test_a_malformed_line_is_refused_with_its_line_number(tmp_path: Path):
    lines: list = fixture_lines()
    lines[6] = '{"difficulty": "easy",'
    with pytest.raises(AgentBoardDataError, match="line 7: not JSON"):
        _make(agentboard_data=str(write_task_file(tmp_path, "pddl", lines)))


def test_a_line_without_or_with_a_bad_difficulty_is_refused_whichever_domain_is_played(tmp_path: Path):
    lines = fixture_lines()
    del lines[2]["difficulty"]  # a gripper line; barman is played
    with pytest.raises(AgentBoardDataError, match="line 3: the field 'difficulty' is missing"):
        _make(agentboard_data=str(write_task_file(tmp_path / "a", "pddl", lines)), domain="barman")
    lines = fixture_lines()
    lines[40]["difficulty"] = "medium"
    with pytest.raises(AgentBoardDataError, match="line 41: difficulty must be one of"):
        _make(agentboard_data=str(write_task_file(tmp_path / "b", "pddl", lines)))


def test_a_file_of_another_length_is_refused(tmp_path: Path):
    with pytest.raises(AgentBoardDataError, match="has 59 lines, but AgentBoard matches its lines to the 60"):
        _make(agentboard_data=str(write_task_file(tmp_path, "pddl", fixture_lines()[:59])))


def test_a_problem_file_with_the_data_folder_is_refused(folder: Path):
    problem = Path(shipped_tasks()[0].params["problem"])
    from agentgym_text.envs.pddl.problem_files import PROBLEM_DIR

    with pytest.raises(AgentBoardDataError, match="problem_file"):
        _make(agentboard_data=str(folder), domain="blocksworld", problem_file=str(PROBLEM_DIR / problem))
