"""AgentBoard's ALFWorld annotations (``<folder>/alfworld/test.jsonl``) on this family's games, and its progress rule.

A line holds ``subgoals`` (Python regular expressions), ``difficulty`` and ``additional_info.description``, the
game's ``task/trial`` name (the last two folders of its game path); AgentBoard's env keys its lines by that name and
looks each game it plays up in them. Here the games are the env's task set: downloaded games (``game_dir=``) are
named by their folders (their task ids), generated games by the folders ``gamefile.export_game`` writes them to
(``gamefile.game_name``). Every line must name one of the games and every game must have a line (AgentBoard fails
on a game without one); AgentBoard's own file names ALFWorld's downloaded valid_unseen games, so it needs
``game_dir=``.

Progress (``environment/alfworld/alfworld_env.py``): after every step, each pattern is ``re.search``ed in the
observation the agent is shown; a pattern that matches once stays matched. Progress is matched / (n + 1), the last
slot standing for completion, and 1.0 once the game is won.

>>> scan = PatternScan(["You pick up the apple", "You heat the apple"])
>>> scan.read("You pick up the apple 1 from the countertop 1."), scan.progress(won=False).now
(True, 0.3333333333333333)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from agentgym_text.core.agentboard_data import AgentBoardDataError, LabelLine, read_task_file
from agentgym_text.core.progress import Progress
from agentgym_text.core.tasks import DEFAULT_MAX_STEPS, TaskSet

__all__ = ["TASK", "PATTERNS_PARAM", "annotated_tasks", "PatternScan"]

TASK = "alfworld"
"""AgentBoard's task folder name."""
PATTERNS_PARAM = "agentboard_subgoals"
"""The task param holding the line's patterns."""


def _patterns(line: LabelLine) -> list[str]:
    patterns = line.get("subgoals", list)
    for pattern in patterns:
        if not isinstance(pattern, str):
            raise line.error("every entry of 'subgoals' must be a string (a Python regular expression)")
        try:
            re.compile(pattern)
        except re.error as error:
            raise line.error(f"the subgoal {pattern!r} is not a Python regular expression ({error})") from None
    return patterns


def annotated_tasks(tasks: TaskSet, names: Mapping[str, str], folder: Path, *, downloaded: bool) -> TaskSet:
    """``tasks`` with each game's line: its difficulty, its patterns (``params[PATTERNS_PARAM]``) and AgentBoard's
    30-step budget. ``names`` maps task ids to ``task/trial`` names; ``downloaded`` says the games came from
    ``game_dir=`` (it only changes what an unknown name's error suggests)."""
    lines = read_task_file(folder, TASK)
    task_of = {name: task_id for task_id, name in names.items()}
    line_of: dict[str, LabelLine] = {}
    for line in lines:
        name = line.get("additional_info.description")
        if name not in task_of:
            raise line.error(_unknown(name, len(tasks), downloaded))
        if name in line_of:
            raise line.error(f"the game {name!r} is annotated twice (first on line {line_of[name].number})")
        line_of[name] = line
    missing = [name for task_id, name in names.items() if name not in line_of]
    if missing:
        raise AgentBoardDataError(
            f"AgentBoard data: {lines[0].path} has no line for {len(missing)} of the env's {len(tasks)} games "
            f"(AgentBoard fails on a game without one), e.g. {missing[0]!r}"
        )
    annotated = []
    for task in tasks:
        line = line_of[names[task.task_id]]
        params = {**task.params, PATTERNS_PARAM: _patterns(line), "agentboard_line": line.number}
        annotated.append(replace(task, params=params, difficulty=line.difficulty, max_steps=DEFAULT_MAX_STEPS))
    return TaskSet(annotated)


def _unknown(name: str, count: int, downloaded: bool) -> str:
    where = "the games under game_dir" if downloaded else "the env's generated games"
    hint = (
        ""
        if downloaded
        else "; AgentBoard's own data names ALFWorld's downloaded games: pass "
        'game_dir="$ALFWORLD_DATA/json_2.1.1/valid_unseen" as well'
    )
    return f"additional_info.description {name!r} names none of {where} ({count}, named task/trial){hint}"


class PatternScan:
    """AgentBoard's sticky regex subgoals for one episode."""

    def __init__(self, patterns: Sequence[str]):
        self.patterns = tuple(patterns)
        self._compiled = [re.compile(pattern) for pattern in self.patterns]
        self.matched = [False] * len(self.patterns)

    def read(self, text: str) -> bool:
        """Search every pattern in ``text`` (an observation the agent is shown); True when one newly matched."""
        new = False
        for index, pattern in enumerate(self._compiled):
            if not self.matched[index] and pattern.search(text):
                self.matched[index] = new = True
        return new

    def progress(self, *, won: bool) -> Progress:
        now = 1.0 if won else sum(self.matched) / (len(self.patterns) + 1)
        return Progress(now=now, subgoals=self.patterns, subgoals_done=tuple(self.matched))
