"""ScienceWorld throughput and footprint: text env vs raw ``scienceworld``, JVM start time, RSS per instance.

Run: ``python benchmarks/scienceworld.py [--repeats 3] [--task-index 0]``

Both sides replay the same gold path from reset, repeatedly. "raw" is ``scienceworld.ScienceWorldEnv.step``
(what AgentBoard calls); "raw server.step" is the bare simulator call, the floor any wrapper can reach.
The text env skips the per-step valid-action listing the raw ``step`` does, so it can be faster than raw.
"""

from __future__ import annotations

import argparse
import os
import time

import gymnasium as gym

import agentgym_text  # noqa: F401
from agentgym_text.envs.scienceworld.tasks import load_instances


def _rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--task-index", type=int, default=0)
    args = parser.parse_args()
    instance = load_instances()[args.task_index]
    gold = instance["gold_actions"]
    print(f"task {instance['task_name']} variation {instance['variation']}: {len(gold)} gold actions x "
          f"{args.repeats} repeats")

    from scienceworld import ScienceWorldEnv

    started = time.perf_counter()
    raw = ScienceWorldEnv("", envStepLimit=10**9)
    jvm_start = time.perf_counter() - started
    raw.load(instance["task_name"], instance["variation"], instance["simplifications"])
    raw_steps, raw_time, server_time = 0, 0.0, 0.0
    for _ in range(args.repeats):
        raw.reset()
        started = time.perf_counter()
        for action in gold:
            raw.step(action)
        raw_time += time.perf_counter() - started
        raw_steps += len(gold)
        raw.reset()
        started = time.perf_counter()
        for action in gold:
            raw.server.step(action)
        server_time += time.perf_counter() - started
    raw_jvm_rss = _rss_mib(raw._gateway.java_process.pid)
    raw.close()

    python_rss_before = _rss_mib(os.getpid())
    env = gym.make("AgentBoard/ScienceWorld-v0")
    started = time.perf_counter()
    env.reset(options={"task_index": args.task_index})
    first_reset = time.perf_counter() - started
    env_time, env_steps, reset_time = 0.0, 0, 0.0
    for _ in range(args.repeats):
        started = time.perf_counter()
        env.reset(options={"task_index": args.task_index})
        reset_time += time.perf_counter() - started
        started = time.perf_counter()
        for action in gold:
            *_, info = env.step(action)
        env_time += time.perf_counter() - started
        env_steps += len(gold)
        assert info["success"], "the gold path should solve the task"
    jvm_rss = _rss_mib(env.unwrapped.jvm_pid)
    python_rss_delta = _rss_mib(os.getpid()) - python_rss_before
    env.close()

    raw_rate, server_rate, env_rate = raw_steps / raw_time, raw_steps / server_time, env_steps / env_time
    print(f"JVM start (ScienceWorldEnv()):        {jvm_start:6.2f} s")
    print(f"text env first reset (JVM + load):    {first_reset:6.2f} s")
    print(f"text env reset (task loaded):         {reset_time / args.repeats:6.2f} s")
    print(f"raw ScienceWorldEnv.step:             {raw_rate:8.1f} steps/s")
    print(f"raw server.step (simulator only):     {server_rate:8.1f} steps/s")
    print(f"text env step:                        {env_rate:8.1f} steps/s")
    print(f"text env / raw step time:             {raw_rate / env_rate:6.2f}x  "
          f"(overhead {100 * (raw_rate / env_rate - 1):+.0f}%; budget +20%)")
    print(f"text env / raw server.step time:      {server_rate / env_rate:6.2f}x")
    print(f"RSS per env instance: JVM {jvm_rss:.0f} MiB (raw env's JVM {raw_jvm_rss:.0f} MiB) "
          f"+ Python {python_rss_delta:+.0f} MiB")


if __name__ == "__main__":
    main()
