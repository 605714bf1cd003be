"""AgentBoard/BabyAI-v0 with AgentBoard's data folder (``agentboard_data=``): its annotation lines matched by order,
its progress rule by hand on scripted trajectories, its ending rule, the bad-input errors, and the replay of
AgentBoard's own env fed the same lines (``tests/reference/babyai_agentboard_progress.json``, written by
``tests/reference/record_babyai.py``).

Every data folder here is written by the test in AgentBoard's format; AgentBoard's own data is never used.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("minigrid")

import gymnasium as gym  # noqa: E402

from agentgym_text.core.agentboard_data import SETTING, AgentBoardDataError  # noqa: E402
from agentgym_text.envs.babyai.agentboard_data import matches  # noqa: E402
from agentgym_text.envs.babyai.env import BabyAIEnv  # noqa: E402
from agentgym_text.envs.babyai.tasks import agentboard_tasks  # noqa: E402
from tests.support.agentboard_fixtures import write_task_file  # noqa: E402

REFERENCE = Path(__file__).resolve().parent / "reference" / "babyai_agentboard_progress.json"
FIRST = "babyai-GoToRedBallGrey-1234"
"""Line 1's instance. Facing a wall; "turn left" shows "There is a red ball 1 right in front of you 4 steps away."
among grey objects; "go to red ball 1" then reaches it (minigrid's success)."""
DEBUG = "babyai-OpenRedBlueDoorsDebug-1235"
"""Line 58's instance: "open the red door, then open the blue door"; "go to blue closed door 1" then "toggle"
opens the blue door first, which minigrid ends as a failure in that one low-level step."""


def lines(overrides: dict[str, dict] | None = None) -> list[dict]:
    """112 lines in AgentBoard's format, one per shipped instance in order; ``overrides`` (task id -> fields)
    replace a line's fields (a value None drops the field)."""
    result = []
    for task in agentboard_tasks():
        line = {"goal": task.goal, "subgoals": ["You are carrying a purple key."], "difficulty": "easy"}
        for key, value in (overrides or {}).get(task.task_id, {}).items():
            if value is None:
                line.pop(key, None)
            else:
                line[key] = value
        result.append(line)
    return result


def folder_with(tmp_path: Path, task_id: str, **fields) -> Path:
    """A data folder whose line for ``task_id`` has ``fields`` (subgoal keys replace the default subgoals)."""
    if any(key.startswith("subgoals_") for key in fields) and "subgoals" not in fields:
        fields["subgoals"] = None
    return write_task_file(tmp_path, "babyai", lines({task_id: fields}))


def play(env: BabyAIEnv, task_id: str, actions: list[str]) -> list[tuple[float, bool, bool, str]]:
    """(progress, terminated, success, observation) after each action."""
    env.reset(options={"task_id": task_id})
    rows = []
    for action in actions:
        obs, _, terminated, _, info = env.step(action)
        rows.append((info["progress_rate"], terminated, info["success"], obs))
    return rows


def progress_of(rows) -> list[float]:
    return [round(row[0], 4) for row in rows]


# ---- matching lines to instances ------------------------------------------------------------------------------


def test_lines_are_matched_by_order_with_goal_and_difficulty_from_the_file(tmp_path):
    folder = folder_with(tmp_path, FIRST, goal="reach the red ball", difficulty="hard")
    env = BabyAIEnv(agentboard_data=str(folder))
    assert env.task_ids == BabyAIEnv().task_ids  # the same ids for the same instances
    task = env.tasks[0]
    assert (task.task_id, task.goal, task.difficulty) == (FIRST, "reach the red ball", "hard")
    assert BabyAIEnv().tasks[0].difficulty == "easy"  # ours differs: the file's label wins
    _, info = env.reset(options={"task_id": FIRST})
    assert (info["goal"], info["difficulty"]) == ("reach the red ball", "hard")
    # AgentBoard's agent sees the goal its env makes from the mission, whatever the file says
    _, info = BabyAIEnv(agentboard_data=str(folder), agentboard_fixes=False).reset(options={"task_id": FIRST})
    assert info["goal"] == "go to the red ball"


def test_option_and_setting_both_work_and_the_option_wins(tmp_path, monkeypatch):
    folder = folder_with(tmp_path / "a", FIRST, difficulty="hard")
    monkeypatch.setenv(SETTING, str(folder))
    assert BabyAIEnv().tasks[0].difficulty == "hard"
    env = gym.make("AgentBoard/BabyAI-v0")
    assert env.unwrapped.tasks[0].difficulty == "hard"
    other = folder_with(tmp_path / "b", FIRST, difficulty="easy", goal="other")
    assert BabyAIEnv(agentboard_data=str(other)).tasks[0].goal == "other"
    assert BabyAIEnv(level="GoToRedBall").tasks[0].task_id == "babyai-GoToRedBall-random"  # level= ignores the setting
    monkeypatch.delenv(SETTING)
    assert (
        BabyAIEnv().tasks[0].goal == "go to the red ball" and "agentboard_annotation" not in BabyAIEnv().tasks[0].params
    )


# ---- the progress rule by hand --------------------------------------------------------------------------------


@pytest.mark.parametrize("fixes", [False, True])
def test_flat_list_one_credit_per_step_order_free(tmp_path, fixes):
    patterns = ["There is a red ball **", " There is a red ball ** right in front of you 1 steps away.",
                "You are not carrying anything."]  # fmt: skip
    env = BabyAIEnv(agentboard_data=str(folder_with(tmp_path, FIRST, subgoals=patterns)), agentboard_fixes=fixes)
    rows = play(
        env, FIRST, ["turn left", "check valid actions", "fly away", "turn right", "turn left", "go to red ball 1"]
    )
    # 1: the red ball and "not carrying" both match; only the first in the list is credited (1/3)
    # 2, 3: the help answer and a refusal are not scored; 4: "not carrying" now (2/3)
    # 5: the red ball is 4 steps away, the last pattern wants 1 (2/3); 6: it matches and minigrid succeeds (3/3)
    assert progress_of(rows) == [0.3333, 0.3333, 0.3333, 0.6667, 0.6667, 1.0]
    assert [row[1] for row in rows] == [False] * 5 + [True] and rows[-1][2]
    assert rows[-1][3].endswith("The task is completed.")


@pytest.mark.parametrize("fixes", [False, True])
def test_every_pattern_matched_ends_the_episode_a_success(tmp_path, fixes):
    env = BabyAIEnv(agentboard_data=str(folder_with(tmp_path, FIRST, subgoals=["There is a red ball **"])),
                    agentboard_fixes=fixes)  # fmt: skip
    [(progress, terminated, success, obs)] = play(env, FIRST, ["turn left"])
    assert (progress, terminated, success) == (1.0, True, True)  # minigrid has not ended: AgentBoard forces it
    assert obs.endswith("You are not carrying anything.\n The task is completed.")


def test_minigrid_success_at_half_progress_plays_on_without_fixes(tmp_path):
    patterns = [" There is a red ball ** right in front of you 1 steps away.", "You are carrying a grey key."]
    folder = folder_with(tmp_path, FIRST, subgoals=patterns)
    rows = play(BabyAIEnv(agentboard_data=str(folder), agentboard_fixes=False), FIRST,
                ["turn left", "go to red ball 1", "turn right"])  # fmt: skip
    # AgentBoard: minigrid's success with progress <= 0.5 is undone ("The task is completed." stays in the text)
    assert progress_of(rows) == [0.0, 0.5, 0.5] and not any(row[1] or row[2] for row in rows)
    assert rows[1][3].endswith("The task is completed.")
    # FIX: the success ends the episode, progress 1
    rows = play(BabyAIEnv(agentboard_data=str(folder)), FIRST, ["turn left", "go to red ball 1"])
    assert rows[-1][:3] == (1.0, True, True)


def test_minigrid_failure_above_half_progress_is_a_success_without_fixes(tmp_path):
    patterns = ["You are not carrying anything.", "There is a blue open door **", "There is a green ball **"]
    folder = folder_with(tmp_path, DEBUG, subgoals=patterns)
    actions = ["go to blue closed door 1", "toggle"]  # the blue door first: minigrid's failure
    rows = play(BabyAIEnv(agentboard_data=str(folder), agentboard_fixes=False), DEBUG, actions)
    assert progress_of(rows) == [0.3333, 0.6667] and rows[-1][1:3] == (True, True)  # AgentBoard's success
    rows = play(BabyAIEnv(agentboard_data=str(folder)), DEBUG, actions)
    assert progress_of(rows) == [0.3333, 0.6667] and rows[-1][1:3] == (True, False)  # FIX: a failure


def test_minigrid_failure_at_half_progress_plays_on_without_fixes(tmp_path):
    patterns = ["You are not carrying anything.", "There is a blue closed door ** right in front of you 1 steps away.",
                "There is a blue open door **", "There is a green ball **"]  # fmt: skip
    folder = folder_with(tmp_path, DEBUG, subgoals=patterns)
    rows = play(BabyAIEnv(agentboard_data=str(folder), agentboard_fixes=False), DEBUG,
                ["go to blue closed door 1", "toggle", "turn left"])  # fmt: skip
    # 1: "not carrying" is first of the two that match; 2: the closed door is open now, the open one matches (2/4)
    assert progress_of(rows) == [0.25, 0.5, 0.5] and not any(row[1] for row in rows)


@pytest.mark.parametrize("fixes", [False, True])
def test_alternatives_credit_an_index_once_for_all_lists(tmp_path, fixes):
    folder = folder_with(
        tmp_path,
        FIRST,
        subgoals_1=["There is a green key **", " There is a red ball ** right in front of you 1 steps away."],
        subgoals_2=["There is a red ball **", "You are carrying a red ball."],
    )
    env = BabyAIEnv(agentboard_data=str(folder), agentboard_fixes=fixes)
    rows = play(env, FIRST, ["turn left", "turn right", "turn left", "go to red ball 1"])
    # 1: index 0 by the second list's red ball; index 0 leaves both lists; 3: the red ball is seen again, not
    # credited again; 4: index 0 is now the first list's "1 steps away" (2/2)
    assert progress_of(rows) == [0.5, 0.5, 0.5, 1.0] and rows[-1][1:3] == (True, True)


def test_a_line_with_subgoals_and_subgoals_1_reads_both_as_alternatives(tmp_path):
    folder = folder_with(
        tmp_path,
        FIRST,
        subgoals=["There is a green key **", "You are carrying a red ball."],
        subgoals_1=["There is a red ball **", "You are carrying a grey key."],
    )
    rows = play(BabyAIEnv(agentboard_data=str(folder), agentboard_fixes=False), FIRST, ["turn left"])
    assert progress_of(rows) == [0.5]  # the red ball of subgoals_1 (AgentBoard's loader takes every subgoals key)


def test_pattern_parts_split_on_stars_within_one_sentence(tmp_path):
    sentence = "There is a red ball 1 right in front of you 4 steps away. You are not carrying anything."
    assert matches(sentence, "red ball*4 steps away.")  # one star when there is no "**"; "." stripped
    assert matches(sentence, " There is a red ** ball ** away")
    assert not matches(sentence, "red ball ** not carrying")  # parts in two sentences
    assert not matches(sentence, "There is a blue ball **")
    folder = folder_with(tmp_path, FIRST, subgoals=["red ball*4 steps away.", "red ball ** not carrying"])
    rows = play(BabyAIEnv(agentboard_data=str(folder)), FIRST, ["turn left", "turn right"])
    assert progress_of(rows) == [0.5, 0.5]


def test_without_data_progress_is_the_packages_own(tmp_path, monkeypatch):
    monkeypatch.delenv(SETTING, raising=False)
    rows = play(BabyAIEnv(), FIRST, ["turn left", "go to red ball 1"])
    assert rows[-1][:3] == (1.0, True, True)


# ---- budget ---------------------------------------------------------------------------------------------------


def test_agentboard_budget_of_30_steps_and_the_override(tmp_path):
    env = gym.make("AgentBoard/BabyAI-v0")
    obs, info = env.reset(options={"task_id": FIRST})
    assert info["max_steps"] == 30 and "You have 30 steps." in obs
    env = gym.make("AgentBoard/BabyAI-v0", max_episode_steps=45)
    assert env.reset(options={"task_id": FIRST})[1]["max_steps"] == 45


# ---- bad input: one error naming the file and line ------------------------------------------------------------


def test_missing_folder_and_task_file(tmp_path, monkeypatch):
    with pytest.raises(AgentBoardDataError, match="does not exist"):
        BabyAIEnv(agentboard_data=str(tmp_path / "nowhere"))
    monkeypatch.setenv(SETTING, str(tmp_path / "nowhere"))
    with pytest.raises(AgentBoardDataError, match=SETTING):
        gym.make("AgentBoard/BabyAI-v0")
    monkeypatch.delenv(SETTING)
    with pytest.raises(AgentBoardDataError, match="babyai/test.jsonl is missing"):
        BabyAIEnv(agentboard_data=str(tmp_path))


def _line_error(tmp_path: Path, file_lines: list, match: str) -> None:
    folder = write_task_file(tmp_path, "babyai", file_lines)
    with pytest.raises(AgentBoardDataError, match=match):
        BabyAIEnv(agentboard_data=str(folder))


def test_wrong_line_count(tmp_path):
    _line_error(tmp_path, lines()[:111], "has 111 lines, but AgentBoard matches its lines to the 112 BabyAI")


@pytest.mark.parametrize(
    ("fields", "match"),
    [
        ({"difficulty": None}, "line 3: the field 'difficulty' is missing"),
        ({"difficulty": "medium"}, "line 3: difficulty must be one of"),
        ({"subgoals": None}, "line 3: the field 'subgoals' .* is missing"),
        ({"subgoals": []}, "line 3: 'subgoals' is empty"),
        ({"subgoals": "There is a red ball **"}, "line 3: the field 'subgoals' must be list"),
        ({"subgoals": ["There is", 3]}, "line 3: every entry of 'subgoals' must be a string"),
        ({"subgoals": None, "subgoals_1": ["a", "b"], "subgoals_2": ["a"]}, "line 3: the alternatives .* same number"),
        ({"additional_info": {"subtask": "BabyAI-GoToRedBall-v0"}}, "line 3: additional_info.subtask is .*GoToRedBallGrey"),
    ],
)  # fmt: skip
def test_malformed_line(tmp_path, fields, match):
    file_lines = lines()
    for key, value in fields.items():
        if value is None:
            file_lines[2].pop(key, None)
        else:
            file_lines[2][key] = value
    _line_error(tmp_path, file_lines, match)


def test_line_that_is_not_json(tmp_path):
    file_lines = lines()
    file_lines[4] = '{"subgoals": ['
    _line_error(tmp_path, file_lines, "line 5: not JSON")


def test_data_with_level_or_clear_text_is_refused(tmp_path):
    folder = write_task_file(tmp_path, "babyai", lines())
    with pytest.raises(AgentBoardDataError, match="level="):
        BabyAIEnv(level="GoToRedBall", agentboard_data=str(folder))
    with pytest.raises(AgentBoardDataError, match="text_format='agentboard'"):
        BabyAIEnv(text_format="clear", agentboard_data=str(folder))


# ---- replay of AgentBoard's own env ---------------------------------------------------------------------------

EPISODES = json.loads(REFERENCE.read_text())["episodes"]


@pytest.fixture(scope="module")
def recorded_folder(tmp_path_factory) -> Path:
    """The annotation lines the recorder fed AgentBoard's env, as a data folder."""
    return write_task_file(tmp_path_factory.mktemp("agentboard"), "babyai", [e["annotation"] for e in EPISODES])


def test_recording_covers_every_instance_and_each_rule():
    assert [episode["task_id"] for episode in EPISODES] == BabyAIEnv().task_ids
    assert sum(len(episode["actions"]) for episode in EPISODES) > 2000
    annotations = [episode["annotation"] for episode in EPISODES]
    assert sum("subgoals_2" in line for line in annotations) >= 10
    assert sum("subgoals" in line and "subgoals_1" in line for line in annotations) >= 5
    assert any("**" not in pattern and "*" in pattern for line in annotations for pattern in line.get("subgoals", []))
    finals = [episode["progress"][-1] for episode in EPISODES]
    assert sum(episode["done"][-1] for episode in EPISODES) >= 30  # successes
    assert sum(0 < final < 1 for final in finals) >= 30  # partial progress


def test_progress_and_ending_equal_agentboards_on_every_recorded_step_without_fixes(recorded_folder):
    env = BabyAIEnv(agentboard_data=str(recorded_folder), agentboard_fixes=False)
    compared = undone = ended_below_1 = 0
    for episode in EPISODES:
        rows = play(env, episode["task_id"], episode["actions"])
        for index, ((progress, terminated, success, obs), expected, done) in enumerate(
            zip(rows, episode["progress"], episode["done"], strict=True)
        ):
            assert progress == pytest.approx(expected, abs=1e-12), (episode["task_id"], index)
            assert terminated == success == done, (episode["task_id"], index)
            compared += 1
            undone += obs.endswith("The task is completed.") and not terminated
            ended_below_1 += terminated and progress < 1
    assert compared == sum(len(episode["actions"]) for episode in EPISODES)
    # the ending rule's cases: minigrid endings undone at progress <= 0.5, and ones kept below progress 1
    assert undone >= 20 and ended_below_1 >= 5, (undone, ended_below_1)


def test_with_fixes_progress_differs_only_where_a_success_is_progress_1(recorded_folder):
    """With the fixes, the only progress that differs from AgentBoard's is a success's (FIX: a success is progress
    1, and a success reached within a high-level action counts), which ends the episode."""
    env = BabyAIEnv(agentboard_data=str(recorded_folder))
    same = total = 0
    for episode in EPISODES:
        env.reset(options={"task_id": episode["task_id"]})
        for action, expected in zip(episode["actions"], episode["progress"]):
            _, _, terminated, _, info = env.step(action)
            total += 1
            if info["progress_rate"] == pytest.approx(expected):
                same += 1
            else:
                assert info["success"] and terminated and info["progress_rate"] == 1.0 > expected, episode["task_id"]
            if terminated:
                break
    assert same >= 0.95 * total, (same, total)
