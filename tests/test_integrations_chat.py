"""ChatEnv and group rollouts: append-only histories, tool calls = plain text, groups that keep their task."""

import copy
import json

import gymnasium as gym
import numpy as np
import pytest

from agentgym_text.agents.protocols import AgentProtocol, Dialogue, Opening, Reading, Request, make_protocol
from agentgym_text.core.registry import entry_status, extra_installed
from agentgym_text.integrations import ChatEnv, make_group, tool_call_from_action, tool_schemas
from agentgym_text.integrations.chat import NOT_RUN
from agentgym_text.integrations.tool_schemas import action_from_tool_call
from tests.conftest import ENTRIES

FAST_IDS = [
    ("AgentQuest/Mastermind-v0", "mastermind-003"),
    ("AgentQuest/Sudoku-v0", "sudoku-000"),
    ("AgentBoard/ToolQuery-v0", None),
    ("AgentBoard/ToolOperation-v0", None),
    ("AgentBoard/BabyAI-v0", None),
    ("AgentBoard/PDDL-v0", None),
]


def _skip_missing(env_id):
    """Skip where the id's extra or setting (Jericho's game files) is missing."""
    status = entry_status(ENTRIES[env_id])
    if status != "installed":
        pytest.skip(f"{env_id}: {status}")


def _first_task(env_id, task_id):
    if task_id is not None:
        return task_id
    env = gym.make(env_id)
    try:
        return env.unwrapped.task_ids[0]
    finally:
        env.close()


def _play(chat, task_id, as_tools, max_turns=60):
    """Play the expert through ``chat``, as tool calls or as 'Action: ...' text; record the trajectory."""
    messages, info = chat.reset(seed=0, options={"task_id": task_id})
    trajectory = [(messages[-1]["content"], 0.0, info["progress_rate"])]
    for turn in range(max_turns):
        action = chat.unwrapped.expert_action()
        if action is None or chat.episode_over:
            break
        before = copy.deepcopy(chat.messages)
        if as_tools:
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [tool_call_from_action(action, f"call_{turn}", chat.env)],
            }
        else:
            message = {"role": "assistant", "content": f"Thought: the expert says so.\nAction: {action}"}
        reply, reward, terminated, truncated, info = chat.step(message)
        # append-only: the old history is an unchanged prefix, and exactly the assistant message + one reply follow
        assert chat.messages[: len(before)] == before
        assert len(chat.messages) == len(before) + 2
        assert chat.messages[-2] == message and chat.messages[-1] == reply
        assert reply["role"] == ("tool" if as_tools else "user")
        trajectory.append((reply["content"], reward, info["progress_rate"]))
        if terminated or truncated:
            break
    return trajectory, info


@pytest.mark.parametrize("env_id, task_id", FAST_IDS, ids=[pair[0] for pair in FAST_IDS])
def test_tool_calls_and_plain_text_give_the_same_trajectory(env_id, task_id):
    _skip_missing(env_id)
    task_id = _first_task(env_id, task_id)
    text_chat, tool_chat = ChatEnv(env_id), ChatEnv(env_id, tools=True)
    try:
        by_text, text_info = _play(text_chat, task_id, as_tools=False)
        by_tools, tool_info = _play(tool_chat, task_id, as_tools=True)
    finally:
        text_chat.close()
        tool_chat.close()
    assert by_text == by_tools
    assert text_info["success"] and tool_info["success"]
    assert len(by_text) > 2


def test_tool_envs_expose_their_real_functions_and_others_one_act_tool():
    chat = ChatEnv("AgentBoard/ToolQuery-v0", tools=True)
    chat.reset(seed=0, options={"task_index": 0})
    names = [tool["function"]["name"] for tool in chat.tools]
    toolkit_names = [spec.name for spec in chat.unwrapped.toolkit.functions]
    assert names == [*toolkit_names, "finish", "check_valid_actions"]
    for tool in chat.tools:
        assert tool["type"] == "function"
        parameters = tool["function"]["parameters"]
        assert parameters["type"] == "object" and set(parameters["required"]) <= set(parameters["properties"])
        json.dumps(tool)
    chat.close()
    mastermind = ChatEnv("AgentQuest/Mastermind-v0")
    mastermind.reset(seed=0)
    assert [tool["function"]["name"] for tool in mastermind.tools] == ["act"]
    assert "guess 0123" in mastermind.tools[0]["function"]["description"]
    mastermind.close()


def test_tool_env_bad_arguments_come_back_as_the_envs_own_error():
    chat = ChatEnv("AgentBoard/ToolQuery-v0", tools=True)
    chat.reset(seed=0, options={"task_index": 0})
    name = chat.tools[0]["function"]["name"]
    call = {"id": "x", "type": "function", "function": {"name": name, "arguments": "{not json"}}
    reply, reward, terminated, truncated, info = chat.step({"role": "assistant", "tool_calls": [call]})
    assert not info["valid"] and reward == 0.0 and not terminated
    assert reply["tool_call_id"] == "x" and reply["content"]
    chat.close()


@pytest.mark.parametrize(
    "reply", ["Action: guess 0123", "```\nguess 0123\n```", "guess 0123", "**Action:** `guess 0123`"]
)
def test_plain_text_replies_are_read_by_the_agents_parser(reply):
    chat = ChatEnv("AgentQuest/Mastermind-v0")
    chat.reset(seed=0, options={"task_id": "mastermind-003"})
    message, _, _, _, info = chat.step(reply)
    assert info["valid"] and message["content"].startswith("0123: 2 in the right place")
    chat.close()


def test_unreadable_reply_is_an_invalid_step_not_an_error():
    chat = ChatEnv("AgentQuest/Mastermind-v0", react=True)
    chat.reset(seed=0)
    message, reward, terminated, truncated, info = chat.step({"role": "assistant", "content": "I am thinking..."})
    assert not info["valid"] and reward == 0.0 and message["role"] == "user"
    assert info["step"] == 1
    chat.close()


def test_several_tool_calls_play_the_first_and_answer_every_call():
    chat = ChatEnv("AgentQuest/Mastermind-v0", tools=True)
    chat.reset(seed=0, options={"task_id": "mastermind-003"})
    calls = [tool_call_from_action(f"guess {code}", f"c{i}", chat.env) for i, code in enumerate(["0123", "0573"])]
    reply, _, terminated, _, info = chat.step({"role": "assistant", "content": "", "tool_calls": calls})
    assert info["step"] == 1 and not terminated
    assert [m.get("tool_call_id") for m in chat.messages[-2:]] == ["c0", "c1"]
    assert chat.messages[-1]["content"] == NOT_RUN
    chat.close()


@pytest.mark.parametrize("env_id", [entry for entry in ENTRIES if "ScienceWorld" not in entry])
def test_first_messages_tell_the_rules_action_format_and_budget(env_id):
    _skip_missing(env_id)
    chat = ChatEnv(env_id)
    messages, info = chat.reset(seed=0)
    system, first = messages[0]["content"], messages[1]["content"]
    base = chat.unwrapped
    assert base.help_action in system
    assert f"You have {info['max_steps']} steps" in system
    if base.action_format:
        assert base.action_format in system
    assert "Here is an example" in system
    assert first.strip() and info["goal"].split(".")[0][:40] in first + system
    # the expert's move, written as the system prompt asks, is read as a valid action
    expert = base.expert_action()
    reply = expert if expert.startswith(("Action:", "Act:")) else f"Action: {expert}"
    _, _, _, _, step_info = chat.step(reply)
    assert step_info["valid"]
    chat.close()


def test_group_of_eight_plays_one_task_and_finished_members_stay_finished():
    group = make_group("AgentQuest/Mastermind-v0", "mastermind-010", 8, seed=3)
    observations, infos = group.reset()
    assert {info["task_id"] for info in infos} == {"mastermind-010"} and len(observations) == 8
    rng = np.random.default_rng(0)
    experts = {0, 3, 5}
    finished_at = {}
    for turn in range(70):
        actions = []
        for index, env in enumerate(group.envs):
            if index in experts:
                actions.append(env.unwrapped.expert_action())
            else:
                actions.append(f"guess {''.join(map(str, rng.permutation(10)[:4]))}")
        observations, rewards, terminated, truncated, infos = group.step(actions)
        assert {info["task_id"] for info in infos} == {"mastermind-010"}
        for index in np.flatnonzero(group.done):
            finished_at.setdefault(int(index), (turn, observations[index], infos[index]["step"]))
            # a finished member is never autoreset: same last observation and step count, no reward
            assert (observations[index], infos[index]["step"]) == finished_at[int(index)][1:]
            if finished_at[int(index)][0] < turn:
                assert rewards[index] == 0.0
        if group.all_done:
            break
    assert group.all_done
    assert group.success[list(experts)].all()
    assert np.allclose(group.returns, group.progress)  # rewards sum to the final progress rate
    advantages = group.advantages("progress")
    assert abs(advantages.mean()) < 1e-9 and advantages[0] > 0
    # a new group episode: same task again, fresh episodes
    _, infos = group.reset(seed=11)
    assert {info["task_id"] for info in infos} == {"mastermind-010"} and not group.done.any()
    assert group.returns.sum() == 0.0
    group.close()


def test_group_sub_envs_get_different_seeds_on_a_procedural_task():
    if not extra_installed("babyai"):
        pytest.skip("babyai extra")
    group = make_group("AgentBoard/BabyAI-v0", "babyai-GoToObj-random", 8, level="GoToObj")
    observations, infos = group.reset(seed=0)
    assert {info["task_id"] for info in infos} == {"babyai-GoToObj-random"}
    assert len(set(observations)) > 1  # the same level, different instances
    again, _ = group.reset(seed=0)
    assert again == observations
    group.close()


def test_chat_group_takes_messages():
    group = make_group("AgentQuest/Mastermind-v0", "mastermind-003", 2, chat=True, tools=True)
    messages, _ = group.reset()
    assert [m["role"] for m in messages[0]] == ["system", "user"]
    replies, rewards, *_ = group.step(["Action: guess 0573", "Action: guess 0123"])
    assert replies[0]["role"] == "user" and rewards[0] == 1.0 and group.done.tolist() == [True, False]
    assert tool_schemas(group.envs[0].env)[0]["function"]["name"] == "act"
    group.close()


@pytest.mark.parametrize("text_format", ["agentboard", "clear"])
def test_json_booleans_of_a_function_call_reach_the_tool_in_both_text_formats(text_format):
    env = gym.make("AgentBoard/ToolOperation-v0", tool="todo", text_format=text_format)
    env.reset(seed=0)
    action = action_from_tool_call("update_project", '{"project_id": "2301", "is_favorite": true}', env)
    assert action == 'update_project with Action Input: {"project_id": "2301", "is_favorite": True}'
    observation, _, _, _, info = env.step(action)
    assert info["valid"], observation
    assert "True" in observation or "true" in observation
    env.close()


# ---- ChatEnv under an agent protocol ---------------------------------------------------------------------------


def test_chat_env_under_the_ours_protocol_sends_the_dialogues_requests():
    chat = ChatEnv("AgentQuest/Mastermind-v0", protocol="ours")
    messages, info = chat.reset(seed=0, options={"task_id": "mastermind-003"})
    # the same dialogue driven by hand gives the same requests
    env = gym.make("AgentQuest/Mastermind-v0")
    for wrapper in make_protocol("ours").env_wrappers():
        env = wrapper(env)
    observation, first = env.reset(seed=0, options={"task_id": "mastermind-003"})
    opening = Opening("AgentQuest/Mastermind-v0", first["goal"], observation, first, "mastermind")
    dialogue = make_protocol("ours").begin(opening)
    assert messages == dialogue.request().messages == chat.messages
    out, reward, terminated, truncated, info = chat.step({"role": "assistant", "content": "Action: guess 0123"})
    assert dialogue.read("Action: guess 0123").action == "guess 0123"
    dialogue.observe(*[env.step("guess 0123")[i] for i in (0, 4)])
    assert out == dialogue.request().messages == chat.messages and not terminated
    assert "2 in the right place" in out[-1]["content"]
    out, reward, terminated, truncated, info = chat.step("Action: guess 0573")
    assert terminated and info["success"] and chat.episode_over
    chat.close()
    env.close()


class _Tiny(Dialogue):
    def __init__(self, opening):
        self.lines = [f"goal: {opening.goal}", opening.observation]

    def request(self):
        return Request([{"role": "user", "content": "\n".join(self.lines)}])

    def read(self, reply):
        if reply == "hmm":
            self.lines.append("(thought kept)")
            return Reading(None, again=True)
        if reply == "quit":
            return Reading(None, finish_reason="gave_up")
        return Reading(reply.removeprefix("DO "))

    def observe(self, observation, info):
        self.lines.append(observation)
        return observation


class _Marked(gym.ObservationWrapper):
    def observation(self, observation):
        return "W:" + observation


class _TinyProtocol(AgentProtocol):
    name = "tiny"

    def begin(self, opening):
        return _Tiny(opening)

    def env_wrappers(self):
        return [_Marked]

    def max_steps(self, env_id):
        return 2


def test_chat_env_under_a_tiny_protocol_reads_thinks_and_ends_as_it_says():
    chat = ChatEnv("AgentQuest/Mastermind-v0", protocol=_TinyProtocol())
    messages, info = chat.reset(seed=0, options={"task_id": "mastermind-003"})
    assert len(messages) == 1 and messages[0]["content"].startswith("goal: ") and "\nW:" in messages[0]["content"]
    out, reward, terminated, truncated, info = chat.step("hmm")  # no env step
    assert out[0]["content"].endswith("(thought kept)") and (reward, terminated, truncated) == (0.0, False, False)
    out, reward, terminated, truncated, info = chat.step("DO guess 0123")
    assert out[0]["content"].endswith("W:0123: 2 in the right place, 0 right but in the wrong place.")
    assert chat.messages == out and not (terminated or truncated)
    out, reward, terminated, truncated, info = chat.step("DO guess 4567")
    assert truncated and not terminated  # the protocol's budget of 2 steps
    chat.reset(seed=0, options={"task_id": "mastermind-003"})
    out, reward, terminated, truncated, info = chat.step("quit")
    assert terminated and info["finish_reason"] == "gave_up" and chat.episode_over
    chat.close()


def test_chat_env_without_a_protocol_is_unchanged():
    chat = ChatEnv("AgentQuest/Mastermind-v0")
    messages, _ = chat.reset(seed=0, options={"task_id": "mastermind-003"})
    reply, *_ = chat.step("Action: guess 0123")
    assert chat.protocol is None and reply["role"] == "user" and len(chat.messages) == 4
    chat.close()
