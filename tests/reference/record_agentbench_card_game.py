"""Record the requests AgentBench v0.2's card-game agent sends (the reference of
``tests/test_agentbench_protocol_card_game.py``, never a runtime dependency).

Runs v0.2's agent UNMODIFIED (``src/server/tasks/card_game/AI/AI_En.py``, ``Agent``) on v0.2's own prebuilt SDK
(``AI/sdk/ai_client.cpython-310-x86_64-linux-gnu.so``: its C++ ``AIClient.run`` loop parses the logic's messages
into ``Game``/``ActionInfo`` and calls ``Pick``, ``Assert`` and ``Act``), with v0.2's ``Client.llm_call``
(``AI/client.py``, its okay text swapped for the stand-in checkout's) and AgentBench's ``Session.filter_messages``
(``src/server/task.py``) on each message list, as ``server.py`` hands it to the session. The prompt texts are the
stand-in checkout's ``AI/prompt/en.py`` (``tests/support/agentbench_checkout.py``), so no AgentBench prompt enters
this repository. In place of the C++ game logic and its socket:

- the logic's messages (``Pick``, then per round ``Assert`` and ``Action``) are built from what this suite's env
  reported at the same points (info ``aquawar``: ``GameInfo``, ``MyAction``, ``EnemyAction``, ``AssertReply``) and
  piped to the SDK's stdin; what the SDK answers on stdout (its guesses and moves) is kept;
- the client's socket is a stub that records each message list (through ``filter_messages``, roles as AgentBench's
  HTTP agent maps them) and answers with the scripted replies; ``#[ERROR]`` or the end of the replies stops it.

The replies come from a scripted policy (``reply`` below) run under our protocol at ``--export``: valid JSON after
some thinking, single quotes, replies with no JSON (a retry), unknown types and positions, dead targets, a second
object after a failing first, the ``"0"`` pick quirk, eel and sunfish actives (the SDK's setter refuses them),
infight on itself, guesses at revealed fish, and one game given up after five failed tries.

Usage (two stages; the second runs v0.2's agent under Python 3.10, the SDK's build, with pydantic 1, numpy, PyYAML
and requests: ``python3.10 -m venv /tmp/venv310 && /tmp/venv310/bin/pip install "pydantic<2" numpy PyYAML
requests``)::

    PYTHONPATH=. .venv/bin/python tests/reference/record_agentbench_card_game.py --export
    PYTHONPATH=. .venv/bin/python tests/reference/record_agentbench_card_game.py --record \\
        --git-dir PATH --python /tmp/venv310/bin/python

``PATH`` is a git mirror of THUDM/AgentBench (else ``$AGENTBENCH_GIT_DIR``). ``--real`` (on both stages, with
``--git-dir``) plays and records on v0.2's own ``en.py`` and ``client.py`` and only prints whether every request was
equal (nothing is written here: the output would hold AgentBench's texts).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WORK = Path("/tmp/agentbench-card-game-work")
COMMIT = "41e6807"
"""AgentBench v0.2."""
OUT = HERE / "agentbench_card_game.json"
ENV_ID = "AgentBench/CardGame-v0"
TASKS = (0, 3, 7)
AGENT_FILES = ("src/server/tasks/card_game/AI/AI_En.py", "src/server/tasks/card_game/AI/prompt/__init__.py")
SDK = "src/server/tasks/card_game/AI/sdk/ai_client.cpython-310-x86_64-linux-gnu.so"
SESSION_FILES = (
    "src/server/task.py",
    "src/typings/__init__.py",
    "src/typings/config.py",
    "src/typings/exception.py",
    "src/typings/general.py",
    "src/typings/output.py",
    "src/typings/request.py",
    "src/typings/status.py",
    "src/utils/__init__.py",
    "src/utils/max_flow.py",
    "src/utils/others.py",
    "src/utils/rules.py",
)
FISH_IDS = {"spray": 1, "flame": 2, "eel": 3, "sunfish": 4}

GUESS_STYLES = {
    # task index -> the guess replies' styles in turn (then "right" for ever)
    0: ["right", "quotes", "nojson", "right", "revealed", "right", "unknown_type", "right", "right"],
    3: ["wrong", "dead_or_far", "second_object", "right", "nojson", "nojson", "nojson", "nojson", "nojson", "right"],
    7: ["quotes", "right", "wrong"],
}
ACTION_STYLES = {
    0: ["normal", "aoe_quotes", "broken", "eel", "normal", "zero_quirk", "infight_self", "infight", "sunfish"],
    3: ["aoe_quotes", "dead_target", "normal", "infight", "normal", "zero_quirk", "normal", "aoe_quotes"],
    7: ["normal", "broken", "eel", "dead_target", "infight_self", "sunfish"],  # five failures: the game is given up
}


# ---- the scripted model (our venv) --------------------------------------------------------------------------------
def reply(task: int, phase: str, count: int, env: Any) -> str:
    """The ``count``-th reply of ``phase`` in game ``task``, made from the game's true state (``env.match``)."""
    game = env.match.game
    mine, enemy = game.teams
    live = [p for p, f in enumerate(enemy) if f.alive]
    hidden = [p for p in live if not enemy[p].revealed]
    dead = [p for p, f in enumerate(enemy) if not f.alive]
    styles = GUESS_STYLES[task] if phase == "guess" else ACTION_STYLES[task]
    style = styles[count] if count < len(styles) else ("right" if phase == "guess" else "normal")
    if phase == "guess":
        target = hidden[0] if hidden else live[0]
        kind = enemy[target].kind
        other = next(k for k in FISH_IDS if k != kind)
        revealed = [p for p in live if enemy[p].revealed]
        return {
            "right": f'Position {target} looks like a {kind}.\n{{"guess_type": "{kind}", "target_position": {target}}}',
            "quotes": f"{{'guess_type': '{kind}', 'target_position': '{target}'}}",
            "nojson": "I cannot tell yet; every fish could be anything.",
            "wrong": f'My guess: {{"guess_type": "{other}", "target_position": {target}}}',
            "unknown_type": f'{{"guess_type": "shark", "target_position": {target}}}',
            "dead_or_far": f'{{"guess_type": "{kind}", "target_position": {dead[0] if dead else 6}}}',
            "second_object": f'{{"guess_type": "{kind}", "target_position": 9}} or rather '
            f'{{"guess_type": "{kind}", "target_position": {target}}}',
            "revealed": f'{{"guess_type": "{enemy[revealed[0]].kind if revealed else kind}", '
            f'"target_position": {revealed[0] if revealed else target}}}',
        }[style]
    alive = {f.kind: p for p, f in enumerate(mine) if f.alive}
    weakest = min(live, key=lambda p: (enemy[p].hp, p))
    if style == "normal" or (style in ("aoe_quotes",) and "spray" not in alive):
        actor = max(alive, key=lambda k: (mine[alive[k]].atk, -alive[k]))
        return f'Hit the weakest.\n{{"pick_fish": "{actor}", "action": "normal", "target_position": {weakest}}}'
    if style == "aoe_quotes":
        return "{'pick_fish': 'spray', 'action': 'active', 'target_position': 2}"
    if style == "broken":
        return '{"pick_fish": "flame", "action": normal, "target_position": 1}'
    if style == "eel":
        return '{"pick_fish": "eel", "action": "active", "target_position": 0}'
    if style == "sunfish":
        return '{"pick_fish": "sunfish", "action": "active", "target_position": 0}'
    if style == "zero_quirk":
        return f'{{"pick_fish": "0", "action": "normal", "target_position": "{weakest}"}}'
    if style == "dead_target":
        return f'{{"pick_fish": "spray", "action": "normal", "target_position": {dead[0] if dead else 5}}}'
    if style == "infight_self":
        return '{"pick_fish": "flame", "action": "active", "target_position": 1}'
    mate = next((p for p in (3, 2, 0) if mine[p].alive), 0)
    return f'Boost the flame.\n{{"pick_fish": "flame", "action": "active", "target_position": {mate}}}'


def export(git_dir: str | None = None) -> None:
    """Play the games under our protocol (with ``git_dir``: on v0.2's own ``en.py`` and ``client.py``)."""
    sys.path.insert(0, str(ROOT))
    import gymnasium as gym

    import agentgym_text  # noqa: F401
    from agentgym_text.agents.protocols.agentbench import AgentBenchProtocol
    from agentgym_text.agents.protocols.base import Opening
    from tests.support.agentbench_checkout import write_checkout

    shutil.rmtree(WORK, ignore_errors=True)
    checkout = write_checkout(WORK / "checkout")
    if git_dir:  # --real: v0.2's own texts, never written into this repository
        for relative in ("src/server/tasks/card_game/AI/prompt/en.py", "src/server/tasks/card_game/AI/client.py"):
            (checkout / relative).write_bytes(_show(git_dir, relative))
    protocol = AgentBenchProtocol(checkout)
    env = gym.make(ENV_ID, **protocol.env_kwargs(ENV_ID)).unwrapped
    episodes = []
    for task in TASKS:
        observation, info = env.reset(options={"task_index": task})
        dialogue = protocol.begin(Opening(ENV_ID, info["goal"], observation, info, "cardgame"))
        replies, requests, steps, counts, end = [], [], [], {"guess": 0, "action": 0}, None
        views = [info["aquawar"]]
        while len(requests) < 80:
            requests.append(dialogue.request().messages)
            phase = dialogue.phase
            text = reply(task, phase, counts[phase], env)
            counts[phase] += 1
            replies.append(text)
            reading = dialogue.read(text)
            if reading.finish_reason:
                end = reading.finish_reason
                break
            if reading.again:
                continue
            observation, _, terminated, truncated, info = env.step(reading.action)
            assert info["valid"], (task, reading.action, observation)
            steps.append(reading.action)
            views.append(info["aquawar"])
            dialogue.observe(observation, info)
            if terminated or truncated:
                end = info["finish_reason"]
                break
        episodes.append(
            {"index": task, "replies": replies, "ours": requests, "actions": steps, "views": views, "end": end}
        )
        print(f"task {task}: {len(requests)} requests, {len(steps)} env steps, end {end}")
    env.close()
    (WORK / "export.json").write_text(json.dumps(episodes, ensure_ascii=False))


# ---- the logic's messages ------------------------------------------------------------------------------------------
def logic_messages(views: list[dict], actions: list[str]) -> list[dict]:
    """What v0.2's logic sends the agent for this game: ``Pick``, then per round ``Assert`` (at the round's start)
    and ``Action`` (after the guess, or at once when no guess phase was played), and one more ``Assert`` that makes
    the agent ask once more (the stub then stops it)."""
    messages: list[dict] = [{"Action": "Pick", "RemainFishs": [1, 2, 3, 4], "FirstMover": 1}]
    view, steps = views[0], list(zip(actions, views[1:]))

    def assert_message(view: dict) -> dict:
        return {
            "Action": "Assert",
            "EnemyAssert": None,
            "EnemyAction": view["EnemyAction"],
            "MyAction": view["MyAction"],
            "GameInfo": view["GameInfo"],
        }

    while True:
        messages.append(assert_message(view))
        if view["phase"] == "guess":
            if not steps:
                break
            view = steps.pop(0)[1]
            if view["phase"] == "over":
                break
        answer = view["AssertReply"] or {"AssertResult": None}
        messages.append(
            {
                "Action": "Action",
                "AssertReply": {"AssertPos": None, "AssertContent": None, **answer},
                "GameInfo": view["GameInfo"],
            }
        )
        if not steps:
            break
        view = steps.pop(0)[1]
        if view["phase"] == "over":
            break
    messages.append(assert_message(view))
    return messages


# ---- --record: v0.2's agent under Python 3.10 ---------------------------------------------------------------------
DRIVER = r"""
import asyncio, json, os, sys
work, replies_file, record_file = sys.argv[1:4]
sys.stdout = sys.stderr  # the session prints; fd 1 is the SDK's answers to the logic
sys.path[:0] = [os.path.join(work, "AI"), os.path.join(work, "agentbench")]
import client as client_module
from AI_En import Agent
from src.server.task import Session
from src.typings import AgentOutput, ChatHistoryItem

replies = json.load(open(replies_file))
out = open(record_file, "w")


class Recorder:
    async def env_pull(self, history):
        out.write(json.dumps([{"role": {"agent": "assistant"}.get(m.role, m.role), "content": m.content}
                              for m in history]) + "\n")
        out.flush()
        return AgentOutput(content=replies.pop(0))


class Stub(client_module.Client):
    def __init__(self):
        self.answer = None

    def send_message(self, message):
        if message.startswith("#[ERROR]"):
            out.write(json.dumps({"error": message}) + "\n")
            out.flush()
            os._exit(0)
        if not replies:
            os._exit(0)
        session = Session()  # as server.py: the history is the message list, then session.action()
        session.controller = Recorder()
        session.history = [ChatHistoryItem(**item) for item in json.loads(message)]
        self.answer = asyncio.run(session.action()).content

    def receive_messages(self):
        return self.answer


os.chdir(os.path.join(work, "run", "cwd"))
Agent(Stub(), 2, 0, os.path.join(work, "run")).run()
"""


def _show(git_dir: str, path: str) -> bytes:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{COMMIT}:{path}"], capture_output=True, check=True
    ).stdout


def _swap_okay(real: str, fake: str) -> str:
    """v0.2's ``client.py`` with the okay text the protocol reads replaced by the stand-in's."""
    from agentgym_text.agents.protocols.agentbench.card_game import locate_okay
    from agentgym_text.agents.protocols.agentbench.source import TaskSource

    nodes = {}
    for name, text in (("real", real), ("fake", fake)):
        folder = WORK / "swap" / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "client.py").write_text(text)
        nodes[name] = locate_okay(TaskSource(folder, "client.py"))
    node = nodes["real"]
    lines = real.splitlines(keepends=True)
    line = lines[node.lineno - 1]
    lines[node.lineno - 1] = (
        line[: node.col_offset] + ast.get_source_segment(fake, nodes["fake"]) + line[node.end_col_offset :]
    )
    return "".join(lines)


def _sdk_outputs(stdout: bytes) -> list[dict]:
    """The SDK's answers on stdout: each a 4-byte big-endian length and its JSON."""
    answers, at = [], 0
    while at + 4 <= len(stdout):
        (size,) = struct.unpack(">i", stdout[at : at + 4])
        answers.append(json.loads(stdout[at + 4 : at + 4 + size]))
        at += 4 + size
    return answers


def record(git_dir: str, python: str, real: bool = False) -> None:
    """Run v0.2's agent on the exported games; ``real``: on v0.2's own texts, comparing only (nothing written)."""
    sys.path.insert(0, str(ROOT))
    from tests.support.agentbench_checkout import CARD_GAME_CLIENT, CARD_GAME_PROMPTS

    if real:
        CARD_GAME_PROMPTS = _show(git_dir, "src/server/tasks/card_game/AI/prompt/en.py").decode()  # noqa: N806
        CARD_GAME_CLIENT = _show(git_dir, "src/server/tasks/card_game/AI/client.py").decode()  # noqa: N806

    ai = WORK / "AI"
    shutil.rmtree(ai, ignore_errors=True)
    for relative in AGENT_FILES:
        (ai / Path(relative).relative_to("src/server/tasks/card_game/AI")).parent.mkdir(parents=True, exist_ok=True)
        (ai / Path(relative).relative_to("src/server/tasks/card_game/AI")).write_bytes(_show(git_dir, relative))
    (ai / "prompt/en.py").write_text(CARD_GAME_PROMPTS)
    real_client = _show(git_dir, "src/server/tasks/card_game/AI/client.py").decode()
    (ai / "client.py").write_text(_swap_okay(real_client, CARD_GAME_CLIENT))
    (ai / "sdk").mkdir(exist_ok=True)
    (ai / "sdk" / Path(SDK).name).write_bytes(_show(git_dir, SDK))
    for relative in SESSION_FILES:
        (WORK / "agentbench" / relative).parent.mkdir(parents=True, exist_ok=True)
        (WORK / "agentbench" / relative).write_bytes(_show(git_dir, relative))
    for package in ("src", "src/server"):
        (WORK / "agentbench" / package / "__init__.py").touch()
    (WORK / "driver.py").write_text(DRIVER)

    episodes = json.loads((WORK / "export.json").read_text())
    recorded = []
    for episode in episodes:
        run = WORK / "run"
        shutil.rmtree(run, ignore_errors=True)
        (run / "cwd").mkdir(parents=True)
        (WORK / "replies.json").write_text(json.dumps(episode["replies"]))
        stream = "".join(json.dumps(m) for m in logic_messages(episode["views"], episode["actions"]))
        done = subprocess.run(
            [python, str(WORK / "driver.py"), str(WORK), str(WORK / "replies.json"), str(WORK / "record.jsonl")],
            input=stream.encode(),
            capture_output=True,
            timeout=120,
        )
        if done.returncode != 0:
            raise SystemExit(f"v0.2's agent failed on task {episode['index']}: {done.stderr.decode()[-2000:]}")
        lines = [json.loads(line) for line in (WORK / "record.jsonl").read_text().splitlines()]
        error = next((line["error"] for line in lines if isinstance(line, dict)), None)
        requests = [line for line in lines if isinstance(line, list)]
        same = requests == episode["ours"]
        print(f"task {episode['index']}: {len(requests)} requests recorded, ours {'equal' if same else 'DIFFER'}")
        recorded.append(
            {
                "index": episode["index"],
                "replies": episode["replies"],
                "requests": requests,
                "error": error,
                "sdk_outputs": _sdk_outputs(done.stdout),
                "fed": episode["views"],
            }
        )
    if real:
        differing = sum(r["requests"] != e["ours"] for r, e in zip(recorded, episodes))
        sys.exit(1 if differing else 0)
    note = (
        f"THUDM/AgentBench {COMMIT} src/server/tasks/card_game/AI/AI_En.py, client.py, the prebuilt SDK and "
        "src/server/task.py (texts: tests/support/agentbench_checkout.py)"
    )
    OUT.write_text(json.dumps({"source": note, "episodes": recorded}, ensure_ascii=False, indent=1) + "\n")
    print(f"wrote {OUT}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--export", action="store_true")
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--git-dir", default=os.environ.get("AGENTBENCH_GIT_DIR"))
    parser.add_argument("--python", default="python3.10", help="a Python 3.10 with pydantic 1, numpy, PyYAML, requests")
    parser.add_argument("--real", action="store_true", help="v0.2's own texts on both sides; compare, write nothing")
    args = parser.parse_args()
    if (args.real or args.record) and not args.git_dir:
        parser.error("name a git mirror of THUDM/AgentBench with --git-dir or $AGENTBENCH_GIT_DIR")
    if args.export:
        export(args.git_dir if args.real else None)
    if args.record:
        record(args.git_dir, args.python, args.real)


if __name__ == "__main__":
    main()
