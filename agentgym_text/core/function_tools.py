"""Function tools: named functions with JSON-schema arguments that an env offers a model beside its text action.

Three ``TextEnv`` hooks carry them, so that integrations (chat tool calls, TRL's tool methods) need not know any
family: ``tool_functions()`` lists the env's functions (none by default; integrations then offer one
``act(command)`` tool whose command is the text action), ``tool_call_action(name, arguments)`` turns a call into
the env's action text, and ``action_tool_call(action)`` reads an action text back as a call.

>>> tool = FunctionTool("finish", "End the task.", {"type": "object", "properties": {}, "required": []}, "the answer")
>>> tool.schema()["function"]["description"]
'End the task. Returns: the answer'
>>> written_call("guess", {"code": "0123"})
'guess {"code": "0123"}'
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["FunctionTool", "written_call"]


@dataclass(frozen=True)
class FunctionTool:
    """One function: ``parameters`` is a JSON schema of type "object" (``properties``, ``required``); ``returns``
    says what a call answers (kept apart: trainers put it in the method's docstring)."""

    name: str
    description: str
    parameters: Mapping[str, Any]
    returns: str = ""

    def schema(self) -> dict[str, Any]:
        """The OpenAI function-calling tool."""
        description = self.description + (f" Returns: {self.returns}" if self.returns else "")
        function = {"name": self.name, "description": description, "parameters": copy.deepcopy(dict(self.parameters))}
        return {"type": "function", "function": function}


def written_call(name: str, arguments: Mapping[str, Any] | str) -> str:
    """A call as plain text, ``name <arguments as JSON>``: what an env without function tools is sent when a model
    calls a function anyway (its parser then says what is wrong)."""
    text = arguments if isinstance(arguments, str) else json.dumps(dict(arguments), ensure_ascii=False)
    return f"{name} {text}"
