"""The tool envs speak AgentBoard's words: replay of AgentBoard's own tool envs, and each listed FIX.

``tests/reference/tools_agentboard.json`` was written by ``tests/reference/record_tools.py``, which runs
AgentBoard's unmodified tool envs and toolkits (its harness glue and its agent's output parser included) on our
100 shipped tool tasks, with their web APIs answered from our offline data (``agentboard_text.api``) and gspread
replaced by a stand-in over our spreadsheet, taking seeded random calls, malformed ones and calls aimed at each FIX.

Measure the identical shares: ``python -m pytest -q -s tests/test_tools_words.py -k share``.
"""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path

import pytest

from agentgym_text.envs.tools.agentboard_text import words
from agentgym_text.envs.tools.env import ToolEnv
from tests.support.agentboard_fixtures import write_task_file

REFERENCE = Path(__file__).resolve().parent / "reference" / "tools_agentboard.json"
EPISODES = json.loads(REFERENCE.read_text())["episodes"]
RECORDED_TOOLS = ("weather", "movie", "academia", "todo", "sheet")
_AQI_GAPS = ((20, 21), (40, 41), (60, 61), (80, 81))


def norm(text: str) -> str:
    return " ".join(text.split())


def family(tool: str) -> str:
    return "query" if tool in ("weather", "movie", "academia") else "operation"


def replay(episode: dict, fixes: bool) -> list[dict]:
    """One row per compared observation: ours and AgentBoard's (first observation, then each step)."""
    env = ToolEnv(family(episode["tool"]), tool=episode["tool"], agentboard_fixes=fixes)
    obs, info = env.reset(options={"task_id": episode["task_id"]})
    lines = len(episode["observation"].split("\n"))  # ours goes on with the goal and the step budget
    rows = [{"action": None, "ours": "\n".join(obs.split("\n")[:lines]), "theirs": episode["observation"]}]
    scratch = False
    for step in episode["steps"]:
        if env.episode_over:
            break
        obs, _, terminated, _, info = env.step(step["action"])
        rows.append(
            {
                "action": step["action"],
                "ours": obs,
                "theirs": step["observation"],
                "valid": info["valid"],
                "their_valid": step["valid"],
                "done": terminated,
                "their_done": step["done"],
                "after_scratch": scratch,
            }
        )
        scratch = scratch or left_scratch_column(step["action"], step["observation"])
    return rows


def _input(action: str) -> str:
    parts = words.split_message(words.agent_parse(action).strip())
    return parts[1] if parts else ""


def is_eval_only(action: str) -> bool:
    """FIX-EVAL: an input Python's eval reads but ast.literal_eval refuses (an expression such as 10+5)."""
    raw = _input(action)
    try:
        ast.literal_eval(raw)
        return False
    except Exception:
        pass
    try:
        ast.parse(raw, mode="eval")
        return True
    except SyntaxError:
        return False


def in_aqi_gap(action: str) -> bool:
    """FIX-AQI-GAPS: get_air_quality_level on a value AgentBoard's bands skip (20 < x <= 21, ...)."""
    parts = words.split_message(words.agent_parse(action).strip())
    if not parts or parts[0] != "get_air_quality_level":
        return False
    value = ast.literal_eval(parts[1]).get("air_quality_index")
    return isinstance(value, (int, float)) and any(low < value <= high for low, high in _AQI_GAPS)


def left_scratch_column(action: str, theirs: str) -> bool:
    """FIX-SHEET-SCRATCH: AgentBoard's get_value_by_formula failed after inserting its scratch column (A1 check or
    an exception; not the operator check, which removes it), leaving the column in the sheet."""
    parts = words.split_message(words.agent_parse(action).strip())
    if not parts or parts[0] != "get_value_by_formula" or theirs.startswith(("ERROR | ", "'the operator")):
        return False
    try:
        float(theirs)
        return False
    except ValueError:
        return True


def is_finish_call(action: str) -> bool:
    parts = words.split_message(words.agent_parse(action).strip())
    return bool(parts) and parts[0] == "finish"


def explain(row: dict) -> str | None:
    """The FIX a difference is due to (None: unexplained)."""
    action = row["action"] or ""
    if is_eval_only(action):
        return "FIX-EVAL"
    if row["theirs"].startswith("ERROR | Invalid action: check_valid_actions. Please choose"):
        return "FIX-SHEET-HELP"
    if norm(row["ours"]) != norm(row["theirs"]):
        if in_aqi_gap(action):
            return "FIX-AQI-GAPS"
        return "FIX-SHEET-SCRATCH" if row.get("after_scratch") else None
    if row["valid"] != row["their_valid"]:
        failure_text = row["their_valid"] and not row["valid"] and not row["theirs"].startswith("ERROR | ")
        return "FIX-FAILED-VALID" if failure_text else None
    if row["done"] != row["their_done"]:
        substring = row["their_done"] and not row["done"] and "finish" in action.lower() and not is_finish_call(action)
        return "FIX-FINISH-SUBSTRING" if substring else None
    return None


def differs(row: dict) -> bool:
    return norm(row["ours"]) != norm(row["theirs"]) or (
        row["action"] is not None and (row["valid"], row["done"]) != (row["their_valid"], row["their_done"])
    )


@pytest.fixture(scope="module")
def replays() -> dict[bool, list[dict]]:
    return {fixes: [row for episode in EPISODES for row in replay(episode, fixes)] for fixes in (False, True)}


def test_reference_covers_every_shipped_task_of_the_recorded_tools():
    for tool in RECORDED_TOOLS:
        env = ToolEnv(family(tool), tool=tool)
        assert [e["task_id"] for e in EPISODES if e["tool"] == tool] == env.task_ids
    assert sum(len(e["steps"]) for e in EPISODES) > 600


def test_share_of_identical_observations(replays):
    for fixes in (False, True):
        rows = replays[fixes]
        same = sum(norm(r["ours"]) == norm(r["theirs"]) for r in rows)
        steps = [r for r in rows if r["action"] is not None]
        flags = sum((r["valid"], r["done"]) == (r["their_valid"], r["their_done"]) for r in steps)
        print(
            f"\nagentboard_fixes={fixes}: {same}/{len(rows)} observations identical ({same / len(rows):.1%}), "
            f"validity and episode end identical on {flags}/{len(steps)} steps ({flags / len(steps):.1%})"
        )
        assert same / len(rows) >= 0.95


def test_with_fixes_off_only_the_always_on_fixes_remain(replays):
    unexplained = [row for row in replays[False] if differs(row) and explain(row) not in ("FIX-EVAL", "FIX-SHEET-HELP")]
    assert unexplained == []


def test_with_fixes_on_every_difference_is_a_named_fix(replays):
    rows = [row for row in replays[True] if differs(row)]
    named = {explain(row) for row in rows}
    assert None not in named, [row for row in rows if explain(row) is None][:3]
    assert named == {
        "FIX-EVAL",
        "FIX-AQI-GAPS",
        "FIX-FAILED-VALID",
        "FIX-FINISH-SUBSTRING",
        "FIX-SHEET-SCRATCH",
        "FIX-SHEET-HELP",
    }  # all exercised


# ---- progress: AgentBoard's rule on the recorded annotation lines ---------------------------------------------
ANNOTATIONS = json.loads(REFERENCE.read_text())["annotations"]


@pytest.fixture(scope="module")
def data_folder(tmp_path_factory) -> Path:
    """The recording's annotation lines (written by the recorder from our instances) as an AgentBoard data folder."""
    folder = tmp_path_factory.mktemp("agentboard-data")
    for task_file, lines in ANNOTATIONS.items():
        write_task_file(folder, task_file, lines)
    return folder


def replay_progress(data_folder: Path, fixes: bool) -> list[dict]:
    """One row per recorded step: our progress_rate and AgentBoard's ``env.reward``, and at each episode's end the
    success verdicts."""
    rows = []
    for episode in EPISODES:
        tool = episode["tool"]
        env = ToolEnv(family(tool), tool=tool, agentboard_data=data_folder, agentboard_fixes=fixes)
        env.reset(options={"task_id": episode["task_id"]})
        for step in episode["steps"]:
            if env.episode_over:
                break
            _, _, _, _, info = env.step(step["action"])
            rows.append({"task_id": episode["task_id"], "ours": info["progress_rate"], "theirs": step["progress"]})
        if episode["steps"][-1]["done"] and env.episode_over:
            rows.append({"task_id": episode["task_id"], "ours": info["success"], "theirs": episode["success"]})
    return rows


def test_annotations_cover_every_recorded_task(data_folder):
    """Every recorded episode has its line, and the lines load as the same 100 instances."""
    loaded = [
        task_id for name in ("query", "operation") for task_id in ToolEnv(name, agentboard_data=data_folder).task_ids
    ]
    assert loaded == [episode["task_id"] for episode in EPISODES] and len(loaded) == 100


def test_progress_equals_agentboards_on_every_recorded_step_with_fixes_off(data_folder):
    rows = replay_progress(data_folder, fixes=False)
    same = sum(row["ours"] == row["theirs"] for row in rows)
    print(f"\nprogress and success with agentboard_fixes=False: {same}/{len(rows)} identical")
    assert [row for row in rows if row["ours"] != row["theirs"]] == []
    assert any(0 < row["theirs"] < 1 for row in rows) and any(row["theirs"] is True for row in rows)


def test_with_fixes_on_progress_differs_only_by_fix_sheet_shape(data_folder):
    rows = replay_progress(data_folder, fixes=True)
    different = [row for row in rows if row["ours"] != row["theirs"]]
    print(f"\nprogress and success with agentboard_fixes=True: {len(rows) - len(different)}/{len(rows)} identical")
    assert {row["task_id"].split("-")[0] for row in different} <= {"sheet"}


def test_tool_lists_are_agentboards():
    for episode in [e for e in EPISODES if e["tool"] != "sheet"]:  # AgentBoard's sheet env has no such call
        env = ToolEnv(family(episode["tool"]), tool=episode["tool"])
        env.reset(options={"task_id": episode["task_id"]})
        obs, _, _, _, info = env.step("check_valid_actions with Action Input: {}")
        assert info["valid"] and obs == f"You can use following valid actions: {episode['actions']}"


# ---- each FIX, and the same call with agentboard_fixes=False --------------------------------------------
def _step(tool: str, action: str, fixes: bool, task_index: int = 0, before: tuple[str, ...] = ()):
    env = ToolEnv(family(tool), tool=tool, agentboard_fixes=fixes)
    env.reset(options={"task_index": task_index})
    for earlier in before:
        env.step(earlier)
    return env.step(action)


@pytest.mark.parametrize("fixes", [True, False])
def test_fix_eval_inputs_are_literals_never_code(fixes, monkeypatch):
    ran = []
    monkeypatch.setattr(os, "system", lambda command: ran.append(command) or 0)
    for raw in ('{"air_quality_index": 10+5}', "{'air_quality_index': __import__('os').system('echo pwned')}"):
        obs, _, terminated, _, info = _step("weather", f"get_air_quality_level with Action Input: {raw}", fixes)
        assert obs == words.BAD_INPUT_ERROR and not info["valid"] and info["invalid_reason"] == "unparsable"
    assert ran == []


@pytest.mark.parametrize(
    "value,fixed,theirs",
    [
        (20.5, "fair", "extremely poor"),
        (40.5, "moderate", "extremely poor"),
        (80.5, "very poor", "extremely poor"),
        (33, "fair", "fair"),
    ],
)
def test_fix_aqi_gaps(value, fixed, theirs):
    action = words.python_call("get_air_quality_level", {"air_quality_index": value})
    assert _step("weather", action, True)[0] == fixed
    assert _step("weather", action, False)[0] == theirs


def test_fix_failed_tool_calls_are_invalid_with_agentboards_text():
    action = words.python_call("paperNodeCheck", {"node": "Anything"})
    obs, _, _, _, info = _step("academia", action, True)
    assert obs == "Please load the PaperNet first." and not info["valid"]
    assert info["invalid_reason"] == "precondition_failed"
    obs_off, _, _, _, info_off = _step("academia", action, False)
    assert obs_off == obs and info_off["valid"]


def test_fix_only_a_finish_call_ends_the_episode():
    action = words.python_call("get_projects", {"note": "not finished yet"})
    _, _, terminated, _, info = _step("todo", action, True)
    assert not terminated and info["valid"]
    _, _, terminated, _, _ = _step("todo", action, False)
    assert terminated
    obs, _, terminated, _, info = _step("todo", "finish_up with Action Input: {}", False)
    assert terminated and obs == "ERROR | Invalid action: finish_up." and not info["valid"]


# ---- the agentboard format end to end ---------------------------------------------------------------------
def test_format_error_and_agent_parser_as_agentboard():
    obs, _, _, _, info = _step("movie", "I will look the film up.", True)
    assert obs == words.FORMAT_ERROR and info["invalid_reason"] == "unparsable"
    env = ToolEnv("operation", tool="todo")
    env.reset(options={"task_index": 0})
    obs, _, _, _, info = env.step("Thought: first the projects.\nAction: get_projects with Action Input: {}")
    assert info["valid"] and obs.startswith("[{'id': '2301', 'order': 0")


@pytest.mark.parametrize("tool", ["weather", "movie", "academia", "todo", "sheet"])
def test_expert_solves_a_sample_in_the_agentboard_format(tool):
    env = ToolEnv(family(tool), tool=tool)
    for index in (0, 7, 19):
        obs, info = env.reset(options={"task_index": index})
        assert obs.startswith(words.first_observation(tool))
        while not env.episode_over:
            obs, _, _, _, info = env.step(env.expert_action())
            assert info["valid"], obs
        assert info["success"] and info["progress_rate"] == 1.0


def test_finish_answer_is_printed_as_agentboard_does():
    env = ToolEnv("query", tool="movie")
    env.reset(options={"task_index": 0})
    obs, _, terminated, _, _ = env.step('finish with Action Input: {"answer": ["b", "a"]}')
    assert terminated and obs == "['a', 'b']"


# ---- sheet specifics (recorded with gspread replaced by a stand-in over our spreadsheet) ------------------------
def _sheet_env(fixes: bool = True) -> ToolEnv:
    env = ToolEnv("operation", tool="sheet", agentboard_fixes=fixes)
    env.reset(options={"task_id": "sheet-000"})
    return env


def test_sheet_first_observation_is_the_opened_sheet_as_agentboard_shows_it():
    env = ToolEnv("operation", tool="sheet")
    obs, _ = env.reset(options={"task_id": "sheet-000"})
    lines = obs.split("\n")
    assert lines[0] == words.FINISH_REMINDER and lines[1] == "You are now in Sheet1"
    assert lines[2] == str(env.toolkit.sheet.values())


@pytest.mark.parametrize(
    "action,text,valid",
    [
        (
            "freeze_data with Action Input: {'dimension': 'rows', 'num': 1}",
            "You have successfully freeze the rows 1",
            True,
        ),
        (
            "freeze_data with Action Input: {'dimension': 'cols', 'num': 1}",
            "'Error: the dimension should be one of the rows/columns'",
            False,
        ),
        (
            "del_sheet with Action Input: {'name': 'Sheet1'}",
            "AttributeError(\"'str' object has no attribute 'id'\")",
            False,
        ),
        (
            "update_note with Action Input: {'position': 'A1', 'content': 'check'}",
            "Updated! the A1's note is check",
            True,
        ),
        (
            "get_value_by_formula with Action Input: {'position_list': ['C2', 'C3'], 'operator': 'TOTAL'}",
            '\'the operator should be one of the ["SUM", "AVERAGE", "COUNT", "MAX", "MIN", "MINUS", "PRODUCT"]\'',
            False,
        ),
        ("get_value_by_formula with Action Input: {'position_list': ['C2', 'C3'], 'operator': 'SUM'}", "363.99", True),
        ("update_cell with Action Input: {'value': 1}", "ERROR | KeyError('position')", False),
    ],
)
def test_sheet_texts_follow_agentboards_source(action, text, valid):
    obs, _, _, _, info = _sheet_env().step(action)
    assert obs == text and info["valid"] is valid


def test_sheet_invalid_action_lists_the_actions_and_finish_shows_the_sheet():
    env = _sheet_env()
    obs, *_ = env.step("get_projects with Action Input: {}")
    assert obs.startswith("ERROR | Invalid action: get_projects. Please choose another valid action from ['open_sheet'")
    values = str(env.toolkit.sheet.values())
    obs, _, terminated, _, _ = env.step('finish with Action Input: {"answer": "ignored"}')
    assert terminated and obs == values
    env = _sheet_env(fixes=False)
    _, _, terminated, _, _ = env.step("FINISH_NOW with Action Input: {}")  # AgentBoard: "finish" in any case
    assert terminated


@pytest.mark.parametrize("tool", ["weather", "movie", "academia", "todo", "sheet"])
def test_listed_calls_are_accepted_and_a_random_agent_scores_below_the_expert(tool):
    from agentgym_text.testing import random_valid_rollout

    env = ToolEnv(family(tool), tool=tool)
    progress = []
    for index in range(0, 20, 4):
        records = random_valid_rollout(env, seed=index, max_steps=30, options={"task_index": index})
        assert all(record["info"]["valid"] for record in records[1:]), [r["action"] for r in records[1:]]
        progress.append(records[-1]["info"]["progress_rate"])
    assert sum(progress) / len(progress) < 0.8
