"""The todo tool: Todoist-like functions over the episode's SQLite agenda."""

from __future__ import annotations

import datetime as dt
import sqlite3
from typing import Any

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import InvalidReason
from agentgym_text.envs.tools.actions import Call
from agentgym_text.envs.tools.backend import USER_DATE_SPECS, Toolkit
from agentgym_text.envs.tools.schema import FunctionSpec, Param
from agentgym_text.envs.tools.todo.database import TodoDatabase
from agentgym_text.envs.tools.todo.seed_data import CURRENT_DATE, CURRENT_LOCATION

__all__ = ["TodoToolkit"]

_TASK = (Param("task_id"),)


def _project_view(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "order": row["sort_order"],
        "color": row["color"],
        "name": row["name"],
        "is_favorite": bool(row["is_favorite"]),
    }


def _task_view(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "project_id": row["project_id"],
        "order": row["sort_order"],
        "content": row["content"],
        "is_completed": bool(row["is_completed"]),
        "priority": row["priority"],
        "due_date": row["due_date"],
    }


class TodoToolkit(Toolkit):
    """Projects and tasks; ``get_tasks`` lists the open (not completed) tasks of a project."""

    name = "todo"
    functions = (
        *USER_DATE_SPECS,
        FunctionSpec("get_projects", "All projects.", (), "list of {id, order, color, name, is_favorite}"),
        FunctionSpec(
            "update_project",
            "Mark a project as favourite or not.",
            (Param("project_id"), Param("is_favorite", "boolean")),
            "the updated project",
        ),
        FunctionSpec(
            "get_tasks",
            "The open tasks of a project.",
            (Param("project_id"),),
            "list of {id, project_id, order, content, is_completed, priority (1 normal .. 4 urgent), due_date}",
        ),
        FunctionSpec(
            "get_task_description", "The description of a task (place, tips).", _TASK, "{id, content, description}"
        ),
        FunctionSpec(
            "get_task_duration",
            "The duration of a task.",
            _TASK,
            "{id, content, duration} with duration written 'amount(unit)'",
        ),
        FunctionSpec("complete_task", "Mark a task as completed.", _TASK, "the completed task"),
        FunctionSpec(
            "update_task",
            "Change the due date of a task.",
            (Param("task_id"), Param("due_date", description="YYYY-MM-DD")),
            "the updated task",
        ),
        FunctionSpec("delete_task", "Delete a task.", _TASK, "the deleted task"),
    )

    def __init__(self, config: dict[str, Any]):
        super().__init__(config)
        self.db = TodoDatabase()

    def close(self) -> None:
        self.db.close()

    def state(self) -> dict[str, list[list[Any]]]:
        return self.db.snapshot()

    def _project(self, project_id: str) -> sqlite3.Row:
        row = self.db.project(project_id.strip())
        if row is None:
            raise ActionError(
                f"There is no project with id {project_id[:40]!r}; get_projects lists them.",
                InvalidReason.UNKNOWN_OBJECT,
            )
        return row

    def _task(self, task_id: str) -> sqlite3.Row:
        row = self.db.task(task_id.strip())
        if row is None:
            raise ActionError(
                f"There is no task with id {task_id[:40]!r}; get_tasks lists a project's tasks.",
                InvalidReason.UNKNOWN_OBJECT,
            )
        return row

    def do_get_user_current_date(self) -> str:
        return self.config.get("current_date", CURRENT_DATE)

    def do_get_user_current_location(self) -> str:
        return self.config.get("current_location", CURRENT_LOCATION)

    def do_get_projects(self) -> list[dict]:
        return [_project_view(row) for row in self.db.projects()]

    def do_update_project(self, project_id: str, is_favorite: bool) -> dict:
        row = self._project(project_id)
        self.db.update("projects", row["id"], "is_favorite", int(is_favorite))
        return _project_view(self._project(row["id"]))

    def do_get_tasks(self, project_id: str) -> list[dict]:
        return [_task_view(row) for row in self.db.tasks(self._project(project_id)["id"])]

    def do_get_task_description(self, task_id: str) -> dict:
        row = self._task(task_id)
        return {"id": row["id"], "content": row["content"], "description": row["description"]}

    def do_get_task_duration(self, task_id: str) -> dict:
        row = self._task(task_id)
        return {
            "id": row["id"],
            "content": row["content"],
            "duration": f"{row['duration_amount']}({row['duration_unit']})",
        }

    def do_complete_task(self, task_id: str) -> dict:
        row = self._task(task_id)
        if row["is_completed"]:
            raise ActionError(f"Task {row['id']} is already completed.", InvalidReason.PRECONDITION)
        self.db.update("tasks", row["id"], "is_completed", 1)
        return _task_view(self._task(row["id"]))

    def do_update_task(self, task_id: str, due_date: str) -> dict:
        row = self._task(task_id)
        try:
            date = dt.date.fromisoformat(due_date.strip())
        except ValueError:
            raise ActionError(
                f"due_date must be a date written YYYY-MM-DD, not {due_date[:30]!r}.", InvalidReason.BAD_ARGUMENT
            ) from None
        self.db.update("tasks", row["id"], "due_date", date.isoformat())
        return _task_view(self._task(row["id"]))

    def do_delete_task(self, task_id: str) -> dict:
        row = self._task(task_id)
        self.db.delete_task(row["id"])
        return {"id": row["id"], "content": row["content"], "deleted": True}

    def example_calls(self) -> list[Call]:
        calls = [Call("get_user_current_date", {}), Call("get_projects", {})]
        for project in self.db.projects():
            calls.append(Call("get_tasks", {"project_id": project["id"]}))
            calls.append(Call("update_project", {"project_id": project["id"], "is_favorite": True}))
            for task in self.db.tasks(project["id"]):
                calls.append(Call("get_task_description", {"task_id": task["id"]}))
                calls.append(Call("get_task_duration", {"task_id": task["id"]}))
                calls.append(Call("complete_task", {"task_id": task["id"]}))
        return calls
