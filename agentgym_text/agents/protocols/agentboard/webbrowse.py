"""AgentBoard's WebArena runner (``agentboard/tasks/webbrowse.py``, its own loop around VanillaAgent):
``agent.reset(env.goal, state)`` with the state string ``"WINDOWED PAGE:{\\n" + page + "\\n}\\nURL: " + url``, which
this package's env already gives as its text; later ``agent.update(run()'s action, state)``.

The runner takes the action between the first two splitters (``_extract_action`` of
``environment/browser_env/help_function.py``: its ``action_splitter`` and parse-error message are read from the
checkout with ``ast``). A reply without one is not given to the env: the runner steps a none action and the next
state shows the parse-error message in place of the page (same URL); this suite's env gets no action (an invalid
step). Otherwise the env gets the parsed reply and reads the same action from it.

Early stop (``early_stop`` of ``help_function.py``, checked before every request over the actions taken so far, each
read as ``create_id_based_action`` reads it and compared as ``is_equivalent`` compares them: ``action_key``): the last
``parsing_failure_th`` actions unreadable (no splitters, or an action it cannot parse) ends the episode
``invalid_format``; the last ``repeating_action_failure_th`` actions the same (a typing action: that many times
anywhere) ends it ``repetition``; scrolling never does (its rule asks for twice the threshold among the last
threshold actions). Both thresholds are the config's ``env.webarena`` entries, else ``from_config``'s 3. The action
that completes a rule is taken, as in AgentBoard; the request after it is not sent."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from typing import Any

from agentgym_text.agents.protocols.agentboard.checkout import WHAT, Checkout
from agentgym_text.agents.protocols.agentboard.task import AgentBoardTask, Episode, Move
from agentgym_text.agents.protocols.base import CheckoutError
from agentgym_text.core.info import FinishReason

__all__ = [
    "WebArenaTask",
    "HELP_FUNCTION",
    "PARSING_FAILURE_TH",
    "REPEATING_ACTION_TH",
    "action_key",
    "parse_error",
    "state_string",
]

HELP_FUNCTION = "agentboard/environment/browser_env/help_function.py"
_URL = "\n}\nURL: "
PARSING_FAILURE_TH = 3
"""``EvalWebBrowse.from_config``'s default ``parsing_failure_th``."""
REPEATING_ACTION_TH = 3
"""``EvalWebBrowse.from_config``'s default ``repeating_action_failure_th``."""
NONE = ("none",)
"""The key of an action ``create_id_based_action`` cannot read (AgentBoard then steps a none action)."""
_ELEMENT = {"click": r"click ?\[(\d+)\]", "hover": r"hover ?\[(\d+)\]"}
_ONE_ARGUMENT = {"press": r"press ?\[(.+)\]", "tab_focus": r"tab_focus ?\[(\d+)\]", "stop": r"stop ?\[(.+)\]"}
_BARE = ("new_tab", "go_back", "go_forward", "close_tab")


def action_key(action: str | None) -> tuple[str, ...]:
    """What ``is_equivalent`` compares of the action ``create_id_based_action`` makes of ``action`` (the text between
    the splitters; None: there was none): its type and, for an element action, the element id (a typing action's
    text is not compared), a scroll's direction, a key, a URL, a tab number or a stop's answer.

    >>> action_key("click [12]"), action_key("type [7] [shoes] [0]"), action_key("scroll [down]"), action_key("go")
    (('click', '12'), ('type', '7'), ('scroll', 'down'), ('none',))
    """
    text = (action or "").strip()
    if not text:
        return NONE
    name = text.split("[")[0].strip() if "[" in text else text.split()[0].strip()
    if name in _ELEMENT:
        match = re.search(_ELEMENT[name], text)
        return (name, match.group(1)) if match else NONE
    if name == "type":
        if not (text.endswith("[0]") or text.endswith("[1]")):
            text += " [1]"
        match = re.search(r"type ?\[(\d+)\] ?\[(.+?)\] ?\[[^\]]*?(\d+)\]", text)
        return ("type", match.group(1)) if match else NONE
    if name == "scroll":
        match = re.search(r"scroll ?\[?(up|down)\]?", text)
        return ("scroll", match.group(1)) if match else NONE
    if name == "goto":
        match = re.search(r"goto ?\[(.+)\]", text)
        return ("goto", match.group(1)) if match and match.group(1).startswith("http:") else NONE
    if name in _ONE_ARGUMENT:
        match = re.search(_ONE_ARGUMENT[name], text)
        if name == "stop":
            return ("stop", match.group(1) if match else "")
        return (name, match.group(1)) if match else NONE
    return (name,) if name in _BARE else NONE


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
        settings = checkout.config["env"][self.name]
        self.parsing_failure_th = int(settings.get("parsing_failure_th", PARSING_FAILURE_TH))
        self.repeating_action_th = int(settings.get("repeating_action_failure_th", REPEATING_ACTION_TH))

    def move(self, episode: Episode, reply: str, action: str) -> Move:
        found = self._pattern.search(action)
        episode.state.setdefault("keys", []).append(action_key(found.group(1)) if found else NONE)
        if found:
            return Move(action, action)
        url = episode.state.get("url") or episode.opening.bare_observation.rpartition(_URL)[2]
        return Move(None, action, state_string(self.error, url), note="AgentBoard's parse error (no action)")

    def early_stop(self, episode: Episode) -> tuple[str, str] | None:
        keys: list[tuple[str, ...]] = episode.state.get("keys", [])
        if not keys:
            return None
        failures = keys[-self.parsing_failure_th :]
        if len(failures) >= self.parsing_failure_th and all(key == NONE for key in failures):
            note = f"AgentBoard's early stop: {self.parsing_failure_th} unreadable actions in a row"
            return FinishReason.INVALID_FORMAT.value, note
        last, threshold = keys[-1], self.repeating_action_th
        if last[0] == "scroll":  # its rule wants 2k equal actions among the last k: never
            return None
        if last[0] == "type":
            repeated = sum(key == last for key in keys) >= threshold
        else:
            recent = keys[-threshold:]
            repeated = len(recent) >= threshold and all(key == last for key in recent)
        if repeated:
            return FinishReason.REPETITION.value, f"AgentBoard's early stop: the same action {threshold} times"
        return None

    def observation(self, episode: Episode, observation: str, info: Mapping[str, Any]) -> str:
        text = super().observation(episode, observation, info)
        if _URL in text:
            episode.state["url"] = text.rpartition(_URL)[2]
        return text
