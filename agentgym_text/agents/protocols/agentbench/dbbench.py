"""AgentBench v0.2's DB task server (``src/server/tasks/dbbench/__init__.py``, ``DBBench.start_sample``).

- Opening: user ``big_prompt`` (the module's constant), agent ack (the literal ``start_sample`` injects), user the
  item's ``description + "\\n" + add_description`` (the env's goal, which is built the same way).
- A reply is read with ``Action: (.*?)\\n``: ``Operation`` (while fewer than ``MAX_ROUND`` statements ran) needs
  the first ```` ```sql\\n…\\n``` ```` block, its newlines turned to spaces, which the env runs; anything else
  needs ``\\nFinal Answer:(.*)``, which the env scores. A missing block or answer ends the episode
  (``AGENT_VALIDATION_FAILED``: ``invalid_format``); after ``MAX_ROUND`` statements a reply without an answer ends
  it at the limit (``TASK_LIMIT_REACHED``: ``step_limit``).
- Each result is injected as printed (``DbEnv``'s step info ``sql_result``: ``str(fetchall())`` or the error, cut at
  800 characters + ``[TRUNCATED]``).
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

__all__ = ["DBBenchTask", "MODULE", "MAX_ROUND", "locate"]

MODULE = "src/server/tasks/dbbench/__init__.py"
MAX_ROUND = 15
"""``configs/tasks/dbbench.yaml``'s ``max_round``: statements run; one more reply may answer."""
_ACTION = re.compile(r"Action: (.*?)\n")
_SQL = re.compile(r"```sql\n([\s\S]*?)\n```")
_ANSWER = re.compile(r"\nFinal Answer:(.*)")


def locate(source: TaskSource) -> dict[str, ast.AST]:
    """The nodes of the texts: ``big_prompt`` and the agent ack ``DBBench.start_sample`` injects."""
    acks = [c.node for role, c in source.injected(source.method("DBBench", "start_sample")) if role == "agent"]
    if not acks or not isinstance(acks[0], ast.Constant) or not isinstance(acks[0].value, str):
        raise source.missing("agent turn injected by DBBench.start_sample")
    return {"big_prompt": source.constant("big_prompt").node, "ack": acks[0]}


class DBBenchTask(AgentBenchTask):
    round_limit = MAX_ROUND + 1

    def __init__(self, checkout: Path):
        super().__init__(checkout)
        nodes = locate(TaskSource(checkout, MODULE))
        self.prompt: str = ast.literal_eval(nodes["big_prompt"])
        self.ack: str = ast.literal_eval(nodes["ack"])

    def opening(self, opening: Opening) -> list[dict[str, str]]:
        return [
            {"role": "user", "content": self.prompt},
            {"role": "agent", "content": self.ack},
            {"role": "user", "content": opening.goal},
        ]

    def read(self, reply: str, history: list[dict[str, str]]) -> Reading:
        rounds = sum(m["role"] == "agent" for m in history) - 2  # statements run before this reply
        action = _ACTION.search(reply)
        if action and action.group(1) == "Operation" and rounds < MAX_ROUND:
            sql = _SQL.search(reply)
            if not sql:
                return Reading(None, finish_reason=FinishReason.INVALID_FORMAT.value, note="no ```sql block")
            return Reading("Action: Operation\n```sql\n" + sql.group(1).strip().replace("\n", " ") + "\n```")
        answer = _ANSWER.search(reply)
        if answer:
            return Reading("Action: Answer\nFinal Answer:" + answer.group(1))
        reason = FinishReason.STEP_LIMIT if rounds >= MAX_ROUND else FinishReason.INVALID_FORMAT
        return Reading(None, finish_reason=reason.value, note="no Final Answer line")

    def observe(self, observation: str, info: Mapping[str, Any], history: list[dict[str, str]]) -> list[dict[str, str]]:
        return [{"role": "user", "content": str(info.get("sql_result", observation))}]
