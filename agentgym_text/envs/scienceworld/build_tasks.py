"""Regenerate ``task_set.json``: for every task, the first 3 variations whose gold path solves it.

Test variations are tried first, then dev variations (grow-fruit's gold path fails on all but 2 of its 33 test
variations: it waits a fixed time for the bees to pollinate).

Run: ``python -m agentgym_text.envs.scienceworld.build_tasks`` (starts one JVM; several minutes).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from agentgym_text.envs.scienceworld.engine import ScienceWorldEngine
from agentgym_text.envs.scienceworld.gold_paths import InstanceError, derive_instance

__all__ = ["build", "main", "VARIATIONS_PER_TASK"]

VARIATIONS_PER_TASK = 3
MAX_TRIES_PER_TASK = 50
"""Variations tried per task before giving up."""
OUTPUT = Path(__file__).with_name("task_set.json")


def build(
    per_task: int = VARIATIONS_PER_TASK,
    tasks: list[str] | None = None,
    log=sys.stderr,
    checkpoint: Path | None = None,
    first_try: int = 0,
) -> dict:
    """Derive ``per_task`` instances of each task; ``checkpoint`` gets the partial result after each one."""
    engine = ScienceWorldEngine()
    instances, skipped = [], []
    try:
        for task_name in tasks or engine.task_names():
            engine.load(task_name, 0, "")
            chosen = 0
            candidates = engine.test_variations() + engine.dev_variations()
            for variation in candidates[first_try : first_try + MAX_TRIES_PER_TASK]:
                if chosen == per_task:
                    break
                started = time.perf_counter()
                try:
                    instances.append(derive_instance(engine, task_name, variation))
                    chosen += 1
                    if checkpoint is not None:
                        checkpoint.write_text(json.dumps({"instances": instances}, indent=1) + "\n", "utf-8")
                    print(
                        f"{task_name} var {variation}: {len(instances[-1]['subgoals'])} subgoals, "
                        f"{len(instances[-1]['gold_actions'])} gold actions, "
                        f"{time.perf_counter() - started:.1f}s",
                        file=log,
                        flush=True,
                    )
                except InstanceError as error:
                    skipped.append(str(error))
                    print(f"skipped: {error}", file=log, flush=True)
    finally:
        engine.close()
    return {
        "source": "scienceworld test (then dev) variations; gold paths replayed with AgentBoard's simplifications",
        "skipped": skipped,
        "instances": instances,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--per-task", type=int, default=VARIATIONS_PER_TASK)
    parser.add_argument("--task", action="append", help="only these task names (repeatable)")
    parser.add_argument("--first-try", type=int, default=0, help="skip this many candidate variations per task")
    parser.add_argument("--merge", type=Path, nargs="*", help="merge these built files instead of building")
    args = parser.parse_args(argv)
    if args.merge:
        parts = [json.loads(path.read_text("utf-8")) for path in args.merge]
        data = {
            "source": parts[0].get("source", ""),
            "skipped": [line for part in parts for line in part.get("skipped", [])],
            "instances": sorted(
                (i for part in parts for i in part["instances"]), key=lambda i: (i["task_name"], i["variation"])
            ),
        }
    else:
        data = build(
            args.per_task, args.task, checkpoint=args.output.with_suffix(".partial.json"), first_try=args.first_try
        )
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(data['instances'])} instances to {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
