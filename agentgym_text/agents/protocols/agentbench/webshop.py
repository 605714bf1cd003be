"""AgentBench v0.2's WebShop task server (``src/server/tasks/webshop/__init__.py``, ``WebShop.start_sample``).

- Opening: user ``prompt`` (the module's constant), then the literal turns ``start_sample`` injects before its loop
  (the agent's ack and the inline one-shot pairs), then the first turn.
- Each turn is the f-string the loop injects, with ``observation`` the page and ``available_actions`` the dict.
  This suite's env (``AgentBench/WebShop-v0``, ``envs/webshop/agentbench_v02_text.py``) already prints its text as
  ``<page>\\n\\nAvailable Actions:\\n<dict>`` (the reset's bare text is ``info["first_observation"]``, without the
  env's action and budget lines); the page and the dict are split off that text at its heading
  (``ACTIONS_HEADING``) and put into the checkout's f-string, so nothing is said twice.
- A reply is read with ``[Aa]ction: *\\n* *((search|click)\\[.+?])``; a reply without it ends the episode
  (``AGENT_VALIDATION_FAILED``: ``invalid_format``). The env gets ``Action: <action>`` and reads the same action.
- 10 rounds (``for j in range(10)``; ``TASK_LIMIT_REACHED`` after).
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
from agentgym_text.core.info import FinishReason

__all__ = ["WebShopTask", "MODULE", "ROUNDS", "ACTIONS_HEADING", "locate", "split_turn"]

MODULE = "src/server/tasks/webshop/__init__.py"
ROUNDS = 10
"""``for j in range(10)`` in ``start_sample``."""
ACTIONS_HEADING = "\n\nAvailable Actions:\n"
"""Where this suite's env text (``agentbench_v02_text.with_actions``) puts the dict after the page."""
_ACTION = re.compile(r"[Aa]ction: *\n* *((search|click)\[.+?])")


def locate(source: TaskSource) -> dict[str, ast.AST]:
    """The nodes of the texts: ``prompt``, each literal turn ``start_sample`` injects after it (``shot0``…, the
    agent's ack first) and the loop's f-string (``turn``)."""
    injected = source.injected(source.method("WebShop", "start_sample"))
    nodes: dict[str, ast.AST] = {"prompt": source.constant("prompt").node}
    literal = [c.node for _, c in injected if isinstance(c.node, ast.Constant) and isinstance(c.node.value, str)]
    turns = [c.node for _, c in injected if isinstance(c.node, ast.JoinedStr)]
    if not literal:
        raise source.missing("literal turns injected by WebShop.start_sample")
    if not turns:
        raise source.missing("f-string turn injected by WebShop.start_sample")
    for number, node in enumerate(literal):
        nodes[f"shot{number}"] = node
    nodes["turn"] = turns[0]
    return nodes


def split_turn(text: str) -> tuple[str, str]:
    """The env text's page and its Available Actions dict (as printed).

    >>> split_turn("WebShop [SEP] Search\\n\\nAvailable Actions:\\n{'has_search_bar': True}")
    ('WebShop [SEP] Search', "{'has_search_bar': True}")
    """
    page, heading, actions = text.rpartition(ACTIONS_HEADING)
    if not heading:
        raise ValueError("the env text has no Available Actions: is it AgentBench/WebShop-v0's?")
    return page, actions


class WebShopTask(AgentBenchTask):
    round_limit = ROUNDS

    def __init__(self, checkout: Path):
        super().__init__(checkout)
        source = TaskSource(checkout, MODULE)
        nodes = locate(source)
        self.path = str(source.path)
        self.prompt: str = ast.literal_eval(nodes["prompt"])
        role = {id(c.node): r for r, c in source.injected(source.method("WebShop", "start_sample"))}
        self.shots = [
            {"role": role[id(node)], "content": ast.literal_eval(node)}
            for key, node in nodes.items()
            if key.startswith("shot")
        ]
        self.turn = nodes["turn"]

    def env_kwargs(self) -> dict[str, Any]:
        return {"strict": True}

    def _turn(self, text: str) -> dict[str, str]:
        page, actions = split_turn(text)
        return {
            "role": "user",
            "content": render_fstring(self.turn, self.path, observation=page, available_actions=actions),
        }

    def opening(self, opening: Opening) -> list[dict[str, str]]:
        return [{"role": "user", "content": self.prompt}, *self.shots, self._turn(opening.bare_observation)]

    def read(self, reply: str, history: list[dict[str, str]]) -> Reading:
        match = _ACTION.search(reply)
        if match is None:
            return Reading(None, finish_reason=FinishReason.INVALID_FORMAT.value, note="no Action: search/click")
        return Reading("Action: " + match.group(1))

    def observe(self, observation: str, info: Mapping[str, Any], history: list[dict[str, str]]) -> list[dict[str, str]]:
        return [self._turn(observation)]
