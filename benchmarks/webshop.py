"""AgentBoard/WebShop-v0: catalogue build time and size, search latency, step latency, memory.

Usage: .venv/bin/python benchmarks/webshop.py [--num-products 20000 1000000] [--cache DIR] [--episodes 100]

For each catalogue size:
- build: wall-clock and CPU time of building the catalogue into an empty cache folder (``--cache`` keeps and reuses
  it; without it a temporary folder is used and deleted), and the size of the SQLite file;
- search: latency (wall clock and CPU time of the thread) of ``Catalogue.search`` (BM25 top 50, no result cache) for the 251 shipped goals' key terms
  and for 250 product titles (long queries), p50 / p95 / max;
- step: wall-clock latency of ``env.step`` in expert episodes over the shipped tasks (search steps
  included), p50 / p95, and steps per second; the same for ``AgentBench/WebShop-v0`` (AgentBench v0.2's protocol,
  its 200 goals, the expert's replies marked ``Action:``);
- memory: peak RSS (VmHWM) of a fresh process holding one env after its episodes, split into private memory
  and pages of the memory-mapped catalogue file (shared by every process that reads it); the same for 8 such
  processes running at once on the same file, and for one process holding 8 envs.
Wall-clock figures on a shared machine are upper bounds; CPU times show the cost without waiting for a core.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(_ROOT))

_CHILD = """
import os, sys, gymnasium as gym, agentgym_text
from agentgym_text.envs.webshop.env import WebShopEnv
envs = [WebShopEnv(num_products=int(sys.argv[1])) for _ in range(int(sys.argv[2]))]
for i in range(int(sys.argv[3])):
    env = envs[i % len(envs)]
    env.reset(options={"task_index": i % len(env.task_ids)})
    while not env.episode_over:
        env.step(env.expert_action())
status = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
print(*(int(status[key].split()[0]) // 1024 for key in ("VmHWM", "RssAnon", "RssFile")))
"""


def _percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # noqa: E731
    return f"p50 {pick(0.5):7.2f} ms  p95 {pick(0.95):7.2f} ms  max {ordered[-1] * 1000:7.2f} ms"


def _search_latency(catalogue, queries: list[str]) -> tuple[list[float], list[float]]:
    wall, cpu = [], []
    for query in queries:
        catalogue._searches.clear()  # measure the engine, not the per-process result cache
        start, start_cpu = time.perf_counter(), time.thread_time()
        catalogue.search(query)
        wall.append(time.perf_counter() - start)
        cpu.append(time.thread_time() - start_cpu)
    return wall, cpu


def _children(num_products: int, processes: int, envs: int, episodes: int, env: dict) -> list[tuple[int, ...]]:
    """(peak RSS, private RSS, file-backed RSS) in MB of each child, measured at its end."""
    running = [
        subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(num_products), str(envs), str(episodes)],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(processes)
    ]
    return [tuple(int(x) for x in child.communicate()[0].split()) for child in running]


def _expert_steps(label: str, env, episodes: int, prefix: str) -> None:
    step_times, step_cpu, successes = [], [], 0
    for i in range(episodes):
        env.reset(options={"task_index": i % len(env.task_ids)})
        info = {}
        while not env.episode_over:
            action = prefix + env.expert_action()
            start, start_cpu = time.perf_counter(), time.thread_time()
            *_, info = env.step(action)
            step_times.append(time.perf_counter() - start)
            step_cpu.append(time.thread_time() - start_cpu)
        successes += info["success"]
    print(
        f"{label:15s} wall {_percentiles(step_times)}  {len(step_times) / sum(step_times):6.0f} steps/s  "
        f"success {successes}/{episodes}"
    )
    print(f"{label:15s} cpu  {_percentiles(step_cpu)}  {len(step_cpu) / sum(step_cpu):6.0f} steps/s")


def measure(num_products: int, episodes: int, cache: str | None) -> None:
    folder = cache or tempfile.mkdtemp(prefix="webshop-bench-")
    os.environ["AGENTGYM_TEXT_CACHE"] = folder
    os.environ.setdefault("AGENTGYM_TEXT_QUIET", "1")
    from agentgym_text.envs.webshop.catalogue import open_catalogue
    from agentgym_text.envs.webshop.env import WebShopEnv
    from agentgym_text.envs.webshop.tasks import shipped_tasks

    print(f"== {num_products:,} products (cache {folder})")
    start, start_cpu = time.perf_counter(), time.process_time()
    catalogue = open_catalogue(num_products, quiet=True)
    print(
        f"build/open        {time.perf_counter() - start:8.1f} s wall, {time.process_time() - start_cpu:8.1f} s cpu  "
        f"file {catalogue.path.stat().st_size / 2**20:8.1f} MB"
    )

    keywords = [spec.params["keywords"] for spec in shipped_tasks()]
    titles = [catalogue.product_at(i * (num_products // 250)).title for i in range(250)]
    _search_latency(catalogue, keywords[:20])  # warm the page cache
    for label, queries in (("key terms", keywords), ("titles", titles)):
        wall, cpu = _search_latency(catalogue, queries)
        print(f"search {label:10s} wall {_percentiles(wall)}  ({len(queries)} queries)")
        print(f"search {label:10s} cpu  {_percentiles(cpu)}")

    _expert_steps("step (expert)", WebShopEnv(num_products=num_products), episodes, "")
    protocol = WebShopEnv(num_products=num_products, text_format="agentbench_v02")
    _expert_steps("step AgentBench", protocol, episodes, "Thought:\nI think so.\n\nAction:\n")

    child_env = {**os.environ, "PYTHONPATH": str(_ROOT)}
    ((peak, private, mapped),) = _children(num_products, 1, 1, 20, child_env)
    print(
        f"RSS one env       {peak:6d} MB peak: {private} MB private + {mapped} MB file pages "
        "(fresh process, 20 expert episodes; file pages are the shared, memory-mapped catalogue)"
    )
    many = _children(num_products, 8, 1, 20, child_env)
    print(
        f"RSS 8 processes   {sum(p for _, p, _ in many):6d} MB private in total + {max(m for *_, m in many)} MB "
        f"file pages shared (max {max(p for p, _, _ in many)} MB peak RSS per process; one env each)"
    )
    ((peak8, private8, mapped8),) = _children(num_products, 1, 8, 40, child_env)
    print(
        f"RSS 8 envs/1 proc {peak8:6d} MB peak: {private8} MB private + {mapped8} MB file pages "
        "(8 envs share one catalogue connection)"
    )
    if cache is None:
        catalogue.close()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-products", type=int, nargs="+", default=[20_000])
    parser.add_argument("--cache", default=None, help="cache folder to build into and keep (default: temporary)")
    parser.add_argument("--episodes", type=int, default=100)
    args = parser.parse_args()
    for num_products in args.num_products:
        measure(num_products, args.episodes, args.cache)


if __name__ == "__main__":
    main()
