"""AgentBench's own KG items (``data/knowledgegraph/std.json``, ``dev.json``) as a task set.

A file is a JSON list of items: ``question``, ``qid`` (unique; the task id), ``source`` (grailqa, cwq,
graphquestions, webqsp), ``entities`` (``{surface name: Freebase id}``), ``s_expression`` (the gold logical form),
``actions`` (the gold tool calls on ids, ``#k`` naming the k-th variable made) and ``answer`` (a list of
``{answer_argument, answer_type, entity_name}``; the gold set is the set of ``answer_argument``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.kg.registration import FAMILY

__all__ = ["TaskFileError", "load_task_file", "goal_of", "VARIABLE_TOOLS"]

VARIABLE_TOOLS = ("get_neighbors", "intersection", "count", "argmax", "argmin")
"""The tools that make a variable (the others list relations or attributes)."""


class TaskFileError(ValueError):
    """An AgentBench KG file or item that cannot be played (the message names the file and item)."""


def goal_of(question: str, entities: dict[str, str]) -> str:
    return f"{question}\nEntities: [{', '.join(entities)}]"


def _item(path: Path, index: int, item: Any, max_steps: int) -> TaskSpec:
    where = f"AgentBench KG file {path}, item {index}"
    if not isinstance(item, dict):
        raise TaskFileError(f"{where}: an item is a JSON object")

    def need(key: str, kind: type | tuple[type, ...]) -> Any:
        if key not in item:
            raise TaskFileError(f"{where}: the field {key!r} is missing")
        if not isinstance(item[key], kind):
            raise TaskFileError(f"{where}: the field {key!r} has the wrong type ({type(item[key]).__name__})")
        return item[key]

    question = need("question", str)
    qid = str(need("qid", (str, int)))
    entities = need("entities", dict)
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in entities.items()):
        raise TaskFileError(f"{where}: 'entities' maps names to Freebase ids (strings)")
    actions = need("actions", list)
    if not actions or not all(isinstance(a, str) for a in actions):
        raise TaskFileError(f"{where}: 'actions' is a non-empty list of tool calls")
    answers = need("answer", list)
    if not all(isinstance(a, dict) and isinstance(a.get("answer_argument"), str) for a in answers):
        raise TaskFileError(f"{where}: every answer needs 'answer_argument' (a string)")
    params = {
        "source": str(item.get("source", "")),
        "qid": qid,
        "question": question,
        "entities": dict(entities),
        "s_expression": str(item.get("s_expression", "")),
        "actions": list(actions),
        "answer": sorted({a["answer_argument"] for a in answers}),
    }
    made = sum(action.split("(", 1)[0].strip() in VARIABLE_TOOLS for action in actions)
    difficulty = FAMILY.difficulty.label(made + 1)
    return TaskSpec(qid, params, goal_of(question, entities), difficulty, max_steps)


def load_task_file(path: str | Path, max_steps: int) -> TaskSet:
    """The items of an AgentBench KG file (a JSON list)."""
    path = Path(path).expanduser()
    if not path.is_file():
        raise TaskFileError(f"AgentBench KG file {path} does not exist")
    try:
        items = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise TaskFileError(f"AgentBench KG file {path}: not JSON ({error})") from None
    if not isinstance(items, list):
        raise TaskFileError(f"AgentBench KG file {path}: the file holds a JSON list of items")
    if not items:
        raise TaskFileError(f"AgentBench KG file {path} has no items")
    tasks = [_item(path, index, item, max_steps) for index, item in enumerate(items)]
    seen: set[str] = set()
    for index, task in enumerate(tasks):
        if task.task_id in seen:
            raise TaskFileError(f"AgentBench KG file {path}, item {index}: the qid {task.task_id!r} is used twice")
        seen.add(task.task_id)
    return TaskSet(tasks)
