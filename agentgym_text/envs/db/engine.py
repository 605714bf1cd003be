"""The database behind an episode: a fresh in-memory SQLite database per episode, guarded against the host.

``Database`` builds the task's table, runs one statement at a time and renders results the way AgentBench's
MySQL adapter does (the Python repr of the fetched rows). ``sqlite3``'s authorizer refuses statements that reach
outside the episode: ``ATTACH``/``DETACH``, ``load_extension``, and pragmas other than read-only schema
queries; ``VACUUM`` (which can write a file with ``INTO``) is refused too. A progress handler stops runaway
queries (an endless recursive CTE), a string or blob is capped at a million bytes (on Python 3.10, which cannot set
SQLite's limits, ``randomblob`` and ``zeroblob`` are refused instead) and result text is capped.

>>> db = Database({"name": "t", "columns": [["a", "INTEGER"]], "rows": [[1], [2]]})
>>> db.run("SELECT SUM(a) FROM t").rows
[(3,)]
>>> db.run("ATTACH DATABASE '/tmp/x.db' AS x").error
'not authorized'
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Database",
    "Result",
    "first_keyword",
    "quote",
    "sql_literal",
    "create_statement",
    "normalise_value",
    "normalise_rows",
    "content_hash",
    "MAX_RESULT_CHARS",
]

MAX_RESULT_CHARS = 4000
"""Longer result text is cut with a marker (AgentBench truncates long outputs too)."""
_MAX_VM_STEPS = 2_000_000
_READ_PRAGMAS = {
    "table_info",
    "table_xinfo",
    "table_list",
    "index_list",
    "index_info",
    "index_xinfo",
    "foreign_key_list",
    "database_list",
    "collation_list",
    "function_list",
}
_DENIED = {sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH}
_MAX_LENGTH = 1_000_000
"""The longest string or blob a statement may make (SQLite's own default is a billion bytes)."""
_BLOB_MAKERS = {"randomblob", "zeroblob"}
"""Without ``Connection.setlimit`` (Python 3.10) these are refused instead: one call could allocate gigabytes."""


def _limit(connection: sqlite3.Connection) -> None:
    if hasattr(connection, "setlimit"):  # Python 3.11+
        connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, _MAX_LENGTH)
        connection.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
    else:
        connection.set_authorizer(_authorizer_without_limits)


def _authorizer(action: int, arg1: Any, arg2: Any, dbname: Any, source: Any) -> int:
    if action in _DENIED:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_PRAGMA:
        return sqlite3.SQLITE_OK if str(arg1).lower() in _READ_PRAGMAS else sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_FUNCTION and str(arg2).lower() in {
        "load_extension",
        "readfile",
        "writefile",
        "edit",
        "fts3_tokenizer",
    }:
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


def _authorizer_without_limits(action: int, arg1: Any, arg2: Any, dbname: Any, source: Any) -> int:
    if action == sqlite3.SQLITE_FUNCTION and str(arg2).lower() in _BLOB_MAKERS:
        return sqlite3.SQLITE_DENY
    return _authorizer(action, arg1, arg2, dbname, source)


@dataclass
class Result:
    """What one statement did: ``rows`` for a query, ``error`` (the engine's message) when it failed."""

    rows: list[tuple] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    error: str | None = None
    is_query: bool = False

    def text(self) -> str:
        if self.error is not None:
            return self.error
        body = repr(self.rows)
        if len(body) > MAX_RESULT_CHARS:
            body = body[:MAX_RESULT_CHARS] + f"... [{len(self.rows)} rows in all; output cut]"
        return body


def quote(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


def sql_literal(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, (int, float)):
        return repr(value)
    return "'" + str(value).replace("'", "''") + "'"


class Database:
    """One episode's database, built from a table spec (see ``tables.Table``)."""

    def __init__(self, table: dict[str, Any]):
        self.table = table
        self.connection = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self._prepare()
        self._create_table(table)
        self.connection.set_authorizer(_authorizer)
        self.connection.set_progress_handler(lambda: 1, _MAX_VM_STEPS)
        _limit(self.connection)

    def _prepare(self) -> None:
        """Called before the table is created (a subclass registers its collations here)."""

    def _create_table(self, table: dict[str, Any]) -> None:
        self.connection.execute(create_statement(table))
        if table["rows"]:
            marks = ", ".join("?" * len(table["columns"]))
            self.connection.executemany(f"INSERT INTO {quote(table['name'])} VALUES ({marks})", table["rows"])

    def run(self, sql: str) -> Result:
        """Execute one statement; errors come back as ``Result.error`` (never raised)."""
        if first_keyword(sql) == "vacuum":
            return Result(error="VACUUM is not allowed in this episode")
        try:
            cursor = self.connection.execute(sql)
            rows = cursor.fetchmany(10_001)
        except sqlite3.Warning as error:  # e.g. "You can only execute one statement at a time."
            return Result(error=str(error))
        except sqlite3.Error as error:
            message = str(error)
            if message == "interrupted":
                message = "interrupted: the statement ran too long"
            return Result(error=message)
        except (OverflowError, ValueError, MemoryError) as error:
            return Result(error=str(error))
        columns = [d[0] for d in cursor.description] if cursor.description else []
        return Result(rows=[tuple(row) for row in rows], columns=columns, is_query=cursor.description is not None)

    def table_exists(self, name: str | None = None) -> bool:
        row = self.connection.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name or self.table["name"],)
        ).fetchone()
        return row is not None

    def table_rows(self, name: str | None = None) -> list[tuple] | None:
        """All rows of a table (None when it no longer exists or its columns changed)."""
        name = name or self.table["name"]
        try:
            cursor = self.connection.execute(f"SELECT * FROM {quote(name)}")
        except sqlite3.Error:
            return None
        if [d[0] for d in cursor.description] != [c for c, _ in self.table["columns"]]:
            return None
        return [tuple(row) for row in cursor.fetchall()]

    def close(self) -> None:
        self.connection.close()


def first_keyword(sql: str) -> str:
    """The statement's first keyword, lower-cased, after leading comments."""
    text = sql
    while True:
        text = text.lstrip()
        if text.startswith("--"):
            text = text.partition("\n")[2]
        elif text.startswith("/*"):
            text = text.partition("*/")[2]
        else:
            break
    match = re.match(r"[A-Za-z]+", text)
    return match.group(0).lower() if match else ""


def create_statement(table: dict[str, Any]) -> str:
    columns = ", ".join(f"{quote(name)} {sqltype}" for name, sqltype in table["columns"])
    return f"CREATE TABLE {quote(table['name'])} ({columns})"


_NUMBER_START = frozenset("0123456789+-.")
_NUMBER = re.compile(r"[-+]?(\d{1,3}(,\d{3})+|\d+|(?=\.\d))(\.\d+)?([eE][-+]?\d+)?")


def normalise_value(value: Any) -> Any:
    """A value as compared: numbers rounded to 2 places (1 == 1.0), text stripped and case-folded."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return round(float(value), 2)
    if value is None:
        return "null"
    text = str(value).strip()
    if text[:1] in _NUMBER_START and _NUMBER.fullmatch(text):
        return round(float(text.replace(",", "")), 2)
    return text.casefold()


def normalise_rows(rows: list[tuple] | list[list]) -> list[tuple]:
    return [tuple(normalise_value(v) for v in row) for row in rows]


def content_hash(rows: list[tuple] | list[list] | None) -> str:
    """An order-insensitive digest of a table's content (engine-independent: values are normalised)."""
    if rows is None:
        return "missing"
    canonical = sorted(json.dumps(row, sort_keys=True) for row in normalise_rows(rows))
    return hashlib.sha256("\n".join(canonical).encode()).hexdigest()
