"""AgentBoard's progress rate for the tool tasks, over the golden subgoals of its annotation file.

Follows ``environment/<tool>_env.py`` (``update``) and ``utils/<tool>/<tool>_tools.py`` (``log_path`` and
``clean_observation``) at AgentBoard HEAD bb7255e:

- every tool call that returns appends a Subgoal to the episode's action path: the call's result cleaned per tool
  (movie drops overview, biography, vote_average, genres, revenue, budget and release_date; todo drops "id" fields;
  weather drops the daily temperature arrays; academia keeps the raw result), or the text
  ``Calling <name> with <kwargs> failed`` when the tool answered its own failure; ``finish`` appends its answer
  (a list sorted);
- after each step whose observation does not contain "Invalid", progress = max(progress, #golden subgoals found in
  the action path's multiset / #golden), compared with Python's ``==`` (weather: a golden dict with
  latitude/longitude matches a dict within 50 km whose other fields are equal);
- sheet: progress = max(progress, share of equal cells between the sheet's values and the answer table over the
  rows x columns both have), after every step AgentBoard's sheet env finishes (its tool exceptions included);
- success = finished and progress == 1 (todo ``goal_type`` 1: also the final projects and tasks, ids stripped,
  equal the answer).

AgentBoard's metric bugs, fixed when ``fixes`` (``agentboard_fixes``) is on:

- FIX-PR-INVALID-WORD: progress is updated after every call that ran; AgentBoard skipped the update when the
  observation contained the word "Invalid" anywhere (e.g. a film or task named so), crediting the call one step late.
- FIX-SHEET-SHAPE: the share is taken over every cell filled in either table, so cells outside the answer's shape
  count as mismatches; AgentBoard compared only the rows x columns both tables have, so extra rows or columns (junk the agent
  wrote) cost nothing and deleting rows could raise the score.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from typing import Any

__all__ = ["ToolProgress", "clean_subgoal", "failed_subgoal", "count_found", "sheet_match", "SUBGOAL_TOOLS"]

SUBGOAL_TOOLS = ("weather", "movie", "academia", "todo")
"""The tools whose progress counts golden subgoals (sheet compares tables)."""

_MOVIE_DROPPED = ("overview", "biography", "vote_average", "genres", "revenue", "budget", "release_date")
_WEATHER_TEMPERATURES = ("temperature_2m_max", "temperature_2m_min", "temperature_2m_mean")


def clean_subgoal(tool: str, result: Any) -> Any:
    """The Subgoal AgentBoard's ``log_path`` records for a successful call's ``result`` (its ``clean_observation``)."""
    value = copy.deepcopy(result)
    if tool == "movie":
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict):
                for key in _MOVIE_DROPPED:
                    item.pop(key, None)
    elif tool == "todo":
        if isinstance(value, list):
            for item in value:
                if isinstance(item, dict):
                    item.pop("id")  # AgentBoard's pop without a default: a KeyError there (never on its outputs)
        elif isinstance(value, dict):
            value.pop("id", None)
            for key in ("task", "project"):
                if key in value:
                    value[key].pop("id")
    elif tool == "weather":
        if type(value) is dict and "daily" in value and "temperature_2m_max" in value["daily"]:
            for key in _WEATHER_TEMPERATURES:
                value["daily"].pop(key)
    return value


def failed_subgoal(name: str, kwargs: dict[str, Any]) -> str:
    """The Subgoal of a call the tool answered with its own failure text."""
    return f"Calling {name} with {kwargs} failed"


def _same_location(a: tuple[Any, Any], b: tuple[Any, Any], threshold: float = 50) -> bool:
    """``utils/tool/helpers.is_same_location``: haversine distance under ``threshold`` km (earth radius 6371)."""
    lat1, lon1 = map(math.radians, a)
    lat2, lon2 = map(math.radians, b)
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 6371 * 2 * math.atan2(math.sqrt(h), math.sqrt(1 - h)) < threshold


def _has_point(value: Any) -> bool:
    return type(value) is dict and "latitude" in value and "longitude" in value


def _same_place(golden: dict, predicted: dict) -> bool:
    """``WeatherEnv.check_equality``: the coordinates within 50 km and every other field equal."""
    golden, predicted = dict(golden), dict(predicted)
    near = _same_location(
        (golden.pop("latitude"), golden.pop("longitude")), (predicted.pop("latitude"), predicted.pop("longitude"))
    )
    return near and golden == predicted


def count_found(tool: str, golden: Sequence[Any], predicted: Sequence[Any]) -> int:
    """How many golden subgoals the predicted ones hold, each predicted subgoal used once, golden order first."""
    pool = list(predicted)
    count = 0
    for subgoal in golden:
        if tool == "weather" and _has_point(subgoal):
            for candidate in pool:
                if _has_point(candidate) and _same_place(subgoal, candidate):
                    pool.remove(candidate)  # list.remove: the first ==-equal item, as AgentBoard
                    count += 1
                    break
        elif subgoal in pool:
            pool.remove(subgoal)
            count += 1
    return count


def sheet_match(values: Any, truth: Sequence[Sequence[Any]], *, fixes: bool) -> float:
    """``SheetEnv.get_match_score`` (fixes off), or the share over the cells filled in either (FIX-SHEET-SHAPE)."""
    if fixes:
        if not isinstance(values, list):  # the tool's failure text
            return 0.0
        rows = max(len(values), len(truth))
        cols = max(max((len(row) for row in values), default=0), max((len(row) for row in truth), default=0))

        def cell(table, r, c):
            return table[r][c] if r < len(table) and c < len(table[r]) else ""

        pairs = [(cell(values, r, c), cell(truth, r, c)) for r in range(rows) for c in range(cols)]
        filled = [(a, b) for a, b in pairs if a != "" or b != ""]
        return sum(a == b for a, b in filled) / len(filled) if filled else 0.0
    if values == "Please open a sheet before operating it":
        return 0.0
    rows = min(len(values), len(truth))
    cols = min(len(values[0]) if values else 0, len(truth[0]) if truth else 0)
    total = rows * cols
    equal = sum(values[r][c] == truth[r][c] for r in range(rows) for c in range(cols))
    return equal / total if total else 0


class ToolProgress:
    """One episode's AgentBoard progress: the golden subgoals (or the sheet's answer table) and the action path."""

    def __init__(self, tool: str, subgoals: Sequence[Any], answer: Any, goal_type: int, fixes: bool):
        self.tool = tool
        self.golden = list(subgoals)
        self.answer = answer
        self.goal_type = goal_type
        self.fixes = fixes
        self.path: list[Any] = []
        self.reward = 0.0

    def record(self, name: str, kwargs: dict[str, Any], ok: bool, result: Any) -> None:
        """A call that returned: append its Subgoal."""
        self.path.append(clean_subgoal(self.tool, result) if ok else failed_subgoal(name, kwargs))

    def record_finish(self, answer: Any) -> None:
        self.record("finish", {"answer": answer}, True, sorted(answer) if type(answer) is list else answer)

    def update(self, observation: str) -> None:
        """After a step AgentBoard's env finished: its ``update`` unless the observation says "Invalid"."""
        if "Invalid" in observation and not self.fixes:
            return
        self.reward = max(self.reward, count_found(self.tool, self.golden, self.path) / len(self.golden))

    def update_sheet(self, observation: str, values: Any) -> None:
        if "Invalid" in observation and not self.fixes:
            return
        self.reward = max(self.reward, sheet_match(values, self.answer, fixes=self.fixes))

    def success(self, todo_status: Any = None) -> bool:
        """AgentBoard's success once the episode is done (``todo_status``: the final state, for todo goal_type 1)."""
        if self.tool == "todo" and self.goal_type == 1 and todo_status != self.answer:
            return False
        return self.reward == 1.0
