"""The tool envs on AgentBoard's data folder (``agentboard_data=``): lines matched to our instances, AgentBoard's
progress rule computed by hand along scripted trajectories, difficulty and goal from the file, the bad-input errors.

The files are written here in AgentBoard's format (``tests/support/agentboard_fixtures.py``); AgentBoard's own data is
never used. Replay against AgentBoard's own env: ``tests/test_tools_words.py``.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import gymnasium as gym
import pytest

from agentgym_text.core.agentboard_data import SETTING, AgentBoardDataError
from agentgym_text.envs.tools.agentboard_text.progress import ToolProgress, count_found, sheet_match
from agentgym_text.envs.tools.env import ToolEnv
from agentgym_text.envs.tools.tasks import tool_tasks
from tests.support.agentboard_fixtures import write_task_file

MOVIE = tool_tasks("movie")[0]  # "Kingdom of the Hidden Night": search (id 1527), details, finish "1987-01-12"
TITLE = "Kingdom of the Hidden Night"
MOVIE_SUBGOALS = [[{"id": 1527, "title": TITLE}], {"title": TITLE}, "1987-01-12"]


def line(task, subgoals, difficulty="hard", answer=None, **info):
    config = {
        key: task.params["config"][key] for key in ("current_date", "current_location") if key in task.params["config"]
    }
    return {
        "goal": task.goal,
        "subgoals": subgoals,
        "difficulty": difficulty,
        "additional_info": {
            "answer": task.params["answer"] if answer is None else answer,
            "tool": task.params["tool"],
            "goal_type": 0,
            "init_config": config,
            **info,
        },
    }


def call(name: str, **args) -> str:
    return f"{name} with Action Input: {args!r}"


def play(env: ToolEnv, actions: list[str]) -> list[tuple[float, bool, bool]]:
    """(progress_rate, valid, terminated) after each action; ``env.last_info`` keeps the last info."""
    rows = []
    for action in actions:
        _, _, terminated, _, info = env.step(action)
        rows.append((info["progress_rate"], info["valid"], terminated))
        env.last_info = info
    return rows


@pytest.fixture
def movie_folder(tmp_path: Path) -> Path:
    return write_task_file(tmp_path, "tool-query", [line(MOVIE, MOVIE_SUBGOALS)])


# ---- matching, goal and difficulty ---------------------------------------------------------------------------
def test_a_line_is_our_instance_with_the_files_difficulty_and_subgoals(movie_folder):
    env = ToolEnv("query", agentboard_data=movie_folder)
    assert env.task_ids == ["movie-000"]  # our id, so results line up with runs without the data
    task = env.tasks[0]
    assert (task.difficulty, MOVIE.difficulty) == ("hard", "easy")
    assert task.goal == MOVIE.goal and task.params["agentboard"]["subgoals"] == MOVIE_SUBGOALS
    assert task.max_steps == 30


def test_lines_keep_file_order_and_tool_picks_its_lines(tmp_path):
    weather, academia = tool_tasks("weather")[3], tool_tasks("academia")[2]
    folder = write_task_file(
        tmp_path, "tool-query", [line(weather, ["x"]), line(MOVIE, MOVIE_SUBGOALS), line(academia, ["y"], "easy")]
    )
    assert ToolEnv("query", agentboard_data=folder).task_ids == ["weather-003", "movie-000", "academia-002"]
    assert ToolEnv("query", tool="movie", agentboard_data=folder).task_ids == ["movie-000"]


def test_without_the_folder_the_tasks_are_ours(monkeypatch):
    monkeypatch.delenv(SETTING, raising=False)
    env = ToolEnv("query", tool="movie")
    assert len(env.tasks) == 20 and all("agentboard" not in task.params for task in env.tasks)


# ---- AgentBoard's progress rule, by hand ----------------------------------------------------------------------
def test_movie_progress_is_the_multiset_share_of_cleaned_outputs(movie_folder):
    """Subgoal = the call's output without overview/budget/genres/revenue/vote_average/release_date; a repeated
    output counts once; unknown calls, format errors and help change nothing; finish adds its answer."""
    env = ToolEnv("query", tool="movie", agentboard_data=movie_folder, agentboard_fixes=False)
    env.reset(options={"task_id": "movie-000"})
    rows = play(
        env,
        [
            call("get_movie_details", movie_id=1527),  # {"title": ...}: the 2nd golden subgoal
            call("get_movie_details", movie_id=1527),  # the same output again: still one
            call("search_movie", movie_name=TITLE),  # ERROR | Invalid action
            "get_search_movie",  # format error
            call("get_search_movie", movie_name=TITLE),  # [{"id": 1527, "title": ...}]
            call("finish", answer="1987-01-12"),
        ],
    )
    assert [r[0] for r in rows] == [1 / 3, 1 / 3, 1 / 3, 1 / 3, 2 / 3, 1.0]
    assert rows[-1][2] and env.last_info["success"]


def test_a_wrong_answer_leaves_a_subgoal_and_fails(movie_folder):
    env = ToolEnv("query", tool="movie", agentboard_data=movie_folder)
    env.reset()
    rows = play(env, [call("get_search_movie", movie_name=TITLE), call("finish", answer=["b", "a"])])
    assert rows[-1][0] == 1 / 3 and rows[-1][2]
    assert env.last_info["success"] is False


def test_finish_answer_lists_are_sorted_and_failures_are_subgoals(tmp_path):
    """``finish`` records a list answer sorted; a failed call records "Calling <name> with <kwargs> failed"."""
    failed = "Calling get_movie_details with {'movie_id': 99999999} failed"
    folder = write_task_file(tmp_path, "tool-query", [line(MOVIE, [failed, ["a", "b"]], answer=["a", "b"])])
    env = ToolEnv("query", agentboard_data=folder, agentboard_fixes=False)
    env.reset()
    rows = play(env, [call("get_movie_details", movie_id=99999999), call("finish", answer=["b", "a"])])
    assert [r[0] for r in rows] == [0.5, 1.0]
    assert env.last_info["success"]


def test_weather_coordinates_match_within_50_km(tmp_path):
    """A golden dict with latitude/longitude matches an output within 50 km whose other fields are equal; the
    daily temperatures are dropped before comparing."""
    task = tool_tasks("weather")[0]  # Tokyo, 2024-04-11 .. 2024-04-16
    env = ToolEnv("query", tool="weather")
    env.reset(options={"task_id": task.task_id})
    name, args = task.params["calls"][2]
    output = ast.literal_eval(env.step(call(name, **args))[0])
    for key in ("temperature_2m_max", "temperature_2m_min", "temperature_2m_mean"):
        output["daily"].pop(key)
    near = {**output, "latitude": output["latitude"] + 0.3}  # ~33 km north
    far = {**output, "latitude": output["latitude"] + 0.5}  # ~56 km north
    other_days = {**output, "daily": {"time": output["daily"]["time"][:-1]}}
    folder = write_task_file(tmp_path, "tool-query", [line(task, [near, far, other_days, "2024-04-17"])])
    env = ToolEnv("query", tool="weather", agentboard_data=folder)
    env.reset()
    rows = play(env, [call(name, **args), call(name, **args), call("get_user_current_date")])
    # the 1st call matches `near`; the 2nd is not within 50 km of `far` nor the same days as `other_days`
    assert [r[0] for r in rows] == [0.25, 0.25, 0.5]


def test_progress_waits_for_a_step_without_the_word_invalid():
    """AgentBoard updates progress only after an observation without "Invalid" (FIX-PR-INVALID-WORD)."""
    for fixes, expected in ((False, [0.0, 0.5]), (True, [0.5, 0.5])):
        progress = ToolProgress("movie", ["Invalid title", "x"], "x", 0, fixes)
        progress.record("get_search_movie", {"movie_name": "x"}, True, "Invalid title")
        progress.update("Invalid title")
        seen = [progress.reward]
        progress.update("You can use following valid actions: [...]")
        seen.append(progress.reward)
        assert seen == expected


def test_count_found_is_a_multiset_in_golden_order():
    assert count_found("movie", ["a", "a", "b"], ["a", "b", "b"]) == 2
    assert count_found("todo", [{"k": 1}], [{"k": 1.0}]) == 1  # Python's ==, as AgentBoard


def test_todo_operation_success_needs_the_final_state(tmp_path):
    """goal_type 1: success also needs the final projects and tasks (ids removed) to equal the answer."""
    task = tool_tasks("todo")[12]  # make "Homework and Assignments" a favourite
    env = ToolEnv("operation", tool="todo")
    env.reset(options={"task_id": task.task_id})
    outputs = [ast.literal_eval(env.step(call(name, **args))[0]) for name, args in task.params["calls"]]
    for item in outputs[0]:
        item.pop("id")
    outputs[1]["project"].pop("id")
    subgoals = [outputs[0], outputs[1], "done"]
    projects = [{**p, "is_favorite": p["is_favorite"] or p["name"] == "Homework and Assignments"} for p in outputs[0]]
    tasks = []  # every project's tasks in project order, ids removed
    for project_id in ("2301", "2302", "2303", "2304"):
        tasks += [
            {k: v for k, v in t.items() if k != "id"}
            for t in ast.literal_eval(env.step(call("get_tasks", project_id=project_id))[0])
        ]
    right = {"projects": projects, "tasks": tasks}
    for answer, success in ((right, True), ({"projects": projects, "tasks": []}, False)):
        folder = write_task_file(
            tmp_path / str(success), "tool-operation", [line(task, subgoals, answer=answer, goal_type=1)]
        )
        env = ToolEnv("operation", agentboard_data=folder)
        env.reset()
        rows = play(env, [call(name, **args) for name, args in task.params["calls"]] + [call("finish", answer="done")])
        assert [r[0] for r in rows] == [1 / 3, 2 / 3, 1.0]
        assert env.last_info["success"] is success


def sheet_line(task, table):
    return line(task, [], answer=json.dumps(table))


def test_sheet_progress_is_the_cell_match_over_the_shared_shape(tmp_path):
    """The sheet is compared after every step AgentBoard's sheet env finishes (tool exceptions included, format
    errors not) over the rows x columns both tables have; FIX-SHEET-SHAPE counts the cells outside as well."""
    task = tool_tasks("sheet")[0]  # add a "Revenue" column H: the answer has 8 columns, the sheet 7
    golden = task.params["golden_state"]
    folder = write_task_file(tmp_path, "tool-operation", [sheet_line(task, golden)])
    env = ToolEnv("operation", agentboard_data=folder, agentboard_fixes=False)
    env.reset()
    rows = play(env, ["update_cell", call("update_cell", position="A1"), call("get_all_values")])
    assert rows[0] == (0.0, False, False)  # a format error: no update
    assert rows[1] == (1.0, False, False)  # KeyError('value'): updated, and the 7 shared columns agree
    assert env.unwrapped.episode_over is False
    env = ToolEnv("operation", agentboard_data=folder, agentboard_fixes=True)
    env.reset()
    assert play(env, [call("get_all_values")])[0][0] == 7 / 8


def test_sheet_match_as_agentboard():
    assert sheet_match([["a", "b"], ["c", "d"]], [["a", "x", "y"]], fixes=False) == 0.5
    assert sheet_match([["a", "b"], ["c", "d"]], [["a", "x", "y"]], fixes=True) == 1 / 5  # a, b/x, _/y, c/_, d/_
    assert sheet_match("Please open a sheet before operating it", [["a"]], fixes=False) == 0.0


def test_the_expert_reaches_one_on_annotations_of_its_own_calls(movie_folder):
    env = ToolEnv("query", agentboard_data=movie_folder)
    env.reset()
    while not env.episode_over:
        _, _, _, _, info = env.step(env.expert_action())
    assert info["progress_rate"] == 1.0 and info["success"]


# ---- the option, the setting, the budget -----------------------------------------------------------------------
def test_option_and_setting_through_gym_make(movie_folder, monkeypatch):
    monkeypatch.delenv(SETTING, raising=False)
    env = gym.make("AgentBoard/ToolQuery-v0", agentboard_data=str(movie_folder))
    assert env.unwrapped.task_ids == ["movie-000"] and env.spec.max_episode_steps == 30
    monkeypatch.setenv(SETTING, str(movie_folder))
    assert gym.make("AgentBoard/ToolQuery-v0").unwrapped.task_ids == ["movie-000"]
    assert gym.make("AgentBoard/ToolQuery-v0", max_episode_steps=50).spec.max_episode_steps == 50


# ---- bad input: one error naming the file and line ------------------------------------------------------------
def bad(tmp_path: Path, lines: list, match: str, task: str = "tool-query", **kwargs) -> None:
    folder = write_task_file(tmp_path, task, lines)
    with pytest.raises(AgentBoardDataError, match=match):
        ToolEnv("query" if task == "tool-query" else "operation", agentboard_data=folder, **kwargs)


def test_missing_folder_and_task_file(tmp_path, monkeypatch):
    with pytest.raises(AgentBoardDataError, match="does not exist"):
        ToolEnv("query", agentboard_data=tmp_path / "nowhere")
    monkeypatch.setenv(SETTING, str(tmp_path / "nowhere"))
    with pytest.raises(AgentBoardDataError, match=SETTING):
        ToolEnv("query")
    write_task_file(tmp_path, "tool-query", [line(MOVIE, MOVIE_SUBGOALS)])
    with pytest.raises(AgentBoardDataError, match="tool-operation/test.jsonl is missing"):
        ToolEnv("operation", agentboard_data=tmp_path)


def test_malformed_lines(tmp_path):
    good = line(MOVIE, MOVIE_SUBGOALS)
    bad(tmp_path / "1", [good, "{not json"], r"line 2: not JSON")
    bad(tmp_path / "2", [{**good, "difficulty": "medium"}], r"line 1: difficulty")
    bad(tmp_path / "3", [{**good, "subgoals": []}], r"line 1: 'subgoals' is empty")
    bad(tmp_path / "4", [{k: v for k, v in good.items() if k != "subgoals"}], r"line 1: the field 'subgoals'")
    bad(tmp_path / "5", [{**good, "additional_info": {"tool": "movie"}}], r"line 1: the field 'additional_info.answer'")
    sheet = tool_tasks("sheet")[0]
    bad(
        tmp_path / "6",
        [line(sheet, [], answer="[[1,")],
        r"line 1: additional_info.answer is not JSON",
        "tool-operation",
    )


def test_lines_that_are_not_our_instances(tmp_path):
    good = line(MOVIE, MOVIE_SUBGOALS)
    other_tool = {**good, "additional_info": {**good["additional_info"], "tool": "todo"}}
    bad(tmp_path / "1", [good, other_tool], r"line 2: additional_info.tool is 'todo'")
    bad(tmp_path / "2", [{**good, "goal": "What is the budget of Mulholland Drive?"}], r"line 1: its movie goal")
    bad(tmp_path / "3", [good, good], r"line 2: it is the instance movie-000 again \(first at .*line 1\)")
    weather = line(tool_tasks("weather")[0], ["x"])
    weather["additional_info"]["init_config"]["current_date"] = "2023-01-01"
    bad(tmp_path / "4", [weather], r"line 1: init_config.current_date is '2023-01-01'")
    bad(tmp_path / "5", [line(MOVIE, MOVIE_SUBGOALS)], r"text_format='agentboard'", text_format="clear")


def test_errors_name_the_file(tmp_path):
    folder = write_task_file(tmp_path, "tool-query", ["[1, 2]"])
    with pytest.raises(AgentBoardDataError) as error:
        ToolEnv("query", agentboard_data=folder)
    assert str(folder / "tool-query" / "test.jsonl") in str(error.value) and "line 1" in str(error.value)
