"""The episode database on a MySQL or MariaDB server (``DbEnv(task_file=..., db_url="mysql://...")``): AgentBench's
own engine for its DB items.

Each episode gets its own database and its own user, granted privileges on that database only, so another episode's
tables and the server's own are out of reach by privilege. The table is created as AgentBench creates it (every
column ``TEXT``, filled by one ``INSERT``; a table MySQL refuses is left out, as there), and the table hash is
AgentBench's md5 query run on the server. Statements run with a 2-second limit; ``SET`` (which could lift it) is
refused. The URL: ``mysql://user:password@host[:port]/`` or ``mysql://user@localhost/?unix_socket=/path``; its user
needs CREATE, CREATE USER and GRANT OPTION. Needs ``pymysql`` (the ``db`` extra).
"""

from __future__ import annotations

import secrets
from decimal import Decimal
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from agentgym_text.envs.db.engine import Result, first_keyword

__all__ = ["MySQLDatabase", "connect_arguments"]

_TIMEOUT_SECONDS = 2


def _backquote(identifier: str) -> str:
    return "`" + identifier.replace("`", "``") + "`"


def connect_arguments(url: str) -> dict[str, Any]:
    """pymysql's connection arguments for a ``mysql://`` (or ``mariadb://``) URL.

    >>> connect_arguments("mysql://root:pw@db.local:3307/")
    {'host': 'db.local', 'port': 3307, 'user': 'root', 'password': 'pw'}
    >>> connect_arguments("mysql://root@localhost/?unix_socket=/tmp/s")["unix_socket"]
    '/tmp/s'
    """
    parsed = urlparse(url)
    if parsed.scheme not in ("mysql", "mariadb"):
        raise ValueError(f"a MySQL URL starts with mysql:// or mariadb://, not {url!r}")
    arguments: dict[str, Any] = {
        "host": parsed.hostname or "localhost",
        "port": parsed.port or 3306,
        "user": unquote(parsed.username or "root"),
        "password": unquote(parsed.password or ""),
    }
    socket = parse_qs(parsed.query).get("unix_socket")
    if socket:
        arguments["unix_socket"] = socket[0]
    return arguments


class MySQLDatabase:
    """Same interface as ``engine.Database`` (``run``, ``table_rows``, ``table_exists``, ``close``) plus
    ``table_md5``."""

    def __init__(self, table: dict[str, Any], url: str):
        try:
            import pymysql
        except ImportError as error:  # pragma: no cover - depends on the install
            raise ImportError("db_url='mysql://...' needs pymysql: pip install 'agentgym-text[db]'") from error
        self._errors = pymysql.Error
        self.table = table
        arguments = connect_arguments(url)
        try:
            self._admin = pymysql.connect(**arguments, charset="utf8mb4", autocommit=True, connect_timeout=10)
        except pymysql.Error as error:
            raise ConnectionError(f"cannot reach the MySQL server at {url!r}: {error}") from None
        token = secrets.token_hex(6)
        self.database = self.user = f"agentgym_ep_{token}"
        password = secrets.token_hex(16)
        self._hosts = ("localhost", "%")
        with self._admin.cursor() as cursor:
            cursor.execute(f"CREATE DATABASE {_backquote(self.database)} CHARACTER SET utf8mb4")
            for host in self._hosts:
                cursor.execute(f"CREATE USER '{self.user}'@'{host}' IDENTIFIED BY '{password}'")
                cursor.execute(f"GRANT ALL PRIVILEGES ON {_backquote(self.database)}.* TO '{self.user}'@'{host}'")
        self.connection = pymysql.connect(
            **{**arguments, "user": self.user, "password": password},
            database=self.database,
            charset="utf8mb4",
            autocommit=True,
            connect_timeout=10,
        )
        self._limit_statement_time()
        with self.connection.cursor() as cursor:
            # AgentBench's golds compare text columns with numbers in UPDATE ... WHERE (`No` = 16), which its
            # MySQL ran; MariaDB's strict mode refuses them
            cursor.execute("SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'")
        self._create_table(table)

    def _limit_statement_time(self) -> None:
        for statement in (
            f"SET SESSION max_statement_time = {_TIMEOUT_SECONDS}",  # MariaDB
            f"SET SESSION max_execution_time = {_TIMEOUT_SECONDS * 1000}",
        ):  # MySQL (SELECT only)
            try:
                with self.connection.cursor() as cursor:
                    cursor.execute(statement)
                return
            except self._errors:
                continue

    def _create_table(self, table: dict[str, Any]) -> None:
        columns = ",".join(f"{_backquote(name)} TEXT" for name, _ in table["columns"])
        try:
            with self.connection.cursor() as cursor:
                cursor.execute(f"CREATE TABLE {_backquote(table['name'])} ({columns})")
                if table["rows"]:
                    marks = ",".join("(" + ",".join(["%s"] * len(table["columns"])) + ")" for _ in table["rows"])
                    names = ",".join(_backquote(name) for name, _ in table["columns"])
                    values = [value for row in table["rows"] for value in row]
                    into = f"INSERT INTO {_backquote(table['name'])} ({names})".replace("%", "%%")  # pymysql formats
                    cursor.execute(f"{into} VALUES {marks}", values)
        except self._errors:
            pass  # as in AgentBench: a table MySQL refuses is simply not there

    def run(self, sql: str) -> Result:
        if first_keyword(sql) == "set":
            return Result(error="not authorized: SET could lift this episode's limits and is not allowed")
        try:
            with self.connection.cursor() as cursor:
                cursor.execute(sql)
                if cursor.description is None:
                    return Result()
                rows = [tuple(row) for row in cursor.fetchmany(10_001)]
                columns = [d[0] for d in cursor.description]
        except self._errors as error:
            return Result(error=str(error))
        return Result(rows=rows, columns=columns, is_query=True)

    def table_exists(self, name: str | None = None) -> bool:
        with self.connection.cursor() as cursor:
            cursor.execute(
                "SELECT 1 FROM information_schema.tables WHERE table_schema = %s AND table_name = %s",
                (self.database, name or self.table["name"]),
            )
            return cursor.fetchone() is not None

    def table_rows(self, name: str | None = None) -> list[tuple] | None:
        name = name or self.table["name"]
        try:
            with self.connection.cursor() as cursor:
                cursor.execute(f"SELECT * FROM {_backquote(name)}")
                if [d[0] for d in cursor.description or []] != [c for c, _ in self.table["columns"]]:
                    return None
                return [tuple(float(v) if isinstance(v, Decimal) else v for v in row) for row in cursor.fetchall()]
        except self._errors:
            return None

    def table_md5(self) -> str | None:
        """AgentBench's hash query, run on the server (None when the table is missing or empty)."""
        columns = ",".join(_backquote(name) for name, _ in self.table["columns"])
        query = (
            "select md5(group_concat(rowhash order by rowhash)) as hash from( SELECT "
            f"substring(MD5(CONCAT_WS(',', {columns})), 1, 5) AS rowhash FROM {_backquote(self.table['name'])}) as sub"
        )
        try:
            with self.connection.cursor() as cursor:
                cursor.execute(query)
                row = cursor.fetchone()
        except self._errors:
            return None
        return None if row is None or row[0] is None else str(row[0])

    def close(self) -> None:
        try:
            self.connection.close()
        except self._errors:
            pass
        try:
            with self._admin.cursor() as cursor:
                cursor.execute(f"DROP DATABASE IF EXISTS {_backquote(self.database)}")
                for host in self._hosts:
                    cursor.execute(f"DROP USER IF EXISTS '{self.user}'@'{host}'")
        except self._errors:
            pass
        finally:
            self._admin.close()
