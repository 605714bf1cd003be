"""AgentBench's KG ontology folder (``ontology_dir=``, ``src/server/tasks/knowledgegraph/ontology`` of the user's
AgentBench checkout): the files the tools read.

- ``vocab.json``: ``{"relations": [...], "attributes": [...], "classes": [...]}``; ``get_relations`` and
  ``get_attributes`` keep only what these lists hold.
- ``fb_roles``: one relation a line, ``domain relation range`` separated by spaces; the range types the variable
  ``get_neighbors`` makes.

``fb_types`` and ``reverse_properties`` are in the folder too; the tools do not read them (AgentBench uses them for
logical-form graph matching only).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = ["Ontology", "OntologyError", "load_ontology"]


class OntologyError(ValueError):
    """An ontology folder that is missing or malformed (the message names the file)."""


@dataclass(frozen=True)
class Ontology:
    relations: frozenset[str]
    attributes: frozenset[str]
    ranges: dict[str, str]


def _vocab(path: Path) -> tuple[frozenset[str], frozenset[str]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise OntologyError(f"AgentBench's KG ontology: {path} does not exist") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise OntologyError(f"AgentBench's KG ontology: {path} is not JSON ({error})") from None
    lists = []
    for key in ("relations", "attributes"):
        values = data.get(key) if isinstance(data, dict) else None
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise OntologyError(f"AgentBench's KG ontology: {path} needs {key!r}, a list of names")
        lists.append(frozenset(values))
    return lists[0], lists[1]


def _ranges(path: Path) -> dict[str, str]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise OntologyError(f"AgentBench's KG ontology: {path} does not exist") from None
    ranges: dict[str, str] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        fields = line.split(" ")
        if len(fields) < 3:
            raise OntologyError(
                f"AgentBench's KG ontology: {path}, line {number}: expected 'domain relation range', got {line[:80]!r}"
            )
        ranges[fields[1]] = fields[2]  # as AgentBench reads it: a later line for the same relation wins
    if not ranges:
        raise OntologyError(f"AgentBench's KG ontology: {path} lists no relation")
    return ranges


@lru_cache(maxsize=4)
def load_ontology(folder: str) -> Ontology:
    """The vocab lists and relation ranges of ``folder`` (read once per process)."""
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise OntologyError(
            f"AgentBench's KG ontology folder {path} does not exist (ontology_dir= is the folder "
            "src/server/tasks/knowledgegraph/ontology of an AgentBench checkout)"
        )
    relations, attributes = _vocab(path / "vocab.json")
    return Ontology(relations, attributes, _ranges(path / "fb_roles"))
