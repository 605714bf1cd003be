"""Tool-Query and Tool-Operation: experts, random agents, determinism, isolation, safety, errors, grading.

These tests read our own (``text_format="clear"``) wording; ``tests/test_tools_words.py`` covers AgentBoard's.
"""

from __future__ import annotations

import json
import os
import sqlite3

import gymnasium as gym
import numpy as np
import pytest

import agentgym_text  # noqa: F401  (registers the ids)
from agentgym_text.envs.tools.catalog import OPERATION_TOOLS, QUERY_TOOLS
from agentgym_text.envs.tools.env import ToolEnv
from agentgym_text.envs.tools.todo.database import TodoDatabase
from agentgym_text.testing import random_valid_rollout, trajectory_digest

ALL_TOOLS = [("query", tool) for tool in QUERY_TOOLS] + [("operation", tool) for tool in OPERATION_TOOLS]


def test_env_ids_ship_60_and_40_tasks_and_tool_kwarg_picks_one_tool():
    query = gym.make("AgentBoard/ToolQuery-v0")
    operation = gym.make("AgentBoard/ToolOperation-v0")
    assert len(query.unwrapped.task_ids) == 60 and len(operation.unwrapped.task_ids) == 40
    movie = gym.make("AgentBoard/ToolQuery-v0", tool="movie")
    assert {task_id.split("-")[0] for task_id in movie.unwrapped.task_ids} == {"movie"}
    with pytest.raises(ValueError):
        gym.make("AgentBoard/ToolQuery-v0", tool="todo")


@pytest.mark.parametrize("family,tool", ALL_TOOLS)
def test_random_valid_call_agent_scores_below_the_expert(family, tool):
    env = ToolEnv(family, tool=tool, text_format="clear")
    progress, successes = [], 0
    for index in range(len(env.task_ids)):
        records = random_valid_rollout(env, seed=index, max_steps=30, options={"task_index": index})
        for record in records[1:]:
            assert record["info"]["valid"], record["action"]  # listed actions are accepted
        progress.append(records[-1]["info"]["progress_rate"])
        successes += records[-1]["info"]["success"]
    assert np.mean(progress) < 0.8
    assert successes < len(env.task_ids) // 2


@pytest.mark.parametrize("family,tool", ALL_TOOLS)
def test_two_runs_of_the_same_task_are_byte_identical(family, tool):
    digests = []
    for _ in range(2):
        env = ToolEnv(family, tool=tool, text_format="clear")
        records = random_valid_rollout(env, seed=3, max_steps=15, options={"task_index": 4})
        env.reset(seed=3, options={"task_index": 4})
        while not env.episode_over:
            obs, *_, info = env.step(env.expert_action())
            records.append({"observation": obs, "info": info})
        digests.append(trajectory_digest(records).encode())
    assert digests[0] == digests[1]


def test_todo_episode_leaves_no_state_behind():
    env = ToolEnv("operation", tool="todo", text_format="clear")
    env.reset(options={"task_id": "todo-016"})
    initial = TodoDatabase().snapshot()
    assert env.toolkit.state() == initial
    for action in (
        'delete_task with Action Input: {"task_id": "7101"}',
        'update_project with Action Input: {"project_id": "2301", "is_favorite": true}',
        'complete_task with Action Input: {"task_id": "7202"}',
    ):
        assert env.step(action)[4]["valid"]
    assert env.toolkit.state() != initial
    old_connection = env.toolkit.db.connection
    env.reset(options={"task_id": "todo-016"})
    assert env.toolkit.state() == initial
    assert env.toolkit.db.connection is not old_connection
    with pytest.raises(sqlite3.ProgrammingError):
        old_connection.execute("SELECT 1")  # the previous episode's database is closed


def test_todo_operation_success_needs_the_golden_state():
    env = ToolEnv("operation", tool="todo", text_format="clear")
    env.reset(options={"task_id": "todo-010"})  # mark "Finish algebra worksheet" completed
    env.step('complete_task with Action Input: {"task_id": "7102"}')  # the wrong task
    _, _, terminated, _, info = env.step('finish with Action Input: {"answer": "done"}')
    assert terminated and not info["success"] and info["finish_reason"] == "failure"
    env.reset(options={"task_id": "todo-010"})
    env.step('complete_task with Action Input: {"task_id": "7101"}')
    _, _, terminated, _, info = env.step('finish with Action Input: {"answer": "done"}')
    assert terminated and info["success"] and info["progress_rate"] == 1.0


@pytest.mark.parametrize(
    "action,reason,says",
    [
        ('get_tasks with Action Input: {"project_id": "2301"', "unparsable", "not a valid JSON object"),
        ("get_tasks with Action Input: [1, 2]", "unparsable", "must be an object"),
        ("get_tasks", "unparsable", "needs its input"),
        ("get_tasks(project_id='2301')", "unparsable", "Format error"),
        ('complete_task with Action Input: {"task_id": __import__("os").getcwd()}', "unparsable", "Nothing was"),
        ('complete_task with Action Input: {"task_id": (lambda: "7101")()}', "unparsable", "Nothing was executed"),
        ("complete_task with Action Input: {'task_id': {1, 2}}", "unparsable", "a set value"),
        ('complete_task with Action Input: {"task_id": ["7101"]}', "bad_argument", "task_id must be text"),
        ('complete_task with Action Input: {"task_id": "7101", "force": true}', "bad_argument", "unexpected argument"),
        ("complete_task with Action Input: {}", "bad_argument", "missing argument(s) task_id"),
        (
            'update_project with Action Input: {"project_id": "2301", "is_favorite": "maybe"}',
            "bad_argument",
            "is_favorite must be boolean",
        ),
        ('complete_task with Action Input: {"task_id": "9999"}', "unknown_object", "no task with id '9999'"),
        ("wipe_account with Action Input: {}", "unknown_action", "not a function of the todo tool"),
    ],
)
def test_malformed_calls_are_rejected_with_a_reason_and_nothing_runs(action, reason, says):
    env = ToolEnv("operation", tool="todo", text_format="clear")
    env.reset(options={"task_id": "todo-010"})
    before = env.toolkit.state()
    obs, reward, terminated, _, info = env.step(action)
    assert info["valid"] is False and info["invalid_reason"] == reason, (obs, info)
    assert says in obs, obs
    assert reward == 0.0 and not terminated
    assert env.toolkit.state() == before


def test_injected_import_string_is_stored_as_data_never_run(monkeypatch):
    ran = []
    monkeypatch.setattr(os, "system", lambda command: ran.append(command) or 0)
    env = ToolEnv("operation", tool="sheet", text_format="clear")
    env.reset(options={"task_index": 0})
    payload = "__import__('os').system('echo pwned')"
    _, _, _, _, info = env.step(f"update_cell with Action Input: {json.dumps({'position': 'J1', 'value': payload})}")
    assert info["valid"]
    assert env.toolkit.sheet.get(1, 10) == payload
    obs, _, _, _, info = env.step(f"update_cell with Action Input: {{'position': 'J2', 'value': {payload}}}")
    assert not info["valid"] and info["invalid_reason"] == "unparsable"
    assert "Nothing was executed" in obs
    assert env.toolkit.sheet.get(2, 10) == ""
    assert ran == []


def test_action_prefix_python_literals_and_trailing_text_are_accepted():
    env = ToolEnv("operation", tool="todo", text_format="clear")
    env.reset(options={"task_id": "todo-000"})
    for action in (
        "Action: get_projects with Action Input: {}",
        "get_tasks with Action Input: {'project_id': '2301'}",
        'get_tasks with action input: {"project_id": 2301}',
        'get_task_duration with Action Input: {"task_id": "7101"} because I need it',
    ):
        obs, _, _, _, info = env.step(action)
        assert info["valid"], (action, obs)


def test_help_lists_every_function_with_its_parameters():
    env = ToolEnv("query", tool="weather", text_format="clear")
    env.reset(options={"task_index": 0})
    obs, _, _, _, info = env.step("check_valid_actions")
    assert info["valid"]
    call_form, _, _, _, info = env.step("Action: check_valid_actions with Action Input: {}")
    assert info["valid"] and call_form == obs
    for name in (
        "get_latitude_longitude(name: string)",
        "get_historical_temp(latitude: number",
        "get_air_quality_level(air_quality_index: number)",
        "finish(answer: any)",
    ):
        assert name in obs


def test_progress_counts_golden_outputs_obtained_and_wrong_answer_fails():
    env = ToolEnv("query", tool="academia", text_format="clear")
    _, info = env.reset(options={"task_id": "academia-006"})  # 4 golden calls + the answer
    assert info["progress_rate"] == 0.0 and len(info["subgoals"]) == 5
    golden = env.current_task.params["calls"]
    _, reward, _, _, info = env.step(f"{golden[0][0]} with Action Input: {json.dumps(golden[0][1])}")
    assert info["progress_rate"] == pytest.approx(0.2) and reward == pytest.approx(0.2)
    _, _, _, _, info = env.step('paperNodeCheck with Action Input: {"node": "No Such Paper"}')
    assert not info["valid"] and info["invalid_reason"] == "unknown_object"
    _, reward, terminated, _, info = env.step('finish with Action Input: {"answer": "Nowhere University"}')
    assert terminated and not info["success"] and reward == 0.0 and info["progress_rate"] == pytest.approx(0.2)


def test_academia_checks_need_a_loaded_net():
    env = ToolEnv("query", tool="academia", text_format="clear")
    env.reset(options={"task_index": 0})
    _, _, _, _, info = env.step('neighbourCheck with Action Input: {"graph": "AuthorNet", "node": "Ada Abara"}')
    assert info["invalid_reason"] == "precondition_failed"


def test_weather_uses_true_geography_and_refuses_dates_on_the_wrong_side_of_today():
    env = ToolEnv("query", tool="weather", text_format="clear")
    env.reset(options={"task_index": 0})
    today = env.toolkit.today
    obs, *_ = env.step('get_latitude_longitude with Action Input: {"name": "denver"}')
    assert json.loads(obs)["results"][0]["latitude"] == pytest.approx(39.74, abs=0.01)
    obs, *_ = env.step('get_elevation with Action Input: {"latitude": 39.7392, "longitude": -104.9903}')
    assert json.loads(obs)["elevation"] == 1609
    obs, *_ = env.step(
        'get_distance with Action Input: {"latitude1": 51.5074, "longitude1": -0.1278, '
        '"latitude2": 48.8566, "longitude2": 2.3522}'
    )
    assert json.loads(obs)["distance_km"] == pytest.approx(344, abs=3)
    _, _, _, _, info = env.step(
        "get_historical_temp with Action Input: "
        + json.dumps(
            {"latitude": 39.74, "longitude": -104.99, "start_date": today.isoformat(), "end_date": today.isoformat()}
        )
    )
    assert info["invalid_reason"] == "precondition_failed"
    _, _, _, _, info = env.step('get_elevation with Action Input: {"latitude": 0.0, "longitude": -140.0}')
    assert info["invalid_reason"] == "unknown_object"


def test_weather_climate_is_seasonal_and_deterministic():
    import datetime as dt

    from agentgym_text.envs.tools.weather.cities import city_by_name
    from agentgym_text.envs.tools.weather.climate import air_quality_level, daily_weather

    moscow, sydney = city_by_name("Moscow"), city_by_name("Sydney")

    def mean(city, month):
        days = [dt.date(2023, month, day) for day in range(1, 29)]
        return np.mean([daily_weather(city, day).temperature_mean for day in days])

    assert mean(moscow, 1) < 0 < mean(moscow, 7) - 10
    assert mean(sydney, 1) > mean(sydney, 7)
    assert daily_weather(moscow, dt.date(2023, 1, 5)) == daily_weather(moscow, dt.date(2023, 1, 5))
    assert [air_quality_level(x) for x in (20, 20.5, 40, 60.1, 100, 101)] == [
        "good",
        "fair",
        "fair",
        "poor",
        "very poor",
        "extremely poor",
    ]


def test_sheet_progress_is_the_cell_match_share_from_zero():
    env = ToolEnv("operation", tool="sheet", text_format="clear")
    _, info = env.reset(options={"task_id": "sheet-000"})  # Revenue column: 1 header + one cell per product
    assert info["progress_rate"] == 0.0 and info["subgoals"] == []
    rewards = []
    while not env.episode_over:
        _, reward, _, _, info = env.step(env.expert_action())
        rewards.append(reward)
    assert all(r > 0 for r in rewards[:-1]) and info["success"]


def test_sheet_extra_cells_lower_the_score_and_block_success():
    env = ToolEnv("operation", tool="sheet", text_format="clear")
    env.reset(options={"task_id": "sheet-003"})
    while env.expert_action().startswith("update_cell") is False and not env.expert_action().startswith("finish"):
        env.step(env.expert_action())
    env.step(env.expert_action())
    _, _, _, _, info = env.step('update_cell with Action Input: {"position": "Z40", "value": "stray"}')
    assert info["progress_now"] < 1.0
    _, _, terminated, _, info = env.step('finish with Action Input: {"answer": "done"}')
    assert terminated and not info["success"]


def test_difficulty_is_hard_above_four_subgoals():
    for family in ("query", "operation"):
        for task in ToolEnv(family, text_format="clear").tasks:
            keys = task.params["subgoal_keys"]
            count = len(keys) + 1 if keys else len(task.params["calls"])
            assert task.difficulty == ("hard" if count > 4 else "easy"), task.task_id  # AgentBoard Table 10
