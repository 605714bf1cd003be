"""Small AgentBench DB files written here in AgentBench's format (its own files never enter this repository), with
the quirks of the real ones: values that are numbers, a row of the wrong length, a column named twice, a gold
statement with a backslash escape, an accented value matched without its accent, a digit-leading table name."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path


def md5_of(rows: list[list[str | None]]) -> str:
    """AgentBench's table hash, written out step by step (md5 of the sorted 5-character row hashes)."""
    row_hashes = []
    for row in rows:
        joined = ",".join(value for value in row if value is not None)
        row_hashes.append(hashlib.md5(joined.encode()).hexdigest()[:5])
    return hashlib.md5(",".join(sorted(row_hashes)).encode()).hexdigest()


def _table(name: str, columns: list[str], rows: list[list]) -> dict:
    return {"table_name": name, "table_info": {"columns": [{"name": c, "type": "INT"} for c in columns], "rows": rows}}


def _item(kind: str, description: str, table: dict, label: list, md5_rows: list | None = None) -> dict:
    item = {
        "description": description,
        "label": label,
        "create": {"database": "wikisql", "init": "wikisql_init.sql"},
        "table": table,
        "evaluation": "",
        "example": "",
        "type": [kind],
        "heads": [c["name"] for c in table["table_info"]["columns"]],
        "add_description": f"The name of this table is {table['table_name']}, and the headers of this table are "
        + ",".join(c["name"] for c in table["table_info"]["columns"])
        + ".",
        "source": "wikisql",
    }
    if md5_rows is not None:
        item["answer_md5"] = f"[('{md5_of(md5_rows)}',)]"
    return item


CITIES = _table(
    "Cities",
    ["City", "Country", "Population"],
    [
        ["Montréal", "Canada", 1704694],
        ["Lyon", "France", 513275],
        ["Porto", "Portugal", 231962.5],
    ],
)
ITEMS = [
    # 0: a question whose values are numbers in the file (stored as text)
    _item("counting", "How many cities are listed?", CITIES, ["3"]),
    # 1: an INSERT whose gold holds a MySQL backslash escape (a newline in the stored value)
    _item(
        "INSERT",
        "Add Nice, France, 342669.",
        CITIES,
        ["INSERT INTO `Cities` (City, Country, Population) VALUES ('Nice\\nCôte', 'France', '342669')"],
        [
            ["Montréal", "Canada", "1704694"],
            ["Lyon", "France", "513275"],
            ["Porto", "Portugal", "231962.5"],
            ["Nice\nCôte", "France", "342669"],
        ],
    ),
    # 2: an UPDATE that names the city without its accent and in lower case (MySQL's collation matches it)
    _item(
        "UPDATE",
        "Set Montreal's population to 1.",
        CITIES,
        ["UPDATE Cities SET Population = '1' WHERE City = 'montreal'"],
        [["Montréal", "Canada", "1"], ["Lyon", "France", "513275"], ["Porto", "Portugal", "231962.5"]],
    ),
    # 3: a digit-leading table name, unquoted in the gold (valid in MySQL)
    _item(
        "UPDATE",
        "Set the winner to Ascari.",
        _table("1952_Grand_Prix_0", ["Race", "Winner"], [["Swiss", "Taruffi"]]),
        ["UPDATE 1952_Grand_Prix_0 SET Winner = 'Ascari' WHERE Race = 'Swiss'"],
        [["Swiss", "Ascari"]],
    ),
    # 4: a row of the wrong length: MySQL refuses AgentBench's one INSERT, the table stays empty
    _item(
        "aggregation-MAX", "What is the largest score?", _table("Scores", ["Team", "Score"], [["A", "3"], ["B"]]), ["3"]
    ),
    # 5: a column named twice: MySQL refuses the table
    _item("other", "Who won?", _table("Results", ["Team", "Score", "Score"], [["A", "1", "2"]]), ["A"]),
    # 6: a question with two values (compared as sets)
    _item("ranking", "Which two cities are largest?", CITIES, ["Montréal", "Lyon"]),
]


def write_items(folder: Path, name: str = "standard.jsonl", items: list | None = None) -> Path:
    path = folder / name
    path.write_text(
        "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in (ITEMS if items is None else items))
    )
    return path
