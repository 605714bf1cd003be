"""The 'agentboard' protocol's WebShop, WebArena and tool runners (``agentboard/tasks/{webshop,webbrowse,tool}.py``)
over this suite's envs, on the fake checkout of ``tests/support/agentboard_checkout_web_tools.py``: what each runner
gives ``agent.reset``, what the env and the memory get for a reply, and the prompt file each episode reads."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401  (registers the envs)
from agentgym_text.agents.protocols.agentboard import AgentBoardProtocol
from agentgym_text.agents.protocols.agentboard.task import AgentBoardDialogue
from agentgym_text.agents.protocols.base import CheckoutError, Opening
from tests.support.agentboard_checkout import LITERALS, REACT_LITERALS
from tests.support.agentboard_checkout_web_tools import (
    TOOL_LITERALS,
    WEB_PARSE_ERROR,
    WEB_TOOLS_FILES,
    write_web_tools_checkout,
)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    return write_web_tools_checkout(tmp_path_factory.mktemp("agentboard"))


_MADE: list = []
"""The envs a test made; closed after it (a WebArena env left open keeps its browser, and Playwright's loop, alive
in this thread for the tests after it)."""


@pytest.fixture(autouse=True)
def _close_made_envs():
    yield
    while _MADE:
        _MADE.pop().close()


def _begin(checkout: Path, env_id: str, style: str = "vanilla", seed: int = 0, **options):
    protocol = AgentBoardProtocol(checkout, style=style)
    env = gym.make(env_id, **protocol.env_kwargs(env_id), **options)
    _MADE.append(env)
    observation, info = env.reset(seed=seed)
    dialogue = protocol.begin(Opening(env_id, info["goal"], observation, info, "x"))
    assert isinstance(dialogue, AgentBoardDialogue)
    return protocol, env, info, dialogue


def _user(dialogue: AgentBoardDialogue) -> str:
    return dialogue.request().messages[1]["content"]


def _prompt(relative: str) -> dict:
    return json.loads(WEB_TOOLS_FILES[relative])


def test_webshop_history_starts_with_reset_and_replies_are_cut_at_click_or_search(checkout):
    protocol, env, info, dialogue = _begin(checkout, "AgentBoard/WebShop-v0")
    first = info["first_observation"]
    prompt = _prompt("agentboard/prompts/VanillaAgent/webshop_vanilla.json")
    request = dialogue.request()
    assert request.messages[0] == {"role": "system", "content": prompt["system_msg"]}
    expected_head = (
        prompt["instruction"] + LITERALS["examples"] + prompt["examples"][0] + "\n" + LITERALS["goal"] + info["goal"]
    )
    assert request.messages[1]["content"] == (
        expected_head + "\nAction: reset[]\nObservation: " + first + LITERALS["action"]
    )
    reading = dialogue.read("I will look first: search[leather wallet]")  # no 'action': the line, then cut
    assert reading.action == "search[leather wallet]"
    observation, *_, step_info = env.step(reading.action)
    assert dialogue.observe(observation, step_info) == observation
    reading = dialogue.read("Action: click[Back to Search]")
    assert reading.action == "click[Back to Search]"
    observation, *_, step_info = env.step(reading.action)
    dialogue.observe(observation, step_info)
    assert _user(dialogue).endswith(
        "Action: search[leather wallet]\nObservation: "
        + dialogue.memory.entries[3][1]
        + "\nAction: click[Back to Search]\nObservation: "
        + observation
        + LITERALS["action"]
    )
    assert protocol.max_steps("AgentBoard/WebShop-v0") == 29  # AgentBoard asks a 30th time and drops the reply


def test_webarena_state_string_is_the_envs_text_and_the_memory_gets_the_parsed_reply(checkout):
    protocol, env, info, dialogue = _begin(checkout, "AgentBoard/WebArena-v0")
    first = info["first_observation"]
    assert first.startswith("WINDOWED PAGE:{\n") and "\n}\nURL: " in first
    assert _user(dialogue).endswith(LITERALS["goal"] + info["goal"] + "\nObservation: " + first + LITERALS["action"])
    reading = dialogue.read("Action: I scroll @scroll [down]@\nmore text")
    assert reading.action == "I scroll @scroll [down]@"
    observation, *_, step_info = env.step(reading.action)
    assert observation.startswith("WINDOWED PAGE:{\n")
    dialogue.observe(observation, step_info)
    assert _user(dialogue).endswith(
        "\nAction: I scroll @scroll [down]@\nObservation: " + observation + LITERALS["action"]
    )
    assert protocol.max_steps("AgentBoard/WebArena-v0") == 30


@pytest.mark.parametrize(("tool", "literal"), [("academia", "other"), ("weather", "weather"), ("todo", "other")])
def test_tool_episodes_start_with_tool_pys_literal_and_the_tools_prompt(checkout, tool, literal):
    env_id = "AgentBoard/ToolOperation-v0" if tool == "todo" else "AgentBoard/ToolQuery-v0"
    _, _, info, dialogue = _begin(checkout, env_id, tool=tool)
    prompt = _prompt(f"agentboard/prompts/VanillaAgent/{tool}_prompt.json")
    request = dialogue.request()
    assert request.messages[0]["content"] == prompt["system_msg"]
    assert request.messages[1]["content"] == (
        prompt["instruction"]
        + LITERALS["examples"]
        + prompt["examples"][0]
        + "\n"
        + LITERALS["goal"]
        + info["goal"]
        + "\n"
        + LITERALS["help"]
        + "check_valid_actions\n"
        + "Observation: "
        + TOOL_LITERALS[literal]
        + LITERALS["action"]
    )


def test_sheet_episodes_have_the_runners_pre_loop_pair(checkout):
    _, _, info, dialogue = _begin(checkout, "AgentBoard/ToolOperation-v0", tool="sheet")
    opened = info["first_observation"][info["first_observation"].index("You are now in ") :]
    sheet = opened.split("\n", 1)[0].removeprefix("You are now in ")
    assert sheet.startswith("Sheet")
    assert _user(dialogue).endswith(
        "Observation: "
        + TOOL_LITERALS["other"]
        + "\nAction: open_sheet with Action Input: {'name': '"
        + sheet
        + "'}\nObservation: "
        + opened
        + LITERALS["action"]
    )


def test_tool_replies_go_to_env_and_memory_in_tool_pys_two_forms(checkout):
    _, env, _, dialogue = _begin(checkout, "AgentBoard/ToolQuery-v0", tool="academia")
    reading = dialogue.read("loadPaperNet   with Action Input:  {}")
    assert reading.action == "Action: loadPaperNet with Action Input: {}"
    observation, *_, step_info = env.step(reading.action)
    dialogue.observe(observation, step_info)
    reading = dialogue.read("Let me think about it")  # no match: the env gets nothing, the memory tool.py's literal
    assert reading.action is None
    assert dialogue.observe("", {}) == TOOL_LITERALS["format_error"]
    assert _user(dialogue).endswith(
        "Action: loadPaperNet with Action Input: {}\nObservation: "
        + observation
        + "\nAction: \nObservation: "
        + TOOL_LITERALS["format_error"]
        + LITERALS["action"]
    )


def test_tool_replies_are_parsed_only_when_the_llm_entry_says_so(tmp_path):
    config = "eval_configs/main_results_all_tasks.yaml"
    text = WEB_TOOLS_FILES[config].replace("use_parser: False", "use_parser: True")
    on = write_web_tools_checkout(tmp_path / "on", {config: text})
    off = write_web_tools_checkout(tmp_path / "off")
    reply = "Thought: the nets first.\nAction: loadPaperNet with Action Input: {}"
    # parsed: the Action line's text; unparsed: tool.py's pattern ('.' stops at a newline) matches on the last line,
    # "Action: " and all, so the env gets AgentBoard's doubled lead
    assert _begin(on, "AgentBoard/ToolQuery-v0", tool="academia")[3].read(reply).action == (
        "Action: loadPaperNet with Action Input: {}"
    )
    assert _begin(off, "AgentBoard/ToolQuery-v0", tool="academia")[3].read(reply).action == (
        "Action: Action: loadPaperNet with Action Input: {}"
    )


def test_react_tool_episodes_read_the_react_agents_prompt(checkout):
    _, _, _, dialogue = _begin(checkout, "AgentBoard/ToolQuery-v0", style="react", tool="movie")
    prompt = _prompt("agentboard/prompts/ReactAgent/movie_prompt.json")
    request = dialogue.request()
    assert request.messages[0]["content"] == prompt["system_msg"]
    assert request.messages[1]["content"].startswith(prompt["instruction"] + REACT_LITERALS["examples"])
    assert request.messages[1]["content"].endswith("Observation: " + TOOL_LITERALS["other"])
    assert dialogue.read("Think: which movie?").again
    assert dialogue.read("Action: getSearchMovie with Action Input: {}").action == (
        "Action: getSearchMovie with Action Input: {}"
    )


def test_react_on_a_tool_without_a_react_prompt_names_the_missing_file(checkout):
    with pytest.raises(CheckoutError, match="ReactAgent/todo_prompt.json"):
        _begin(checkout, "AgentBoard/ToolOperation-v0", style="react", tool="todo")


@pytest.mark.parametrize("key", ["weather", "format_error"])
def test_a_tool_py_without_its_literals_is_named(tmp_path, key):
    relative = "agentboard/tasks/tool.py"
    text = WEB_TOOLS_FILES[relative].replace(repr(TOOL_LITERALS[key]), "make_text()")
    root = write_web_tools_checkout(tmp_path / "co", {relative: text})
    with pytest.raises(CheckoutError, match=relative):
        AgentBoardProtocol(root).check(["AgentBoard/ToolQuery-v0"])


@pytest.mark.parametrize("text", ["", "def _extract_action(response):\n    raise ActionParsingError(make_text())\n"])
def test_a_help_function_without_the_parse_error_is_named(tmp_path, text):
    relative = "agentboard/environment/browser_env/help_function.py"
    root = write_web_tools_checkout(tmp_path / "co", {relative: text})
    with pytest.raises(CheckoutError, match="help_function.py"):
        AgentBoardProtocol(root).check(["AgentBoard/WebArena-v0"])


def test_a_webarena_reply_without_the_splitter_gets_the_parse_error_state(checkout):
    protocol, env, info, dialogue = _begin(checkout, "AgentBoard/WebArena-v0")
    reading = dialogue.read("click [11]")
    assert reading.action is None
    seen = dialogue.observe("", {})
    url = info["first_observation"].rpartition("\nURL: ")[2]
    assert seen == "WINDOWED PAGE:{\n" + WEB_PARSE_ERROR.replace("{s}", "@") + "\n}\nURL: " + url
    assert dialogue.read("Action: @click [11]@").action == "@click [11]@"


def _with_thresholds(root: Path, **thresholds: int | None) -> None:
    """The stand-in config's webarena thresholds (5, as AgentBoard's config) set to others; None: the line gone."""
    config = root / "eval_configs" / "main_results_all_tasks.yaml"
    text = config.read_text()
    for name, value in thresholds.items():
        line = f"    {name}: 5\n"
        assert line in text
        text = text.replace(line, "" if value is None else f"    {name}: {value}\n")
    config.write_text(text)


@pytest.mark.parametrize("threshold", [None, 2])
def test_webarena_stops_after_the_configs_unreadable_actions_in_a_row(tmp_path, threshold):
    root = write_web_tools_checkout(tmp_path / "co")
    _with_thresholds(root, parsing_failure_th=threshold)  # None: from_config's default
    protocol, env, info, dialogue = _begin(root, "AgentBoard/WebArena-v0")
    limit = threshold or 3

    def fail(reply: str = "no splitter here"):
        assert dialogue.request().finish_reason is None
        reading = dialogue.read(reply)
        dialogue.observe("", {})
        return reading

    for _ in range(limit - 1):
        reading = fail()
        assert reading.action is None and reading.finish_reason is None
    assert dialogue.request().finish_reason is None
    assert dialogue.read("@scroll [down]@").action == "@scroll [down]@"  # a readable action breaks the run
    dialogue.observe(*env.step("@scroll [down]@")[::4])
    for _ in range(limit - 1):
        fail()
    assert fail("@click 12@").action == "@click 12@"  # given to the env, but create_id_based_action cannot read it
    request = dialogue.request()  # the last action completed the rule: AgentBoard stops before asking again
    assert request.finish_reason == "invalid_format" and f"{limit} unreadable actions" in request.note
    assert request.messages == []


@pytest.mark.parametrize(
    ("actions", "stops"),
    [
        (["@click [5]@", "@click [5]@", "@click [5]@"], True),
        (["@click [5]@", "@hover [5]@", "@click [5]@"], False),  # another type between: not the last three alike
        (["@scroll [down]@"] * 6, False),  # scrolling never stops (its rule asks 2k of the last k)
        (["@type [3] [a] [1]@", "@click [4]@", "@type [3] [b] [0]@", "@click [9]@", "@type [3] [c]@"], True),
        (["@type [3] [a] [1]@", "@type [8] [a] [1]@", "@click [9]@"], False),
        (["@goto [http://x/a]@", "@goto [http://x/a]@", "@goto [http://x/a]@"], True),
    ],
)
def test_webarena_stops_after_the_same_action_as_agentboards_early_stop(tmp_path, actions, stops):
    root = write_web_tools_checkout(tmp_path / "co")
    _with_thresholds(root, repeating_action_failure_th=None)  # from_config's default, 3
    protocol, env, info, dialogue = _begin(root, "AgentBoard/WebArena-v0")
    for action in actions:
        assert dialogue.request().finish_reason is None
        assert dialogue.read(action).action == action
        dialogue.observe("WINDOWED PAGE:{\npage\n}\nURL: http://x/a", {})
    request = dialogue.request()
    if stops:
        assert request.finish_reason == "repetition" and "the same action 3 times" in request.note
    else:
        assert request.finish_reason is None


def test_webarena_repetition_threshold_comes_from_the_config(tmp_path):
    root = write_web_tools_checkout(tmp_path / "co")
    _with_thresholds(root, repeating_action_failure_th=4)
    protocol, env, info, dialogue = _begin(root, "AgentBoard/WebArena-v0")
    for count in range(1, 6):
        dialogue.read("@go_back@")
        dialogue.observe("WINDOWED PAGE:{\npage\n}\nURL: http://x/a", {})
        assert (dialogue.request().finish_reason == "repetition") == (count >= 4)
