"""The episode database on a PostgreSQL server (``DbEnv(db_url=...)``), instead of in-memory SQLite.

Each episode gets its own schema and its own role (``NOLOGIN``, owning only that schema); statements run under
``SET ROLE`` with a ``statement_timeout``, so another episode's tables and the server's files are out of reach by
privilege. Statements that could leave the role or the session state (SET/RESET, ``set_config``, DO/CALL, COPY,
transactions, LISTEN/NOTIFY, LOAD, VACUUM) are refused before they reach the server. The DSN's user needs
CREATEROLE (and CREATE on the database); use a scratch database. Needs ``psycopg`` (the ``db`` extra).
"""

from __future__ import annotations

import re
import secrets
from decimal import Decimal
from typing import Any

from agentgym_text.envs.db.engine import Result, first_keyword, quote

__all__ = ["PostgresDatabase", "REFUSED_KEYWORDS"]

REFUSED_KEYWORDS = frozenset(
    {
        "set",
        "reset",
        "do",
        "call",
        "copy",
        "begin",
        "start",
        "commit",
        "end",
        "rollback",
        "abort",
        "savepoint",
        "release",
        "prepare",
        "listen",
        "notify",
        "unlisten",
        "load",
        "vacuum",
        "discard",
        "grant",
        "revoke",
        "security",
        "lock",
        "checkpoint",
        "cluster",
        "import",
        "refresh",
        "reassign",
    }
)
_REFUSED_TEXT = re.compile(
    r"set_config|session_authorization|\bset\s+role\b|\breset\b|pg_read|pg_ls_|lo_import|"
    r"lo_export|dblink|pg_terminate|pg_cancel|pg_reload|pg_sleep",
    re.IGNORECASE,
)
_TYPES = {"TEXT": "TEXT", "INTEGER": "BIGINT", "REAL": "DOUBLE PRECISION"}
_TIMEOUT_MS = 2000


def _plain(value: Any) -> Any:
    return float(value) if isinstance(value, Decimal) else value


class PostgresDatabase:
    """Same interface as ``engine.Database``: ``run``, ``table_rows``, ``table_exists``, ``close``."""

    def __init__(self, table: dict[str, Any], url: str):
        try:
            import psycopg
        except ImportError as error:  # pragma: no cover - depends on the install
            raise ImportError("db_url= needs psycopg: pip install 'agentgym-text[db]'") from error
        self._errors = psycopg.Error
        self.table = table
        self.connection = psycopg.connect(url, autocommit=True)
        token = secrets.token_hex(6)
        self.schema, self.role = f"agentgym_ep_{token}", f"agentgym_ep_{token}"
        admin = self.connection
        admin.execute(f"CREATE ROLE {self.role} NOLOGIN")
        admin.execute(f"CREATE SCHEMA {self.schema} AUTHORIZATION {self.role}")
        admin.execute(f"SET search_path TO {self.schema}")
        admin.execute(f"SET ROLE {self.role}")
        admin.execute(f"SET statement_timeout = {_TIMEOUT_MS}")
        columns = ", ".join(f"{quote(name)} {_TYPES[sqltype]}" for name, sqltype in table["columns"])
        admin.execute(f"CREATE TABLE {quote(table['name'])} ({columns})")
        if table["rows"]:
            marks = ", ".join(["%s"] * len(table["columns"]))
            with admin.cursor() as cursor:
                cursor.executemany(f"INSERT INTO {quote(table['name'])} VALUES ({marks})", table["rows"])

    def run(self, sql: str) -> Result:
        keyword = first_keyword(sql)
        if keyword in REFUSED_KEYWORDS or _REFUSED_TEXT.search(sql):
            return Result(error="not authorized: this statement could reach outside the episode and is not allowed")
        try:
            cursor = self.connection.execute(sql)  # no parameters: psycopg sends the text as is
            if cursor.description is None:
                return Result()
            rows = cursor.fetchmany(10_001)
            columns = [d.name for d in cursor.description]
        except self._errors as error:
            return Result(error=str(error).strip())
        return Result(rows=[tuple(_plain(v) for v in row) for row in rows], columns=columns, is_query=True)

    def table_exists(self, name: str | None = None) -> bool:
        row = self.connection.execute(
            "SELECT 1 FROM information_schema.tables WHERE table_schema = %s AND table_name = %s",
            (self.schema, name or self.table["name"]),
        ).fetchone()
        return row is not None

    def table_rows(self, name: str | None = None) -> list[tuple] | None:
        name = name or self.table["name"]
        if not self.table_exists(name):
            return None
        try:
            cursor = self.connection.execute(f"SELECT * FROM {quote(name)}")
        except self._errors:
            return None
        if [d.name for d in cursor.description or []] != [c for c, _ in self.table["columns"]]:
            return None
        return [tuple(_plain(v) for v in row) for row in cursor.fetchall()]

    def close(self) -> None:
        try:
            self.connection.execute("RESET ROLE")
            self.connection.execute(f"DROP SCHEMA IF EXISTS {self.schema} CASCADE")
            self.connection.execute(f"DROP ROLE IF EXISTS {self.role}")
        except self._errors:
            pass
        finally:
            self.connection.close()
