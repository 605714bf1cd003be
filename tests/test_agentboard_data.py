"""Reading AgentBoard's data folder (core.agentboard_data): the fields every loader shares and one clear error for
each way a folder, file or line can be unusable."""

from __future__ import annotations

import pytest

from agentgym_text.core.agentboard_data import (
    SETTING,
    AgentBoardDataError,
    data_folder,
    expect_count,
    read_task_file,
)
from agentgym_text.core.registry import list_envs
from tests.support.agentboard_fixtures import write_task_file


def test_lines_fields_and_subgoal_alternatives(tmp_path):
    write_task_file(
        tmp_path,
        "babyai",
        [
            {"difficulty": "easy", "subgoals": ["a", "b"], "goal": "go", "additional_info": {"var": 3}},
            "",
            {"difficulty": "hard", "subgoals_1": ["x", "y"], "subgoals_2": ["x2", "y2"]},
            {"difficulty": "hard", "subgoals": ["a", "b"], "subgoals_1": ["c", "d"]},
        ],
    )
    first, second, both = read_task_file(tmp_path, "babyai")
    assert (first.number, second.number) == (1, 3)
    assert both.subgoal_alternatives() == (("a", "b"), ("c", "d"))  # AgentBoard reads both keys as alternatives
    assert first.difficulty == "easy" and first.goal == "go" and first.get("additional_info.var", int) == 3
    assert first.subgoal_alternatives() == (("a", "b"),)
    assert second.subgoal_alternatives() == (("x", "y"), ("x2", "y2"))
    expect_count([first, second, both], 3, "instances")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"difficulty": "easy", "subgoals": [}', "line 1: not JSON"),
        ("[1, 2]", "line 1: a line must be a JSON object"),
        ({"subgoals": []}, "'difficulty' is missing"),
        ({"difficulty": "medium"}, "difficulty must be one of"),
        ({"difficulty": "easy"}, "'subgoals' (or 'subgoals_1'"),
        ({"difficulty": "easy", "subgoals": "a"}, "'subgoals' must be list"),
        ({"difficulty": "easy", "subgoals": [1]}, "every entry of 'subgoals' must be a string"),
        ({"difficulty": "easy", "subgoals_1": ["a"], "subgoals_2": ["a", "b"]}, "same number of subgoals"),
    ],
)
def test_a_bad_line_is_named_with_its_file_and_line(tmp_path, line, message):
    write_task_file(tmp_path, "jericho", [line])
    with pytest.raises(AgentBoardDataError, match="test.jsonl") as caught:
        (label,) = read_task_file(tmp_path, "jericho")
        assert label.difficulty
        label.subgoal_alternatives()
    assert message in str(caught.value)


def test_missing_folder_file_and_wrong_count(tmp_path, monkeypatch):
    monkeypatch.delenv(SETTING, raising=False)
    assert data_folder(None) is None
    with pytest.raises(AgentBoardDataError, match="does not exist"):
        data_folder(tmp_path / "nowhere")
    monkeypatch.setenv(SETTING, str(tmp_path))
    assert data_folder(None) == tmp_path
    with pytest.raises(AgentBoardDataError, match=r"pddl/test.jsonl is missing"):
        read_task_file(tmp_path, "pddl")
    write_task_file(tmp_path, "pddl", [])
    with pytest.raises(AgentBoardDataError, match="has no lines"):
        read_task_file(tmp_path, "pddl")
    write_task_file(tmp_path, "pddl", [{"difficulty": "easy"}])
    with pytest.raises(AgentBoardDataError, match="has 1 lines, but AgentBoard matches its lines to the 60 problems"):
        expect_count(read_task_file(tmp_path, "pddl"), 60, "problems")


def test_every_agentboard_task_is_declared_once():
    tasks = [entry.agentboard_task for entry in list_envs() if entry.agentboard_task]
    assert sorted(tasks) == sorted(
        ["alfworld", "scienceworld", "babyai", "jericho", "pddl", "webshop", "webarena", "tool-query", "tool-operation"]
    )
    assert all(entry.env_id.startswith("AgentBoard/") for entry in list_envs() if entry.agentboard_task)
