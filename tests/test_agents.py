"""Agents: reply parsing, the random and expert agents, and the LLM agent's retry/format/context handling."""

import threading
import time

import numpy as np
import pytest

from agentgym_text.agents import make_agent
from agentgym_text.agents.base import Turn
from agentgym_text.agents.llm import LLMAgent, is_context_error
from agentgym_text.agents.llm_config import LLMConfig
from agentgym_text.agents.parsing import parse_reply
from agentgym_text.agents.prompts import build_messages, load_prompt
from agentgym_text.testing.chat_server import ScriptedChatServer


def _turn(slot=0, seed=1, **kwargs):
    base = dict(
        slot=slot,
        env_id="AgentQuest/Mastermind-v0",
        family="mastermind",
        episode_key=f"k{slot}",
        seed=seed,
        step=0,
        goal="Find the code.",
        observation="Goal: Find the code.\nObservation: start",
    )
    base.update(kwargs)
    return Turn(**base)


@pytest.mark.parametrize(
    "reply, react, action",
    [
        ("Action: guess 0123", False, "guess 0123"),
        ("Thought: low digits first.\nAction: guess 0123\nObservation: (imagined)", True, "guess 0123"),
        ("<think>maybe 4567?</think>\nAction: guess 0123", False, "guess 0123"),
        ("**Action:** `go to red ball 1`", False, "go to red ball 1"),
        ("Action:\n```\nopen door\n```", False, "open door"),
        ("take apple\nI will then eat it.", False, "take apple"),
        ("Next action: look", False, "look"),
        ("I would like to think about this more.", True, None),
        ("", False, None),
        ("   \n\t", False, None),
        ("?!?! ... ---", False, None),
        ("x" * 400, False, None),
        (None, False, None),
        (42, False, None),
    ],
)
def test_parse_reply_extracts_one_action_or_none(reply, react, action):
    assert parse_reply(reply, react=react).action == action


def test_parse_reply_keeps_the_thought_of_a_react_reply():
    parsed = parse_reply("Thought: the 2 must move.\nAction: guess 2013", react=True)
    assert parsed.thought == "the 2 must move." and parsed.action == "guess 2013"


def test_prompts_have_system_instruction_example_goal_history_and_format():
    messages = build_messages(
        load_prompt("babyai"),
        "pick up the green key",
        "Goal: pick up the green key\n[2 earlier turns omitted]\nObservation: x",
        "react",
    )
    assert messages[0]["role"] == "system" and messages[0]["content"] == load_prompt("babyai").system
    user = messages[1]["content"]
    assert "Here is an example:" in user and "Goal: pick up the green key" in user
    assert user.count("Goal: pick up the green key") == 1
    assert "[2 earlier turns omitted]" in user and user.rstrip().endswith("Action: <one action>")


def test_random_agent_is_uniform_over_admissible_actions_and_seeded():
    agent = make_agent("random", seed=3)
    actions = ["a", "b", "c", "d"]
    turn = _turn(admissible_actions=actions)
    agent.begin_episode(turn)
    draws = [agent.act([turn])[0].action for _ in range(4000)]
    counts = np.array([draws.count(a) for a in actions])
    assert counts.min() > 850 and counts.max() < 1150
    again = make_agent("random", seed=3)
    again.begin_episode(turn)
    assert [again.act([turn])[0].action for _ in range(50)] == draws[:50]
    assert make_agent("random").act([_turn(admissible_actions=[])])[0].action == "check valid actions"


def test_expert_agent_sends_the_expert_action():
    decisions = make_agent("expert").act([_turn(expert_action="guess 0123"), _turn(slot=1, expert_action=None)])
    assert [d.action for d in decisions] == ["guess 0123", "check valid actions"]


def test_unknown_agent_name_is_an_error():
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("oracle")


def _agent(server, backoff_s=0.5, **kwargs):
    delays = []
    config = LLMConfig(model="scripted", base_url=server.base_url, api_key="test", **kwargs)
    return LLMAgent(config, sleep=delays.append, backoff_s=backoff_s), delays


@pytest.mark.parametrize("kind", ["http_500", "http_429"])
def test_llm_agent_retries_5xx_and_429_with_growing_backoff_then_gives_an_invalid_step(kind):
    with ScriptedChatServer(lambda m: "Action: guess 0123", fault_rate=1.0, fault_kinds=[kind]) as server:
        agent, delays = _agent(server, max_retries=3, backoff_s=0.1)
        decision = agent.ask(_turn())
        agent.close()
    assert decision.action == "" and decision.error == f"retries_exhausted:{kind}"
    assert decision.attempts == 4 and server.stats["calls"] == 4
    assert len(delays) == 3 and delays[0] < delays[2] <= 0.4


def test_llm_agent_recovers_after_transient_faults():
    calls = []

    def flaky_then_fine(messages):
        return "Action: guess 4567"

    with ScriptedChatServer(flaky_then_fine, fault_rate=0.5, fault_kinds=["http_500"], fault_seed=1) as server:
        agent, delays = _agent(server, max_retries=10)
        decisions = [agent.ask(_turn()) for _ in range(10)]
        agent.close()
        calls.append(server.stats["calls"])
    assert all(d.action == "guess 4567" and d.error is None for d in decisions)
    assert calls[0] > 10 and len(delays) == calls[0] - 10


def test_llm_agent_times_out_and_retries():
    with ScriptedChatServer(lambda m: "Action: look", fault_rate=1.0, fault_kinds=["timeout"], timeout_s=1.0) as server:
        agent, _ = _agent(server, max_retries=1, timeout=0.3)
        started = time.perf_counter()
        decision = agent.ask(_turn())
        elapsed = time.perf_counter() - started
        agent.close()
    assert decision.error == "retries_exhausted:APITimeoutError" and decision.attempts == 2
    # a runaway guard: two attempts that each waited the server's full 1 s would not end under 3 s either
    assert elapsed < 3.0, f"two attempts with a 0.3 s timeout took {elapsed:.1f} s"


@pytest.mark.parametrize("kind", ["garbage_body", "garbage_text"])
def test_llm_agent_counts_a_malformed_reply_as_invalid_format_without_retrying(kind):
    with ScriptedChatServer(lambda m: "Action: look", fault_rate=1.0, fault_kinds=[kind]) as server:
        agent, delays = _agent(server)
        decision = agent.ask(_turn())
        agent.close()
    assert decision.action == "" and decision.error.startswith("invalid_format")
    assert server.stats["calls"] == 1 and delays == []


def test_llm_agent_reports_context_overflow_from_the_server_and_from_its_own_budget():
    with ScriptedChatServer(lambda m: "Action: look", max_prompt_chars=100) as server:
        agent, _ = _agent(server)
        decision = agent.ask(_turn())
        agent.close()
    assert decision.finish_reason == "context_limit" and server.stats["context_errors"] == 1
    local = LLMAgent(LLMConfig(model="m", base_url="http://127.0.0.1:9/v1", api_key="x", context_window=50))
    assert local.ask(_turn()).finish_reason == "context_limit"


def test_llm_agent_asks_all_sub_envs_concurrently():
    """``act`` on several turns (the lock-step path of benchmarks/runner.py) has all requests in flight at once."""
    arrived = threading.Barrier(8, timeout=20)  # far below the client's 60 s timeout: no retry while waiting

    def all_eight_at_once(messages):
        try:
            arrived.wait()  # only passes once all 8 requests are being served together
        except threading.BrokenBarrierError:
            return "Action: not concurrent"
        return "Action: guess 0123"

    with ScriptedChatServer(all_eight_at_once) as server:
        agent, _ = _agent(server, timeout=60.0)
        decisions = agent.act([_turn(slot=i) for i in range(8)])
        agent.close()
    assert [d.action for d in decisions] == ["guess 0123"] * 8
    assert server.stats["calls"] == 8
    assert all(d.prompt_tokens > 0 and d.completion_tokens > 0 for d in decisions)


def test_is_context_error_reads_common_server_messages():
    assert is_context_error(400, "This model's maximum context length is 8192 tokens")
    assert is_context_error(400, "prompt is too long: 9000 tokens > 8192")
    assert not is_context_error(500, "maximum context length")
    assert not is_context_error(400, "model not found")
