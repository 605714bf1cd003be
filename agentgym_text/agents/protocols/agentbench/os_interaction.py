"""AgentBench v0.2's OS task server (``src/server/tasks/os_interaction/task.py``, ``OSInteraction._judge``).

- Opening: user the instruction ``_judge`` injects + the one-shot lead-in + ``ONE_SHOT[0]``'s content, then
  ``ONE_SHOT[1:]`` (agent, user, ...), then user the new-problem lead-in + the item's description (the env's goal).
- A reply is read as ``extract_action`` reads it: the ``Act:\\s*(.+)`` matches from the last; ``bash`` runs every
  ```` ```bash\\n…\\n``` ```` block joined by blank lines, ``finish`` commits, ``answer`` commits the text between
  the first ``(`` and the last ``)`` (an answer without both is skipped). No action ends the episode
  (``AGENT_INVALID_ACTION``: ``invalid_action``); a commit goes to the env, which judges it.
- Each output is injected as the output lead-in + the command's raw output (``OsEnv``'s step info ``os_output``),
  over ``OUTPUT_LIMIT`` characters its first ``OUTPUT_KEPT`` + the truncation notice; empty output is the empty-output
  sentence. ``round_limit``: 8 replies (``configs/tasks/os.yaml``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentgym_text.agents.protocols.agentbench.session import AgentBenchTask
from agentgym_text.agents.protocols.agentbench.source import TaskSource
from agentgym_text.agents.protocols.base import Opening, Reading
from agentgym_text.core.info import FinishReason

__all__ = ["OSTask", "MODULE", "extract_action", "locate"]

MODULE = "src/server/tasks/os_interaction/task.py"
ROUND_LIMIT = 8
OUTPUT_LIMIT = 800
OUTPUT_KEPT = 780
EMPTY_COMMAND = ":"
"""What the env runs for ``Act: bash`` without a block (the server sends the shell an empty line)."""
_ACT = re.compile(r"Act:\s*(.+)")
_BASH = re.compile(r"```bash\n(.*?)\n```", re.DOTALL)


def extract_action(raw: str) -> tuple[str | None, str | None]:
    """(``"bash"`` or ``"commit"`` or None, its content) as AgentBench's ``extract_action`` reads ``raw``."""
    kind, content = None, None
    for action in reversed(_ACT.findall(raw)):
        lowered = action.lower()
        if lowered.startswith("bash"):
            kind = "bash"
            break
        if lowered.startswith("finish"):
            kind = "commit"
            break
        if lowered.startswith("answer"):
            rest = action[6:].strip()
            left, right = rest.find("("), rest.rfind(")")
            if left == -1 or right == -1:
                continue
            kind, content = "commit", rest[left + 1 : right]
            break
    if kind == "bash":
        content = "\n\n".join(_BASH.findall(raw))
    return kind, content


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name or isinstance(node, ast.Attribute) and node.attr == name


def locate(source: TaskSource) -> dict[str, ast.AST]:
    """The nodes of the texts the server sends: ``ONE_SHOT``, and in ``_judge`` the instruction (the first user
    inject with a literal content), the one-shot lead-in (added to ``ONE_SHOT[0]``), the new-problem lead-in (added to
    the description), the output lead-in and the empty-output sentence (the two arms of the output inject) and the
    truncation notice (added to the output's slice)."""
    nodes: dict[str, ast.AST] = {"one_shot": source.constant("ONE_SHOT").node}
    judge = source.method("OSInteraction", "_judge")
    for role, content in source.injected(judge):
        node = content.node
        if role == "user" and isinstance(content.value, str) and "instruction" not in nodes:
            nodes["instruction"] = node
        elif (
            isinstance(node, ast.BinOp) and isinstance(node.left, ast.Constant) and _is_name(node.right, "description")
        ):
            nodes["new_problem"] = node.left
        elif isinstance(node, ast.IfExp) and isinstance(node.body, ast.BinOp):
            nodes["output"], nodes["empty"] = node.body.left, node.orelse
    for node in ast.walk(judge):
        if not isinstance(node, ast.BinOp):
            continue
        if isinstance(node.left, ast.Constant) and isinstance(node.right, ast.Subscript):
            if "ONE_SHOT" in ast.unparse(node.right):
                nodes["lead_in"] = node.left
        elif isinstance(node.left, ast.Subscript) and isinstance(node.right, ast.Constant):
            if isinstance(node.right.value, str):
                nodes["truncated"] = node.right
    missing = [name for name in TEXTS if not isinstance(nodes.get(name), ast.Constant)]
    if missing:
        raise source.missing(f"texts of OSInteraction._judge ({', '.join(missing)})")
    return nodes


TEXTS = ("instruction", "lead_in", "new_problem", "output", "empty", "truncated")


class OSTask(AgentBenchTask):
    round_limit = ROUND_LIMIT

    def __init__(self, checkout: Path):
        super().__init__(checkout)
        source = TaskSource(checkout, MODULE)
        nodes = locate(source)
        self.one_shot: list[dict[str, str]] = ast.literal_eval(nodes["one_shot"])
        self.texts: dict[str, str] = {name: nodes[name].value for name in TEXTS}  # type: ignore[attr-defined]

    def opening(self, opening: Opening) -> list[dict[str, str]]:
        first = self.texts["instruction"] + self.texts["lead_in"] + self.one_shot[0]["content"]
        return [
            {"role": "user", "content": first},
            *({"role": m["role"], "content": m["content"]} for m in self.one_shot[1:]),
            {"role": "user", "content": self.texts["new_problem"] + opening.goal},
        ]

    def read(self, reply: str, history: list[dict[str, str]]) -> Reading:
        kind, content = extract_action(reply)
        if kind is None:
            return Reading(None, finish_reason=FinishReason.INVALID_ACTION.value, note="no Act: bash/finish/answer")
        if kind == "bash":
            # no ```bash block: the server runs an empty line, which prints nothing; ':' does the same here
            return Reading(f"Act: bash\n\n```bash\n{content or EMPTY_COMMAND}\n```")
        return Reading("Act: finish" if content is None else f"Act: answer({content})")

    def observe(self, observation: str, info: Mapping[str, Any], history: list[dict[str, str]]) -> list[dict[str, str]]:
        output = info.get("os_output")
        if output is None:  # not a command's output (a judged commit): the env's words
            return [{"role": "user", "content": observation}]
        output = str(output)
        if len(output) > OUTPUT_LIMIT:
            output = output[:OUTPUT_KEPT] + self.texts["truncated"]
        return [{"role": "user", "content": self.texts["output"] + output if output else self.texts["empty"]}]
