"""The DB task set: 300 questions over generated tables, built deterministically in well under a second.

Each task's params hold the table (schema and rows), the question, its gold SQL and what the gold SQL gives: the
flattened result for questions, the table's content hash for modifications. Task ``i`` draws from
``random.Random(SEED + i)``, so every install has the same tasks.

The training split (``training_tasks``) is the same generator on seeds from ``TRAIN_SEED``, far from the shipped
seeds; a draw whose table or goal equals a shipped task's is replaced by the next, so none is a test task.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache

from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.db.engine import Database, content_hash
from agentgym_text.envs.db.questions import MODIFICATION_TYPES, QUESTION_TYPES, TEMPLATES_BY_TYPE
from agentgym_text.envs.db.registration import FAMILY
from agentgym_text.envs.db.tables import TEMPLATES, make_table

__all__ = ["TASK_COUNT", "MAX_STEPS", "TRAIN_SEED", "make_tasks", "training_tasks", "gold_outcome", "describe_table"]

TASK_COUNT = 300
MAX_STEPS = 15
SEED = 16_000
TRAIN_SEED = 1_000_000
"""Training tasks draw from ``random.Random(seed)`` with seeds from here up: no shipped task's seed
(16,000-16,299)."""
TRAIN_TRIES = 16
DEFAULT_TRAIN_COUNT = 1000
_SHARE = {"select": 60, "aggregate": 45, "count": 45, "rank": 45, "insert": 30, "update": 40, "delete": 35}


def describe_table(table: dict) -> str:
    """AgentBench's table line, e.g. 'The name of this table is employees, and the headers of this table are ...'."""
    headers = ",".join(name for name, _ in table["columns"])
    return f"The name of this table is {table['name']}, and the headers of this table are {headers}."


def gold_outcome(table: dict, sql: str) -> tuple[list[list], list[str], str]:
    """(result rows, result columns, table hash after the statement) of ``sql`` on a fresh copy of ``table``."""
    database = Database(table)
    try:
        result = database.run(sql)
        if result.error is not None:
            raise ValueError(f"gold SQL failed: {result.error}: {sql}")
        after = content_hash(database.table_rows()) if result.columns == [] else ""
        return [list(row) for row in result.rows], result.columns, after
    finally:
        database.close()


def _schedule() -> list[str]:
    types = [qtype for qtype in QUESTION_TYPES for _ in range(_SHARE[qtype])]
    random.Random(SEED).shuffle(types)
    return types


def _task(seed: int, qtype: str, task_id: str) -> TaskSpec:
    rng = random.Random(seed)
    for _ in range(100):
        table = make_table(rng, rng.choice(sorted(TEMPLATES)))
        question = rng.choice(TEMPLATES_BY_TYPE[qtype])(rng, table)
        if question is None:
            continue
        rows, columns, after = gold_outcome(table, question.sql)
        if qtype in MODIFICATION_TYPES and after == content_hash(table["rows"]):
            continue
        if qtype not in MODIFICATION_TYPES and (not rows or any(v is None for row in rows for v in row)):
            continue
        break
    else:  # pragma: no cover - the templates always find a table within a few draws
        raise RuntimeError(f"no {qtype} question for task {task_id}")
    goal = f"{question.text}\n{describe_table(table)}"
    return TaskSpec(
        task_id=task_id,
        params={
            "table": table,
            "question": question.text,
            "qtype": qtype,
            "sql": question.sql,
            "ordered": question.ordered,
            "answer": [value for row in rows for value in row],
            "gold_rows": rows,
            "gold_columns": columns,
            "gold_hash": after,
        },
        goal=goal,
        difficulty=FAMILY.difficulty.label(int(question.hard)),
        max_steps=MAX_STEPS,
    )


@lru_cache(maxsize=1)
def make_tasks(count: int = TASK_COUNT) -> TaskSet:
    """The shipped task set (the first ``count`` of the 300)."""
    schedule = _schedule()
    return TaskSet(
        [
            _task(SEED + index, schedule[index], f"db-{schedule[index]}-{index:03d}")
            for index in range(min(count, TASK_COUNT))
        ]
    )


def _table_key(table: dict) -> str:
    return json.dumps([table["name"], table["columns"], table["rows"]])


@lru_cache(maxsize=4)
def training_tasks(count: int = DEFAULT_TRAIN_COUNT) -> TaskSet:
    """``count`` training tasks: the shipped kinds in the shipped proportions, on seeds from ``TRAIN_SEED``. Task
    ``i`` tries seeds ``TRAIN_SEED + TRAIN_TRIES * i + k`` in turn and keeps the first whose table and goal equal no
    shipped task's (a generic question such as a count over the same table kind can repeat a shipped goal)."""
    shipped = make_tasks(TASK_COUNT)
    shipped_tables = {_table_key(task.params["table"]) for task in shipped}
    shipped_goals = {task.goal for task in shipped}
    schedule = _schedule()
    tasks: list[TaskSpec] = []
    for index in range(count):
        qtype = schedule[index % TASK_COUNT]
        for attempt in range(TRAIN_TRIES):
            task = _task(TRAIN_SEED + TRAIN_TRIES * index + attempt, qtype, f"db-train-{qtype}-{index:04d}")
            if _table_key(task.params["table"]) not in shipped_tables and task.goal not in shipped_goals:
                tasks.append(task)
                break
        else:  # pragma: no cover - a few draws always find a fresh question
            raise RuntimeError(f"no training {qtype} question apart from the shipped ones for index {index}")
    return TaskSet(tasks)
