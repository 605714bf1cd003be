"""AgentBench's own DB items (``data/dbbench/standard.jsonl``, ``dev.jsonl``, or a ``.json`` list) as a task set.

An item holds the question (``description`` + ``add_description``), one table (``table.table_name``,
``table.table_info.columns[].name``, ``rows``), its category (``type[0]``: ``other``, ``counting``, ``comparison``,
``ranking``, ``aggregation-SUM|MIN|MAX|AVG``, or ``INSERT``/``UPDATE``/``DELETE``) and the gold: ``label`` (the
answer values) for questions, ``label[0]`` (the gold statement) and ``answer_md5`` (the table hash after it) for
modifications. As AgentBench does, every column is created ``TEXT`` whatever its declared type, and a value is
stored as its text. Task ids are ``dbbench-<file stem>-<index>``, the index being AgentBench's sample index.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from agentgym_text.core.tasks import TaskSet, TaskSpec

__all__ = ["TaskFileError", "load_task_file", "MODIFICATIONS", "CATEGORIES"]

MODIFICATIONS = ("INSERT", "UPDATE", "DELETE")
CATEGORIES = (
    "other",
    "counting",
    "comparison",
    "ranking",
    "aggregation-SUM",
    "aggregation-MIN",
    "aggregation-MAX",
    "aggregation-AVG",
    *MODIFICATIONS,
)
_MD5 = re.compile(r"\[\('([0-9a-f]{32})',\)\]")


class TaskFileError(ValueError):
    """An AgentBench DB file or item that cannot be played (the message names the file and item)."""


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _item(path: Path, index: int, item: Any, max_steps: int) -> TaskSpec:
    where = f"{path}, item {index}"

    def need(mapping: Any, key: str, kind: type) -> Any:
        if not isinstance(mapping, dict) or key not in mapping:
            raise TaskFileError(f"AgentBench DB file {where}: the field {key!r} is missing")
        if not isinstance(mapping[key], kind):
            raise TaskFileError(f"AgentBench DB file {where}: the field {key!r} must be {kind.__name__}")
        return mapping[key]

    table = need(item, "table", dict)
    info = need(table, "table_info", dict)
    columns = [need(column, "name", str) for column in need(info, "columns", list)]
    if not columns:
        raise TaskFileError(f"AgentBench DB file {where}: the table has no columns")
    rows = need(info, "rows", list)
    if not all(isinstance(row, list) for row in rows):
        raise TaskFileError(f"AgentBench DB file {where}: every row must be a list of values")
    if any(len(row) != len(columns) for row in rows):
        # AgentBench fills the table with one INSERT, which MySQL refuses as a whole ("Column count doesn't
        # match value count"): the item is played on an empty table, as there.
        rows = []
    kinds = need(item, "type", list)
    category = kinds[0] if kinds else None
    if category not in CATEGORIES:
        raise TaskFileError(f"AgentBench DB file {where}: unknown type {category!r} (one of {', '.join(CATEGORIES)})")
    label = need(item, "label", list)
    params: dict[str, Any] = {
        "source": "agentbench",
        "table": {
            "name": need(table, "table_name", str),
            "columns": [[name, "TEXT"] for name in columns],
            "rows": [[_text(value) for value in row] for row in rows],
            "kinds": ["text"] * len(columns),
        },
        "question": need(item, "description", str),
        "qtype": category,
        "ordered": False,
    }
    if category in MODIFICATIONS:
        digest = _MD5.fullmatch(need(item, "answer_md5", str).strip())
        if digest is None or not label or not isinstance(label[0], str):
            raise TaskFileError(
                f"AgentBench DB file {where}: a modification needs the gold statement in label[0] and "
                "answer_md5 as [('<32 hex digits>',)]"
            )
        params.update(sql=label[0], answer=[], answer_md5=digest.group(1))
    else:
        params.update(sql="", answer=[str(value) for value in label], answer_md5="")
    goal = params["question"] + "\n" + need(item, "add_description", str)
    return TaskSpec(f"dbbench-{path.stem}-{index:03d}", params, goal, _difficulty(params), max_steps)


def load_task_file(path: str | Path, max_steps: int) -> TaskSet:
    """The items of an AgentBench DB file (JSON Lines, or a JSON list when the name ends in ``json``)."""
    path = Path(path).expanduser()
    if not path.is_file():
        raise TaskFileError(f"AgentBench DB file {path} does not exist")
    text = path.read_text(encoding="utf-8")
    items: list[Any] = []
    if path.name.endswith("json"):
        try:
            items = json.loads(text)
        except json.JSONDecodeError as error:
            raise TaskFileError(f"AgentBench DB file {path}: not JSON ({error.msg}, line {error.lineno})") from None
        if not isinstance(items, list):
            raise TaskFileError(f"AgentBench DB file {path}: a .json file holds a list of items")
    else:
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise TaskFileError(f"AgentBench DB file {path}, line {number}: not JSON ({error.msg})") from None
    if not items:
        raise TaskFileError(f"AgentBench DB file {path} has no items")
    return TaskSet([_item(path, index, item, max_steps) for index, item in enumerate(items)])


def _difficulty(params: dict[str, Any]) -> str:
    """AgentBench labels no difficulty; a modification or a question over more than 30 rows counts as hard here."""
    return "hard" if params["qtype"] in MODIFICATIONS or len(params["table"]["rows"]) > 30 else "easy"
