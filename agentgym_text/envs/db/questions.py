"""Question templates in AgentBench's DB types: each turns a table into a question and its gold SQL.

A template returns a ``Question`` or None when the table does not suit it (no category column, a threshold that
would select nothing). ``ordered`` says whether the answer's order matters ("from highest to lowest");
modification questions (insert, update, delete) are checked on the table's content, not on the answer.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from agentgym_text.envs.db.engine import quote, sql_literal
from agentgym_text.envs.db.tables import Table, make_table

__all__ = ["Question", "TEMPLATES_BY_TYPE", "QUESTION_TYPES", "MODIFICATION_TYPES"]

QUESTION_TYPES = ("select", "aggregate", "count", "rank", "insert", "update", "delete")
MODIFICATION_TYPES = frozenset({"insert", "update", "delete"})
_NOT_DISTINCT = {"year", "gold", "age", "quantity"}


@dataclass(frozen=True)
class Question:
    qtype: str
    text: str
    sql: str
    ordered: bool = False
    hard: bool = False


def _names(table: Table, kind: str) -> list[str]:
    return [name for (name, _), k in zip(table["columns"], table["kinds"]) if k == kind]


def _numbers(table: Table, distinct: bool = False) -> list[str]:
    names = _names(table, "int") + _names(table, "real")
    return [n for n in names if n not in _NOT_DISTINCT] if distinct else names


def _column(table: Table, name: str) -> list:
    index = [c for c, _ in table["columns"]].index(name)
    return [row[index] for row in table["rows"]]


def _key(table: Table) -> str:
    return table["columns"][0][0]


def _key_label(table: Table) -> str:
    """How a question names the key column: "name" where the header is the noun itself (student, city)."""
    key = _key(table)
    return "name" if key in (table["noun"], "name", "product") else _label(key)


def _label(name: str) -> str:
    return name.replace("_km2", " (km²)").replace("_m", " (m)").replace("_", " ")


def _plural(noun: str) -> str:
    return noun[:-1] + "ies" if noun.endswith("y") else noun + "s"


def _t(table: Table) -> str:
    return quote(table["name"])


def _threshold(rng: random.Random, values: list) -> object | None:
    """A value strictly inside the column's range, so a comparison selects some rows but not all."""
    ordered = sorted(set(values))
    if len(ordered) < 3:
        return None
    return ordered[rng.randint(1, len(ordered) - 2)]


# ---- select ----------------------------------------------------------------------------------------------
def _lookup(rng: random.Random, table: Table) -> Question:
    key, column = _key(table), rng.choice([c for c, _ in table["columns"][1:]])
    value = rng.choice(_column(table, key))
    return Question(
        "select",
        f"What is the {_label(column)} of the {table['noun']} {value}?",
        f"SELECT {quote(column)} FROM {_t(table)} WHERE {quote(key)} = {sql_literal(value)}",
    )


def _filter_category(rng: random.Random, table: Table) -> Question | None:
    cats = [c for c in _names(table, "cat")]
    if not cats:
        return None
    column = rng.choice(cats)
    value = rng.choice(_column(table, column))
    key = _key(table)
    return Question(
        "select",
        f"Which {_plural(table['noun'])} have {_label(column)} {value}? Give their {_key_label(table)}.",
        f"SELECT {quote(key)} FROM {_t(table)} WHERE {quote(column)} = {sql_literal(value)}",
    )


def _filter_number(rng: random.Random, table: Table) -> Question | None:
    column = rng.choice(_numbers(table))
    limit = _threshold(rng, _column(table, column))
    if limit is None:
        return None
    key, word, op = _key(table), *rng.choice([("above", ">"), ("below", "<")])
    return Question(
        "select",
        f"List the {_key_label(table)} of every {table['noun']} whose {_label(column)} is {word} {limit}.",
        f"SELECT {quote(key)} FROM {_t(table)} WHERE {quote(column)} {op} {sql_literal(limit)}",
    )


def _two_conditions(rng: random.Random, table: Table) -> Question | None:
    cats, nums = _names(table, "cat"), _numbers(table)
    if not cats or not nums:
        return None
    cat, num = rng.choice(cats), rng.choice(nums)
    value = rng.choice(_column(table, cat))
    limit = _threshold(rng, _column(table, num))
    if limit is None:
        return None
    key = _key(table)
    return Question(
        "select",
        f"Give the {_key_label(table)} and {_label(num)} of the {_plural(table['noun'])} with "
        f"{_label(cat)} {value} and a {_label(num)} of at least {limit}.",
        f"SELECT {quote(key)}, {quote(num)} FROM {_t(table)} WHERE {quote(cat)} = {sql_literal(value)} "
        f"AND {quote(num)} >= {sql_literal(limit)}",
        hard=True,
    )


def _dates(rng: random.Random, table: Table) -> Question | None:
    dates = _names(table, "date")
    if not dates:
        return None
    column = dates[0]
    limit = _threshold(rng, _column(table, column))
    if limit is None:
        return None
    key = _key(table)
    return Question(
        "select",
        f"Which {_plural(table['noun'])} have a {_label(column)} later than {limit}? Give their {_key_label(table)}.",
        f"SELECT {quote(key)} FROM {_t(table)} WHERE {quote(column)} > {sql_literal(limit)}",
    )


# ---- aggregate -------------------------------------------------------------------------------------------
_FUNCTIONS = (("average", "AVG"), ("total", "SUM"), ("highest", "MAX"), ("lowest", "MIN"))


def _aggregate(rng: random.Random, table: Table) -> Question | None:
    cats = _names(table, "cat")
    if not cats:
        return None
    cat, num = rng.choice(cats), rng.choice(_numbers(table))
    value = rng.choice(_column(table, cat))
    word, function = rng.choice(_FUNCTIONS)
    return Question(
        "aggregate",
        f"What is the {word} {_label(num)} of the {_plural(table['noun'])} with {_label(cat)} {value}?",
        f"SELECT {function}({quote(num)}) FROM {_t(table)} WHERE {quote(cat)} = {sql_literal(value)}",
    )


def _group_best(rng: random.Random, table: Table) -> Question | None:
    cats = _names(table, "cat")
    if not cats:
        return None
    cat, num = rng.choice(cats), rng.choice(_numbers(table))
    totals: Counter = Counter()
    for group, amount in zip(_column(table, cat), _column(table, num)):
        totals[group] += amount
    ranked = sorted(totals.values(), reverse=True)
    if len(ranked) < 2 or abs(ranked[0] - ranked[1]) < 0.01:
        return None
    return Question(
        "aggregate",
        f"Which {_label(cat)} has the highest total {_label(num)} over its {_plural(table['noun'])}?",
        f"SELECT {quote(cat)} FROM {_t(table)} GROUP BY {quote(cat)} ORDER BY SUM({quote(num)}) DESC LIMIT 1",
        hard=True,
    )


# ---- count -----------------------------------------------------------------------------------------------
def _count_category(rng: random.Random, table: Table) -> Question | None:
    cats = _names(table, "cat")
    if not cats:
        return None
    cat = rng.choice(cats)
    value = rng.choice(_column(table, cat))
    return Question(
        "count",
        f"How many {_plural(table['noun'])} have {_label(cat)} {value}?",
        f"SELECT COUNT(*) FROM {_t(table)} WHERE {quote(cat)} = {sql_literal(value)}",
    )


def _count_number(rng: random.Random, table: Table) -> Question | None:
    num = rng.choice(_numbers(table))
    limit = _threshold(rng, _column(table, num))
    if limit is None:
        return None
    return Question(
        "count",
        f"How many {_plural(table['noun'])} have a {_label(num)} of at least {limit}?",
        f"SELECT COUNT(*) FROM {_t(table)} WHERE {quote(num)} >= {sql_literal(limit)}",
    )


def _count_distinct(rng: random.Random, table: Table) -> Question | None:
    cats = _names(table, "cat")
    if not cats:
        return None
    cat = rng.choice(cats)
    return Question(
        "count",
        f"How many different {_label(cat)} values appear among the {_plural(table['noun'])}?",
        f"SELECT COUNT(DISTINCT {quote(cat)}) FROM {_t(table)}",
    )


# ---- rank ------------------------------------------------------------------------------------------------
def _top(rng: random.Random, table: Table) -> Question | None:
    if not _numbers(table, distinct=True):
        return None
    num, key = rng.choice(_numbers(table, distinct=True)), _key(table)
    word, order = rng.choice([("highest", "DESC"), ("lowest", "ASC")])
    return Question(
        "rank",
        f"Which {table['noun']} has the {word} {_label(num)}? Give its {_key_label(table)}.",
        f"SELECT {quote(key)} FROM {_t(table)} ORDER BY {quote(num)} {order} LIMIT 1",
    )


def _top_n(rng: random.Random, table: Table) -> Question | None:
    if not _numbers(table, distinct=True):
        return None
    num, key, count = rng.choice(_numbers(table, distinct=True)), _key(table), rng.randint(2, 4)
    word, order = rng.choice([("highest", "DESC"), ("lowest", "ASC")])
    return Question(
        "rank",
        f"List the {_key_label(table)} of the {count} {_plural(table['noun'])} with the {word} "
        f"{_label(num)}, in order from the {word}.",
        f"SELECT {quote(key)} FROM {_t(table)} ORDER BY {quote(num)} {order} LIMIT {count}",
        ordered=True,
        hard=True,
    )


def _second(rng: random.Random, table: Table) -> Question | None:
    if not _numbers(table, distinct=True):
        return None
    num, key = rng.choice(_numbers(table, distinct=True)), _key(table)
    return Question(
        "rank",
        f"Which {table['noun']} has the second highest {_label(num)}? Give its {_key_label(table)}.",
        f"SELECT {quote(key)} FROM {_t(table)} ORDER BY {quote(num)} DESC LIMIT 1 OFFSET 1",
        hard=True,
    )


# ---- insert, update, delete --------------------------------------------------------------------------------
def _insert(rng: random.Random, table: Table) -> Question | None:
    keys = set(_column(table, _key(table)))
    for _ in range(20):
        row = make_table(rng, table["name"], rows=len(table["rows"]) + 1)["rows"][-1]
        if row[0] not in keys:
            break
    else:
        return None
    names = [c for c, _ in table["columns"]]
    described = ", ".join(f"{_label(c)} {v}" for c, v in zip(names, row))
    values = ", ".join(sql_literal(v) for v in row)
    return Question(
        "insert",
        f"Add a new {table['noun']} to the table: {described}.",
        f"INSERT INTO {_t(table)} ({', '.join(map(quote, names))}) VALUES ({values})",
    )


def _update_one(rng: random.Random, table: Table) -> Question:
    key = _key(table)
    target = rng.choice(_column(table, key))
    column = rng.choice([c for c, _ in table["columns"][1:]])
    index = [c for c, _ in table["columns"]].index(column)
    current = _column(table, column)
    donor = make_table(rng, table["name"], rows=len(table["rows"]))
    value = next((row[index] for row in donor["rows"] if row[index] not in current), donor["rows"][0][index])
    return Question(
        "update",
        f"Change the {_label(column)} of the {table['noun']} {target} to {value}.",
        f"UPDATE {_t(table)} SET {quote(column)} = {sql_literal(value)} WHERE {quote(key)} = {sql_literal(target)}",
    )


def _update_many(rng: random.Random, table: Table) -> Question | None:
    cats = _names(table, "cat")
    nums = _names(table, "int")
    if not cats or not nums:
        return None
    cat, num = rng.choice(cats), rng.choice(nums)
    value, step = rng.choice(_column(table, cat)), rng.randint(1, 5)
    return Question(
        "update",
        f"Increase the {_label(num)} by {step} for every {table['noun']} whose {_label(cat)} is {value}.",
        f"UPDATE {_t(table)} SET {quote(num)} = {quote(num)} + {step} WHERE {quote(cat)} = {sql_literal(value)}",
        hard=True,
    )


def _delete_one(rng: random.Random, table: Table) -> Question:
    key = _key(table)
    target = rng.choice(_column(table, key))
    return Question(
        "delete",
        f"Remove the {table['noun']} {target} from the table.",
        f"DELETE FROM {_t(table)} WHERE {quote(key)} = {sql_literal(target)}",
    )


def _delete_many(rng: random.Random, table: Table) -> Question | None:
    num = rng.choice(_numbers(table))
    limit = _threshold(rng, _column(table, num))
    if limit is None:
        return None
    return Question(
        "delete",
        f"Delete every {table['noun']} whose {_label(num)} is below {limit}.",
        f"DELETE FROM {_t(table)} WHERE {quote(num)} < {sql_literal(limit)}",
        hard=True,
    )


TEMPLATES_BY_TYPE: dict[str, tuple[Callable[[random.Random, Table], Question | None], ...]] = {
    "select": (_lookup, _filter_category, _filter_number, _two_conditions, _dates),
    "aggregate": (_aggregate, _group_best),
    "count": (_count_category, _count_number, _count_distinct),
    "rank": (_top, _top_n, _second),
    "insert": (_insert,),
    "update": (_update_one, _update_many),
    "delete": (_delete_one, _delete_many),
}
