"""AgentBench v0.2's KG task server (``src/server/tasks/knowledgegraph/task.py``, ``KnowledgeGraph.start_sample``).

- Opening: user ``INSTRUCTIONS``, agent ack (the literal ``start_sample`` injects), ``ONE_SHOT`` (even items user,
  odd items agent), then user ``"A new question: "`` + the item's question and entity names (the env's goal,
  ``question + "\\nEntities: [" + names + "]"``).
- Each reply is cut at ``Observation:``, ``\\_`` becomes ``_``, and the history keeps the cut text; the env gets it
  (``KgEnv`` reads a reply as AgentBench does). A ``Final Answer: #k`` goes to the env as such.
- After the env's step: a tool's observation is injected as the env printed it; otherwise the literal the server
  injects: a bad answer id, no ``Action…:`` line, no function on the line, or the error f-string of the last
  function tried (its arguments as written; the syntax-error one when no call's arguments were read yet, where
  "yet" reaches back to earlier replies as the server's local variable does). ``round_limit``: 15.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentgym_text.agents.protocols.agentbench.session import AgentBenchTask
from agentgym_text.agents.protocols.agentbench.source import TaskSource, render_fstring
from agentgym_text.agents.protocols.base import Opening, Reading

__all__ = ["KnowledgeGraphTask", "MODULE", "cut_reply"]

MODULE = "src/server/tasks/knowledgegraph/task.py"
ROUND = 15
_FINAL = re.compile(r"(?:Find|Final) Answer: #(\d+)")
_ACTION = re.compile(r"Action.*?:")
_NAMES = re.compile(r"(\w+)\(")
_SPLIT = re.compile(r"\s*,\s*")
TOOLS = frozenset({"get_relations", "get_neighbors", "intersection", "get_attributes", "argmax", "argmin", "count"})
"""The server's functions (``api.py``): another name fails before its arguments are read."""


def cut_reply(reply: str) -> str:
    """The reply as the server keeps it: before the first ``Observation:``, with ``\\_`` read as ``_``."""
    return reply.split("Observation:")[0].replace("\\_", "_")


def _action_line(message: str) -> str | None:
    return next((line for line in message.split("\n") if _ACTION.match(line)), None)


def _calls(line: str) -> list[tuple[str, list[str] | None]]:
    """Each function name on ``line`` and its arguments as the server splits them (None: none could be read)."""
    calls = []
    for name in _NAMES.findall(line):
        found = re.findall(rf"{name}\((.+?)\)", line)
        calls.append((name, _SPLIT.split(found[0]) if found else None))
    return calls


class KnowledgeGraphTask(AgentBenchTask):
    round_limit = ROUND

    def __init__(self, checkout: Path):
        super().__init__(checkout)
        source = TaskSource(checkout, MODULE)
        self.path = str(source.path)
        self.instructions: str = source.constant("INSTRUCTIONS").value
        self.one_shot: list[str] = source.constant("ONE_SHOT").value
        start = source.method("KnowledgeGraph", "start_sample")
        injected = source.injected(start)
        agent = [c.value for role, c in injected if role == "agent" and isinstance(c.value, str)]
        user = [c.value for role, c in injected if role == "user" and isinstance(c.value, str)]
        messages: list[Any] = []
        for node in ast.walk(start):
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "execution_message" for t in node.targets
            ):
                if isinstance(node.value, (ast.Constant, ast.JoinedStr)):
                    messages.append(node.value)
        messages.sort(key=lambda n: (n.lineno, n.col_offset))
        if not agent or len(user) < 2 or len(messages) < 4 or not isinstance(messages[0], ast.Constant):
            raise source.missing("texts KnowledgeGraph.start_sample injects")
        self.ack = agent[0]
        self.bad_id, self.no_action = user[0], user[1]
        self.not_executed: str = messages[0].value
        self.failed, self.failed_intersection, self.syntax = messages[1], messages[2], messages[3]

    def opening(self, opening: Opening) -> list[dict[str, str]]:
        shots = [{"role": "user" if i % 2 == 0 else "agent", "content": shot} for i, shot in enumerate(self.one_shot)]
        return [
            {"role": "user", "content": self.instructions},
            {"role": "agent", "content": self.ack},
            *shots,
            {"role": "user", "content": "A new question: " + opening.goal},
        ]

    def read(self, reply: str, history: list[dict[str, str]]) -> Reading:
        message = cut_reply(reply)
        history[-1]["content"] = message
        final = _FINAL.findall(message)
        return Reading(f"Final Answer: #{final[0]}" if final else message)

    def observe(self, observation: str, info: Mapping[str, Any], history: list[dict[str, str]]) -> list[dict[str, str]]:
        message = history[-1]["content"]
        if _FINAL.findall(message):
            return [] if info.get("valid", True) else [{"role": "user", "content": self.bad_id}]
        line = _action_line(message)
        if line is None:
            return [{"role": "user", "content": self.no_action}]
        if info.get("valid", True):
            return [{"role": "user", "content": observation}]
        return [{"role": "user", "content": self._failure(line, history)}]

    def _failure(self, line: str, history: list[dict[str, str]]) -> str:
        """The server's message when no function on ``line`` ran."""
        text = self.not_executed
        arguments = self._earlier_arguments(history[:-1])
        for name, args in _calls(line):
            if args is not None and name in TOOLS:
                arguments = args
            if arguments is None:
                text = render_fstring(self.syntax, self.path, function_name=name)
            else:
                template = self.failed_intersection if name == "intersection" else self.failed
                text = render_fstring(template, self.path, function_name=name, ori_arguments=arguments)
        return text

    def _earlier_arguments(self, history: list[dict[str, str]]) -> list[str] | None:
        """The server's ``ori_arguments`` left from earlier replies: the arguments of the last call read on the
        latest earlier action line that had one (None: unbound)."""
        opening = 3 + len(self.one_shot)
        for message in reversed(history[opening:]):
            if message["role"] != "agent" or _FINAL.findall(message["content"]):
                continue
            line = _action_line(message["content"])
            read = [args for name, args in _calls(line) if name in TOOLS] if line else []
            read = [args for args in read if args is not None]
            if read:
                return read[-1]
        return None
