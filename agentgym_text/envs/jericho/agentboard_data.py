"""The Jericho tasks from AgentBoard's data folder (``<folder>/jericho/test.jsonl``).

AgentBoard's loader (``tasks/jericho.py``) gives line k to the k-th game of its config (the order of our 20 tasks)
and reads only ``difficulty`` (required) and the subgoal patterns:

- a line with ``subgoals`` and no ``subgoals_1``: those patterns;
- any other line: its loop keeps only the LAST key of the line, as ``[value]`` when that key holds "subgoals",
  else nothing. A list there makes AgentBoard's env crash on its first game step (it matches a list as a
  pattern); a string is one pattern; no subgoal key last gives no patterns, and progress stays 0.

With ``agentboard_fixes`` (FIX-SUBGOALS-K) the alternatives ``subgoals_1``, ``subgoals_2``, ... are each scored by
AgentBoard's rule and progress is the best of them. The goal and the first observation are not in the file:
AgentBoard's are prose written into its env code, so ours are kept. Task ids, goals and budgets stay ours.

Its progress rule (``tasks/jericho.py``) reads the patterns: after each game step, the first pattern still open
that occurs in the flattened reply (both stripped of everything but letters, digits and white space;
case-sensitive) is credited and closed; at most one per step, in any order; progress = credited / number of
patterns. With several lists, progress is the best list's.

>>> progress = PatternProgress([["the brass lantern", "Taken."]])
>>> progress.update("Taken.\\n(the brass lantern)"), progress.update("Taken.")
(0.5, 1.0)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from agentgym_text.core.agentboard_data import LabelLine, expect_count, read_task_file
from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.jericho.tasks import make_tasks

__all__ = ["TASK_FILE", "agentboard_tasks", "subgoal_lists", "flatten", "normalise", "PatternProgress"]

TASK_FILE = "jericho"
_GAME_FIELDS = ("game_name", "game")
_NOT_ALPHANUMERIC = re.compile(r"[^a-zA-Z0-9\s]")
_SCORE_NOTE = re.compile(r"\[Your score .*?\]")
_SPACE_RUNS = re.compile(r" {2,}")


def _strings(line: LabelLine, key: str) -> list[str]:
    value = line.get(key, list)
    if not all(isinstance(item, str) for item in value):
        raise line.error(f"every entry of {key!r} must be a string")
    if not value:
        raise line.error(f"{key!r} is empty: there is nothing to score progress on")
    return list(value)


def _as_loaded(line: LabelLine) -> list[list[str]]:
    """The one pattern list AgentBoard's loader makes of the line (see the module docstring)."""
    fields = line.fields
    if not any("subgoals" in key for key in fields):
        line.subgoal_alternatives()  # raises: the line has no subgoals at all
    if "subgoals" in fields and "subgoals_1" not in fields:
        return [_strings(line, "subgoals")]
    last = list(fields)[-1]
    if "subgoals" not in last:
        return [[]]
    value = fields[last]
    if isinstance(value, str):
        return [[value]]
    raise line.error(
        f"AgentBoard's loader keeps only the last key {last!r} of this line, as one pattern, and its env then "
        "crashes on the first step; agentboard_fixes=True scores the alternatives subgoals_1, subgoals_2, ..."
    )


def subgoal_lists(line: LabelLine, fixes: bool) -> list[list[str]]:
    """The pattern lists progress is scored on: the alternatives with fixes, AgentBoard's single list without."""
    if not fixes:
        return _as_loaded(line)
    alternatives = line.subgoal_alternatives()
    if not all(alternatives):
        raise line.error("a subgoal list is empty: there is nothing to score progress on")
    return [list(items) for items in alternatives]


def _check_game(line: LabelLine, game: str) -> None:
    """A line that names its game must name the game at its position (AgentBoard matches by order only)."""
    places = [line.fields, line.fields.get("additional_info")]
    for place in places:
        if not isinstance(place, dict):
            continue
        for key in _GAME_FIELDS:
            named = place.get(key)
            if named is not None and named != game:
                raise line.error(f"it names the game {named!r}, but AgentBoard gives this line to the game {game!r}")


def agentboard_tasks(folder: Path, fixes: bool) -> TaskSet:
    """Our 20 tasks with the file's difficulty labels and subgoal patterns (``params["agentboard"]``)."""
    ours = make_tasks()
    lines = read_task_file(folder, TASK_FILE)
    expect_count(lines, len(ours), "Jericho games of AgentBoard's config")
    tasks = []
    for line, task in zip(lines, ours):
        _check_game(line, task.params["game"])
        annotation = {"subgoals": subgoal_lists(line, fixes), "where": line.where}
        params = {**task.params, "agentboard": annotation}
        tasks.append(TaskSpec(task.task_id, params, task.goal, line.difficulty, task.max_steps))
    return TaskSet(tasks)


def flatten(text: str) -> str:
    """AgentBoard's ``clean_up_text``: newlines to spaces, runs of spaces to one, "[Your score ...]" removed."""
    return _SCORE_NOTE.sub("", _SPACE_RUNS.sub(" ", text.replace("\n", " ")))


def normalise(text: str) -> str:
    """AgentBoard's ``match_style`` normal form: letters, digits and white space only."""
    return _NOT_ALPHANUMERIC.sub("", text)


class _PatternScore:
    """AgentBoard's ``update_reward`` over one list of patterns: one credit per observation at most."""

    def __init__(self, patterns: Sequence[str]):
        self.total = len(patterns)
        self.open = [normalise(pattern) for pattern in patterns]
        self.points = 0
        self.reward = 0.0

    def update(self, observation: str) -> None:
        if self.total:
            text = normalise(observation)
            for index, pattern in enumerate(self.open):
                if pattern in text:
                    self.points += 1
                    self.reward = max(self.reward, self.points / self.total)
                    del self.open[index]
                    break


class PatternProgress:
    """AgentBoard's progress rule over a task's pattern lists (``params["agentboard"]["subgoals"]``)."""

    def __init__(self, lists: Sequence[Sequence[str]]):
        self._scores = [_PatternScore(patterns) for patterns in lists]

    @property
    def now(self) -> float:
        return max(score.reward for score in self._scores)

    def update(self, reply: str) -> float:
        """Credit the game's raw ``reply`` (flattened as AgentBoard's env does, whatever the text); progress now."""
        observation = flatten(reply)
        for score in self._scores:
            score.update(observation)
        return self.now
