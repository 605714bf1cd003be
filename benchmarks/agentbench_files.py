"""AgentBench's own task files on our AgentBench ids: per family and file, the items loaded and the golds that
succeed, per category.

``--agentbench`` is a checkout of THUDM/AgentBench (v0.2, commit 41e6807, is the paper's release). DB: each item's
gold (the label for a question, the gold statement then the table hash for a modification) is played by the
expert on SQLite, and with ``--db-url mysql://...`` on that MySQL/MariaDB server too. LTP: the puzzles that load
and their key points (a host model plays them; there is no gold to replay without one).

Run: .venv/bin/python benchmarks/agentbench_files.py --agentbench PATH [--db-url mysql://root@localhost/?unix_socket=S]
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from agentgym_text.envs.db.env import DbEnv
from agentgym_text.envs.lateral.agentbench_file import load_xlsx

__all__ = ["db_golds", "ltp_counts"]


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agentbench", required=True, type=Path, help="a checkout of THUDM/AgentBench")
    parser.add_argument("--db-url", default=None, help="also play the DB items on this MySQL/MariaDB server")
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
