"""The per-episode SQLite agenda: a fresh in-memory database, loaded from ``seed_data``, never shared."""

from __future__ import annotations

import sqlite3
from functools import lru_cache
from typing import Any

from agentgym_text.envs.tools.todo.seed_data import PROJECTS, TASKS

__all__ = ["TodoDatabase"]

_SCHEMA = """
CREATE TABLE projects (id TEXT PRIMARY KEY, name TEXT NOT NULL, sort_order INTEGER NOT NULL,
                       color TEXT NOT NULL, is_favorite INTEGER NOT NULL);
CREATE TABLE tasks (id TEXT PRIMARY KEY, project_id TEXT NOT NULL REFERENCES projects(id),
                    sort_order INTEGER NOT NULL, content TEXT NOT NULL, description TEXT NOT NULL,
                    due_date TEXT NOT NULL, duration_amount INTEGER NOT NULL, duration_unit TEXT NOT NULL,
                    priority INTEGER NOT NULL, is_completed INTEGER NOT NULL DEFAULT 0);
"""


def _seeded_connection() -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:", isolation_level=None)
    connection.executescript(_SCHEMA)
    connection.executemany(
        "INSERT INTO projects VALUES (?, ?, ?, ?, ?)",
        [(pid, name, order, color, int(fav)) for pid, name, order, color, fav in PROJECTS],
    )
    connection.executemany("INSERT INTO tasks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)", TASKS)
    return connection


@lru_cache(maxsize=1)
def _seed_image() -> bytes | None:
    """The seeded database as bytes (``Connection.serialize``), or None where sqlite lacks it."""
    connection = _seeded_connection()
    try:
        return connection.serialize() if hasattr(connection, "serialize") else None
    finally:
        connection.close()


class TodoDatabase:
    """One episode's agenda: a new in-memory database (a copy of the seeded image), closed at episode end.

    All queries use bound parameters; nothing from the agent becomes SQL text.
    """

    def __init__(self) -> None:
        image = _seed_image()
        if image is None:
            self.connection = _seeded_connection()
        else:
            self.connection = sqlite3.connect(":memory:", isolation_level=None)
            self.connection.deserialize(image)
        self.connection.row_factory = sqlite3.Row

    def close(self) -> None:
        self.connection.close()

    def projects(self) -> list[sqlite3.Row]:
        return self.connection.execute("SELECT * FROM projects ORDER BY sort_order, id").fetchall()

    def project(self, project_id: str) -> sqlite3.Row | None:
        return self.connection.execute("SELECT * FROM projects WHERE id = ?", (project_id,)).fetchone()

    def tasks(self, project_id: str, include_completed: bool = False) -> list[sqlite3.Row]:
        query = "SELECT * FROM tasks WHERE project_id = ?" + ("" if include_completed else " AND is_completed = 0")
        return self.connection.execute(query + " ORDER BY sort_order, id", (project_id,)).fetchall()

    def task(self, task_id: str) -> sqlite3.Row | None:
        return self.connection.execute("SELECT * FROM tasks WHERE id = ?", (task_id,)).fetchone()

    def update(self, table: str, row_id: str, column: str, value: Any) -> None:
        # table and column come from this module's callers, never from agent text
        assert table in ("projects", "tasks") and column in ("is_favorite", "is_completed", "due_date")
        self.connection.execute(f"UPDATE {table} SET {column} = ? WHERE id = ?", (value, row_id))

    def delete_task(self, task_id: str) -> None:
        self.connection.execute("DELETE FROM tasks WHERE id = ?", (task_id,))

    def snapshot(self) -> dict[str, list[list[Any]]]:
        """Every row of both tables, sorted, as JSON-like lists (the graded state)."""
        return {
            "projects": [list(row) for row in self.connection.execute("SELECT * FROM projects ORDER BY id")],
            "tasks": [list(row) for row in self.connection.execute("SELECT * FROM tasks ORDER BY id")],
        }
