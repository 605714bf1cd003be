"""AgentBench's DB items on SQLite: what MySQL does differently that changes their results, emulated.

AgentBench runs its items on MySQL 8 with every column ``TEXT`` under the default collation. On SQLite this module:

- compares text case- and accent-insensitively (``'montreal' = 'Montréal'`` as in MySQL's ``utf8mb4_0900_ai_ci``),
  through a collation on every column;
- reads MySQL's string literals: backslash escapes (``'a\\nb'`` holds a newline), ``''`` and ``\\'`` quotes, and
  double-quoted strings (MySQL's default mode reads ``"x"`` as a string, SQLite as a column name);
- quotes the item's identifiers that start with a digit (``1952_British_Grand_Prix_0`` is a valid unquoted name
  in MySQL, a number followed by a name in SQLite).

MySQL's functions that SQLite lacks (``CONCAT``, ``YEAR``, ...) and its type conversions in arithmetic on text are
not emulated: an agent's SQL may still fail or differ here where it would not on MySQL (``db_url=mysql://...``
runs AgentBench's own engine).

``table_md5`` is AgentBench's table hash, computed in Python from the rows as stored (all text), as MySQL computes
it: ``md5(group_concat(rowhash ORDER BY rowhash))`` with ``rowhash = substring(md5(concat_ws(',', <columns>)), 1,
5)``.

>>> print(to_sqlite("SELECT * FROM 1952_t WHERE a = 'it\\\\'s' OR b = \\"x\\"", ["1952_t", "a", "b"]))
SELECT * FROM `1952_t` WHERE a = 'it''s' OR b = 'x'
>>> mysql_text_key("Montréal") == mysql_text_key("MONTREAL")
True
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import unicodedata
from collections.abc import Iterable, Sequence

from agentgym_text.envs.db.engine import Database, Result

__all__ = [
    "COLLATION",
    "mysql_text_key",
    "compare_text",
    "to_sqlite",
    "table_md5",
    "md5_result_text",
    "SqliteAsMysql",
    "mysql_table",
]

COLLATION = "mysql_ai_ci"
"""The SQLite collation name of MySQL's accent- and case-insensitive text comparison."""

_ESCAPES = {"0": "\0", "b": "\b", "n": "\n", "r": "\r", "t": "\t", "Z": "\x1a", "\\": "\\", "'": "'", '"': '"'}
_KEEP_BACKSLASH = {"%", "_"}  # MySQL keeps "\%" and "\_" as two characters (they matter to LIKE)


_DIGIT_LEADING_NAME = re.compile(r"\d+[A-Za-z_$][\w$]*")
"""A name MySQL reads unquoted and SQLite does not: digits first, then a letter (all digits is a number in both)."""


def mysql_text_key(text: str) -> str:
    """The form two strings share when MySQL's default collation calls them equal (accents and case dropped,
    trailing spaces ignored)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().rstrip(" ")


def compare_text(left: str, right: str) -> int:
    """The collation function SQLite calls (negative, zero or positive)."""
    a, b = mysql_text_key(left), mysql_text_key(right)
    return (a > b) - (a < b)


def _sqlite_literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _read_string(sql: str, start: int, quote: str) -> tuple[str, int]:
    """The value of the MySQL string literal opening at ``start`` and the index after it (unterminated: the rest)."""
    value = []
    index = start + 1
    while index < len(sql):
        char = sql[index]
        if char == "\\" and index + 1 < len(sql):
            escaped = sql[index + 1]
            value.append("\\" + escaped if escaped in _KEEP_BACKSLASH else _ESCAPES.get(escaped, escaped))
            index += 2
            continue
        if char == quote:
            if index + 1 < len(sql) and sql[index + 1] == quote:
                value.append(quote)
                index += 2
                continue
            return "".join(value), index + 1
        value.append(char)
        index += 1
    return "".join(value), index


def to_sqlite(sql: str, digit_names: Iterable[str] = ()) -> str:
    """``sql`` with MySQL's string literals rewritten as SQLite's and the given digit-leading identifiers quoted
    (names that do not start with a digit are left alone)."""
    names = sorted({name for name in digit_names if _DIGIT_LEADING_NAME.fullmatch(name)}, key=len, reverse=True)
    bare = re.compile(r"(?<![\w`\"'.])(" + "|".join(map(re.escape, names)) + r")(?![\w`\"'])") if names else None
    out = []
    index = 0
    plain_start = 0

    def flush(end: int) -> None:
        chunk = sql[plain_start:end]
        out.append(bare.sub(lambda m: f"`{m.group(1)}`", chunk) if bare else chunk)

    while index < len(sql):
        char = sql[index]
        if char in "'\"":
            flush(index)
            value, index = _read_string(sql, index, char)
            out.append(_sqlite_literal(value))
            plain_start = index
            continue
        if char == "`":
            flush(index)
            end = sql.find("`", index + 1)
            end = len(sql) if end < 0 else end + 1
            out.append(sql[index:end])
            index = plain_start = end
            continue
        if sql.startswith("--", index) or char == "#":
            end = sql.find("\n", index)
            index = len(sql) if end < 0 else end + 1
            continue
        index += 1
    flush(len(sql))
    return "".join(out)


def table_md5(rows: Sequence[Sequence[object]] | None) -> str | None:
    """AgentBench's hash of a table's rows (None for a missing or empty table, as MySQL's ``md5(NULL)``)."""
    if not rows:
        return None
    row_hashes = sorted(
        hashlib.md5(",".join(str(value) for value in row if value is not None).encode()).hexdigest()[:5] for row in rows
    )
    return hashlib.md5(",".join(row_hashes).encode()).hexdigest()


def md5_result_text(digest: str | None) -> str:
    """The hash as AgentBench prints its query's result, the form of the items' ``answer_md5``."""
    return "[(None,)]" if digest is None else f"[('{digest}',)]"


class SqliteAsMysql(Database):
    """An episode database on SQLite that reads AgentBench's items as MySQL would (see the module docstring).

    The table's columns are all ``TEXT COLLATE mysql_ai_ci``; each statement is rewritten with ``to_sqlite``.
    """

    def _prepare(self) -> None:
        self.connection.create_collation(COLLATION, compare_text)

    def _create_table(self, table: dict) -> None:
        try:
            super()._create_table(table)
        except sqlite3.OperationalError:
            # MySQL refuses the same tables (a column named twice): AgentBench's episode then has no table
            pass

    def run(self, sql: str) -> Result:
        names = [self.table["name"], *(name for name, _ in self.table["columns"])]
        return super().run(to_sqlite(sql, names))


def mysql_table(table: dict) -> dict:
    """The table spec with every column ``TEXT`` under MySQL's collation."""
    return {**table, "columns": [[name, f"TEXT COLLATE {COLLATION}"] for name, _ in table["columns"]]}
