"""Reading a checkout of hkust-nlp/AgentBoard: the eval config's per-task settings, the prompt JSON files, and the
prompt literals inside the agent classes' source (pulled out with ``ast``, never stored here)."""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from agentgym_text.agents.protocols.base import CheckoutError, checkout_file

__all__ = ["WHAT", "SETTING", "CONFIG", "DEFAULT_LLM", "Checkout", "AgentLiterals", "AgentSettings"]

WHAT = "a checkout of hkust-nlp/AgentBoard"
SETTING = "AGENTGYM_TEXT_AGENTBOARD_DIR"
CONFIG = "eval_configs/main_results_all_tasks.yaml"
VANILLA = "agentboard/agents/vanilla_agent.py"
REACT = "agentboard/agents/react_agent.py"
PROJECT_PATH = "${PROJECT_PATH}"
DEFAULT_LLM = "gpt-3.5-turbo-0613"
"""The config's ``llm:`` entry whose settings apply when the run's model names none."""


@dataclass(frozen=True)
class AgentLiterals:
    """The texts ``make_prompt`` adds around the prompt file's instruction and examples."""

    examples: str
    """The header before the examples."""
    goal: str
    """The text before the goal."""
    help: str
    """The text before each help command."""
    inventory: str
    """The whole inventory help line (``check_inventory``'s value is ignored)."""
    action: str = ""
    """VanillaAgent's tail after the history; ReactAgent has none."""
    stop_thinking: str = ""
    """ReactAgent's tail once it thought ``max_think_iters`` times in a row."""
    take_action: str = ""
    """ReactAgent's tail after a reply that was neither a thought nor an action."""


@dataclass(frozen=True)
class AgentSettings:
    """What eval_main.py gives a task's agent: the config's ``agent:`` block plus the task's help lines and prompt."""

    memory_size: int = 100
    need_goal: bool = False
    check_actions: str | None = None
    check_inventory: Any = None
    init_prompt_path: str | None = None
    """Relative to the checkout (the config's ``${PROJECT_PATH}/`` removed)."""


def _flattened(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _flattened(node.left) + _flattened(node.right)
    return [node]


def _constant_before(function: ast.FunctionDef, anchor: str) -> str | None:
    """The string literal added just before the expression ``anchor`` (source text) in ``function``."""
    for node in ast.walk(function):
        if isinstance(node, ast.BinOp):
            parts = _flattened(node)
            for before, after in zip(parts, parts[1:]):
                if ast.unparse(after) == anchor and isinstance(before, ast.Constant) and isinstance(before.value, str):
                    return before.value
    return None


def _constant_under(function: ast.FunctionDef, test: str) -> str | None:
    """The string literal added to the prompt in the branch of ``if <test>:`` (or ``elif <test>:``)."""
    for node in ast.walk(function):
        if isinstance(node, ast.If) and ast.unparse(node.test) == test:
            for statement in node.body:
                if (
                    isinstance(statement, ast.AugAssign)
                    and isinstance(statement.value, ast.Constant)
                    and isinstance(statement.value.value, str)
                ):
                    return statement.value.value
    return None


def _method(source: str, cls: str, name: str) -> ast.FunctionDef | None:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == name:
                    return item
    return None


class Checkout:
    """A checkout of hkust-nlp/AgentBoard at ``root``; every read names the file it looked for when it fails."""

    def __init__(self, root: str | Path | None):
        checkout_file(root, CONFIG, WHAT, SETTING)
        self.root = Path(str(root)).expanduser()
        self._literals: dict[bool, AgentLiterals] = {}

    def path(self, relative: str) -> Path:
        return checkout_file(self.root, relative, WHAT, SETTING)

    def text(self, relative: str) -> str:
        return self.path(relative).read_text(encoding="utf-8")

    def json(self, relative: str) -> Any:
        try:
            return json.loads(self.text(relative))
        except json.JSONDecodeError as error:
            raise CheckoutError(f"{self.root / relative} is not JSON ({error}): expected {WHAT}") from None

    @cached_property
    def config(self) -> dict[str, Any]:
        import yaml

        try:
            loaded = yaml.safe_load(self.text(CONFIG))
        except yaml.YAMLError as error:
            raise CheckoutError(f"{self.root / CONFIG} is not YAML ({error}): expected {WHAT}") from None
        if not isinstance(loaded, dict) or not isinstance(loaded.get("env"), dict):
            raise CheckoutError(f"{self.root / CONFIG} has no env: section: expected {WHAT}")
        return loaded

    def llm_entry(self, model: str) -> tuple[str, dict[str, Any]]:
        """The config's ``llm:`` entry for ``model`` (its key and settings): the entry named ``model``, else
        ``DEFAULT_LLM``'s (empty when the config has neither)."""
        llm = self.config.get("llm") or {}
        key = model if model in llm else DEFAULT_LLM
        entry = llm.get(key)
        return key, dict(entry) if isinstance(entry, dict) else {}

    def agent_settings(self, task: str) -> AgentSettings:
        """eval_main.py's agent config for ``task`` (a key of the config's ``env:``)."""
        agent = dict(self.config.get("agent") or {})
        env = self.config["env"].get(task)
        if not isinstance(env, dict):
            raise CheckoutError(f"{self.root / CONFIG} has no env.{task} section: expected {WHAT}")
        for key in ("check_actions", "check_inventory", "init_prompt_path"):
            if key in env:
                agent[key] = env[key]
        prompt = agent.get("init_prompt_path")
        if isinstance(prompt, str):
            prompt = prompt.replace(PROJECT_PATH, "").lstrip("/")
        return AgentSettings(
            memory_size=int(agent.get("memory_size", 100)),
            need_goal=bool(agent.get("need_goal", False)),
            check_actions=agent.get("check_actions"),
            check_inventory=agent.get("check_inventory"),
            init_prompt_path=prompt,
        )

    def literals(self, react: bool) -> AgentLiterals:
        """The prompt literals of ``VanillaAgent.make_prompt`` (``react``: ``ReactAgent.make_prompt``), read once."""
        if react not in self._literals:
            self._literals[react] = self._read_literals(react)
        return self._literals[react]

    def _read_literals(self, react: bool) -> AgentLiterals:
        relative, cls = (REACT, "ReactAgent") if react else (VANILLA, "VanillaAgent")
        function = _method(self.text(relative), cls, "make_prompt")
        if function is None:
            raise CheckoutError(f"{self.root / relative} has no {cls}.make_prompt: expected {WHAT}")
        found = {
            "examples": _constant_before(function, "self.split['example'][0]"),
            "goal": _constant_before(function, "self.goal"),
            "help": _constant_before(function, "check_actions"),
            "inventory": _constant_under(function, "check_inventory is not None"),
        }
        if react:
            found["stop_thinking"] = _constant_under(function, "self.think_count >= self.max_think_iters")
            found["take_action"] = _constant_under(function, "self.force_action")
        else:
            found["action"] = _constant_tail(function)
        missing = [name for name, value in found.items() if value is None]
        if missing:
            raise CheckoutError(
                f"{self.root / relative}: {cls}.make_prompt lacks the expected literals ({', '.join(missing)}): "
                f"expected {WHAT}"
            )
        return AgentLiterals(**found)  # type: ignore[arg-type]


def _constant_tail(function: ast.FunctionDef) -> str | None:
    """VanillaAgent's literal appended to ``input_prompt`` after the history (the first such statement)."""
    for statement in ast.walk(function):
        if (
            isinstance(statement, ast.AugAssign)
            and ast.unparse(statement.target) == "input_prompt"
            and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str)
        ):
            return statement.value.value
    return None
