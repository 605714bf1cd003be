"""Function signatures of a tool and argument checking (missing, extra and mistyped arguments).

Coercions are deliberately few and predictable: a numeric string is accepted for a number, a number for a
text id, and "True"/"False" (any case) for a boolean. Everything else of the wrong type is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Param", "FunctionSpec", "ArgumentError", "check_arguments", "describe_functions"]

_TYPE_WORDS = {
    "string": "text",
    "number": "number",
    "integer": "integer",
    "boolean": "boolean (true/false)",
    "array": "list",
    "array2d": "list of lists",
    "any": "text, number or list",
}


@dataclass(frozen=True)
class Param:
    """One parameter: ``kind`` is string, number, integer, boolean, array, array2d or any."""

    name: str
    kind: str = "string"
    required: bool = True
    description: str = ""
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class FunctionSpec:
    """A callable function of a tool, as ``check_valid_actions`` lists it."""

    name: str
    description: str
    params: tuple[Param, ...] = ()
    returns: str = ""

    def signature(self) -> str:
        inner = ", ".join(
            f"{param.name}: {param.kind}{'' if param.required else ' (optional)'}"
            + (f" one of {list(param.choices)}" if param.choices else "")
            for param in self.params
        )
        return f"{self.name}({inner})"


class ArgumentError(ValueError):
    """Arguments that do not fit the signature (reason "bad_argument")."""


def check_arguments(spec: FunctionSpec, args: dict[str, Any]) -> dict[str, Any]:
    """The arguments converted to their declared kinds; raise ``ArgumentError`` naming every problem."""
    known = {param.name for param in spec.params}
    extra = sorted(key for key in args if key not in known)
    missing = [param.name for param in spec.params if param.required and args.get(param.name) is None]
    problems = []
    if missing:
        problems.append(f"missing argument(s) {', '.join(missing)}")
    if extra:
        problems.append(f"unexpected argument(s) {', '.join(extra)}")
    converted: dict[str, Any] = {}
    for param in spec.params:
        if args.get(param.name) is None:
            continue
        try:
            converted[param.name] = _convert(param, args[param.name])
        except ArgumentError as error:
            problems.append(str(error))
    if problems:
        raise ArgumentError(f"{spec.signature()}: " + "; ".join(problems) + ". Nothing was executed.")
    return converted


def _convert(param: Param, value: Any) -> Any:
    kind = param.kind
    wrong = ArgumentError(
        f"{param.name} must be {_TYPE_WORDS.get(kind, kind)}, not {type(value).__name__} {str(value)[:40]!r}"
    )
    if kind == "string":
        if isinstance(value, bool) or isinstance(value, (list, dict)):
            raise wrong
        text = str(value) if isinstance(value, (int, float)) else value
        if param.choices and text not in param.choices:
            lowered = {choice.lower(): choice for choice in param.choices}
            if text.lower() not in lowered:
                raise ArgumentError(f"{param.name} must be one of {list(param.choices)}, not {text[:40]!r}")
            text = lowered[text.lower()]
        return text
    if kind in ("number", "integer"):
        if isinstance(value, bool):
            raise wrong
        if isinstance(value, str):
            try:
                value = float(value.strip())
            except ValueError:
                raise wrong from None
        if not isinstance(value, (int, float)) or value != value or abs(value) == float("inf"):
            raise wrong
        if kind == "integer":
            if float(value) != int(value):
                raise wrong
            return int(value)
        return float(value)
    if kind == "boolean":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        raise wrong
    if kind == "array":
        if not isinstance(value, list):
            raise wrong
        return value
    if kind == "array2d":
        if not isinstance(value, list) or not all(isinstance(row, list) for row in value):
            raise wrong
        if any(isinstance(cell, (list, dict)) for row in value for cell in row):
            raise ArgumentError(f"{param.name} must hold plain values (text or numbers) in each row")
        return value
    if isinstance(value, dict):
        raise wrong
    return value


def describe_functions(tool: str, functions: Sequence[FunctionSpec]) -> str:
    """The ``check_valid_actions`` answer: every function with its parameters and what it returns."""
    lines = [
        f"You can use the following valid actions of the {tool} tool "
        "(write them as '<function> with Action Input: {\"arg\": value}'):"
    ]
    for spec in functions:
        line = f"- {spec.signature()}: {spec.description}"
        if spec.returns:
            line += f" Returns: {spec.returns}"
        lines.append(line)
    return "\n".join(lines)
