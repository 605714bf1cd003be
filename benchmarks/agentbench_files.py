"""AgentBench's own task files on our AgentBench ids: per family and file, the items loaded and the golds that
succeed, per category.

OS: the test split (configs/tasks/os.yaml's os-std entries, 144 items) and dev (26): per group, the items whose
example, played by the expert (run it, then answer its output or finish), passes the item's own checkers, on the
Debian root filesystem (``--os-sandbox rootfs``, the default) or today's bwrap sandbox; the failing ids with why.

``--agentbench`` is a checkout of THUDM/AgentBench (v0.2, commit 41e6807, is the paper's release). DB: each item's
gold (the label for a question, the gold statement then the table hash for a modification) is played by the
expert on SQLite, and with ``--db-url mysql://...`` on that MySQL/MariaDB server too. LTP: the puzzles that load
and their key points (a host model plays them; there is no gold to replay without one). KG: the items that load,
per source, and their gold actions read as AgentBench v0.2 reads an action line and replayed through its tools
without an endpoint (entity check, fb_roles ranges, intersection types; programs translated to SPARQL), as v0.2
and with the g. fix; and the golds whose relation or attribute vocab.json does not list (v0.2's filter hides it, so
they fail on any endpoint). With ``--sparql-url`` (a Freebase endpoint) the expert plays every gold there too.

Run: .venv/bin/python benchmarks/agentbench_files.py --agentbench PATH [--db-url mysql://root@localhost/?unix_socket=S]
     [--sparql-url http://localhost:3001/sparql] [--os-sandbox rootfs|bwrap] [--only os]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from agentgym_text.envs.db.env import DbEnv
from agentgym_text.envs.kg.agentbench_actions import read_reply
from agentgym_text.envs.kg.agentbench_file import load_task_file as load_kg_file
from agentgym_text.envs.kg.agentbench_play import replay_gold
from agentgym_text.envs.kg.env import KgEnv
from agentgym_text.envs.kg.lisp import parse
from agentgym_text.envs.kg.ontology import load_ontology
from agentgym_text.envs.kg.sparql import to_sparql
from agentgym_text.envs.lateral.agentbench_file import load_xlsx
from agentgym_text.envs.os.env import OsEnv
from agentgym_text.envs.os.sandbox import SandboxError

__all__ = ["db_golds", "ltp_counts", "KgGolds", "kg_golds", "kg_played", "os_entries", "os_examples"]


def db_golds(path: Path, db_url: str | None = None) -> tuple[Counter, Counter, list[str]]:
    """(golds that succeed per category, items per category, the task ids that fail)."""
    env = DbEnv(task_file=str(path), db_url=db_url)
    right: Counter = Counter()
    total: Counter = Counter()
    failed = []
    try:
        for task in env.tasks:
            env.reset(options={"task_id": task.task_id})
            info: dict = {}
            for _ in range(10):
                if env.episode_over:
                    break
                _, _, _, _, info = env.step(env.expert_action())
            category = task.params["qtype"]
            total[category] += 1
            right[category] += bool(info.get("success"))
            if not info.get("success"):
                failed.append(task.task_id)
    finally:
        env.close()
    return right, total, failed


def _print_db(name: str, path: Path, db_url: str | None) -> None:
    right, total, failed = db_golds(path, db_url)
    engine = "SQLite" if db_url is None else "MySQL"
    parts = ", ".join(f"{category} {right[category]}/{total[category]}" for category in total)
    print(
        f"DB   {name:16} {engine:7} loaded {sum(total.values()):4}  golds {sum(right.values())}/{sum(total.values())}"
        f"  ({parts})" + (f"  failing: {', '.join(failed)}" if failed else "")
    )


def ltp_counts(path: Path) -> tuple[int, int, int]:
    """(puzzles loaded, key points, hints: key-cell lines, blank ones included)."""
    puzzles = load_xlsx(path)
    return len(puzzles), sum(len(p.key_points) for p in puzzles), sum(p.progress_total for p in puzzles)


def _kg_reason(error: str) -> str:
    if "'g." in error:
        return "g. id"
    if "is none of them" in error:
        return "class as entity"
    if "same type" in error:
        return "intersection types differ"
    return "other"


@dataclass
class KgGolds:
    """Per source: items, golds that replay as v0.2 and with the g. fix; failing item indices per reason."""

    items: Counter = field(default_factory=Counter)
    read: Counter = field(default_factory=Counter)
    replayed: Counter = field(default_factory=Counter)
    fixed: Counter = field(default_factory=Counter)
    refused: dict[str, list[int]] = field(default_factory=dict)
    hidden_by_vocab: list[int] = field(default_factory=list)


def _vocab_lists(actions: list[str], relations: frozenset[str], attributes: frozenset[str]) -> bool:
    for action in actions:
        tool, _, rest = action.partition("(")
        argument = rest.rstrip(")").rpartition(",")[2].strip()
        if tool == "get_neighbors" and argument not in relations:
            return False
        if tool in ("argmax", "argmin") and argument not in attributes:
            return False
    return True


def kg_golds(path: Path, ontology_dir: Path) -> KgGolds:
    """The gold actions of an AgentBench KG file replayed through v0.2's tools without an endpoint."""
    ontology = load_ontology(str(ontology_dir))
    result = KgGolds()
    for index, task in enumerate(load_kg_file(path, 15)):
        params = task.params
        source = params["source"]
        result.items[source] += 1
        replies = [read_reply("Action: " + action) for action in params["actions"]]
        result.read[source] += all(r.calls and r.calls[0].args is not None for r in replies)
        for counter, fix in ((result.replayed, False), (result.fixed, True)):
            replay = replay_gold(params["actions"], ontology, params["entities"], fix)
            if replay.error is None:
                to_sparql(parse(replay.programs[-1]))  # the answer's program translates
                counter[source] += 1
            elif not fix:
                result.refused.setdefault(_kg_reason(replay.error), []).append(index)
        if not _vocab_lists(params["actions"], ontology.relations, ontology.attributes):
            result.hidden_by_vocab.append(index)
    return result


def kg_played(path: Path, ontology_dir: Path, sparql_url: str) -> tuple[Counter, Counter]:
    """(golds the expert plays to success per source, items per source) on a Freebase endpoint, with the g. fix."""
    env = KgEnv(task_file=str(path), ontology_dir=str(ontology_dir), sparql_url=sparql_url, agentbench_fixes=True)
    right: Counter = Counter()
    total: Counter = Counter()
    for task in env.tasks:
        env.reset(options={"task_id": task.task_id})
        info: dict = {}
        while not env.episode_over:
            action = env.expert_action()
            if action is None:
                break
            _, _, _, _, info = env.step(action)
        total[task.params["source"]] += 1
        right[task.params["source"]] += bool(info.get("success"))
    return right, total


def _print_kg(name: str, path: Path, ontology_dir: Path, sparql_url: str | None) -> None:
    golds = kg_golds(path, ontology_dir)
    per_source = ", ".join(
        f"{source} {golds.replayed[source]}/{golds.fixed[source]}/{count}" for source, count in golds.items.items()
    )
    print(
        f"KG   {name:16} loaded {sum(golds.items.values()):4}  golds read {sum(golds.read.values())}, replay {sum(golds.replayed.values())} as v0.2, "
        f"{sum(golds.fixed.values())} with the g. fix  (v0.2/fixed/items: {per_source})"
    )
    refused = "; ".join(f"{reason} {indices}" for reason, indices in golds.refused.items()) or "none"
    print(f"     {'':16} v0.2 refuses (item indices): {refused}")
    print(f"     {'':16} vocab.json hides a gold relation or attribute: {golds.hidden_by_vocab}")
    if sparql_url:
        right, total = kg_played(path, ontology_dir, sparql_url)
        parts = ", ".join(f"{source} {right[source]}/{total[source]}" for source in total)
        print(f"     {'':16} on {sparql_url}: golds succeed {sum(right.values())}/{sum(total.values())} ({parts})")


def os_entries(agentbench: Path, split: str) -> list[dict]:
    """configs/tasks/os.yaml's data_config file list for ``os-std`` (groups 1..7) or ``os-dev``."""
    base = agentbench / "data" / "os_interaction"
    if split == "dev":
        return [
            {
                "problem_file": str(base / "data/dev.json"),
                "script_dir": str(base / "scripts/dev/"),
                "index_prefix": "dev-001-",
            }
        ]
    return [
        {
            "problem_file": str(base / f"data/{g}/*.json"),
            "script_dir": str(base / f"scripts/{g}/"),
            "index_prefix": f"std-00{g}-",
        }
        for g in range(1, 8)
    ]


def os_examples(entries: list[dict], sandbox: str) -> tuple[Counter, Counter, dict[str, str]]:
    """(examples that pass per group, items per group, why each failing id fails)."""
    env = OsEnv(task_file=entries, sandbox=sandbox)
    right: Counter = Counter()
    total: Counter = Counter()
    failed: dict[str, str] = {}
    try:
        for task in env.tasks:
            group = task.params["group"]
            total[group] += 1
            try:
                env.reset(options={"task_id": task.task_id})
            except SandboxError as error:
                failed[task.task_id] = f"reset: {error}".replace("\n", " | ")[:160]
                continue
            obs, info = "", {}
            for _ in range(task.max_steps):  # the round limit (an invalid expert answer does not end the episode)
                obs, _, _, _, info = env.step(env.expert_action())
                if env.episode_over:
                    break
            right[group] += bool(info.get("success"))
            if not info.get("success"):
                failed[task.task_id] = obs.splitlines()[0][:160] if obs else "no verdict"
            print(f"  {task.task_id} {bool(info.get('success'))}", file=sys.stderr, flush=True)
    finally:
        env.close()
    return right, total, failed


def _print_os(agentbench: Path, sandbox: str) -> None:
    for split in ("std", "dev"):
        entries = os_entries(agentbench, split)
        if not Path(entries[0]["script_dir"]).is_dir():
            print(f"OS   {split:16} missing: {entries[0]['script_dir']}")
            continue
        right, total, failed = os_examples(entries, sandbox)
        parts = ", ".join(f"{group} {right[group]}/{total[group]}" for group in total)
        print(
            f"OS   {split:16} {sandbox:7} loaded {sum(total.values()):4}  examples pass {sum(right.values())}/"
            f"{sum(total.values())}  ({parts})"
        )
        for task_id, why in failed.items():
            print(f"     {'':16} {task_id}: {why}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agentbench", required=True, type=Path, help="a checkout of THUDM/AgentBench")
    parser.add_argument("--db-url", default=None, help="also play the DB items on this MySQL/MariaDB server")
    parser.add_argument("--sparql-url", default=None, help="also play the KG golds on this Freebase SPARQL endpoint")
    parser.add_argument("--os-sandbox", default="rootfs", choices=("rootfs", "bwrap"), help="the OS items' sandbox")
    parser.add_argument("--only", default=None, choices=("os",), help="the OS section only")
    args = parser.parse_args()
    if args.only in (None, "os"):
        _print_os(args.agentbench, args.os_sandbox)
    if args.only == "os":
        return
    for name in ("standard.jsonl", "dev.jsonl"):
        path = args.agentbench / "data" / "dbbench" / name
        if not path.is_file():
            print(f"DB   {name:16} missing: {path}")
            continue
        _print_db(name, path, None)
        if args.db_url:
            _print_db(name, path, args.db_url)
    for name in ("standard.xlsx", "dev.xlsx"):
        path = args.agentbench / "data" / "lateralthinkingpuzzle" / name
        if not path.is_file():
            print(f"LTP  {name:16} missing: {path}")
            continue
        loaded, keys, hints = ltp_counts(path)
        print(f"LTP  {name:16} loaded {loaded:4}  key points {keys}, hints {hints}")
    ontology_dir = args.agentbench / "src" / "server" / "tasks" / "knowledgegraph" / "ontology"
    for name in ("std.json", "dev.json"):
        path = args.agentbench / "data" / "knowledgegraph" / name
        if not path.is_file() or not ontology_dir.is_dir():
            print(f"KG   {name:16} missing: {path if not path.is_file() else ontology_dir}")
            continue
        _print_kg(name, path, ontology_dir, args.sparql_url)


if __name__ == "__main__":
    main()
