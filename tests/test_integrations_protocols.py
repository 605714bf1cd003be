"""What the framework adapters share under an agent protocol: which protocols a growing conversation can carry
(``require_append_only``), the turns each request adds (``new_turns``), and TRL's refusal."""

from __future__ import annotations

import pytest

from agentgym_text.integrations.chat import ChatEnv
from agentgym_text.integrations.chat_protocol import APPEND_ONLY_PROTOCOLS, new_turns, require_append_only
from agentgym_text.integrations.datasets import tasks
from agentgym_text.integrations.trl import environment_factory
from tests.support.protocol_episodes import REPLIES, chat_requests, protocols, reply


@pytest.fixture(scope="module")
def originals(tmp_path_factory):
    return protocols(tmp_path_factory.mktemp("checkouts"))


def _episode(env_id: str, originals) -> list[list[dict]]:
    (row,) = tasks(env_id, limit=1)
    return chat_requests(env_id, originals[env_id.split("/")[0].lower()], task_id=row["task_id"], seed=row["seed"])


@pytest.mark.parametrize("env_id", [env_id for env_id in REPLIES if env_id.startswith("AgentBench/")])
def test_agentbenchs_requests_grow_by_the_reply_and_the_turns_new_turns_gives(originals, env_id):
    requests = _episode(env_id, originals)
    assert len(requests) > 8
    for turn, (sent, following) in enumerate(zip(requests, requests[1:])):
        added = new_turns(sent, reply(env_id, turn), following, "X")
        assert [*sent, {"role": "assistant", "content": reply(env_id, turn)}, *added] == following and added


@pytest.mark.parametrize("env_id", [env_id for env_id in REPLIES if env_id.startswith("AgentBoard/")])
def test_agentboards_requests_do_not_extend_the_last_one(originals, env_id):
    sent, following, *_ = _episode(env_id, originals)
    with pytest.raises(ValueError, match="no longer extends the conversation SkyRL keeps"):
        new_turns(sent, reply(env_id, 0), following, "SkyRL")


def test_agentbenchs_history_cut_is_refused_when_it_happens(originals):
    """Past ``filter_messages``'s limit AgentBench drops turns: a growing conversation can no longer carry it."""
    chat = ChatEnv("AgentBench/LateralThinking-v0", protocol=originals["agentbench"])
    sent, _ = chat.reset(seed=0)
    long_reply = "Is it " + " ".join(["something"] * 300) + "?"
    for _ in range(20):
        following, _, terminated, truncated, _ = chat.step(long_reply)
        assert not (terminated or truncated)
        if "[NOTICE]" in following[0]["content"]:
            break
        new_turns(sent, long_reply, following, "verifiers")
        sent = following
    else:
        pytest.fail("the history never outgrew AgentBench's limit")
    with pytest.raises(ValueError, match="verifiers cannot send it"):
        new_turns(sent, long_reply, following, "verifiers")
    chat.close()


def test_only_append_only_protocols_pass_require_append_only(originals):
    assert APPEND_ONLY_PROTOCOLS == ("agentbench",)
    require_append_only(originals["agentbench"], "SkyRL")
    require_append_only("agentbench", "SkyRL")
    for protocol in ("ours", "agentboard", originals["agentboard"]):
        with pytest.raises(ValueError, match=r"SkyRL keeps one conversation .* supports the protocols 'agentbench'"):
            require_append_only(protocol, "SkyRL")


def test_chat_env_gives_the_protocols_sampling_settings(originals):
    chat = ChatEnv("AgentBench/KG-v0", protocol=originals["agentbench"])
    messages, _ = chat.reset(seed=0)
    request = chat.request
    assert request.messages == messages and (request.temperature, request.max_tokens) == (0, 512)
    chat.close()
    plain = ChatEnv("AgentQuest/Mastermind-v0")
    plain.reset(seed=0)
    assert plain.request is None
    plain.close()


@pytest.mark.parametrize("name", ["ours", "agentboard", "agentbench"])
def test_trls_factory_refuses_every_protocol(originals, name):
    with pytest.raises(ValueError, match=f"TRL's environment_factory .* {name!r} protocol"):
        environment_factory("AgentBench/KG-v0", protocol=originals.get(name, name))
