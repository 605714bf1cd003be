"""Record the requests AgentBench v0.2's own task servers send (a reference for the ``agentbench`` protocol's replay
tests, never a runtime dependency).

Runs AgentBench's ``src/server/task.py`` (``Session``, ``filter_messages``) and ``src/typings`` UNMODIFIED, and its
task module (``DBBench.start_sample``) with one change only: the texts the protocol reads are those of the stand-in
checkout (``tests/support/agentbench_checkout.py``), put in the same places (the same ``ast`` reader finds them in
both), so no AgentBench prompt enters this repository. Stubs stand in for what needs a server: DBBench's
``Interaction.Container`` (Docker + MySQL) returns, in turn, the results this suite's env printed for the same
statements (``sql_result``), and the session's controller is a scripted agent that records every message list it is
sent (roles mapped as AgentBench's HTTP agent maps them) and answers with the scripted replies.

Usage (two stages; the second runs in a venv with pydantic 1, AgentBench's typings need it)::

    PYTHONPATH=. .venv/bin/python tests/reference/record_agentbench_protocol.py --export \
        --git-dir /work/.mirror/THUDM+AgentBench/repo
    /tmp/agentbench-venv/bin/python tests/reference/record_agentbench_protocol.py --record \
        --git-dir /work/.mirror/THUDM+AgentBench/repo

``--export`` plays ``AgentBench/DB-v0`` on the items of ``tests/support/db_agentbench_items.py`` under our protocol
with the scripted replies below and keeps what the env printed; ``--record`` runs AgentBench's loop on the same items
and writes ``tests/reference/agentbench_dbbench.json``, which ``tests/test_agentbench_protocol_db.py`` replays.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WORK = Path("/tmp/agentbench-protocol-work")
COMMIT = "41e6807"
"""AgentBench v0.2."""
OUT = HERE / "agentbench_dbbench.json"
DB_MODULE = "src/server/tasks/dbbench/__init__.py"
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


# ---- --export (our venv) -----------------------------------------------------------------------------------------
def export(git_dir: str) -> None:
    sys.path.insert(0, str(ROOT))
    import gymnasium as gym

    import agentgym_text  # noqa: F401  (registers the ids)
    from agentgym_text.agents.protocols.agentbench import AgentBenchProtocol
    from tests.support.agentbench_checkout import write_checkout
    from tests.support.agentbench_replay import play
    from tests.support.db_agentbench_items import ITEMS, write_items

    WORK.mkdir(parents=True, exist_ok=True)
    checkout = write_checkout(WORK / "checkout")
    items = write_items(WORK)
    protocol = AgentBenchProtocol(checkout)
    env = gym.make("AgentBench/DB-v0", task_file=str(items)).unwrapped
    episodes = []
    for index, replies in DB_SCRIPTS.items():
        played = play(protocol, "AgentBench/DB-v0", env, index, replies)
        results = [info["sql_result"] for info in played["infos"] if "sql_result" in info]
        episodes.append({"index": index, "item": ITEMS[index], "replies": replies, "results": results})
    (WORK / "export.json").write_text(json.dumps(episodes, ensure_ascii=False, indent=1))
    (WORK / "dbbench_module.py").write_text(_swap_texts(_show(git_dir, DB_MODULE), (checkout / DB_MODULE).read_text()))
    print(f"exported {len(episodes)} episodes to {WORK / 'export.json'}")


# ---- --record (the reference venv) -------------------------------------------------------------------------------
def _swap_texts(real: str, fake: str) -> str:
    """``real`` with its ``big_prompt`` and its agent ack replaced by ``fake``'s (found by the protocol's reader)."""
    sys.path.insert(0, str(ROOT))
    from agentgym_text.agents.protocols.agentbench.source import TaskSource

    (WORK / "real").mkdir(parents=True, exist_ok=True)
    spans = []
    sources = {}
    for name, text in (("real", real), ("fake", fake)):
        path = WORK / name / DB_MODULE
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        source = TaskSource(WORK / name, DB_MODULE)
        ack = next(c for role, c in source.injected(source.method("DBBench", "start_sample")) if role == "agent")
        sources[name] = [source.constant("big_prompt"), ack]
    lines = real.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    for located, replacement in zip(sources["real"], sources["fake"]):
        node = located.node
        start = offsets[node.lineno - 1] + node.col_offset
        end = offsets[node.end_lineno - 1] + node.end_col_offset
        spans.append((start, end, repr(replacement.value)))
    for start, end, text in sorted(spans, reverse=True):
        real = real[:start] + text + real[end:]
    return real


STUB_INTERACTION = '''"""Stand-in for DBBench's Container (Docker + MySQL): the results this suite's env printed, in turn."""
RESULTS = []
EXECUTED = []


class Container:
    def execute(self, sql, database=None, data=()):
        EXECUTED.append(sql)
        if database is None or sql.startswith(("drop database", "select md5(")):
            return None
        return RESULTS.pop(0)

    def delete(self):
        pass
'''


def _show(git_dir: str, path: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{COMMIT}:{path}"], capture_output=True, text=True, check=True
    ).stdout


def record(git_dir: str) -> None:
    src = WORK / "agentbench"
    for path in UNMODIFIED:
        (src / path).parent.mkdir(parents=True, exist_ok=True)
        (src / path).write_text(_show(git_dir, path))
    (src / DB_MODULE).parent.mkdir(parents=True, exist_ok=True)
    for package in ("src", "src/server", "src/server/tasks"):
        (src / package / "__init__.py").touch()
    (src / DB_MODULE).write_text((WORK / "dbbench_module.py").read_text())
    (src / "src/server/tasks/dbbench/Interaction.py").write_text(STUB_INTERACTION)
    sys.path.insert(0, str(src))
    from src.server.task import Session
    from src.server.tasks import dbbench
    from src.server.tasks.dbbench import Interaction
    from src.typings import AgentOutput

    episodes = json.loads((WORK / "export.json").read_text())
    data = WORK / "items.jsonl"
    data.write_text("".join(json.dumps(e["item"], ensure_ascii=False) + "\n" for e in episodes))
    task = dbbench.DBBench(name="dbbench-std", data_file=str(data), max_round=15)
    recorded = []
    for position, episode in enumerate(episodes):
        Interaction.RESULTS[:] = list(episode["results"])
        replies = list(episode["replies"])
        sent: list[list[dict[str, str]]] = []

        class Agent(types.SimpleNamespace):
            async def env_pull(self, history):
                sent.append([{"role": {"agent": "assistant"}.get(m.role, m.role), "content": m.content}
                             for m in history])
                return AgentOutput(content=replies.pop(0))

        session = Session()
        session.controller = Agent()
        output = asyncio.run(task.start_sample(position, session))
        recorded.append({**episode, "requests": sent, "status": str(output.status.value),
                         "answer": output.result["answer"], "left_over_results": list(Interaction.RESULTS)})
    OUT.write_text(json.dumps({"source": f"THUDM/AgentBench {COMMIT} src/server/tasks/dbbench (texts: the stand-in "
                                         "checkout)", "episodes": recorded}, ensure_ascii=False, indent=1) + "\n")
    print(f"wrote {OUT}")


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
