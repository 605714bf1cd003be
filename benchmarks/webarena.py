"""AgentBoard/WebArena-v0: browser start, reset and step latency, memory per env.

Usage: .venv/bin/python benchmarks/webarena.py [--episodes 12] [--envs 1 4 8] [--separate] [--chromium PATH]

- start: wall clock of the first reset of a fresh env (site server start + Chromium launch + first page), and of
  Chromium's launch alone;
- reset: wall clock of later resets (fresh database copies, the browser context restarted, start page, first
  observation), the CPU time they cost the whole process tree (Python, driver, Chromium: what the load of a shared
  machine does not inflate), and where the wall clock goes (p50 of each part);
- step: wall clock of ``env.step`` in expert episodes over evenly spread shipped tasks, p50 / p95 / max, and by
  action kind (click, type, goto, scroll, stop), and the CPU the steps cost the process tree (mean per step);
- memory: PSS (shared pages split between the processes sharing them) and the plain RSS sum of the Python
  process plus the Playwright driver and every Chromium process under it, for 1 and N envs in one process
  (``--envs``), after their episodes; per env = total / N, and per additional env = (total(N) - total(1)) / (N - 1).
  The envs share the process's one Chromium unless ``--separate`` (a Chromium each).
Wall-clock figures on a shared machine are upper bounds.
"""

from __future__ import annotations

import argparse
import inspect
import os
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


def _tree_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid`` and its descendants, from /proc: those alive now and, through their
    parents' counts of reaped children, those that have exited (a closed context's renderer)."""
    ticks = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    times: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
        times[int(stat.parent.name)] = sum(int(value) for value in fields[11:15])
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        total += times.get(current, 0)
        stack.extend(children.get(current, []))
    return total / ticks


class _Split:
    """Wall-clock seconds spent in named methods during resets (where a reset's time goes)."""

    def __init__(self) -> None:
        self.spent: dict[str, list[float]] = {}
        self.active = False

    def wrap(self, owner, name: str, label: str) -> None:
        original = getattr(owner, name)

        def note(began: float) -> None:
            if self.active:
                self.spent.setdefault(label, []).append(time.perf_counter() - began)

        if inspect.iscoroutinefunction(original):  # the Session's methods (Playwright's async API)

            async def timed(*args, **kwargs):
                began = time.perf_counter()
                try:
                    return await original(*args, **kwargs)
                finally:
                    note(began)

        else:

            def timed(*args, **kwargs):
                began = time.perf_counter()
                try:
                    return original(*args, **kwargs)
                finally:
                    note(began)

        setattr(owner, name, timed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=12)
    parser.add_argument("--envs", type=int, nargs="+", default=[1, 4, 8])
    parser.add_argument("--separate", action="store_true", help="a Chromium per env instead of one per process")
    parser.add_argument("--chromium", default=None, help="the Chromium binary (default: the env's choice)")
    args = parser.parse_args()

    from agentgym_text.envs.webarena import sites
    from agentgym_text.envs.webarena.browser import Browser, Session
    from agentgym_text.envs.webarena.env import WebArenaEnv

    shared = not args.separate
    print(f"uptime: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (load 1, 5 min); shared browser: {shared}")
    browser = Browser(args.chromium, shared=False)
    print(f"Chromium: {browser.executable}")
    began = time.perf_counter()
    browser._ensure()
    launch = time.perf_counter() - began
    browser.close()
    print(f"Chromium launch alone: {launch * 1000:.0f} ms")

    env = WebArenaEnv(share_browser=shared, chromium_path=args.chromium)
    began = time.perf_counter()
    env.reset(options={"task_index": 0})
    print(f"first reset (site server + Chromium + first page): {(time.perf_counter() - began) * 1000:.0f} ms")

    split = _Split()
    split.wrap(sites.SiteServer, "reset", "database copies")
    split.wrap(Session, "restart", "context restart")
    split.wrap(Browser, "new_session", "new context + tab")
    split.wrap(Session, "goto", "start page (load + settle)")
    split.wrap(Session, "observe", "page read (tree, boxes, text)")
    split.wrap(WebArenaEnv, "_observe", "first observation (tree + text)")
    count = len(env.task_ids)
    chosen = [round(i * (count - 1) / max(args.episodes - 1, 1)) for i in range(args.episodes)]
    resets, reset_cpu, steps, by_kind, step_cpu = [], [], [], {}, 0.0
    for index in chosen:
        cpu = _tree_cpu_seconds(os.getpid())
        began = time.perf_counter()
        split.active = True
        env.reset(options={"task_index": index})
        split.active = False
        resets.append(time.perf_counter() - began)
        reset_cpu.append(_tree_cpu_seconds(os.getpid()) - cpu)
        cpu = _tree_cpu_seconds(os.getpid())
        while not env.episode_over:
            action = env.expert_action()
            began = time.perf_counter()
            env.step(action)
            spent = time.perf_counter() - began
            steps.append(spent)
            by_kind.setdefault(action.split(" ")[0].split("[")[0], []).append(spent)
        step_cpu += _tree_cpu_seconds(os.getpid()) - cpu  # the expert's own choices included (small)
    print(f"reset ({len(resets)} episodes): {_percentiles(resets)}")
    print(f"  CPU of the process tree per reset: {_percentiles(reset_cpu)}")
    for label, values in split.spent.items():
        print(f"  {label:<32} n={len(values):<3} p50 {statistics.median(values) * 1000:7.1f} ms")
    print(f"step  ({len(steps)} expert steps): {_percentiles(steps)}  ({len(steps) / sum(steps):.1f} steps/s)")
    print(f"  CPU of the process tree per step: {step_cpu / max(len(steps), 1) * 1000:.1f} ms")
    for kind, values in sorted(by_kind.items()):
        print(f"  {kind:<10} n={len(values):<4} {_percentiles(values)}")
    env.close()

    first = None
    for number in args.envs:
        envs = [WebArenaEnv(share_browser=shared, chromium_path=args.chromium) for _ in range(number)]
        for i, one in enumerate(envs):
            one.reset(options={"task_index": chosen[i % len(chosen)]})
            while not one.episode_over:
                one.step(one.expert_action())
        rss, pss = _memory_tree_mb(os.getpid())
        first = first or (number, pss)
        extra = ""
        if number > first[0]:
            extra = f", {(pss - first[1]) / (number - first[0]):.0f} MB per additional env"
        print(
            f"memory with {number} env(s) in one process (Python + driver + Chromium processes): PSS {pss:.0f} MB "
            f"({pss / number:.0f} MB per env{extra}), RSS sum {rss:.0f} MB ({rss / number:.0f} MB per env)"
        )
        for one in envs:
            one.close()


if __name__ == "__main__":
    main()
