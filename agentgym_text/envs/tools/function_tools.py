"""The tool envs' function tools (``TextEnv``'s hooks, see ``core.function_tools``): the toolkit's functions,
``finish`` and ``check_valid_actions`` for a model to call, a call written as this family's action text, and an
action text read back as a call.

>>> function_tool(FINISH_SPEC).schema()["function"]["parameters"]["required"]
['answer']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from agentgym_text.core.actions import ActionError
from agentgym_text.core.function_tools import FunctionTool
from agentgym_text.core.info import TOOL_HELP_ACTION
from agentgym_text.core.tasks import TaskSet
from agentgym_text.envs.tools.actions import parse_call
from agentgym_text.envs.tools.agentboard_text.words import python_call
from agentgym_text.envs.tools.backend import FINISH_SPEC, Toolkit
from agentgym_text.envs.tools.schema import FunctionSpec
from agentgym_text.envs.tools.task_builder import toolkit_class

__all__ = ["FunctionTools", "function_tool", "HELP_FUNCTION"]

_JSON_TYPES: dict[str, dict[str, Any]] = {
    "string": {"type": "string"},
    "number": {"type": "number"},
    "integer": {"type": "integer"},
    "boolean": {"type": "boolean"},
    "array": {"type": "array", "items": {}},
    "array2d": {"type": "array", "items": {"type": "array", "items": {}}},
    "any": {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "array", "items": {}}]},
}

HELP_FUNCTION = FunctionTool(
    TOOL_HELP_ACTION,
    "List the functions of this tool with their arguments.",
    {"type": "object", "properties": {}, "required": []},
)


def function_tool(spec: FunctionSpec) -> FunctionTool:
    """One ``FunctionSpec`` (name, description, params, returns) as a ``FunctionTool``."""
    properties: dict[str, Any] = {}
    required = []
    for param in spec.params:
        schema = dict(_JSON_TYPES.get(param.kind, {}))
        if param.choices:
            schema["enum"] = list(param.choices)
        if param.description:
            schema["description"] = param.description
        properties[param.name] = schema
        if param.required:
            required.append(param.name)
    parameters = {"type": "object", "properties": properties, "required": required}
    return FunctionTool(spec.name, spec.description, parameters, spec.returns)


def _offered(specs: Iterable[FunctionSpec]) -> list[FunctionTool]:
    return [*(function_tool(spec) for spec in (*specs, FINISH_SPEC)), HELP_FUNCTION]


class FunctionTools:
    """``ToolEnv``'s function-tool hooks (a base class before ``TextEnv``, whose defaults they replace)."""

    tasks: TaskSet
    toolkit: Toolkit | None

    def tool_functions(self, *, every_task: bool = False) -> list[FunctionTool]:
        """The current toolkit's functions (none before ``reset``), or with ``every_task`` those of every toolkit
        of the env's tasks (sorted by tool; a name shared by several toolkits once), then ``finish`` and
        ``check_valid_actions``."""
        if not every_task:
            return [] if self.toolkit is None else _offered(self.toolkit.functions)
        specs: dict[str, FunctionSpec] = {}
        for tool in sorted({task.params["tool"] for task in self.tasks}):
            for spec in toolkit_class(tool).functions:
                specs.setdefault(spec.name, spec)
        return _offered(specs.values())

    def tool_call_action(self, name: str, arguments: dict[str, Any] | str) -> str:
        """``<name> with Action Input: <arguments>``, the arguments as a Python literal (True/False/None), which
        both text formats read; unreadable arguments go as sent, for the env's parser to say what is wrong."""
        if isinstance(arguments, str):
            return f"{name} with Action Input: {arguments}"
        return python_call(name, arguments)

    def action_tool_call(self, action: str) -> tuple[str, dict[str, Any]] | None:
        try:
            call = parse_call(action)
        except ActionError:
            return (TOOL_HELP_ACTION, {}) if action.strip() == TOOL_HELP_ACTION else None
        return call.name, call.args
