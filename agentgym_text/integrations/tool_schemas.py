"""OpenAI function-calling schemas for an env, and tool calls turned back into the env's action text.

An env that offers function tools (``TextEnv.tool_functions``: the tool envs ``AgentBoard/ToolQuery-v0`` and
``AgentBoard/ToolOperation-v0`` offer the current task's functions, ``finish`` and ``check_valid_actions``) exposes
those and words their calls itself (``TextEnv.tool_call_action``); every other env exposes one tool,
``act(command)``, whose command is the text action.

>>> import gymnasium as gym
>>> [tool["function"]["name"] for tool in act_tool_schemas()]
['act']
>>> action_from_tool_call("act", '{"command": "guess 0123"}')
'guess 0123'
>>> action_from_tool_call("get_weather", {"city": "Paris"}, gym.make("AgentBoard/ToolQuery-v0"))
'get_weather with Action Input: {"city": "Paris"}'
"""

from __future__ import annotations

import json
from typing import Any

from agentgym_text.core.function_tools import written_call
from agentgym_text.core.info import TOOL_HELP_ACTION
from agentgym_text.core.text_env import TextEnv

__all__ = [
    "ACT_TOOL",
    "HELP_TOOL",
    "act_tool_schemas",
    "tool_schemas",
    "action_from_tool_call",
    "tool_call_from_action",
]

ACT_TOOL = "act"
"""The one tool of a non-tool env; its single argument ``command`` is the text action."""

HELP_TOOL = TOOL_HELP_ACTION


def act_tool_schemas(action_format: str = "", example: str = "") -> list[dict[str, Any]]:
    """The single ``act(command)`` tool."""
    hint = f" Actions: {action_format}" + (f", e.g. '{example}'" if example else "") + "." if action_format else ""
    return [
        {
            "type": "function",
            "function": {
                "name": ACT_TOOL,
                "description": "Send one action to the environment and get its observation." + hint,
                "parameters": {
                    "type": "object",
                    "properties": {
                        "command": {
                            "type": "string",
                            "description": "the action, e.g. '" + (example or "check valid actions") + "'",
                        }
                    },
                    "required": ["command"],
                },
            },
        }
    ]


def _text_env(env: Any) -> TextEnv | None:
    """The ``TextEnv`` under ``env``'s wrappers (None for another kind of env, or none)."""
    base = getattr(env, "unwrapped", env)
    return base if isinstance(base, TextEnv) else None


def tool_schemas(env: Any) -> list[dict[str, Any]]:
    """The tools of ``env`` (any wrapper stack) for its current task (call after ``reset`` for tool envs)."""
    text_env = _text_env(env)
    functions = text_env.tool_functions() if text_env is not None else []
    if functions:
        return [function.schema() for function in functions]
    base = getattr(env, "unwrapped", env)
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


def action_from_tool_call(name: str, arguments: Any, env: Any = None) -> str:
    """The text action a tool call to ``env`` stands for (the env itself judges it; nothing is refused here).

    A call of a function other than ``act`` is worded by the env (``TextEnv.tool_call_action``); without an env,
    it is written as sent (``written_call``).
    """
    args, raw = _arguments(arguments)
    if name == ACT_TOOL:
        if args is None:
            return raw
        command = args.get("command", "")
        return command if isinstance(command, str) else json.dumps(command, ensure_ascii=False)
    if name == HELP_TOOL and not args:
        return HELP_TOOL
    arguments = raw if args is None else args  # unreadable: let the env's own parser say what is wrong
    base = _text_env(env)
    return base.tool_call_action(name, arguments) if base is not None else written_call(name, arguments)


def tool_call_from_action(action: str, call_id: str, env: Any = None) -> dict[str, Any]:
    """The OpenAI ``tool_calls`` entry that plays ``action`` on ``env``: a call of one of the env's functions where
    the action is one (``TextEnv.action_tool_call``), else ``act(command=action)``."""
    base = _text_env(env)
    call = base.action_tool_call(action) if base is not None else None
    name, arguments = call if call is not None else (ACT_TOOL, {"command": action})
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)},
    }
