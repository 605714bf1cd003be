"""The 20 todo tasks: 10 questions (answer graded) and 10 operations (final agenda graded); the training drafts:
the same ten templates over the agenda's other tasks, projects and dates."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from functools import partial

from agentgym_text.envs.tools.actions import Call
from agentgym_text.envs.tools.grading import AnswerRule
from agentgym_text.envs.tools.task_builder import TaskDraft
from agentgym_text.envs.tools.todo.seed_data import CURRENT_DATE, PROJECTS, TASKS

__all__ = ["drafts", "training_drafts"]

_PROJECT_NAME = {pid: name for pid, name, *_ in PROJECTS}
_GET_PROJECTS = Call("get_projects", {})


def _tasks_of(project_id: str) -> Call:
    return Call("get_tasks", {"project_id": project_id})


def _task(task_id: str):
    return next(row for row in TASKS if row[0] == task_id)


def _due(task_id: str) -> TaskDraft:
    tid, pid, _, content, *_ = _task(task_id)
    return TaskDraft(
        goal=f'When is the task "{content}" in the project "{_PROJECT_NAME[pid]}" due? Answer as YYYY-MM-DD.',
        calls=[_GET_PROJECTS, _tasks_of(pid)],
        answer=lambda out: next(task["due_date"] for task in out[1] if task["id"] == tid),
    )


def _duration(task_id: str) -> TaskDraft:
    tid, pid, _, content, *_ = _task(task_id)
    return TaskDraft(
        goal=f'How long will the task "{content}" of the project "{_PROJECT_NAME[pid]}" take? Answer in the '
        "form amount(unit), e.g. 30(minute).",
        calls=[_GET_PROJECTS, _tasks_of(pid), Call("get_task_duration", {"task_id": tid})],
        answer=lambda out: out[2]["duration"],
    )


def _place(task_id: str) -> TaskDraft:
    tid, pid, _, content, description, *_ = _task(task_id)
    place = description.split("Place: ", 1)[1].split(".", 1)[0]
    return TaskDraft(
        goal=f'Where does the task "{content}" of the project "{_PROJECT_NAME[pid]}" take place? Answer with '
        "the place only.",
        calls=[_GET_PROJECTS, _tasks_of(pid), Call("get_task_description", {"task_id": tid})],
        answer=place,
    )


def _most_urgent(project_id: str) -> TaskDraft:
    return TaskDraft(
        goal=f'Which task of the project "{_PROJECT_NAME[project_id]}" has the highest priority? Answer with the '
        "task name.",
        calls=[_GET_PROJECTS, _tasks_of(project_id)],
        answer=lambda out: max(out[1], key=lambda task: (task["priority"], -task["order"]))["content"],
    )


def _count_before(project_id: str, date: str) -> TaskDraft:
    return TaskDraft(
        goal=f'How many open tasks of the project "{_PROJECT_NAME[project_id]}" are due before {date}?',
        calls=[_GET_PROJECTS, _tasks_of(project_id)],
        answer=lambda out: sum(task["due_date"] < date for task in out[1]),
        rule=AnswerRule("number", abs_tol=0.0, rel_tol=0.0),
    )


def _operation(goal: str, calls: list[Call]) -> TaskDraft:
    return TaskDraft(
        goal=goal + " Call finish with the answer 'done' when you are done.",
        calls=calls,
        answer="done",
        rule=AnswerRule("done"),
        graded_state=True,
    )


def _complete(task_id: str) -> TaskDraft:
    tid, pid, _, content, *_ = _task(task_id)
    return _operation(
        f'Mark the task "{content}" of the project "{_PROJECT_NAME[pid]}" as completed.',
        [_GET_PROJECTS, _tasks_of(pid), Call("complete_task", {"task_id": tid})],
    )


def _favourite(project_id: str) -> TaskDraft:
    return _operation(
        f'Add the project "{_PROJECT_NAME[project_id]}" to my favorites.',
        [_GET_PROJECTS, Call("update_project", {"project_id": project_id, "is_favorite": True})],
    )


def _postpone(task_id: str, date: str) -> TaskDraft:
    tid, pid, _, content, *_ = _task(task_id)
    return _operation(
        f'Move the due date of the task "{content}" of the project "{_PROJECT_NAME[pid]}" to {date}.',
        [_GET_PROJECTS, _tasks_of(pid), Call("update_task", {"task_id": tid, "due_date": date})],
    )


def _delete_before(project_id: str, date: str) -> TaskDraft:
    doomed = [row[0] for row in TASKS if row[1] == project_id and row[5] < date]
    return _operation(
        f'Delete every task of the project "{_PROJECT_NAME[project_id]}" that is due before {date}.',
        [_GET_PROJECTS, _tasks_of(project_id)] + [Call("delete_task", {"task_id": tid}) for tid in doomed],
    )


def _complete_shortest(project_id: str) -> TaskDraft:
    rows = [row for row in TASKS if row[1] == project_id]
    minutes = {row[0]: row[6] * (60 if row[7] == "hour" else 1) for row in rows}
    shortest = min(rows, key=lambda row: (minutes[row[0]], row[2]))[0]
    return _operation(
        f'Complete the task of the project "{_PROJECT_NAME[project_id]}" that takes the least time.',
        [_GET_PROJECTS, _tasks_of(project_id)]
        + [Call("get_task_duration", {"task_id": row[0]}) for row in rows]
        + [Call("complete_task", {"task_id": shortest})],
    )


def drafts() -> list[TaskDraft]:
    return [
        _due("7102"),
        _due("7403"),
        _duration("7203"),
        _duration("7104"),
        _place("7402"),
        _place("7202"),
        _most_urgent("2302"),
        _most_urgent("2304"),
        _count_before("2301", "2015-06-07"),
        _count_before("2303", "2015-06-04"),
        _complete("7101"),
        _complete("7303"),
        _favourite("2301"),
        _favourite("2304"),
        _postpone("7201", "2015-06-09"),
        _postpone("7401", "2015-06-07"),
        _delete_before("2302", "2015-06-05"),
        _delete_before("2304", "2015-06-12"),
        _complete_shortest("2302"),
        _complete_shortest("2303"),
    ]


def _dates() -> list[str]:
    """The days after the current date up to the agenda's last due date and a few days beyond."""
    first = dt.date.fromisoformat(CURRENT_DATE)
    last = max(dt.date.fromisoformat(row[5]) for row in TASKS) + dt.timedelta(days=3)
    return [(first + dt.timedelta(days=n)).isoformat() for n in range(1, (last - first).days + 1)]


def training_drafts() -> Iterator[TaskDraft]:
    """Every template over every task, project and date of the agenda that changes something (no favourite
    project favourited again, no due date moved to itself, no deletion of nothing), in a seeded shuffle: a finite
    stream (the caller leaves out those asking what a shipped task asks)."""
    tasks = [row[0] for row in TASKS]
    projects = [row[0] for row in PROJECTS]
    favourite = {row[0] for row in PROJECTS if row[4]}
    due = {row[0]: row[5] for row in TASKS}
    dates = _dates()
    makers = [
        *(partial(template, tid) for template in (_due, _duration, _place, _complete) for tid in tasks),
        *(partial(template, pid) for template in (_most_urgent, _complete_shortest) for pid in projects),
        *(partial(_favourite, pid) for pid in projects if pid not in favourite),
        *(partial(_count_before, pid, date) for pid in projects for date in dates),
        *(
            partial(_delete_before, pid, date)
            for pid in projects
            for date in dates
            if any(row[1] == pid and row[5] < date for row in TASKS)
        ),
        *(partial(_postpone, tid, date) for tid in tasks for date in dates if date != due[tid]),
    ]
    random.Random("todo-training").shuffle(makers)
    return (make() for make in makers)
