"""The fake checkout's files for AgentBoard's WebShop, WebArena and tool runners (our wording, AgentBoard's layout):
the config's ``env:`` entries, the prompt files and a stand-in ``agentboard/tasks/tool.py`` holding its literals where
the protocol's ``ast`` reader looks (``init_obs`` under ``if tool == "weather"`` and its else; the format-error
``observation`` under ``if action_input == None``) and a stand-in ``environment/browser_env/help_function.py``
holding ``_extract_action``'s splitter and parse-error message). ``write_web_tools_checkout(root)`` writes the whole fake checkout
with them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from tests.support.agentboard_checkout import FILES, write_checkout

__all__ = ["WEB_TOOLS_FILES", "TOOL_LITERALS", "WEB_PARSE_ERROR", "write_web_tools_checkout", "TOOLS", "REACT_TOOLS"]

TOOLS = ("academia", "movie", "weather", "todo", "sheet")
REACT_TOOLS = ("academia", "movie", "weather")
TOOL_LITERALS = {
    "weather": "Look up a city's coordinates with the tool before using them; call 'finish' when you are done.",
    "other": "Call 'finish' when you are done with the goal.",
    "format_error": "Unreadable reply: answer as 'Action: <tool> with Action Input: <json>'",
}

_TOOL_PY = f'''"""A stand-in for agentboard/tasks/tool.py (written by agentgym-text's tests)."""


def evaluate_env(self, tool, goal, message):
    if tool == "weather":
        init_obs = {TOOL_LITERALS["weather"]!r}
        self.agent.reset(goal, init_obs)
    else:
        init_obs = {TOOL_LITERALS["other"]!r}
        self.agent.reset(goal, init_obs)
    action, action_input = extract_action_name_and_action_input(message)
    if action_input == None:
        observation, done = {TOOL_LITERALS["format_error"]!r}, False
'''

WEB_PARSE_ERROR = "No action found: wrap it in {s}, e.g. {s}click [7]{s}, the arguments in []."
"""Our wording of the parse-error message of ``_extract_action`` (``{s}``: its ``action_splitter``)."""

_HELP_FUNCTION_PY = f'''"""A stand-in for agentboard/environment/browser_env/help_function.py (agentgym-text's tests)."""


def _extract_action(response):
    action_splitter = "@"
    match = search(action_splitter, response)
    if match:
        return match
    else:
        raise ActionParsingError(
            f{WEB_PARSE_ERROR.replace("{s}", "{action_splitter}")!r}
        )
'''

_CONFIG_ENTRIES = """  webshop:
    name: webshop
    init_prompt_path: ${PROJECT_PATH}/agentboard/prompts/VanillaAgent/webshop_vanilla.json
  webarena:
    name: webarena
    init_prompt_path: ${PROJECT_PATH}/agentboard/prompts/VanillaAgent/webbrowse_vanilla.json
    parsing_failure_th: 5
    repeating_action_failure_th: 5
  tool-query:
    name: tool-query
    check_actions: "check_valid_actions"
    init_prompt_path: ${PROJECT_PATH}/agentboard/prompts
  tool-operation:
    name: tool-operation
    check_actions: "check_valid_actions"
    init_prompt_path: ${PROJECT_PATH}/agentboard/prompts
"""


def _prompt(topic: str, examples: list[str] | str) -> dict:
    return {
        "instruction": f"You use {topic}. Reply with one action per turn.",
        "examples": examples,
        "system_msg": f"You are an agent that works with {topic}.",
    }


_CONFIG = "eval_configs/main_results_all_tasks.yaml"

WEB_TOOLS_FILES: dict[str, str] = {
    _CONFIG: FILES[_CONFIG] + _CONFIG_ENTRIES,
    "agentboard/tasks/tool.py": _TOOL_PY,
    "agentboard/prompts/VanillaAgent/webshop_vanilla.json": json.dumps(
        _prompt("an online shop", ["Observation: a search box.\nAction: search[blue mug]"])
    ),
    "agentboard/prompts/VanillaAgent/webbrowse_vanilla.json": json.dumps(
        _prompt("a web browser", "Observation: a page.\nAction: @click [3]@\n")
    ),
    "agentboard/environment/browser_env/help_function.py": _HELP_FUNCTION_PY,
    **{
        f"agentboard/prompts/VanillaAgent/{tool}_prompt.json": json.dumps(
            _prompt(f"the {tool} tools", [f"Action: check_valid_actions with Action Input: {{}}\nObservation: {tool}"])
        )
        for tool in TOOLS
    },
    **{
        f"agentboard/prompts/ReactAgent/{tool}_prompt.json": json.dumps(
            _prompt(
                f"the {tool} tools, thinking first", [f"Think: I need {tool}.\nAction: finish with Action Input: {{}}"]
            )
        )
        for tool in REACT_TOOLS
    },
}
"""Relative path -> text, added to (and, for the config, replacing) the fake checkout's ``FILES``."""


def write_web_tools_checkout(root: Path, extra: Mapping[str, str] | None = None) -> Path:
    """The fake checkout with these runners' files (``extra`` may replace any file; "" leaves it out)."""
    return write_checkout(root, {**WEB_TOOLS_FILES, **(extra or {})})
