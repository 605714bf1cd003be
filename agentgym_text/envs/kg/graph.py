"""The knowledge graph in SQLite: building it from the generated world, and the queries the tools need.

Tables: ``entity(id, name, lname, type)``, ``relation(id, name, range)``, ``triple(s, r, o)`` (primary key
s, r, o: the lookups by subject are index scans), ``attribute(id, name)`` and ``value(s, a, v)``. The file is
opened read-only (``mode=ro``) by each env; sets of entities are passed as id lists in chunks.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

from agentgym_text.envs.kg.world import RELATIONS, World

__all__ = ["write_graph", "KnowledgeGraph"]

_CHUNK = 900


def write_graph(world: World, path: Path) -> None:
    """Write ``world`` as a SQLite file at ``path``."""
    connection = sqlite3.connect(path)
    try:
        connection.executescript(
            """
            CREATE TABLE entity (id INTEGER PRIMARY KEY, name TEXT NOT NULL, lname TEXT NOT NULL UNIQUE,
                                 type TEXT NOT NULL);
            CREATE TABLE relation (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, range TEXT NOT NULL);
            CREATE TABLE triple (s INTEGER, r INTEGER, o INTEGER, PRIMARY KEY (s, r, o)) WITHOUT ROWID;
            CREATE TABLE attribute (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE value (s INTEGER, a INTEGER, v REAL, PRIMARY KEY (s, a)) WITHOUT ROWID;
            """
        )
        ids = {name: index for index, name in enumerate(sorted(world.entities))}
        connection.executemany(
            "INSERT INTO entity VALUES (?, ?, ?, ?)",
            ((ids[n], n, n.casefold(), world.entities[n]) for n in sorted(world.entities)),
        )
        ranges = {}
        for name, (inverse, domain, rng) in RELATIONS.items():
            ranges[name], ranges[inverse] = rng, domain
        relation_ids = {name: index for index, name in enumerate(sorted(ranges))}
        connection.executemany(
            "INSERT INTO relation VALUES (?, ?, ?)", ((relation_ids[n], n, ranges[n]) for n in sorted(ranges))
        )
        connection.executemany(
            "INSERT OR IGNORE INTO triple VALUES (?, ?, ?)",
            sorted((ids[s], relation_ids[r], ids[o]) for s, r, o in world.triples),
        )
        attributes = sorted({a for _, a, _ in world.values})
        attribute_ids = {name: index for index, name in enumerate(attributes)}
        connection.executemany("INSERT INTO attribute VALUES (?, ?)", ((attribute_ids[a], a) for a in attributes))
        connection.executemany(
            "INSERT INTO value VALUES (?, ?, ?)", sorted((ids[s], attribute_ids[a], v) for s, a, v in world.values)
        )
        connection.commit()
        connection.execute("VACUUM")
    finally:
        connection.close()


def _chunks(ids: Iterable[int]) -> Iterable[list[int]]:
    ordered = sorted(ids)
    for start in range(0, len(ordered), _CHUNK):
        yield ordered[start : start + _CHUNK]


class KnowledgeGraph:
    """Read-only queries over a graph file; entity sets are frozensets of ids."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.connection = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
        self.relation_ids = {n: i for i, n in self.connection.execute("SELECT id, name FROM relation")}
        self.relation_names = {i: n for n, i in self.relation_ids.items()}
        self.ranges = dict(self.connection.execute("SELECT name, range FROM relation"))
        self.attribute_ids = {n: i for i, n in self.connection.execute("SELECT id, name FROM attribute")}
        self.attribute_names = {i: n for n, i in self.attribute_ids.items()}

    def close(self) -> None:
        self.connection.close()

    def triple_count(self) -> int:
        return int(self.connection.execute("SELECT COUNT(*) FROM triple").fetchone()[0])

    def entity(self, name: str) -> tuple[int, str, str] | None:
        """(id, name, type) of the entity called ``name`` (case-insensitive), or None."""
        row = self.connection.execute(
            "SELECT id, name, type FROM entity WHERE lname = ?", (name.strip().casefold(),)
        ).fetchone()
        return (int(row[0]), row[1], row[2]) if row else None

    def names(self, ids: Iterable[int]) -> list[str]:
        found: list[str] = []
        for chunk in _chunks(ids):
            marks = ",".join("?" * len(chunk))
            found += [n for (n,) in self.connection.execute(f"SELECT name FROM entity WHERE id IN ({marks})", chunk)]
        return sorted(found)

    def relations(self, ids: frozenset[int]) -> list[str]:
        found: set[int] = set()
        for chunk in _chunks(ids):
            marks = ",".join("?" * len(chunk))
            found.update(
                r for (r,) in self.connection.execute(f"SELECT DISTINCT r FROM triple WHERE s IN ({marks})", chunk)
            )
        return sorted(self.relation_names[r] for r in found)

    def neighbors(self, ids: frozenset[int], relation: str) -> frozenset[int]:
        rid = self.relation_ids[relation]
        found: set[int] = set()
        for chunk in _chunks(ids):
            marks = ",".join("?" * len(chunk))
            found.update(
                o
                for (o,) in self.connection.execute(
                    f"SELECT o FROM triple WHERE r = ? AND s IN ({marks})", [rid, *chunk]
                )
            )
        return frozenset(found)

    def attributes(self, ids: frozenset[int]) -> list[str]:
        found: set[int] = set()
        for chunk in _chunks(ids):
            marks = ",".join("?" * len(chunk))
            found.update(
                a for (a,) in self.connection.execute(f"SELECT DISTINCT a FROM value WHERE s IN ({marks})", chunk)
            )
        return sorted(self.attribute_names[a] for a in found)

    def extreme(self, ids: frozenset[int], attribute: str, highest: bool) -> frozenset[int]:
        """The entities of ``ids`` with the highest (lowest) value of ``attribute`` (all of them on a tie)."""
        aid = self.attribute_ids[attribute]
        values: list[tuple[int, float]] = []
        for chunk in _chunks(ids):
            marks = ",".join("?" * len(chunk))
            values += self.connection.execute(f"SELECT s, v FROM value WHERE a = ? AND s IN ({marks})", [aid, *chunk])
        if not values:
            return frozenset()
        best = max(v for _, v in values) if highest else min(v for _, v in values)
        return frozenset(s for s, v in values if v == best)
