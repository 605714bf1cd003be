"""AgentBoard's tool runner (``agentboard/tasks/tool.py``) for ``tool-query`` (academia, movie, weather) and
``tool-operation`` (todo, sheet).

- The prompt is ``<init_prompt_path>/<AgentClass>/<tool>_prompt.json`` (AgentBoard ships ReactAgent prompts for
  academia, movie and weather only; another tool under ``--style react`` names the missing file).
- The first observation is one of two literals of ``tool.py`` (weather's, everyone else's), read with ``ast``.
- Sheet: the runner first opens the goal's sheet and adds that (action, observation) pair to the memory.
- Each reply (parsed only when the LLM entry's ``use_parser`` says so) is matched against
  ``extract_action_name_and_action_input``'s pattern: no match -> the memory gets ``("", <format-error literal>)``
  and the env nothing; a match -> the env gets ``"Action: " + name + " with Action Input: " + input`` and the
  memory ``name + " with Action Input: " + input``.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from agentgym_text.agents.protocols.agentboard.agent import PromptFile
from agentgym_text.agents.protocols.agentboard.checkout import WHAT, Checkout
from agentgym_text.agents.protocols.agentboard.task import AgentBoardTask, Episode, Move, Start
from agentgym_text.agents.protocols.base import CheckoutError

__all__ = ["ToolQueryTask", "ToolOperationTask", "ToolTexts", "tool_texts", "extract_action", "RUNNER"]

RUNNER = "agentboard/tasks/tool.py"
_PATTERN = re.compile(r"\s*(.*?)\s*with\s*Action Input:\s*(.*?)$")
_SHEET_OPENED = "You are now in "
"""How this package's env (as AgentBoard's ``reset_question_env``) starts the opened sheet's text."""


def extract_action(text: str) -> tuple[str, str] | None:
    """``extract_action_name_and_action_input``: (name, input), or None without a match.

    >>> extract_action('loadPaperNet with Action Input: {}')
    ('loadPaperNet', '{}')
    >>> extract_action("I don't know") is None
    True
    """
    match = _PATTERN.search(text)
    return (match.group(1), match.group(2)) if match else None


class ToolTexts:
    """tool.py's literals: the first observations (weather's, the others') and the format-error observation."""

    def __init__(self, weather: str, other: str, format_error: str):
        self.weather = weather
        self.other = other
        self.format_error = format_error


def _names(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Tuple):
        return [n.id for n in node.elts if isinstance(n, ast.Name)]
    return []


def _string(node: ast.expr) -> str | None:
    if isinstance(node, ast.Tuple) and node.elts:
        node = node.elts[0]
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _assigned(body: list[ast.stmt], name: str) -> str | None:
    for statement in body:
        if isinstance(statement, ast.Assign) and any(name in _names(t) for t in statement.targets):
            return _string(statement.value)
    return None


def tool_texts(checkout: Checkout) -> ToolTexts:
    """The literals from the checkout's ``tasks/tool.py``: ``init_obs`` under ``if tool == "weather"`` and its else,
    and the ``observation`` of the branch where the action input is None."""
    first: tuple[str, str] | None = None
    error: str | None = None
    for node in ast.walk(ast.parse(checkout.text(RUNNER))):
        if not isinstance(node, ast.If):
            continue
        test = ast.unparse(node.test)
        weather, other = _assigned(node.body, "init_obs"), _assigned(node.orelse, "init_obs")
        if first is None and "weather" in test and weather is not None and other is not None:
            first = (weather, other)
        if error is None and "None" in test:
            error = _assigned(node.body, "observation")
    if first is None or error is None:
        missing = "the init_obs literals" if first is None else "the format-error observation"
        raise CheckoutError(f"{checkout.root / RUNNER} has no {missing}: expected {WHAT}")
    return ToolTexts(first[0], first[1], error)


class _ToolTask(AgentBoardTask):
    def __init__(self, checkout: Checkout, model: str = ""):
        # init_prompt_path is a folder here (the base class would read it as a file)
        self.checkout = checkout
        self.model = model
        self.settings = checkout.agent_settings(self.name)
        self._prompt = None
        self.use_parser = bool(checkout.llm_entry(model)[1].get("use_parser", True))
        self.texts = tool_texts(checkout)
        self._files: dict[str, dict[str, Any]] = {}

    @staticmethod
    def tool(episode: Episode) -> str:
        """The episode's tool (its task id's prefix, e.g. "academia-011" -> "academia")."""
        return str(episode.opening.info.get("task_id", "")).rsplit("-", 1)[0]

    def prompt(self, episode: Episode) -> PromptFile:
        relative = "/".join(
            [self.settings.init_prompt_path or "", episode.agent_class, f"{self.tool(episode)}_prompt.json"]
        )
        if relative not in self._files:
            self._files[relative] = self.load_prompt(relative)
        return PromptFile.of(self._files[relative])

    def start(self, episode: Episode) -> Start:
        tool = self.tool(episode)
        init_obs = self.texts.weather if tool == "weather" else self.texts.other
        if tool != "sheet":
            return Start(episode.opening.goal, init_obs)
        # the runner's pre-loop pair: reset_question_env's action and the opened sheet (our env's first text ends with it)
        first = episode.opening.bare_observation
        at = first.find(_SHEET_OPENED)
        opened = first[at:] if at >= 0 else first
        sheet = opened.split("\n", 1)[0].removeprefix(_SHEET_OPENED)
        action = f"open_sheet with Action Input: {{'name': '{sheet}'}}"
        return Start(episode.opening.goal, init_obs, updates=((action, opened),))

    def move(self, episode: Episode, reply: str, action: str) -> Move:
        found = extract_action(action.strip())
        if found is None:
            return Move(None, "", self.texts.format_error, note="no 'with Action Input:' in the reply")
        name, argument = found
        return Move(f"Action: {name} with Action Input: {argument}", f"{name} with Action Input: {argument}")


class ToolQueryTask(_ToolTask):
    name = "tool-query"


class ToolOperationTask(_ToolTask):
    name = "tool-operation"
