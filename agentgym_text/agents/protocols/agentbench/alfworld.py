"""AgentBench v0.2's ALFWorld task server (``src/server/tasks/alfworld/task.py``, ``ALFWorld.alfworld_run``).

- Opening: user ``get_task_instruction()``'s text, the agent's ack (the literal ``alfworld_run`` injects), then the
  one-shot example of the game's type (``self.prefixes``: ALFWorld's task type -> the key in the prompts file named
  by ``configs/tasks/alfworld.yaml``'s ``prompts_path``), its turns alternating user/agent, the first prefixed with
  the literal ``alfworld_run`` adds; then user the literal task prefix + the first observation.
- This suite's env (``AgentBench/ALFWorld-v0``, ``envs/alfworld/agentbench_v02_text.py``) already prints every
  observation as v0.2's loop injects it (the intro without its banner, or the step's text, + `` AVAILABLE ACTIONS: ``
  and the commands, one a line, + a newline); the first is its reset's bare text (``info["first_observation"]``,
  without the env's budget line), every later one is injected as the env gave it.
- A reply with ``ACTION:`` followed by a command goes to the env as it is (the env reads the command, maps it to the
  closest admissible one by BLEU and applies the three-repeats rule, as ``process_action`` and the loop do); after
  such a reply the previous user turn is cut before ``AVAILABLE ACTIONS`` (``CUT``), as the loop cuts
  ``session.history[-2]``. A reply without one ends the episode (``AGENT_INVALID_ACTION``: ``invalid_format``).
- 35 steps (``max_step``).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentgym_text.agents.protocols.agentbench.session import AgentBenchTask
from agentgym_text.agents.protocols.agentbench.source import TaskSource
from agentgym_text.agents.protocols.base import CheckoutError, Opening, Reading, checkout_file
from agentgym_text.core.info import FinishReason

__all__ = ["AlfWorldTask", "MODULE", "CONFIG", "MAX_STEP", "CUT", "locate", "prompts_path"]

MODULE = "src/server/tasks/alfworld/task.py"
CONFIG = "configs/tasks/alfworld.yaml"
MAX_STEP = 35
"""``configs/tasks/alfworld.yaml``'s ``max_step``."""
CUT = "AVAILABLE ACTIONS"
"""Where the loop cuts the previous user turn (the heading the env prints before the commands)."""
_MARKER = re.compile("ACTION:(.*)")


def _method_assign(function: ast.AST, test: Callable[[ast.Assign], bool]) -> ast.Assign | None:
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and test(node):
            return node
    return None


def _leftmost_string(node: ast.AST) -> ast.AST | None:
    while isinstance(node, ast.BinOp):
        node = node.left
    return node if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def locate(source: TaskSource) -> dict[str, ast.AST]:
    """The nodes of the texts: the instruction ``get_task_instruction`` returns, the agent's ack, the example's and
    the task's prefixes in ``alfworld_run``, and the ``self.prefixes`` dict of ``__init__``."""
    returns = [
        n.value
        for n in ast.walk(source.method("ALFWorld", "get_task_instruction"))
        if isinstance(n, ast.Return) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
    ]
    if not returns:
        raise source.missing("text returned by ALFWorld.get_task_instruction")
    run = source.method("ALFWorld", "alfworld_run")
    acks = [c.node for role, c in source.injected(run) if role == "agent" and isinstance(c.value, str)]
    if not acks:
        raise source.missing("agent turn injected by ALFWorld.alfworld_run")
    example = _method_assign(
        run, lambda a: isinstance(a.targets[0], ast.Subscript) and _leftmost_string(a.value) is not None
    )
    task = _method_assign(run, lambda a: isinstance(a.targets[0], ast.Name) and a.targets[0].id == "init_prompt")
    example_prefix = _leftmost_string(example.value) if example else None
    task_prefix = _leftmost_string(task.value) if task else None
    if example_prefix is None or task_prefix is None:
        raise source.missing("example and task prefixes in ALFWorld.alfworld_run")
    prefixes = _method_assign(
        source.method("ALFWorld", "__init__"),
        lambda a: isinstance(a.targets[0], ast.Attribute) and a.targets[0].attr == "prefixes",
    )
    if prefixes is None or not isinstance(prefixes.value, ast.Dict):
        raise source.missing("self.prefixes in ALFWorld.__init__")
    return {
        "instruction": returns[0],
        "ack": acks[0],
        "example_prefix": example_prefix,
        "task_prefix": task_prefix,
        "prefixes": prefixes.value,
    }


def prompts_path(checkout: Path) -> str:
    """``prompts_path`` of the config's ``default`` parameters (read as a line: the file is simple YAML)."""
    config = checkout_file(checkout, CONFIG, "a checkout of THUDM/AgentBench at v0.2", "AGENTGYM_TEXT_AGENTBENCH_DIR")
    for line in config.read_text(encoding="utf-8").splitlines():
        key, _, value = line.strip().partition(":")
        if key == "prompts_path" and value.strip():
            return value.strip().strip("\"'")
    raise CheckoutError(f"{checkout} is not a checkout of THUDM/AgentBench at v0.2: {CONFIG} has no prompts_path")


class AlfWorldTask(AgentBenchTask):
    round_limit = MAX_STEP

    def __init__(self, checkout: Path):
        super().__init__(checkout)
        nodes = {k: ast.literal_eval(v) for k, v in locate(TaskSource(checkout, MODULE)).items()}
        self.instruction: str = nodes["instruction"]
        self.ack: str = nodes["ack"]
        self.example_prefix: str = nodes["example_prefix"]
        self.task_prefix: str = nodes["task_prefix"]
        self.prefixes: dict[str, str] = nodes["prefixes"]
        relative = prompts_path(checkout)
        path = checkout_file(
            checkout, relative, "a checkout of THUDM/AgentBench at v0.2", "AGENTGYM_TEXT_AGENTBENCH_DIR"
        )
        try:
            self.prompts: dict[str, list[str]] = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise CheckoutError(f"{path} is not AgentBench's prompts file: {error}") from None

    def env_kwargs(self) -> dict[str, Any]:
        return {"strict": True}

    def example(self, task_type: str) -> list[str]:
        """The one-shot example's turns for ALFWorld's task type (``get_prompt``: the first prefix it starts with)."""
        for prefix, key in self.prefixes.items():
            if task_type.startswith(prefix):
                return list(self.prompts[key])
        raise ValueError(f"AgentBench's ALFWorld has no example for the task type {task_type!r}")

    def opening(self, opening: Opening) -> list[dict[str, str]]:
        example = self.example(str(opening.info["task_type"]))
        example[0] = self.example_prefix + example[0]
        turns = [{"role": "user", "content": self.instruction}, {"role": "agent", "content": self.ack}]
        turns += [{"role": ("user", "agent")[i % 2], "content": text} for i, text in enumerate(example)]
        return [*turns, {"role": "user", "content": self.task_prefix + opening.bare_observation}]

    def read(self, reply: str, history: list[dict[str, str]]) -> Reading:
        marker = _MARKER.search(reply)
        if marker is None or not marker.group(1).strip().lower().split("\n")[0]:
            return Reading(None, finish_reason=FinishReason.INVALID_FORMAT.value, note="no ACTION: command")
        history[-2]["content"] = history[-2]["content"].split(CUT)[0]
        return Reading(reply)
