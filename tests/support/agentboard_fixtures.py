"""Small AgentBoard data folders written by the tests, in AgentBoard's format (``<folder>/<task>/test.jsonl``);
AgentBoard's own data is GPL-2.0 and never in this repository."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["write_task_file", "webarena_line", "WEBARENA_INFO_FIELDS"]


def write_task_file(folder: Path, task: str, lines: Iterable[Mapping[str, Any] | str]) -> Path:
    """Write ``<folder>/<task>/test.jsonl``: a mapping becomes one JSON line, a string is written as it is (for
    malformed lines); returns the folder."""
    path = folder / task / "test.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return folder


WEBARENA_INFO_FIELDS = (
    "sites",
    "require_login",
    "storage_state",
    "start_url",
    "geolocation",
    "intent_template",
    "instantiation_dict",
    "require_reset",
    "eval",
    "intent_template_id",
)


def webarena_line(config: dict, difficulty: str) -> dict:
    """A WebArena config in the shape of a line of AgentBoard's webarena/test.jsonl."""
    return {
        "goal": config["intent"],
        "original_task_id": config["task_id"],
        "difficulty": difficulty,
        "additional_info": {name: config.get(name) for name in WEBARENA_INFO_FIELDS},
    }
