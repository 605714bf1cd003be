"""AgentBoard/WebArena-v0: browser start, reset and step latency, memory per env.

Usage: .venv/bin/python benchmarks/webarena.py [--episodes 12] [--envs 1 2]

- start: wall clock of the first reset of a fresh env (site server start + Chromium launch + first page), and of
  Chromium's launch alone;
- reset: wall clock of later resets (fresh database copies, fresh browser context, start page, first observation);
- step: wall clock of ``env.step`` in expert episodes over evenly spread shipped tasks, p50 / p95 / max, and by
  action kind (click, type, goto, scroll, stop);
- memory: PSS (shared pages split between the processes sharing them) and the plain RSS sum of the Python
  process plus the Playwright driver and every Chromium process under it, for 1 and N envs in one process
  (``--envs``), after their episodes; per env = total / N.
Wall-clock figures on a shared machine are upper bounds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _memory_tree_mb(pid: int) -> tuple[float, float]:
    """(RSS, PSS) of ``pid`` and all its descendants, in MB (from /proc). RSS counts shared pages once per
    process (Chromium's processes share most of theirs); PSS splits them, so it adds up to what is really used."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    rss = pss = 0
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            for line in Path(f"/proc/{current}/smaps_rollup").read_text().splitlines():
                if line.startswith("Rss:"):
                    rss += int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss += int(line.split()[1])
        except OSError:
            pass
        stack.extend(children.get(current, []))
    return rss / 1024, pss / 1024


def _percentiles(values: list[float]) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
    return f"p50 {statistics.median(values) * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms  max {values[-1] * 1000:7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=12)
    parser.add_argument("--envs", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()

    import os

    from agentgym_text.envs.webarena.browser import Browser
    from agentgym_text.envs.webarena.env import WebArenaEnv

    browser = Browser()
    began = time.perf_counter()
    browser._ensure()
    launch = time.perf_counter() - began
    browser.close()
    print(f"Chromium launch alone: {launch * 1000:.0f} ms")

    env = WebArenaEnv()
    began = time.perf_counter()
    env.reset(options={"task_index": 0})
    print(f"first reset (site server + Chromium + first page): {(time.perf_counter() - began) * 1000:.0f} ms")

    count = len(env.task_ids)
    chosen = [round(i * (count - 1) / max(args.episodes - 1, 1)) for i in range(args.episodes)]
    resets, steps, by_kind = [], [], {}
    for index in chosen:
        began = time.perf_counter()
        env.reset(options={"task_index": index})
        resets.append(time.perf_counter() - began)
        while not env.episode_over:
            action = env.expert_action()
            began = time.perf_counter()
            env.step(action)
            spent = time.perf_counter() - began
            steps.append(spent)
            by_kind.setdefault(action.split(" ")[0].split("[")[0], []).append(spent)
    print(f"reset ({len(resets)} episodes): {_percentiles(resets)}")
    print(f"step  ({len(steps)} expert steps): {_percentiles(steps)}  ({len(steps) / sum(steps):.1f} steps/s)")
    for kind, values in sorted(by_kind.items()):
        print(f"  {kind:<10} n={len(values):<4} {_percentiles(values)}")
    env.close()

    for number in args.envs:
        envs = [WebArenaEnv() for _ in range(number)]
        for i, one in enumerate(envs):
            one.reset(options={"task_index": chosen[i % len(chosen)]})
            while not one.episode_over:
                one.step(one.expert_action())
        rss, pss = _memory_tree_mb(os.getpid())
        print(
            f"memory with {number} env(s) in one process (Python + driver + Chromium processes): PSS {pss:.0f} MB "
            f"({pss / number:.0f} MB per env), RSS sum {rss:.0f} MB ({rss / number:.0f} MB per env)"
        )
        for one in envs:
            one.close()


if __name__ == "__main__":
    main()
