"""Generated tables of realistic shapes: a schema template per domain, rows drawn from a seeded RNG.

A column is (name, kind, pool): ``key`` columns hold distinct names, ``cat`` columns categories, ``int`` and
``real`` columns numbers in a range, ``date`` columns ISO dates. Tables are small (AgentBench's are 5-30 rows)
so that a question's answer can be checked by eye.

>>> table = make_table(random.Random(0), "employees")
>>> table["name"], table["columns"][0]
('employees', ['name', 'TEXT'])
"""

from __future__ import annotations

import random
from typing import Any

from agentgym_text.core.words import FIRST_NAMES, LAST_NAMES

__all__ = ["TEMPLATES", "make_table", "column_kind", "Table"]

Table = dict[str, Any]
"""{"name": str, "columns": [[name, sqltype], ...], "kinds": [kind, ...], "rows": [[value, ...], ...], "noun": str}"""

_FIRST = FIRST_NAMES[:32]
_LAST = tuple(name for name in LAST_NAMES[:26] if name not in ("Takahashi", "Xu"))
"""The names the shipped tables were generated from: another selection changes every task."""
_ADJ = (
    "Silent",
    "Golden",
    "Crimson",
    "Hidden",
    "Last",
    "Broken",
    "Electric",
    "Frozen",
    "Wild",
    "Distant",
    "Quiet",
    "Burning",
    "Paper",
    "Iron",
    "Velvet",
    "Hollow",
    "Bright",
    "Lonely",
    "Secret",
    "Northern",
)
_NOUN = (
    "Harbor",
    "Garden",
    "River",
    "Empire",
    "Signal",
    "Orchard",
    "Lantern",
    "Mirror",
    "Voyage",
    "Horizon",
    "Machine",
    "Kingdom",
    "Forest",
    "Station",
    "Letter",
    "Island",
    "Engine",
    "Bridge",
    "Season",
    "Shadow",
)
_PRODUCT = (
    "Kettle",
    "Blender",
    "Headphones",
    "Backpack",
    "Desk Lamp",
    "Monitor",
    "Keyboard",
    "Toaster",
    "Sneakers",
    "Jacket",
    "Tent",
    "Camera",
    "Router",
    "Speaker",
    "Umbrella",
    "Notebook",
    "Drill",
    "Mixer",
    "Scooter",
    "Watch",
)
_BRAND = ("Acme", "Nordia", "Vertex", "Luma", "Orbit", "Kestrel", "Pioneer", "Zenith", "Cobalt", "Maple")
_CITY = (
    "Lisbon",
    "Osaka",
    "Nairobi",
    "Lyon",
    "Denver",
    "Kraków",
    "Porto",
    "Seville",
    "Tampere",
    "Leeds",
    "Graz",
    "Bergen",
    "Quito",
    "Da Nang",
    "Cork",
    "Malmö",
    "Gdańsk",
    "Brno",
    "Tartu",
    "Utrecht",
    "Valparaíso",
    "Adelaide",
    "Halifax",
    "Mysore",
    "Cusco",
)


def _person(rng: random.Random) -> str:
    return f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"


def _title(rng: random.Random) -> str:
    return f"The {rng.choice(_ADJ)} {rng.choice(_NOUN)}"


def _product(rng: random.Random) -> str:
    return f"{rng.choice(_BRAND)} {rng.choice(_PRODUCT)}"


# column: (name, kind, generator or pool or (low, high))
TEMPLATES: dict[str, dict[str, Any]] = {
    "employees": {
        "noun": "employee",
        "columns": [
            ("name", "key", _person),
            ("department", "cat", ("Sales", "Engineering", "Finance", "Marketing", "Support")),
            ("position", "cat", ("Analyst", "Manager", "Engineer", "Associate", "Director")),
            ("salary", "int", (38000, 150000)),
            ("hire_date", "date", (2005, 2024)),
            ("city", "cat", _CITY[:8]),
        ],
    },
    "products": {
        "noun": "product",
        "columns": [
            ("product", "key", _product),
            ("category", "cat", ("Kitchen", "Electronics", "Outdoor", "Clothing", "Office")),
            ("price", "real", (4.0, 900.0)),
            ("stock", "int", (0, 500)),
            ("supplier", "cat", _BRAND[:6]),
            ("release_date", "date", (2015, 2025)),
        ],
    },
    "films": {
        "noun": "film",
        "columns": [
            ("title", "key", _title),
            ("genre", "cat", ("Drama", "Comedy", "Thriller", "Documentary", "Animation", "Sci-Fi")),
            ("year", "int", (1975, 2024)),
            ("rating", "real", (3.0, 9.6)),
            ("box_office", "int", (100000, 900000000)),
            ("language", "cat", ("English", "French", "Japanese", "Spanish", "Korean")),
        ],
    },
    "athletes": {
        "noun": "athlete",
        "columns": [
            ("athlete", "key", _person),
            ("country", "cat", ("Kenya", "Norway", "Japan", "Brazil", "Canada", "Italy", "Jamaica")),
            ("sport", "cat", ("Rowing", "Sprint", "Swimming", "Cycling", "Judo")),
            ("gold", "int", (0, 9)),
            ("age", "int", (18, 39)),
            ("height_m", "real", (1.55, 2.05)),
        ],
    },
    "orders": {
        "noun": "order",
        "columns": [
            ("order_id", "key", None),
            ("customer", "cat", tuple(f"{first} {last}" for first, last in zip(_FIRST[:9], _LAST[5:14]))),
            ("item", "cat", _PRODUCT[:8]),
            ("quantity", "int", (1, 40)),
            ("order_date", "date", (2021, 2024)),
            ("status", "cat", ("shipped", "pending", "cancelled", "delivered")),
        ],
    },
    "cities": {
        "noun": "city",
        "columns": [
            ("city", "key", None),
            ("country", "cat", ("Portugal", "Japan", "Kenya", "France", "Poland", "Spain", "Finland")),
            ("population", "int", (50000, 4000000)),
            ("area_km2", "real", (20.0, 2500.0)),
            ("founded", "int", (800, 1900)),
            ("climate", "cat", ("oceanic", "continental", "mediterranean", "subtropical")),
        ],
    },
    "students": {
        "noun": "student",
        "columns": [
            ("student", "key", _person),
            ("major", "cat", ("Physics", "History", "Biology", "Economics", "Computer Science", "Music")),
            ("year", "int", (1, 4)),
            ("gpa", "real", (2.0, 4.0)),
            ("credits", "int", (12, 140)),
            ("hometown", "cat", _CITY[8:16]),
        ],
    },
    "books": {
        "noun": "book",
        "columns": [
            ("title", "key", _title),
            ("author", "cat", tuple(f"{first} {last}" for first, last in zip(_FIRST[10:18], _LAST[:8]))),
            ("genre", "cat", ("Fantasy", "Mystery", "Biography", "Poetry", "Science")),
            ("pages", "int", (90, 900)),
            ("published", "int", (1950, 2024)),
            ("price", "real", (5.0, 60.0)),
        ],
    },
}

_SQL_TYPES = {"key": "TEXT", "cat": "TEXT", "int": "INTEGER", "real": "REAL", "date": "TEXT"}


def column_kind(table: Table, column: str) -> str:
    """The kind (key, cat, int, real, date) of ``column``."""
    return table["kinds"][[name for name, _ in table["columns"]].index(column)]


def _value(rng: random.Random, kind: str, source: Any, index: int, used: set) -> Any:
    if kind == "key":
        if source is None:
            return None  # filled by the caller (order ids, city names)
        for _ in range(200):
            value = source(rng)
            if value not in used:
                used.add(value)
                return value
        raise RuntimeError("key pool exhausted")
    if kind == "cat":
        return rng.choice(source)
    if kind == "int":
        return rng.randint(*source)
    if kind == "real":
        return round(rng.uniform(*source), 2)
    year = rng.randint(*source)
    return f"{year:04d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def make_table(rng: random.Random, template: str, rows: int | None = None) -> Table:
    """A table of the ``template`` domain with ``rows`` rows (8-20 by default), numbers distinct per column."""
    spec = TEMPLATES[template]
    count = rows or rng.randint(8, 20)
    body: list[list[Any]] = [[] for _ in range(count)]
    for _position, (name, kind, source) in enumerate(spec["columns"]):
        used: set = set()
        if kind == "key" and source is None:
            values = rng.sample(range(1000, 9999), count) if name == "order_id" else rng.sample(_CITY, count)
        elif kind in ("int", "real") and name not in ("year", "gold", "age", "quantity"):
            # distinct values keep "the highest X" questions unambiguous
            values = []
            while len(values) < count:
                value = _value(rng, kind, source, len(values), used)
                if value not in values:
                    values.append(value)
        else:
            values = [_value(rng, kind, source, i, used) for i in range(count)]
        for row, value in zip(body, values):
            row.append(value)
    return {
        "name": template,
        "noun": spec["noun"],
        "columns": [[name, "INTEGER" if name == "order_id" else _SQL_TYPES[kind]] for name, kind, _ in spec["columns"]],
        "kinds": [kind for _, kind, _ in spec["columns"]],
        "rows": body,
    }
