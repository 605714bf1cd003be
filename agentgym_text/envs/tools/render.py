"""Turning tool outputs into observation text and into canonical subgoal keys."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["render_output", "subgoal_key", "round_floats"]


def render_output(value: Any) -> str:
    """The observation for a successful call: JSON text, or the string itself."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def round_floats(value: Any, digits: int = 2) -> Any:
    """``value`` with every float rounded, so near-identical coordinates give the same key."""
    if isinstance(value, float):
        rounded = round(value, digits)
        return 0.0 if rounded == 0 else rounded
    if isinstance(value, list):
        return [round_floats(item, digits) for item in value]
    if isinstance(value, dict):
        return {key: round_floats(item, digits) for key, item in value.items()}
    return value


def subgoal_key(name: str, output: Any) -> str:
    """The canonical form of one call's output, as a subgoal: function name + sorted-key JSON."""
    return name + ":" + json.dumps(round_floats(output), sort_keys=True, ensure_ascii=False)
