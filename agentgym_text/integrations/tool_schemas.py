"""OpenAI function-calling schemas for an env, and tool calls turned back into the env's action text.

Tool envs (``AgentBoard/ToolQuery-v0``, ``AgentBoard/ToolOperation-v0``) expose their real functions (those of the
current task's toolkit, plus ``finish`` and ``check_valid_actions``); every other env exposes one tool,
``act(command)``, whose command is the text action.

>>> [tool["function"]["name"] for tool in act_tool_schemas()]
['act']
>>> action_from_tool_call("act", '{"command": "guess 0123"}')
'guess 0123'
>>> action_from_tool_call("get_weather", {"city": "Paris"})
'get_weather with Action Input: {"city": "Paris"}'
"""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "ACT_TOOL",
    "HELP_TOOL",
    "act_tool_schemas",
    "function_schema",
    "tool_schemas",
    "action_from_tool_call",
    "tool_call_from_action",
]

ACT_TOOL = "act"
"""The one tool of a non-tool env; its single argument ``command`` is the text action."""

HELP_TOOL = "check_valid_actions"

_JSON_TYPES: dict[str, dict[str, Any]] = {
    "string": {"type": "string"},
    "number": {"type": "number"},
    "integer": {"type": "integer"},
    "boolean": {"type": "boolean"},
    "array": {"type": "array", "items": {}},
    "array2d": {"type": "array", "items": {"type": "array", "items": {}}},
    "any": {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "array", "items": {}}]},
}


def act_tool_schemas(action_format: str = "", example: str = "") -> list[dict[str, Any]]:
    """The single ``act(command)`` tool."""
    hint = f" Actions: {action_format}" + (f", e.g. '{example}'" if example else "") + "." if action_format else ""
    return [{
        "type": "function",
        "function": {
            "name": ACT_TOOL,
            "description": "Send one action to the environment and get its observation." + hint,
            "parameters": {
                "type": "object",
                "properties": {"command": {"type": "string", "description": "the action, e.g. '"
                                           + (example or "check valid actions") + "'"}},
                "required": ["command"],
            },
        },
    }]


def function_schema(spec: Any) -> dict[str, Any]:
    """One ``FunctionSpec`` of a tool env (name, description, params) as an OpenAI function tool."""
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
    description = spec.description + (f" Returns: {spec.returns}" if spec.returns else "")
    return {
        "type": "function",
        "function": {
            "name": spec.name,
            "description": description,
            "parameters": {"type": "object", "properties": properties, "required": required},
        },
    }


def tool_schemas(env: Any) -> list[dict[str, Any]]:
    """The tools of ``env`` (any wrapper stack) for its current task (call after ``reset`` for tool envs)."""
    base = getattr(env, "unwrapped", env)
    toolkit = getattr(base, "toolkit", None)
    if toolkit is not None and getattr(toolkit, "functions", None):
        from agentgym_text.envs.tools.backend import FINISH_SPEC

        tools = [function_schema(spec) for spec in (*toolkit.functions, FINISH_SPEC)]
        tools.append({
            "type": "function",
            "function": {
                "name": HELP_TOOL,
                "description": "List the functions of this tool with their arguments.",
                "parameters": {"type": "object", "properties": {}, "required": []},
            },
        })
        return tools
    return act_tool_schemas(getattr(base, "action_format", ""), getattr(base, "action_example", ""))


def _arguments(raw: Any) -> tuple[dict[str, Any] | None, str]:
    """Arguments as a dict (None when unreadable) and as the text the model sent."""
    if isinstance(raw, dict):
        return raw, json.dumps(raw, ensure_ascii=False)
    text = "" if raw is None else str(raw)
    if not text.strip():
        return {}, "{}"
    try:
        value = json.loads(text)
    except ValueError:
        return None, text
    return (value if isinstance(value, dict) else None), text


def action_from_tool_call(name: str, arguments: Any) -> str:
    """The text action a tool call stands for (the env itself judges it; nothing is refused here)."""
    args, raw = _arguments(arguments)
    if name == ACT_TOOL:
        if args is None:
            return raw
        command = args.get("command", "")
        return command if isinstance(command, str) else json.dumps(command, ensure_ascii=False)
    if name == HELP_TOOL and not args:
        return HELP_TOOL
    if args is None:  # let the env's own parser say what is wrong with the arguments
        return f"{name} with Action Input: {raw}"
    from agentgym_text.envs.tools.agentboard_text.words import python_call

    return python_call(name, args)  # True/False/None as Python writes them: both text formats read that


def tool_call_from_action(action: str, call_id: str, *, function_tools: bool) -> dict[str, Any]:
    """The OpenAI ``tool_calls`` entry that plays ``action`` (``function_tools``: a tool env's call syntax)."""
    name, arguments = ACT_TOOL, {"command": action}
    if function_tools:
        from agentgym_text.core.actions import ActionError
        from agentgym_text.envs.tools.actions import parse_call

        try:
            call = parse_call(action)
            name, arguments = call.name, call.args
        except ActionError:
            name, arguments = (HELP_TOOL, {}) if action.strip() == HELP_TOOL else (ACT_TOOL, {"command": action})
    return {"id": call_id, "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)}}
