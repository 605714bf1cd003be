"""Record the requests AgentBench v0.2's own task servers send (references for the ``agentbench`` protocol's replay
tests, never a runtime dependency): DBBench, OS interaction, knowledge graph and lateral thinking.

Runs AgentBench's ``src/server/task.py`` (``Session``, ``filter_messages``) and ``src/typings`` UNMODIFIED, and each
task's own loop (``DBBench.start_sample``, ``OSInteraction._judge``, ``KnowledgeGraph.start_sample``,
``LateralThinkingPuzzle.start_sample``) with one change only: the texts the protocol reads are the stand-in
checkout's (``tests/support/agentbench_checkout.py``), put in the same places (the protocol's own ``locate`` finds
them in both; for LTP the ``ENPrompter`` class is the stand-in's), so no AgentBench prompt enters this repository.
Stubs stand in for what needs a server, each fed what this suite's env gave for the same reply:

- DB: ``Interaction.Container`` (Docker + MySQL) returns the results the env printed (step info ``sql_result``);
- OS: the container's ``execute`` returns the env's raw command output (``os_output``), ``execute_independent``
  succeeds; ``docker`` is a stub module;
- KG: ``api.py``'s functions return ``"Observation: "`` + the env's observation (``##`` in place of the variable's
  number, as ``api.py`` writes it) or raise when the env refused the call; ``SparqlExecuter`` is a stub;
- LTP: the host model (``eval_agent``) answers the hosting dialogue with the env's host reply (``host_reply``) and
  "No" to the bookkeeping prompts; ``pandas``, ``src.configs`` and ``src.client.agent`` are stubs (nltk is real).

The session's controller is a scripted agent: it records every message list it is sent (roles mapped as
AgentBench's HTTP agent maps them) and answers with the scripted replies.

Usage (two stages; the second runs in a venv with pydantic 1, numpy, PyYAML, requests and nltk)::

    PYTHONPATH=. .venv/bin/python tests/reference/record_agentbench_protocol.py --export \
        --git-dir /work/.mirror/THUDM+AgentBench/repo
    /tmp/agentbench-venv/bin/python tests/reference/record_agentbench_protocol.py --record \
        --git-dir /work/.mirror/THUDM+AgentBench/repo

``--export`` plays each id under our protocol with the scripted replies below on the items of
``tests/support/{db,os,kg}_agentbench_items.py`` and the puzzles below, keeps what the env gave and writes v0.2's
task modules with the stand-in texts; ``--record`` runs them and writes ``tests/reference/agentbench_<task>.json``,
which ``tests/test_agentbench_protocol_<task>.py`` replay.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import json
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WORK = Path("/tmp/agentbench-protocol-work")
COMMIT = "41e6807"
"""AgentBench v0.2."""
UNMODIFIED = (
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
MODULES = {
    "dbbench": "src/server/tasks/dbbench/__init__.py",
    "os_interaction": "src/server/tasks/os_interaction/task.py",
    "knowledgegraph": "src/server/tasks/knowledgegraph/task.py",
    "ltp": "src/server/tasks/ltp/task.py",
}
ENV_IDS = {
    "dbbench": "AgentBench/DB-v0",
    "os_interaction": "AgentBench/OS-v0",
    "knowledgegraph": "AgentBench/KG-v0",
    "ltp": "AgentBench/LateralThinking-v0",
}


def out_path(task: str) -> Path:
    return HERE / f"agentbench_{task}.json"


def _op(sql: str, thought: str = "Let me look.") -> str:
    return f"{thought}\nAction: Operation\n```sql\n{sql}\n```"


DB_SCRIPTS: dict[int, list[str]] = {
    # item 0 (a question): eight statements (a two-line one, a failing one, two blocks, a long result), then an answer
    0: [
        _op("SELECT * FROM `Cities`"),
        _op("SELECT `City`\nFROM `Cities`", "Two lines of SQL."),
        _op("SELECT nope FROM `Cities`", "A wrong column."),
        "Action: Operation\n```sql\nSELECT COUNT(*) FROM `Cities`;\n```\n```sql\nSELECT 1;\n```",
        _op("SELECT `Population` FROM `Cities` ORDER BY `City`"),
        "I think.\nAction: Operation\n```sql\nSELECT MAX(`Population`) FROM `Cities`\n```\nmore words",
        _op("SELECT * FROM `Cities` AS a, `Cities` AS b, `Cities` AS c", "A long result."),
        _op("SELECT `City` FROM `Cities` WHERE `Country` = 'France'"),
        'Done.\nAction: Answer\nFinal Answer: ["3"]',
    ],
    # item 1 (an INSERT): eight statements, then an Operation without a sql block ends it (AGENT_VALIDATION_FAILED)
    1: [
        _op("SELECT * FROM `Cities`"),
        _op("INSERT INTO `Cities` VALUES ('Nice', 'France', '342669')"),
        *[_op(f"SELECT `City` FROM `Cities` LIMIT {i}") for i in range(6)],
        "Action: Operation\nSELECT 1;",
    ],
    # item 2 (an UPDATE): seven statements, then an answer line without 'Action:' (read as an answer)
    2: [
        _op("SELECT * FROM `Cities`"),
        _op("UPDATE `Cities` SET `Population` = '1' WHERE `City` = 'Montréal'"),
        *[_op(f"SELECT {i}") for i in range(5)],
        "All set.\nFinal Answer: done",
    ],
    # item 6: sixteen statements with long results: fifteen run, the history is cut (filter_messages), and the
    # sixteenth reply, still an Operation, ends it at the limit (TASK_LIMIT_REACHED)
    6: [_op(f"SELECT * FROM `Cities` AS a, `Cities` AS b, `Cities` AS c LIMIT {20 + i}") for i in range(16)],
}


def _bash(command: str, thought: str = "Let me look.") -> str:
    return f"Think: {thought}\n\nAct: bash\n\n```bash\n{command}\n```"


OS_SCRIPTS: dict[int, list[str]] = {
    # item 0 (answer match): outputs short, long, empty, two blocks, a reversed Act list, then an answer
    0: [
        _bash("cat /srv/notes.txt"),
        _bash("seq 1 400", "A long output."),
        _bash("true", "No output."),
        "Think: two blocks.\n\nAct: bash\n\n```bash\necho one\n```\n\n```bash\necho two\n```",
        "Think: the answer has no brackets, so the bash before it counts.\n\nAct: bash\n\n```bash\nwc -l "
        "/srv/notes.txt\n```\nAct: answer 3",
        _bash("ls /srv"),
        "Think: lower case.\n\nact: bash\nAct: bash\n\n```bash\nhead -n 1 /srv/notes.txt\n```",
        "Think: it is 3.\n\nAct: answer(3)",
    ],
    # item 1 (a checker): eight commands (one 'Act: bash' without a block), no commit: the round limit
    1: [
        *(_bash(command) for command in ("ls /var/log/app", "ls -R /var/log/app", "find /var/log/app -name '*.log' | sort")),
        _bash("find /var/log/app -name '*.log' | wc -l"),
        "Think: no block.\n\nAct: bash\npwd",
        *(_bash(command) for command in ("echo $HOME", "ls /var/log/app/old", "seq 1 300 | tr '\\n' ' '")),
    ],
    # item 4 (an operation): seven commands, then finish
    4: [
        *[
            _bash(command)
            for command in (
                "ls /srv",
                "cat /srv/run.sh",
                "stat -c %a /srv/run.sh",
                "id -u",
                "chmod u+x /srv/run.sh",
                "stat -c %A /srv/run.sh",
                "test -x /srv/run.sh && echo ok",
            )
        ],
        "Think: done.\n\nAct: finish",
    ],
    # item 6: a reply with no action ends it (AGENT_INVALID_ACTION)
    6: [_bash("ps -eo comm | grep -c sleep"), "I think there are three."],
}


def _kg(line: str, thought: str = "Next.") -> str:
    return f"Thought: {thought}\nAction: {line}"


KG_SCRIPTS: dict[int, list[str]] = {
    # item 0: calls by name and by variable, a failing call, an intersection, an observation the model wrote itself
    0: [
        _kg("get_relations(Ana Lind)"),
        _kg("get_neighbors(Ana Lind, film.director.film)") + "\nObservation: variable #0, which I made up",
        _kg("get_relations(drama)"),
        _kg("get_neighbors(drama, film.film\\_genre.films\\_in\\_this\\_genre)", "Escaped underscores."),
        _kg("get_neighbors(#0, no.such.relation)", "A relation it does not have."),
        _kg("intersection(#0, #1)"),
        "I will answer soon.",
        _kg("get_relations(#2)"),
        "Thought: done.\nFinal Answer: #2",
    ],
    # item 1: a bad answer id, a syntax error, an unknown function, a count, then the answer
    1: [
        "Final Answer: #4",
        _kg("get_relations(Ana Lind"),
        _kg("lookup(Ana Lind)"),
        _kg("get_relations(Ana Lind)"),
        _kg("lookup(Ana Lind)", "An unknown name after a call."),
        _kg("get_neighbors(Ana Lind, film.director.film)"),
        _kg("count(#0)"),
        "Action:",
        "Find Answer: #1",
    ],
    # item 2: fifteen rounds without an answer (TASK_LIMIT_REACHED), attributes and argmax on the way
    2: [
        _kg("get_relations(Ana Lind)"),
        _kg("get_neighbors(Ana Lind, film.director.film)"),
        _kg("get_attributes(#0)"),
        _kg("argmax(#0, film.film.initial_release_date)"),
        _kg("intersection(#0, #9)", "A variable that does not exist."),
        *[_kg(f"get_relations(#{i % 2})") for i in range(10)],
    ],
}

LTP_PUZZLES = [
    [
        "A woman turns off the light and a man dies far away.",
        "She was a lighthouse keeper; a ship hit the rocks.",
        "1. A woman turns off a light.\n2. A man dies far away.",
        "1. She kept a lighthouse.\n2. A ship crashed.\n3. The man was on the ship.",
    ],
    [
        "A man pushes his car to a hotel and loses his fortune.",
        "He was playing Monopoly.",
        "1. A man pushes his car.\n2. He loses his fortune at a hotel.",
        "1. It is a board game.\n2. The car is a token.",
    ],
    [
        "Two men drink the same poisoned tea; one lives.",
        "The poison was in the ice; one drank fast.",
        "1. Two men drink tea.\n2. One of them dies.",
        "1. The poison was in the ice.\n2. The fast drinker lived.",
    ],
]
LTP_SCRIPTS: dict[int, list[str]] = {
    0: [
        "Was the light a lighthouse?",
        "Was the man on a ship?\nMore lines are ignored by the host.",
        "A woman turns off a light.",
        "Can we play a new game?",
        "  Did the ship hit rocks?  ",
        "Was it night?",
        "Was the woman asleep?",
        "Did the man drown?",
    ],
    1: [
        "Is it a game?",
        "Is the car real?",
        "Was there a bank?",
        "Let us try another new round.",
        "Is the hotel on a board?",
        "Great job, can I have a further question?",
        "Did he roll dice?",
        "Was he bankrupt?",
        "Did he lose money?",
    ],
    2: [
        "Was the tea hot?",
        "Was the poison in the ice?",
        "Was there sugar?",
        "Did one drink fast?",
        "Two men drink tea.",
        "new story please",
        "Was it summer?",
        "other game?",
        "new question",
    ],
}
"""Replies per puzzle: a key-point question, story repeats (the BLEU filter), abort phrases (2 points each; 5 end the
game), multi-line replies; puzzle 2 ends on abort points."""


def host_policy(messages: list[dict[str, str]]) -> str:
    """The scripted host behind the env: an answer from the move's length (with blanks the host's strip removes);
    "no" to every key-point comparison, so no puzzle is solved (AgentBench plays all rounds; the env would stop)."""
    prompt = str(messages[-1]["content"])
    if prompt.startswith(("Restate", "Simplify")):
        return prompt.split("\n", 1)[1]
    if prompt.startswith("Does Sentence 2"):
        return "no"
    move = prompt.split("\n", 1)[0]
    return ("  Yes.  ", "No.", "Irrelevant.\n")[len(move) % 3]


# ---- --export (our venv) -----------------------------------------------------------------------------------------
def _show(git_dir: str, path: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{COMMIT}:{path}"], capture_output=True, text=True, check=True
    ).stdout


def swap_texts(task: str, real: str, fake: str) -> str:
    """v0.2's module ``real`` with the texts the protocol reads replaced by the stand-in's ``fake`` ones (each node
    ``locate`` finds in ``real`` gets the source of the node it finds in ``fake``)."""
    import importlib

    from agentgym_text.agents.protocols.agentbench.source import TaskSource

    locate = importlib.import_module(f"agentgym_text.agents.protocols.agentbench.{task}").locate
    nodes = {}
    for name, text in (("real", real), ("fake", fake)):
        folder = WORK / "swap" / name
        (folder / MODULES[task]).parent.mkdir(parents=True, exist_ok=True)
        (folder / MODULES[task]).write_text(text)
        nodes[name] = locate(TaskSource(folder, MODULES[task]))

    def offset(text: str, line: int, column: int) -> int:
        starts = [0]
        for row in text.splitlines(keepends=True):
            starts.append(starts[-1] + len(row))
        return starts[line - 1] + len(text.splitlines(keepends=True)[line - 1].encode()[:column].decode())

    spans = []
    for key, node in nodes["real"].items():
        replacement = ast.get_source_segment(fake, nodes["fake"][key])
        assert replacement is not None
        spans.append(
            (
                offset(real, node.lineno, node.col_offset),
                offset(real, node.end_lineno, node.end_col_offset),
                replacement,
            )
        )
    for start, end, text in sorted(spans, reverse=True):
        real = real[:start] + text + real[end:]
    return real


def export(git_dir: str) -> None:
    sys.path.insert(0, str(ROOT))
    import gymnasium as gym

    import agentgym_text  # noqa: F401  (registers the ids)
    from agentgym_text.agents.protocols.agentbench import AgentBenchProtocol
    from agentgym_text.testing.chat_server import ScriptedChatServer
    from tests.support import db_agentbench_items, kg_agentbench_items, os_agentbench_items
    from tests.support.agentbench_checkout import write_checkout
    from tests.support.agentbench_replay import play

    import shutil

    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    checkout = write_checkout(WORK / "checkout")
    protocol = AgentBenchProtocol(checkout)
    for task, relative in MODULES.items():
        swapped = swap_texts(task, _show(git_dir, relative), (checkout / relative).read_text())
        (WORK / f"{task}_module.py").write_text(swapped)

    def run(task: str, env: Any, scripts: dict[int, list[str]], item: Any) -> None:
        episodes = []
        for index, replies in scripts.items():
            played = play(protocol, ENV_IDS[task], env, index, replies)
            episodes.append(
                {
                    "index": index,
                    "item": item(index),
                    "replies": replies[: len(played["requests"])],
                    "infos": played["infos"],
                    "observations": played["observations"],
                }
            )
        (WORK / f"{task}_export.json").write_text(json.dumps(episodes, ensure_ascii=False, indent=1))
        print(f"{task}: exported {len(episodes)} episodes")

    items = db_agentbench_items.write_items(WORK)
    env = gym.make("AgentBench/DB-v0", task_file=str(items)).unwrapped
    run("dbbench", env, DB_SCRIPTS, lambda i: db_agentbench_items.ITEMS[i])
    env.close()

    root = os_agentbench_items.write_items(WORK / "os")
    env = gym.make(
        "AgentBench/OS-v0",
        task_file=str(root / "data/1/sample.json"),
        script_dir=str(root / "scripts/1"),
        sandbox="bwrap",
        prewarm=False,
    ).unwrapped
    run("os_interaction", env, OS_SCRIPTS, lambda i: os_agentbench_items.GROUP_1[i])
    env.close()

    folder = WORK / "kg"
    folder.mkdir()
    with kg_agentbench_items.sparql_endpoint() as url:
        env = gym.make(
            "AgentBench/KG-v0",
            task_file=str(kg_agentbench_items.write_items(folder)),
            sparql_url=url,
            ontology_dir=str(kg_agentbench_items.write_ontology(folder)),
        ).unwrapped
        run("knowledgegraph", env, KG_SCRIPTS, lambda i: kg_agentbench_items.ITEMS[i])
        env.close()

    workbook = write_workbook(WORK / "standard.xlsx")
    with ScriptedChatServer(host_policy) as server:
        env = gym.make(
            "AgentBench/LateralThinking-v0",
            task_file=str(workbook),
            host_model="scripted",
            host_base_url=server.base_url,
        ).unwrapped
        run("ltp", env, LTP_SCRIPTS, lambda i: LTP_PUZZLES[i])
        env.close()


def write_workbook(path: Path) -> Path:
    """The puzzles in AgentBench's workbook layout (story, answer, story keys, answer keys)."""
    import openpyxl

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["story", "answer", "Story keys", "Answer keys"])
    for row in LTP_PUZZLES:
        sheet.append(row)
    workbook.save(path)
    return path


# ---- --record (the reference venv) -------------------------------------------------------------------------------
STUBS = {
    "src/server/tasks/dbbench/Interaction.py": """
RESULTS = []


class Container:
    def execute(self, sql, database=None, data=()):
        if database is None or sql.startswith(("drop database", "select md5(")):
            return None
        return RESULTS.pop(0)

    def delete(self):
        pass
""",
    "src/server/tasks/knowledgegraph/api.py": """
import json
import re

CURRENT = {}


def _step(*arguments):
    if not CURRENT.get("valid"):
        raise ValueError("refused here as the env refused it")
    text = "Observation: " + CURRENT["observation"]
    made = re.match(r"Observation: variable #(\\d+), ", text)
    if made:
        return "variable", text.replace("#" + made.group(1), "##", 1)
    return None, text


def get_relations(*arguments):
    return _step(*arguments)


get_neighbors = intersection = union = count = get_attributes = argmax = argmin = get_relations


def final_execute(variable, sparql_executor):
    return []
""",
    "src/server/tasks/knowledgegraph/utils/__init__.py": "",
    "src/server/tasks/knowledgegraph/utils/sparql_executer.py": """
class SparqlExecuter:
    def __init__(self, url=None):
        self.url = url
""",
    "src/configs.py": """
class ConfigLoader:
    def load_from(self, path):
        return {}
""",
    "src/client/__init__.py": "",
    "src/client/agent.py": """
class AgentClient:
    pass
""",
}


def _fake_modules() -> None:
    docker = types.ModuleType("docker")
    docker.models = types.ModuleType("docker.models")
    docker.models.containers = types.ModuleType("docker.models.containers")
    docker.models.containers.Container = object
    sys.modules.update(
        {
            "docker": docker,
            "docker.models": docker.models,
            "docker.models.containers": docker.models.containers,
            "pandas": types.ModuleType("pandas"),
        }
    )


class ScriptedAgent:
    """The session's controller: records each message list and answers with the next reply."""

    def __init__(self, replies: list[str], on_reply=None):
        self.replies = list(replies)
        self.sent: list[list[dict[str, str]]] = []
        self.on_reply = on_reply

    async def env_pull(self, history):
        from src.typings import AgentOutput

        self.sent.append([{"role": {"agent": "assistant"}.get(m.role, m.role), "content": m.content} for m in history])
        if self.on_reply is not None:
            self.on_reply(len(self.sent) - 1)
        return AgentOutput(content=self.replies.pop(0))


def _session(agent: ScriptedAgent):
    from src.server.task import Session

    session = Session()
    session.controller = agent
    return session


def record_dbbench(episodes: list[dict]) -> list[dict]:
    from src.server.tasks import dbbench
    from src.server.tasks.dbbench import Interaction

    data = WORK / "items.jsonl"
    data.write_text("".join(json.dumps(e["item"], ensure_ascii=False) + "\n" for e in episodes))
    task = dbbench.DBBench(name="dbbench-std", data_file=str(data), max_round=15)
    recorded = []
    for position, episode in enumerate(episodes):
        Interaction.RESULTS[:] = [info["sql_result"] for info in episode["infos"] if "sql_result" in info]
        agent = ScriptedAgent(episode["replies"])
        output = asyncio.run(task.start_sample(position, _session(agent)))
        recorded.append(
            {
                "index": episode["index"],
                "replies": episode["replies"],
                "requests": agent.sent,
                "status": output.status.value,
                "answer": output.result["answer"],
                "fed": [info.get("sql_result") for info in episode["infos"]],
            }
        )
        assert not Interaction.RESULTS, "every result the env printed was asked for"
    return recorded


def record_os_interaction(episodes: list[dict]) -> list[dict]:
    from src.server.tasks.os_interaction import task as os_task

    recorded = []
    for episode in episodes:
        outputs = [info["os_output"] for info in episode["infos"] if "os_output" in info]

        class Container:
            def execute(self, command):
                return types.SimpleNamespace(output=outputs.pop(0).encode("utf-8"), exit_code=0)

            def execute_independent(self, command, *params):
                return types.SimpleNamespace(output=b"", exit_code=0)

        config = os_task.JudgeConfig()
        config.description = episode["item"]["description"]
        config.match = {"answer": "3", "strip": True}
        task = os_task.OSInteraction.__new__(os_task.OSInteraction)
        task.round_limit = 8
        agent = ScriptedAgent(episode["replies"])
        output = asyncio.run(task._judge(_session(agent), config, Container()))
        assert not outputs, "every output the env printed was asked for"
        recorded.append(
            {
                "index": episode["index"],
                "replies": episode["replies"],
                "requests": agent.sent,
                "status": output.status.value,
                "fed": [info.get("os_output") for info in episode["infos"]],
            }
        )
    return recorded


def record_knowledgegraph(episodes: list[dict]) -> list[dict]:
    from src.server.tasks.knowledgegraph import api
    from src.server.tasks.knowledgegraph import task as kg_task

    data = WORK / "kg_items.json"
    data.write_text(json.dumps([e["item"] for e in episodes], ensure_ascii=False))
    task = kg_task.KnowledgeGraph(data_file=str(data), sparql_url=None, round=15, name="kg-std")
    recorded = []
    for position, episode in enumerate(episodes):
        infos, observations = episode["infos"], episode["observations"]

        def feed(reply: int) -> None:
            api.CURRENT.clear()
            if reply < len(infos):
                api.CURRENT.update(valid=infos[reply]["valid"], observation=observations[reply])

        agent = ScriptedAgent(episode["replies"], feed)
        output = asyncio.run(task.start_sample(position, _session(agent)))
        recorded.append(
            {
                "index": episode["index"],
                "replies": episode["replies"],
                "requests": agent.sent,
                "status": output.status.value,
                "actions": output.result["actions"] if output.result else None,
                "fed": [[info["valid"], text] for info, text in zip(infos, observations)],
            }
        )
    return recorded


def record_ltp(episodes: list[dict]) -> list[dict]:
    from src.server.tasks.ltp import task as ltp_task

    recorded = []
    for episode in episodes:
        infos = episode["infos"]
        current: dict[str, Any] = {}

        class Host:
            def inference(self, history):
                if len(history) > 1:
                    return current["host_reply"]
                return "No."

        def feed(reply: int) -> None:
            current.clear()
            if reply < len(infos):
                current.update(infos[reply])

        task = ltp_task.LateralThinkingPuzzle.__new__(ltp_task.LateralThinkingPuzzle)
        task.rounds = 25
        task.inputs = [tuple(episode["item"])]
        task.eval_agent = Host()
        agent = ScriptedAgent(episode["replies"] + [""], feed)  # an empty reply ends a game that is still going
        output = asyncio.run(task.start_sample(0, _session(agent)))
        recorded.append(
            {
                "index": episode["index"],
                "replies": episode["replies"],
                "requests": agent.sent[: len(episode["replies"])],
                "status": output.status.value,
                "fed": [i.get("host_reply") for i in infos],
            }
        )
    return recorded


def record_filter() -> list[dict]:
    """``Session._calc_segments`` and ``Session.filter_messages`` on the seeded histories of
    ``tests/support/agentbench_histories.py``: each message's segments, how many turns were sent, and what was added
    to the first."""
    import importlib.util

    from src.server.task import Session
    from src.typings import ChatHistoryItem

    spec = importlib.util.spec_from_file_location("histories", ROOT / "tests/support/agentbench_histories.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cases = []
    for history in module.histories():
        sent = Session().filter_messages([ChatHistoryItem(**m) for m in history])
        assert [m.content for m in sent[1:]] == [m["content"] for m in history[len(history) - len(sent) + 1 :]]
        cases.append(
            {
                "segments": [Session._calc_segments(m["content"]) for m in history],
                "sent": len(sent),
                "first_added": sent[0].content[len(history[0]["content"]) :],
                "roles": [m.role for m in sent],
            }
        )
    return cases


def record(git_dir: str) -> None:
    src = WORK / "agentbench"
    for path in UNMODIFIED:
        (src / path).parent.mkdir(parents=True, exist_ok=True)
        (src / path).write_text(_show(git_dir, path))
    for task, relative in MODULES.items():
        (src / relative).parent.mkdir(parents=True, exist_ok=True)
        (src / relative).write_text((WORK / f"{task}_module.py").read_text())
        init = (src / relative).parent / "__init__.py"
        if not init.exists():
            init.write_text(_show(git_dir, str(Path(relative).parent / "__init__.py")))
    for path, text in STUBS.items():
        (src / path).parent.mkdir(parents=True, exist_ok=True)
        (src / path).write_text(text)
    for package in ("src", "src/server", "src/server/tasks"):
        (src / package / "__init__.py").touch()
    _fake_modules()
    sys.path.insert(0, str(src))
    recorders = {
        "dbbench": record_dbbench,
        "os_interaction": record_os_interaction,
        "knowledgegraph": record_knowledgegraph,
        "ltp": record_ltp,
    }
    for task, recorder in recorders.items():
        episodes = json.loads((WORK / f"{task}_export.json").read_text())
        recorded = recorder(episodes)
        note = f"THUDM/AgentBench {COMMIT} {MODULES[task]} (texts: tests/support/agentbench_checkout.py)"
        out_path(task).write_text(
            json.dumps({"source": note, "episodes": recorded}, ensure_ascii=False, indent=1) + "\n"
        )
        print(f"wrote {out_path(task)}")
    note = f"THUDM/AgentBench {COMMIT} src/server/task.py Session.filter_messages and _calc_segments"
    out_path("filter_messages").write_text(
        json.dumps({"source": note, "cases": record_filter()}, ensure_ascii=False) + "\n"
    )
    print(f"wrote {out_path('filter_messages')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--export", action="store_true")
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--git-dir", default="/work/.mirror/THUDM+AgentBench/repo")
    args = parser.parse_args()
    if args.export:
        export(args.git_dir)
    if args.record:
        record(args.git_dir)


if __name__ == "__main__":
    main()
