"""AgentBoard's WebArena runner (``agentboard/tasks/webbrowse.py``, its own loop around VanillaAgent):
``agent.reset(env.goal, state)`` with the state string ``"WINDOWED PAGE:{\\n" + page + "\\n}\\nURL: " + url``, which
this package's env already gives as its text; later ``agent.update(run()'s action, state)``.

The runner takes the action between the first two splitters (``_extract_action`` of
``environment/browser_env/help_function.py``: its ``action_splitter`` and parse-error message are read from the
checkout with ``ast``). A reply without one is not given to the env: the runner steps a none action and the next
state shows the parse-error message in place of the page (same URL); this suite's env gets no action (an invalid
step). Otherwise the env gets the parsed reply and reads the same action from it.

Early stop: after ``parsing_failure_th`` (the config's ``env.webarena`` entry, else ``from_config``'s 3) parse
failures in a row the runner stops before asking again; here the episode ends on that failure (invalid format).
The runner's other rule (the same action ``repeating_action_failure_th`` times, by ``is_equivalent`` of its browser
actions) is not reproduced: this suite's env ends repeated actions by its own rules."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from typing import Any

from agentgym_text.agents.protocols.agentboard.checkout import WHAT, Checkout
from agentgym_text.agents.protocols.agentboard.task import AgentBoardTask, Episode, Move
from agentgym_text.agents.protocols.base import CheckoutError
from agentgym_text.core.info import FinishReason

__all__ = ["WebArenaTask", "HELP_FUNCTION", "PARSING_FAILURE_TH", "parse_error", "state_string"]

HELP_FUNCTION = "agentboard/environment/browser_env/help_function.py"
_URL = "\n}\nURL: "
PARSING_FAILURE_TH = 3
"""``EvalWebBrowse.from_config``'s default ``parsing_failure_th``."""


def state_string(page: str, url: str) -> str:
    """webbrowse.py's template."""
    return "WINDOWED PAGE:{\n" + page + _URL + url


def _joined(node: ast.expr, names: Mapping[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if not isinstance(node, ast.JoinedStr):
        return None
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
        elif isinstance(value, ast.FormattedValue) and isinstance(value.value, ast.Name) and value.value.id in names:
            parts.append(names[value.value.id])
        else:
            return None
    return "".join(parts)


def parse_error(checkout: Checkout) -> tuple[str, str]:
    """(``action_splitter``, the parse-error message) of the checkout's ``_extract_action``."""
    for node in ast.walk(ast.parse(checkout.text(HELP_FUNCTION))):
        if not (isinstance(node, ast.FunctionDef) and node.name == "_extract_action"):
            continue
        names: dict[str, str] = {}
        for inner in ast.walk(node):
            if isinstance(inner, ast.Assign) and isinstance(inner.value, ast.Constant):
                for target in inner.targets:
                    if isinstance(target, ast.Name) and isinstance(inner.value.value, str):
                        names[target.id] = inner.value.value
            if isinstance(inner, ast.Raise) and isinstance(inner.exc, ast.Call) and inner.exc.args:
                message = _joined(inner.exc.args[0], names)
                if message is not None and "action_splitter" in names:
                    return names["action_splitter"], message
    raise CheckoutError(f"{WHAT}: {HELP_FUNCTION} has no _extract_action with an action_splitter and a parse error")


class WebArenaTask(AgentBoardTask):
    name = "webarena"

    def __init__(self, checkout: Checkout, model: str = ""):
        super().__init__(checkout, model)
        self.splitter, self.error = parse_error(checkout)
        mark = re.escape(self.splitter)
        self._pattern = re.compile(rf"{mark}((.|\n)*?){mark}")
        self.parsing_failure_th = int(checkout.config["env"][self.name].get("parsing_failure_th", PARSING_FAILURE_TH))

    def move(self, episode: Episode, reply: str, action: str) -> Move:
        if self._pattern.search(action):
            episode.state["parse_failures"] = 0
            return Move(action, action)
        failures = episode.state["parse_failures"] = episode.state.get("parse_failures", 0) + 1
        url = episode.state.get("url") or episode.opening.bare_observation.rpartition(_URL)[2]
        if failures >= self.parsing_failure_th:
            note = f"AgentBoard's early stop: {failures} parse failures in a row"
            return Move(None, action, state_string(self.error, url), FinishReason.INVALID_FORMAT.value, note)
        return Move(None, action, state_string(self.error, url), note="AgentBoard's parse error (no action)")

    def observation(self, episode: Episode, observation: str, info: Mapping[str, Any]) -> str:
        text = super().observation(episode, observation, info)
        if _URL in text:
            episode.state["url"] = text.rpartition(_URL)[2]
        return text
