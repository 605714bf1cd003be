"""AgentBoard's words for the tool envs: call syntax, first observations, help answer and error texts.

From AgentBoard HEAD bb7255e: ``tasks/tool.py`` (the harness: first observations, the format error),
``utils/tool/helpers.py`` (``extract_action_name_and_action_input``, ``parse_action``), ``environment/<tool>_env.py``
(dispatch, ``ERROR | ...`` texts, ``check_valid_actions``) and ``prompts/Raw/<tool>_raw.json`` (the names
``check_valid_actions`` lists).
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from agentgym_text.core.agentboard_parser import ParserCrash, parse_action

__all__ = [
    "agent_parse",
    "FINISH_REMINDER",
    "WEATHER_REMINDER",
    "FORMAT_ERROR",
    "BAD_INPUT_ERROR",
    "ACTION_NAMES",
    "first_observation",
    "split_message",
    "rebuilt_action",
    "parse_input",
    "help_text",
    "invalid_action",
    "exception_text",
    "python_call",
]

FINISH_REMINDER = "Once you have finished the goal, please remember to take 'finish' action to end this goal."
WEATHER_REMINDER = (
    'If you want to get the latitude and longitude information of a city, you must call "get_latitude_longitude", '
    "do not generate it by yourself which maybe wrong. " + FINISH_REMINDER
)
FORMAT_ERROR = (
    'Format error, please response in the format of  "Action: [your action] with Action Input: [your action input]'
)
BAD_INPUT_ERROR = "ERROR | Exception(Parameters in action input are not valid, please change your action input.)"

ACTION_NAMES = {
    "weather": [
        "get_user_current_date",
        "get_user_current_location",
        "get_historical_temp",
        "get_historical_rain",
        "get_historical_snow",
        "get_snow_forecast",
        "get_current_snow",
        "get_current_temp",
        "get_latitude_longitude",
        "get_elevation",
        "get_temp_forecast",
        "get_rain_forecast",
        "get_current_rain",
        "get_distance",
        "get_historical_air_quality_index",
        "get_current_air_quality_index",
        "get_air_quality_level",
        "check_valid_actions",
        "finish",
    ],
    "movie": [
        "get_search_movie",
        "get_movie_details",
        "get_movie_production_companies",
        "get_movie_production_countries",
        "get_movie_cast",
        "get_movie_crew",
        "get_movie_keywords",
        "get_search_person",
        "get_person_details",
        "get_person_cast",
        "get_person_crew",
        "get_person_external_ids",
        "get_movie_alternative_titles",
        "get_movie_translation",
        "check_valid_actions",
        "finish",
    ],
    "academia": [
        "loadPaperNet",
        "loadAuthorNet",
        "neighbourCheck",
        "paperNodeCheck",
        "authorNodeCheck",
        "authorEdgeCheck",
        "paperEdgeCheck",
        "check_valid_actions",
        "finish",
    ],
    "todo": [
        "get_user_current_date",
        "get_user_current_location",
        "get_projects",
        "update_project",
        "get_tasks",
        "get_task_description",
        "get_task_duration",
        "complete_task",
        "update_task",
        "delete_task",
        "check_valid_actions",
        "finish",
    ],
    "sheet": [
        "open_sheet",
        "del_sheet",
        "freeze_data",
        "get_A1_annotation",
        "insert_cols",
        "insert_rows",
        "delete_batch_data",
        "update_cell",
        "update_cell_by_formula",
        "update_range",
        "sort_sheet_by_col",
        "merge_cells",
        "update_note",
        "get_all_values",
        "get_range_values",
        "get_cell_value",
        "get_value_by_formula",
        "filter_cells",
        "get_note",
        "check_valid_actions",
        "finish",
    ],
}
"""What ``check_valid_actions`` lists: the names in AgentBoard's ``prompts/Raw/<tool>_raw.json``, in file order
(sheet: AgentBoard's sheet env has no ``check_valid_actions``; the suite's help action answers it anyway
(FIX-SHEET-HELP), with this list and the help word before ``finish`` as the other tools have it)."""

_EXTRACT = re.compile(r"\s*(.*?)\s*with\s*Action Input:\s*(.*?)$")
_PARSE = re.compile(r"Action:\s*(.*?)\s*with\s*Action Input:\s*(.*?)$")


def first_observation(tool: str) -> str:
    """The harness's first observation (``tasks/tool.py``): weather adds the latitude/longitude advice."""
    return WEATHER_REMINDER if tool == "weather" else FINISH_REMINDER


def agent_parse(action: str) -> str:
    """The message as AgentBoard's tool runner hands it to the env: read by AgentBoard's reply parser (on by default
    for the tool tasks). A message that crashes that parser in AgentBoard (its run stops there) is read as it came
    in: an env answers, it does not stop."""
    try:
        return parse_action(action)
    except ParserCrash:
        return action


def split_message(message: str) -> tuple[str, str] | None:
    """``(action type, raw input)`` as the harness and ``parse_action`` read them, or None (format error).

    The harness searches ``<name> with Action Input: <input>`` (one line: the end of the message), rebuilds
    ``"Action: <name> with Action Input: <input>"`` and the env matches that again.
    """
    match = _EXTRACT.search(message)
    if match is None:
        return None
    rebuilt = "Action: " + match.group(1) + " with Action Input: " + match.group(2)
    again = _PARSE.match(rebuilt)
    if again is None:  # not reached for a rebuilt string; AgentBoard would raise a TypeError here
        return None
    return again.group(1), again.group(2)


def rebuilt_action(message: str) -> str:
    """The string AgentBoard's env receives (it ends the episode when it contains "finish")."""
    match = _EXTRACT.search(message)
    return "" if match is None else "Action: " + match.group(1) + " with Action Input: " + match.group(2)


def parse_input(raw: str) -> Any:
    """The action input as a Python literal; raise ``ValueError`` where AgentBoard's ``eval`` would fail.

    FIX: ``ast.literal_eval`` instead of ``eval`` (nothing is executed: names, calls and expressions are refused
    with AgentBoard's "not valid" error).
    """
    try:
        return ast.literal_eval(raw)
    except Exception:  # SyntaxError, ValueError, MemoryError, RecursionError, ...
        raise ValueError(BAD_INPUT_ERROR) from None


def help_text(tool: str) -> str:
    return f"You can use following valid actions: {ACTION_NAMES[tool]}"


def invalid_action(name: str) -> str:
    return f"ERROR | Invalid action: {name}."


def exception_text(error: BaseException) -> str:
    return "ERROR | " + type(error).__name__ + "(" + str(error) + ")"


def _literal(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal(key)}: {_literal(item)}" for key, item in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_literal(item) for item in value) + "]"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return repr(value)  # True/False/None and numbers as Python writes them


def python_call(name: str, args: dict[str, Any]) -> str:
    """A call AgentBoard's ``eval`` reads: JSON-looking, but with ``True``/``False``/``None``.

    >>> python_call("update_project", {"project_id": "2301", "is_favorite": True})
    'update_project with Action Input: {"project_id": "2301", "is_favorite": True}'
    """
    return f"{name} with Action Input: {_literal(args)}"
