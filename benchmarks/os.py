"""AgentBench/OS-v0 latency: sandbox start, a bare ``echo`` round trip, and env steps.

Usage: .venv/bin/python benchmarks/os.py [--repeats 30]

Wall-clock medians (and 90th percentiles) of:
- sandbox start: ``Sandbox(init)`` for an empty init script and for a shipped task's init script (bwrap, the
  keeper, the init script, the mtime stamping, the agent's shell), and ``setup(init)`` on a spare spawned in
  advance (what ``env.reset`` pays when the previous episode lasted longer than bwrap's own set-up);
- echo: ``Sandbox.run("echo hi")`` (one round trip through the agent's shell);
- env step: ``env.step`` of ``echo hi`` (the round trip, reaping leftovers, stamping mtimes, state milestones);
- env reset: ``env.reset`` (destroy the old sandbox, build the next);
- an expert episode over the 144 shipped tasks (per task);
- rootfs start: a sandbox on a fresh copy-on-write copy of the Debian root filesystem (user namespace, overlay,
  pivot_root, the keeper, the agent's login shell: ``Sandbox(None, runtime=ROOTFS)`` + ``setup_scripts([])``),
  and an echo round trip there (skipped with the reason when the rootfs cannot run here).
Targets: start < 50 ms, echo < 20 ms; rootfs start at most 100 ms.
"""

from __future__ import annotations

import argparse
import statistics
import time

from agentgym_text.envs.os.env import OsEnv
from agentgym_text.envs.os.rootfs import rootfs_problem
from agentgym_text.envs.os.sandbox import Sandbox, sandbox_problem
from agentgym_text.envs.os.tasks import instance
from agentgym_text.envs.os.userns import ROOTFS


def _stats(samples: list[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"median {statistics.median(ordered) * 1000:7.2f} ms   p90 {p90 * 1000:7.2f} ms   (n={len(ordered)})"


def _timed(fn, repeats: int) -> list[float]:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return samples


def _rootfs(n: int) -> None:
    problem = rootfs_problem()
    if problem:
        print(f"rootfs start                    skipped: {problem}")
        return
    ROOTFS.prepare()  # builds the root on first use (not timed)

    def start() -> None:
        box = Sandbox(None, runtime=ROOTFS)
        box.setup_scripts([])
        box.close()

    start()
    print(f"rootfs start (fresh copy)       {_stats(_timed(start, n))}")
    box = Sandbox(None, runtime=ROOTFS)
    box.setup_scripts([])
    print(f"rootfs echo round trip          {_stats(_timed(lambda: box.run('echo hi'), n * 10))}")
    box.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--rootfs-only", action="store_true", help="only the rootfs lines")
    args = parser.parse_args()
    _rootfs(args.repeats)
    if args.rootfs_only:
        return
    problem = sandbox_problem()
    if problem:
        raise SystemExit(problem)
    n = args.repeats
    print(f"sandbox start (empty init)      {_stats(_timed(lambda: Sandbox('').close(), n))}")
    init = instance("count-extension", 0).init
    print(f"sandbox start (task init)       {_stats(_timed(lambda: Sandbox(init).close(), n))}")

    def prewarmed() -> list[float]:
        samples = []
        for _ in range(n):
            box = Sandbox(None)
            time.sleep(0.3)  # bwrap finishes its set-up meanwhile, as it would during an episode
            start = time.perf_counter()
            box.setup(init)
            samples.append(time.perf_counter() - start)
            box.close()
        return samples

    print(f"sandbox start (prewarmed spare) {_stats(prewarmed())}")
    with Sandbox("") as box:
        print(f"echo round trip                 {_stats(_timed(lambda: box.run('echo hi'), n * 10))}")
    env = OsEnv()
    env.reset(options={"task_index": 0})
    print(
        f"env.step('echo hi')             "
        f"{_stats(_timed(lambda: env.step(chr(10).join(['Act: bash', '```bash', 'echo hi', '```'])), n * 3))}"
    )
    print(f"env.reset, back to back         {_stats(_timed(lambda: env.reset(options={'task_index': 5}), n))}")
    per_task = []
    for task_id in env.task_ids:
        start = time.perf_counter()
        env.reset(options={"task_id": task_id})
        while not env.episode_over:
            env.step(env.expert_action())
        per_task.append(time.perf_counter() - start)
    env.close()
    print(f"expert episode (144 tasks)      {_stats(per_task)}   total {sum(per_task):.1f} s")


if __name__ == "__main__":
    main()
