"""AgentBoard's data folder: the user's copy of AgentBoard's released data (``<folder>/<task>/test.jsonl``, one JSON
object per line), found from the ``agentboard_data=`` option or the ``AGENTGYM_TEXT_AGENTBOARD_DATA`` setting.

This module reads a task's file and checks the fields every AgentBoard loader needs; each AgentBoard family's
``agentboard_data.py`` matches the lines to its instances (by line order, ``task/trial``, ``<env_name>_<var>``, ...)
and scores them with AgentBoard's progress rule. The data is AgentBoard's (GPL-2.0): it is read from the user's
copy, never shipped; tests write small files of their own in the same format.

Every problem is one ``AgentBoardDataError`` naming the file and, where there is one, the line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "SETTING",
    "DIFFICULTIES",
    "AgentBoardDataError",
    "LabelLine",
    "data_folder",
    "read_task_file",
    "expect_count",
]

SETTING = "AGENTGYM_TEXT_AGENTBOARD_DATA"
"""The environment variable naming AgentBoard's data folder when ``agentboard_data=`` is not given."""
DIFFICULTIES = ("easy", "hard")


class AgentBoardDataError(ValueError):
    """AgentBoard's data folder, a task file or one of its lines cannot be used (the message says which and why)."""


@dataclass(frozen=True)
class LabelLine:
    """One line of a task file: its JSON object and where it came from."""

    path: Path
    number: int
    """1-based line number in the file."""
    fields: Mapping[str, Any]

    @property
    def where(self) -> str:
        return f"{self.path}, line {self.number}"

    def error(self, reason: str) -> AgentBoardDataError:
        return AgentBoardDataError(f"AgentBoard data {self.where}: {reason}")

    def get(self, key: str, kind: type | tuple[type, ...] = str) -> Any:
        """The field ``key`` (nested keys joined by "."), which must exist and be of ``kind``."""
        value: Any = self.fields
        for part in key.split("."):
            if not isinstance(value, Mapping) or part not in value:
                raise self.error(f"the field {key!r} is missing")
            value = value[part]
        if not isinstance(value, kind):
            names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
            raise self.error(f"the field {key!r} must be {names}, not {type(value).__name__}")
        return value

    @property
    def difficulty(self) -> str:
        value = self.get("difficulty")
        if value not in DIFFICULTIES:
            raise self.error(f"difficulty must be one of {DIFFICULTIES}, not {value!r}")
        return value

    @property
    def goal(self) -> str:
        return self.get("goal")

    def subgoal_alternatives(self) -> tuple[tuple[str, ...], ...]:
        """The annotation's subgoal lists as AgentBoard's BabyAI and Jericho loaders read them: ``(subgoals,)``
        when the line has ``subgoals`` and no ``subgoals_1``; otherwise every field whose name contains "subgoals"
        (``subgoals`` included), in the line's order, each an alternative (all of one length)."""
        if "subgoals" in self.fields and "subgoals_1" not in self.fields:
            keys = ["subgoals"]
        else:
            keys = [key for key in self.fields if "subgoals" in key]
            if not keys:
                raise self.error("the field 'subgoals' (or 'subgoals_1', 'subgoals_2', ...) is missing")
        lists = []
        for key in keys:
            value = self.get(key, list)
            if not all(isinstance(item, str) for item in value):
                raise self.error(f"every entry of {key!r} must be a string")
            lists.append(tuple(value))
        if len({len(items) for items in lists}) > 1:
            raise self.error(f"the alternatives {', '.join(keys)} must have the same number of subgoals")
        return tuple(lists)


def data_folder(option: str | os.PathLike[str] | None) -> Path | None:
    """AgentBoard's data folder from the option, else from the setting; None when neither names one."""
    named = option if option not in (None, "") else os.environ.get(SETTING) or None
    if named is None:
        return None
    folder = Path(named).expanduser()
    if not folder.is_dir():
        source = "agentboard_data=" if option not in (None, "") else f"${SETTING}"
        raise AgentBoardDataError(
            f"AgentBoard data folder {folder} (from {source}) does not exist or is not a folder: pass the folder "
            f"that holds AgentBoard's <task>/test.jsonl files"
        )
    return folder


def read_task_file(folder: Path, task: str) -> tuple[LabelLine, ...]:
    """The lines of ``<folder>/<task>/test.jsonl`` (blank lines skipped), each a JSON object."""
    path = folder / task / "test.jsonl"
    if not path.is_file():
        raise AgentBoardDataError(f"AgentBoard data: {path} is missing (the folder has no {task!r} task file)")
    lines = []
    with path.open(encoding="utf-8") as handle:
        for number, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            try:
                value = json.loads(text)
            except json.JSONDecodeError as error:
                raise AgentBoardDataError(f"AgentBoard data {path}, line {number}: not JSON ({error.msg})") from None
            if not isinstance(value, dict):
                raise AgentBoardDataError(f"AgentBoard data {path}, line {number}: a line must be a JSON object")
            lines.append(LabelLine(path, number, value))
    if not lines:
        raise AgentBoardDataError(f"AgentBoard data: {path} has no lines")
    return tuple(lines)


def expect_count(lines: Sequence[LabelLine], count: int, what: str) -> None:
    """Refuse a file whose line count is not the number of instances its lines are matched to by order."""
    if len(lines) != count:
        raise AgentBoardDataError(
            f"AgentBoard data: {lines[0].path} has {len(lines)} lines, but AgentBoard matches its lines to the "
            f"{count} {what} by order"
        )
