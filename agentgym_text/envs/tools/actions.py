"""Reading an action of the form ``<function> with Action Input: {json}`` into a ``Call``.

Arguments are parsed as data only: JSON first, then Python literals through ``ast.literal_eval`` (which
evaluates no names, calls or attributes), and the result must be a dict of JSON-like values.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import InvalidReason

__all__ = ["Call", "parse_call", "format_call", "is_bare_name"]

_ACTION_LINE = re.compile(r"^[ \t]*action\s*:", re.IGNORECASE | re.MULTILINE)
_ACTION_PREFIX = re.compile(r"^\s*(?:action\s*:\s*)?", re.IGNORECASE)
_CALL = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s+with\s+action\s+input\s*:\s*(.*)$", re.IGNORECASE | re.DOTALL)
_BARE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_MAX_DEPTH = 20


@dataclass(frozen=True)
class Call:
    """One function call: its name and keyword arguments (JSON-like values only)."""

    name: str
    args: dict[str, Any]

    def text(self) -> str:
        return format_call(self.name, self.args)


def format_call(name: str, args: dict[str, Any]) -> str:
    """The canonical action text of a call, e.g. ``get_projects with Action Input: {}``."""
    return f"{name} with Action Input: {json.dumps(args, ensure_ascii=False)}"


def parse_call(text: str) -> Call:
    """Read ``[Action:] <name> with Action Input: <dict>``; raise ``ActionError`` saying what is wrong.

    Text before the last line that starts with ``Action:`` (an LLM's thought) is ignored.
    """
    body = text.strip()
    lines = list(_ACTION_LINE.finditer(body))
    if lines:  # "Thought: ...\nAction: f with Action Input: {...}": the last Action line is the call
        body = body[lines[-1].start() :]
    body = _ACTION_PREFIX.sub("", body, count=1).strip().strip("`").strip()
    match = _CALL.match(body)
    if match is None:
        raise ActionError(
            "Format error: write the call as '<function> with Action Input: {\"arg\": value}', e.g. "
            '\'finish with Action Input: {"answer": "..."}\'. Use check_valid_actions to list the functions.',
            InvalidReason.UNPARSABLE,
        )
    name, raw = match.group(1), match.group(2).strip().rstrip("`").strip()
    return Call(name=name, args=_parse_arguments(raw))


def _parse_arguments(raw: str) -> dict[str, Any]:
    if not raw:
        return {}
    value = _load(raw)
    if value is None and "}" in raw:  # tolerate text after the closing brace
        value = _load(raw[: raw.rindex("}") + 1])
    if value is None:
        raise ActionError(
            "The Action Input is not a valid JSON object (or Python dict literal). Nothing was executed. "
            'Write it like {"name": "value", "count": 3}.',
            InvalidReason.UNPARSABLE,
        )
    if not isinstance(value, dict):
        raise ActionError(
            f"The Action Input must be an object of named arguments, not a {type(value).__name__}. "
            "Nothing was executed.",
            InvalidReason.UNPARSABLE,
        )
    problem = _non_data(value, 0)
    if problem:
        raise ActionError(
            f"The Action Input holds {problem}; only plain data is accepted. Nothing was executed.",
            InvalidReason.UNPARSABLE,
        )
    return {str(key): _as_json(item) for key, item in value.items()}


def _load(raw: str) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        pass
    try:
        return ast.literal_eval(raw)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _non_data(value: Any, depth: int) -> str | None:
    """What in ``value`` is not JSON-like data (None if all of it is)."""
    if depth > _MAX_DEPTH:
        return "values nested too deeply"
    if value is None or isinstance(value, (bool, int, str)):
        return None
    if isinstance(value, float):
        return None if value == value and abs(value) != float("inf") else "a non-finite number"
    if isinstance(value, (list, tuple)):
        for item in value:
            problem = _non_data(item, depth + 1)
            if problem:
                return problem
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return "a non-text key"
            problem = _non_data(item, depth + 1)
            if problem:
                return problem
        return None
    return f"a {type(value).__name__} value"


def _as_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_as_json(item) for item in value]
    if isinstance(value, list):
        return [_as_json(item) for item in value]
    if isinstance(value, dict):
        return {key: _as_json(item) for key, item in value.items()}
    return value


def is_bare_name(text: str) -> bool:
    """True for a lone identifier such as ``get_projects`` (a call without its Action Input)."""
    return bool(_BARE_NAME.match(text.strip()))
