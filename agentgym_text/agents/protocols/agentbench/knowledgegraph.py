"""AgentBench v0.2's KG task server (``src/server/tasks/knowledgegraph/task.py``, ``KnowledgeGraph.start_sample``).

- Opening: user ``INSTRUCTIONS``, agent ack (the literal ``start_sample`` injects), ``ONE_SHOT`` (even items user,
  odd items agent), then user the new-question lead-in + the question + the entities lead-in + the f-string listing
  the entity names (the four operands of the inject; ``KgEnv``'s reset info ``question`` and ``entities``).
- Each reply is cut at ``Observation:``, ``\\_`` becomes ``_``, and the history keeps the cut text; the env gets it
  (``KgEnv`` reads a reply as AgentBench does). A ``Final Answer: #k`` goes to the env as such.
- After the env's step: a tool's observation is injected as ``api.py`` words it (``"Observation: "`` + what the env
  printed); otherwise the literal the server
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

__all__ = ["KnowledgeGraphTask", "MODULE", "cut_reply", "locate"]

MODULE = "src/server/tasks/knowledgegraph/task.py"
ROUND = 15
OBSERVATION = "Observation: "
"""How ``api.py``'s tools begin what they return; ``KgEnv`` prints the rest (its variables numbered as the server
numbers them)."""
_FINAL = re.compile(r"(?:Find|Final) Answer: #(\d+)")
_ACTION = re.compile(r"Action.*?:")
_NAMES = re.compile(r"(\w+)\(")
_SPLIT = re.compile(r"\s*,\s*")
TOOLS = frozenset(
    {
        "get_relations",
        "get_neighbors",
        "intersection",
        "union",
        "get_attributes",
        "argmax",
        "argmin",
        "count",
        "final_execute",
    }
)
"""The functions of ``api.py`` the server can call: another name fails before its arguments are read (the server
looks names up in its module, so a name it imports, e.g. ``Path``, would read them too; not followed here)."""


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


def locate(source: TaskSource) -> dict[str, ast.AST]:
    """The nodes of the texts: ``INSTRUCTIONS``, ``ONE_SHOT``, and in ``start_sample`` the agent ack, the two user
    literals (bad answer id, no action line, in source order), and the values given to ``execution_message``: the
    literal (no function ran), then the f-strings (a call failed, an intersection failed, a syntax error)."""
    start = source.method("KnowledgeGraph", "start_sample")
    injected = source.injected(start)
    agent = [c.node for role, c in injected if role == "agent" and isinstance(c.value, str)]
    user = [c.node for role, c in injected if role == "user" and isinstance(c.value, str)]
    messages = sorted(
        (
            node.value
            for node in ast.walk(start)
            if isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "execution_message" for t in node.targets)
            and isinstance(node.value, (ast.Constant, ast.JoinedStr))
        ),
        key=lambda n: (n.lineno, n.col_offset),
    )
    question = [_operands(c.node) for role, c in injected if role == "user" and isinstance(c.node, ast.BinOp)]
    question = [ops for ops in question if len(ops) == 4 and isinstance(ops[3], ast.JoinedStr)]
    if not agent or len(user) < 2 or len(messages) < 4 or not isinstance(messages[0], ast.Constant) or not question:
        raise source.missing("texts KnowledgeGraph.start_sample injects")
    return {
        "new_question": question[0][0],
        "entities_lead": question[0][2],
        "entity_list": question[0][3],
        "instructions": source.constant("INSTRUCTIONS").node,
        "one_shot": source.constant("ONE_SHOT").node,
        "ack": agent[0],
        "bad_id": user[0],
        "no_action": user[1],
        "not_executed": messages[0],
        "failed": messages[1],
        "failed_intersection": messages[2],
        "syntax": messages[3],
    }


def _operands(node: ast.AST) -> list[ast.AST]:
    """The operands of a chain of ``+``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [*_operands(node.left), *_operands(node.right)]
    return [node]


class KnowledgeGraphTask(AgentBenchTask):
    round_limit = ROUND

    def __init__(self, checkout: Path):
        super().__init__(checkout)
        source = TaskSource(checkout, MODULE)
        self.path = str(source.path)
        nodes = locate(source)
        self.instructions: str = ast.literal_eval(nodes["instructions"])
        self.one_shot: list[str] = ast.literal_eval(nodes["one_shot"])
        self.ack, self.bad_id, self.no_action, self.not_executed = (
            ast.literal_eval(nodes[name]) for name in ("ack", "bad_id", "no_action", "not_executed")
        )
        self.failed, self.failed_intersection, self.syntax = (
            nodes["failed"],
            nodes["failed_intersection"],
            nodes["syntax"],
        )
        self.new_question: str = ast.literal_eval(nodes["new_question"])
        self.entities_lead: str = ast.literal_eval(nodes["entities_lead"])
        self.entity_list = nodes["entity_list"]

    def opening(self, opening: Opening) -> list[dict[str, str]]:
        shots = [{"role": "user" if i % 2 == 0 else "agent", "content": shot} for i, shot in enumerate(self.one_shot)]
        return [
            {"role": "user", "content": self.instructions},
            {"role": "agent", "content": self.ack},
            *shots,
            {"role": "user", "content": self._question(opening)},
        ]

    def _question(self, opening: Opening) -> str:
        """The new question as the server words it, from ``KgEnv``'s reset info ``question`` and ``entities``."""
        info = opening.info
        names = [str(name) for name in info.get("entities", ())]
        listed = render_fstring(self.entity_list, self.path, entities=names)
        return self.new_question + str(info.get("question", opening.goal)) + self.entities_lead + listed

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
            shown = observation if observation.startswith(OBSERVATION) else OBSERVATION + observation
            return [{"role": "user", "content": shown}]
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
