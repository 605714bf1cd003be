"""AgentBench/WebBrowsing-v0: steps/s of replaying recorded tasks (no browser), through gymnasium.make and unwrapped.

Usage: .venv/bin/python benchmarks/webbrowsing.py [--tasks 40] [--rounds 3]

Plays the expert on the first ``--tasks`` shipped tasks (recorded into the cache first when missing, which needs
Chromium: that one-time cost is timed apart), through ``gymnasium.make`` (with its wrappers) and on the unwrapped
env with the same actions: one round with the question cache empty (each step parses the next recorded page, ranks
its elements and cuts it down) and ``--rounds`` more with it full (a task played again). There is no engine to
compare with. Wall clock on a shared machine: upper bounds.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _play(env, task_ids: list[str], rounds: int) -> tuple[int, float, float]:
    """(steps, seconds in step, seconds in reset)."""
    steps, step_time, reset_time = 0, 0.0, 0.0
    for _ in range(rounds):
        for task_id in task_ids:
            start = time.perf_counter()
            env.reset(seed=0, options={"task_id": task_id})
            reset_time += time.perf_counter() - start
            done = False
            while not done:
                action = env.unwrapped.expert_action()
                start = time.perf_counter()
                _, _, terminated, truncated, _ = env.step(action)
                step_time += time.perf_counter() - start
                steps += 1
                done = terminated or truncated
    return steps, step_time, reset_time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    import gymnasium as gym

    import agentgym_text  # noqa: F401
    from agentgym_text.envs.webbrowsing.dataset import record_all
    from agentgym_text.envs.webbrowsing.render import ask
    from agentgym_text.envs.webbrowsing.tasks import default_tasks, webarena_config

    tasks = list(default_tasks())[: args.tasks]
    start = time.perf_counter()
    record_all([webarena_config(task.params) for task in tasks], quiet=True)
    print(f"recorded or read {len(tasks)} tasks in {time.perf_counter() - start:.1f} s (recording: once per cache)")
    task_ids = [task.task_id for task in tasks]
    wrapped = gym.make("AgentBench/WebBrowsing-v0")
    _play(wrapped, task_ids[:2], 1)  # warm-up
    for name, env in (("gymnasium.make", wrapped), ("unwrapped", wrapped.unwrapped)):
        ask.cache_clear()
        for label, rounds in (("first play", 1), ("played again", args.rounds)):
            steps, step_time, reset_time = _play(env, task_ids, rounds)
            episodes = len(task_ids) * rounds
            print(
                f"{name:15s} {label:12s} {steps:5d} steps: {steps / step_time:8.1f} steps/s, "
                f"reset {reset_time / episodes * 1000:6.1f} ms"
            )
    wrapped.close()


if __name__ == "__main__":
    main()
