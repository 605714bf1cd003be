"""AgentBench/CardGame-v0 under ``--protocol agentbench``: every request equals the one AgentBench v0.2's own card-game
agent sent, byte for byte (``tests/reference/agentbench_card_game.json``, recorded by
``tests/reference/record_agentbench_card_game.py``: v0.2's ``AI_En.Agent``, ``Client.llm_call``, prebuilt SDK and
``Session.filter_messages``, fed the logic's messages built from this suite's game and the stand-in checkout's
texts), with scripted replies that walk the reply reading: JSON after thinking, single quotes, no JSON (a retry),
unknown types, far and dead targets, a second object after a failing one, the ``"0"`` pick quirk, eel and sunfish
actives the SDK refuses, infight on itself, guesses at revealed fish, rounds with no hidden fish left, the session's
cut of the growing histories, and a game given up after five failed tries."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

from agentgym_text.agents.protocols.agentbench import AgentBenchProtocol
from agentgym_text.agents.protocols.agentbench.card_game import PASS, ActionInfo, decode
from agentgym_text.agents.protocols.base import CheckoutError, Opening
from tests.support.agentbench_checkout import write_checkout
from tests.support.agentbench_replay import play

ENV_ID = "AgentBench/CardGame-v0"
REFERENCE = json.loads((Path(__file__).parent / "reference" / "agentbench_card_game.json").read_text())["episodes"]
FISH_IDS = {"spray": 1, "flame": 2, "eel": 3, "sunfish": 4}


@pytest.fixture(scope="module")
def protocol(tmp_path_factory) -> AgentBenchProtocol:
    return AgentBenchProtocol(write_checkout(tmp_path_factory.mktemp("checkout")))


@pytest.fixture(scope="module")
def replayed(protocol) -> list[dict]:
    env = gym.make(ENV_ID, **protocol.env_kwargs(ENV_ID)).unwrapped
    try:
        return [play(protocol, ENV_ID, env, e["index"], e["replies"]) for e in REFERENCE]
    finally:
        env.close()


def test_the_reference_has_three_games_of_eight_requests_with_retries_and_the_cut():
    assert len(REFERENCE) >= 3 and all(len(e["requests"]) >= 8 for e in REFERENCE)
    assert all(m["role"] in ("user", "assistant") for e in REFERENCE for r in e["requests"] for m in r)
    sizes = [len(r) for e in REFERENCE for r in e["requests"]]
    assert any(b == a + 2 for a, b in zip(sizes, sizes[1:]))  # a failed try: one more (system, okay) pair
    assert any(r[0]["content"].endswith("messages are omitted.") for e in REFERENCE for r in e["requests"])
    assert [e["error"] for e in REFERENCE].count(None) == len(REFERENCE) - 1  # one game given up
    assert any(o["Action"] == "Null" for e in REFERENCE for o in e["sdk_outputs"])


def test_every_request_equals_agentbenchs(replayed):
    for expected, played in zip(REFERENCE, replayed):
        assert [i["aquawar"] for i in played["infos"]] == expected["fed"][1:], expected["index"]
        assert len(played["requests"]) == len(expected["requests"])
        for turn, (sent, wanted) in enumerate(zip(played["requests"], expected["requests"])):
            assert sent == wanted, f"game {expected['index']} request {turn}"
        last = expected["fed"][-1]
        if expected["error"]:  # the client's #[ERROR]<status>: 1 some JSON was read, 2 none
            assert played["end"] == {"#[ERROR]1": "invalid_action", "#[ERROR]2": "invalid_format"}[expected["error"]]
        else:
            assert last["phase"] == "over"
            assert played["end"] == ("success" if not any(last["GameInfo"]["EnemyHP"]) else "failure")


def test_the_env_got_the_moves_agentbenchs_sdk_sent(replayed):
    """The SDK's answers to the logic (guesses, moves) are the env's actions: a guess or a pass per ``Assert`` while
    a hidden fish was left (a ``Null`` is a pass, or nothing when the env had no guess phase), a move per ``Action``."""
    for expected, played in zip(REFERENCE, replayed):
        theirs = []
        for answer in expected["sdk_outputs"][1:]:  # after Pick
            if answer["Action"] == "Assert":
                theirs.append(("guess", answer["Pos"], answer["ID"]))
            elif answer["Action"] == "Action" and answer["Type"] == 0:
                theirs.append(("normal", answer["MyPos"], answer["EnemyPos"]))
            elif answer["Action"] == "Action":
                theirs.append(("active", answer["MyPos"], (answer["MyList"] or [None])[0]))
        ours = []
        lineup = ["spray", "flame", "eel", "sunfish"]
        for action in played["actions"]:
            move = json.loads(action)
            if action == PASS:
                continue
            if "guess_type" in move:
                ours.append(("guess", move["target_position"], FISH_IDS[move["guess_type"]]))
            elif move["action"] == "normal":
                ours.append(("normal", lineup.index(move["pick_fish"]), move["target_position"]))
            else:
                friend = move["target_position"] if move["pick_fish"] == "flame" else None
                ours.append(("active", lineup.index(move["pick_fish"]), friend))
        assert ours == theirs, expected["index"]


def test_actioninfo_keeps_what_older_actions_wrote():
    info = ActionInfo()
    assert info.report(with_skill=True) == dict.fromkeys(("ACTION_FISH", "ATK", "TARGET", "SKILL_TYPE"), "None")
    aoe = {
        "ActionFish": 2,
        "skill": {"type": "aoe", "targets": [{"pos": p, "value": 70, "isEnemy": True} for p in range(4)]},
    }
    info.parse(aoe, mine=True)
    assert info.report(with_skill=True) == {"ACTION_FISH": "2", "ATK": "70", "TARGET": "[1, 2, 3]", "SKILL_TYPE": "AOE"}
    normal = {
        "ActionFish": 1,
        "skill": {"type": "normalattack", "targets": [{"pos": 0, "value": 100, "isEnemy": True}]},
    }
    info.parse(normal, mine=True)  # position 0 shows as no target, the older entries stay
    assert info.report(with_skill=False) == {"ACTION_FISH": "1", "ATK": "100", "TARGET": "[1, 2, 3]"}
    infight = {"ActionFish": 3, "skill": {"type": "infight", "targets": [{"pos": 1, "value": 75, "isEnemy": False}]}}
    info.parse(infight, mine=True)  # a teammate target: the enemy entries are left as they were
    assert info.report(with_skill=True)["ATK"] == "100" and info.report(with_skill=True)["SKILL_TYPE"] == "Infight"
    info.parse(
        {"ActionFish": 3, "skill": infight["skill"], "passive": [{"source": 2, "type": "deflect", "isEnemy": True}]},
        mine=True,
    )
    assert info.enemy_passives[:2] == [(2, "deflect"), (0, "counter")]
    info.parse(None, mine=True)
    assert info.report(with_skill=False)["ACTION_FISH"] == "None"


def test_replies_decode_as_the_agent_decodes_them():
    accept = lambda move: move.get("ok") == 1  # noqa: E731
    assert decode("think {'ok': 1}", accept) == (0, {"ok": 1})
    assert decode('{"ok": 2} then {"ok": 1}', accept) == (0, {"ok": 1})
    assert decode('{"ok": 2}', accept) == (1, None)
    assert decode('{"ok": {"nested": 1}}', accept) == (2, None)  # the lazy match stops at the first "}"
    assert decode("no object", accept) == (2, None)


def test_the_zero_quirk_and_the_refused_actives(protocol):
    env = gym.make(ENV_ID, **protocol.env_kwargs(ENV_ID)).unwrapped
    observation, info = env.reset(options={"task_index": 1})
    dialogue = protocol.begin(Opening(ENV_ID, info["goal"], observation, info, "cardgame"))
    for _ in range(4):
        dialogue.request()
        assert dialogue.read("no guess in this reply").again
    dialogue.request()
    assert dialogue.read("nor in this one").action == PASS  # five failed tries: no guess this round
    observation, _, _, _, info = env.step(PASS)
    assert "Your last move" in dialogue.observe(observation, info)  # the action prompt
    refused = [
        '{"pick_fish": "eel", "action": "active", "target_position": 0}',  # eel is in target_friend: setter refuses
        '{"pick_fish": "sunfish", "action": "active", "target_position": 0}',  # not in it: the other setter refuses
        '{"pick_fish": "flame", "action": "active", "target_position": 1}',  # infight on itself
        '{"pick_fish": "3", "action": "normal", "target_position": 1}',  # "3" -> position 4: no such live fish
    ]
    for reply in refused:
        dialogue.request()
        assert dialogue.read(reply).again, reply
    dialogue.request()
    reading = dialogue.read('{"pick_fish": "0", "action": "normal", "target_position": " 2"}')
    assert json.loads(reading.action) == {"pick_fish": "flame", "action": "normal", "target_position": 2}
    env.close()


def test_the_ours_text_is_unchanged_by_the_sdk_view():
    plain, sdk = gym.make(ENV_ID).unwrapped, gym.make(ENV_ID, agentbench_sdk=True).unwrapped
    for env in (plain, sdk):
        env.reset(options={"task_index": 2})
    while not plain.episode_over:
        action = plain.expert_action()
        a, b = plain.step(action), sdk.step(action)
        assert a[0] == b[0] and "aquawar" not in a[4] and "aquawar" in b[4]
    assert sdk.step(PASS)[4]["valid"] is False  # the game is over


def test_a_pass_is_a_move_only_with_the_sdk_view():
    plain, sdk = gym.make(ENV_ID).unwrapped, gym.make(ENV_ID, agentbench_sdk=True).unwrapped
    for env in (plain, sdk):
        env.reset(options={"task_index": 0})
    assert plain.step(PASS)[4]["valid"] is False
    info = sdk.step(PASS)[4]
    assert info["valid"] and info["aquawar"]["phase"] == "action" and info["aquawar"]["AssertReply"] is None


def test_the_checkout_files_are_read(tmp_path):
    for missing in ("src/server/tasks/card_game/AI/prompt/en.py", "src/server/tasks/card_game/AI/client.py"):
        root = write_checkout(tmp_path / missing.replace("/", "_"), skip=(missing,))
        with pytest.raises(CheckoutError) as error:
            AgentBenchProtocol(root).check([ENV_ID])
        assert str(root) in str(error.value) and missing in str(error.value)
    root = write_checkout(tmp_path / "no_okay")
    client = root / "src/server/tasks/card_game/AI/client.py"
    client.write_text(
        client.read_text().replace('history.append((system, "Fine, let us play by these rules."))', "pass")
    )
    with pytest.raises(CheckoutError, match="okay text"):
        AgentBenchProtocol(root).check([ENV_ID])
    assert AgentBenchProtocol(write_checkout(tmp_path / "whole")).env_kwargs(ENV_ID) == {
        "agentbench_sdk": True,
        "agent_lineup": ["spray", "flame", "eel", "sunfish"],
    }


def test_chatenv_speaks_the_same_requests(protocol):
    """``ChatEnv`` (the trainers' loop): a retry is a step with no env step, and each returned list is v0.2's next."""
    from agentgym_text.integrations.chat import ChatEnv

    expected = REFERENCE[0]
    env = ChatEnv(ENV_ID, protocol=protocol)
    messages, _ = env.reset(options={"task_index": expected["index"]})
    sent = [messages]
    for reply in expected["replies"]:
        messages, _, terminated, truncated, info = env.step(reply)
        if terminated or truncated:
            break
        sent.append(messages)
    assert sent == expected["requests"] and info["finish_reason"] == "failure"
