"""The heavy families at batch sizes: ScienceWorld, WebArena, Jericho (and BabyAI, a light one) with N envs, three ways.

Ways (``--ways``):
- ``async``: gymnasium's async vector env, one worker process per env;
- ``sync``: gymnasium's sync vector env, N envs in this process (where envs of a process share an engine, they
  share it here);
- ``runner``: the evaluation runner (``run_eval``) with the expert agent and N slots, one thread each, in this
  process ("sync" slots; a family not declared thread-safe gets worker processes, as the runner does).

For each family, way and N: the wall clock of the first ``reset`` (all N envs starting at once: JVMs, site servers
and browsers, game files; the runner: its run of one episode per slot), sub-env steps per second, and memory.
Every episode is cut at ``--runner-steps`` steps in every way, so the ways reset as often. Steps per second: the
vector ways time ``--seconds`` of the expert choosing each action and the env stepping it (an episode that ends is
reset by the vector env); the runner plays one episode per slot, then ``--runner-episodes`` per slot, and divides
the second run's extra steps by its extra wall clock, so the slots' start-up cancels out as the vector rows' first
reset is left out. Memory: the peak, sampled every
0.2 s, of RSS and PSS of this process and every process under it (workers, JVMs, Chromium), minus the same figures
before the envs were made, divided by N. PSS splits shared pages between the processes sharing them, so it adds up;
RSS counts them once per process.

    AGENTGYM_TEXT_JERICHO_DIR=../shared/jericho-game-suite .venv/bin/python benchmarks/scale.py \\
        [--families scienceworld webarena jericho] [--envs 1 8 64] [--ways async sync runner] [--seconds 20] \\
        [--env-arg key=value ...]

Figures on a shared 2-core machine: N envs share 2 cores, so steps/s saturates at the cores, not at N.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path
from typing import Any

# this folder holds files named like the engines' packages (jericho.py, scienceworld.py): keep it off the path
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE] + [str(_HERE.parent)]

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402

import agentgym_text  # noqa: E402,F401
from agentgym_text.agents.expert import ExpertAgent  # noqa: E402
from agentgym_text.eval.plan import parse_env_args  # noqa: E402
from agentgym_text.eval.runner import EvalConfig, run_eval  # noqa: E402

FAMILIES = {
    "scienceworld": "AgentBoard/ScienceWorld-v0",
    "webarena": "AgentBoard/WebArena-v0",
    "jericho": "AgentBoard/Jericho-v0",
    "babyai": "AgentBoard/BabyAI-v0",
}
WAYS = ("async", "sync", "runner")


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process under it (from /proc)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    found, stack = [], [pid]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(children.get(current, []))
    return found


def memory_tree_mib(pid: int) -> tuple[float, float]:
    """(RSS, PSS) in MiB of ``pid`` and all its descendants (from /proc)."""
    rss = pss = 0
    for current in process_tree(pid):
        try:
            for line in Path(f"/proc/{current}/smaps_rollup").read_text().splitlines():
                if line.startswith("Rss:"):
                    rss += int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss += int(line.split()[1])
        except OSError:
            pass
    return rss / 1024, pss / 1024


class PeakMemory:
    """Samples ``memory_tree_mib`` of this process tree in a thread; ``peak`` is the largest (RSS, PSS) seen."""

    def __init__(self, every_s: float = 0.2) -> None:
        self.every_s = every_s
        self.peak = (0.0, 0.0)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            self.sample()

    def sample(self) -> None:
        rss, pss = memory_tree_mib(os.getpid())
        self.peak = (max(self.peak[0], rss), max(self.peak[1], pss))

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()


def measure_vector(
    env_id: str, num_envs: int, seconds: float, way: str, kwargs: dict[str, Any], max_steps: int | None = None
) -> dict[str, float]:
    """First-reset wall clock, sub-env steps/s and peak memory per env of ``num_envs`` envs in a vector env. The
    rate counts the expert's choice of each action with the step (as the runner's rate does), and only the sub-envs
    that stepped (not the ones the vector env resets in that call); with ``max_steps`` every episode is cut there,
    as the runner's are. A sync vector env's envs play the tasks in the id's order, as the runner's plan does."""
    rss0, pss0 = memory_tree_mib(os.getpid())
    limit = {} if max_steps is None else {"max_episode_steps": max_steps}
    with PeakMemory() as memory:
        envs = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode=way, vector_kwargs={}, **kwargs, **limit)
        try:
            tasks = _TaskCycle(envs) if way == "sync" else None
            start = time.perf_counter()
            envs.reset(seed=list(range(num_envs)))
            first_reset = time.perf_counter() - start
            steps, elapsed = 0, 0.0
            resetting = np.zeros(num_envs, dtype=bool)
            while elapsed < seconds:
                start = time.perf_counter()
                actions = [action or "check valid actions" for action in envs.call("expert_action")]
                _, _, terminated, truncated, _ = envs.step(actions)
                elapsed += time.perf_counter() - start
                steps += int(num_envs - resetting.sum())
                resetting = terminated | truncated
                if tasks is not None:
                    tasks.next_for(resetting)
            memory.sample()
        finally:
            envs.close()
    return _row(first_reset, steps / elapsed, memory.peak, (rss0, pss0), num_envs)


class _TaskCycle:
    """Gives a sync vector env's sub-envs the id's tasks in order: one each at the first reset, then the next one to
    each env whose episode ended (its reset comes with the next step)."""

    def __init__(self, envs: gym.vector.VectorEnv) -> None:
        self.envs = [env.unwrapped for env in envs.envs]
        self.task_ids = list(self.envs[0].task_ids)
        self.count = 0
        self.next_for(np.ones(len(self.envs), dtype=bool))

    def next_for(self, ended: np.ndarray) -> None:
        for index in np.flatnonzero(ended):
            self.envs[index].next_task_id = self.task_ids[self.count % len(self.task_ids)]
            self.count += 1


def _run_expert(env_id: str, num_envs: int, episodes: int, max_steps: int, kwargs: dict[str, Any]) -> tuple[int, float]:
    """Steps played and wall seconds of a runner run of ``episodes`` expert episodes on ``num_envs`` slots."""
    task_count = len(gym.make(env_id, **kwargs).unwrapped.task_ids)
    config = EvalConfig(
        envs=[env_id],
        tasks="all" if episodes >= task_count else str(episodes),
        repeats=math.ceil(episodes / task_count),
        num_envs=num_envs,
        max_steps=max_steps,
        progress_bar=False,
        env_args={"*": kwargs},
    )
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        result = run_eval(ExpertAgent(), config, out)
        wall = time.perf_counter() - start
        if result.errors or result.engine_errors:
            raise RuntimeError(f"the run had errors: {result.errors[:2]} engine errors {result.engine_errors}")
        return sum(1 for _ in Path(out, "trajectories.jsonl").open()), wall


def measure_runner(
    env_id: str, num_envs: int, per_slot: int, max_steps: int, kwargs: dict[str, Any]
) -> dict[str, float]:
    """The evaluation runner with the expert on ``num_envs`` slots: a run of one episode per slot, then one of
    ``per_slot`` per slot. The rate is the second run's extra steps over its extra wall clock, so the slots'
    start-up (engines, games, browsers), which the vector rows report as their first reset, cancels out; the
    first reset column is the short run's wall clock."""
    rss0, pss0 = memory_tree_mib(os.getpid())
    with PeakMemory() as memory:
        short_steps, short_wall = _run_expert(env_id, num_envs, num_envs, max_steps, kwargs)
        long_steps, long_wall = _run_expert(env_id, num_envs, num_envs * per_slot, max_steps, kwargs)
    rate = (long_steps - short_steps) / max(long_wall - short_wall, 1e-9)
    return _row(short_wall, rate, memory.peak, (rss0, pss0), num_envs)


def _row(
    first_reset: float, steps_per_s: float, peak: tuple[float, float], base: tuple[float, float], count: int
) -> dict[str, float]:
    return {
        "first_reset_s": first_reset,
        "steps_per_s": steps_per_s,
        "rss_mib": (peak[0] - base[0]) / count,
        "pss_mib": (peak[1] - base[1]) / count,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", nargs="*", default=list(FAMILIES), choices=list(FAMILIES))
    parser.add_argument("--envs", nargs="*", type=int, default=[1, 8, 64])
    parser.add_argument("--ways", nargs="*", default=["async"], choices=WAYS)
    parser.add_argument("--seconds", type=float, default=20.0, help="stepping time per vector measurement")
    parser.add_argument("--runner-episodes", type=int, default=8, help="episodes per slot of a runner row's long run")
    parser.add_argument(
        "--runner-steps", type=int, default=10, help="step budget of an episode (the runner's, and the vector rows')"
    )
    parser.add_argument("--env-arg", action="append", default=[], help="key=value for gym.make (JSON values)")
    args = parser.parse_args()
    kwargs = parse_env_args(args.env_arg).get("*", {})
    warnings.simplefilter("ignore")
    print(f"gym.make kwargs: {kwargs or 'defaults'}")
    print(
        f"{'family':13s} {'way':6s} {'envs':>4s} {'first reset s':>13s} {'steps/s':>8s} "
        f"{'RSS MiB/env':>11s} {'PSS MiB/env':>11s}"
    )
    for family in args.families:
        for way in args.ways:
            for count in args.envs:
                try:
                    if way == "runner":
                        row = measure_runner(FAMILIES[family], count, args.runner_episodes, args.runner_steps, kwargs)
                    else:
                        row = measure_vector(FAMILIES[family], count, args.seconds, way, kwargs, args.runner_steps)
                except Exception as error:  # noqa: BLE001 - a size that does not fit is a figure too
                    print(f"{family:13s} {way:6s} {count:4d} failed: {type(error).__name__}: {str(error)[:80]}")
                    continue
                print(
                    f"{family:13s} {way:6s} {count:4d} {row['first_reset_s']:13.2f} {row['steps_per_s']:8.1f} "
                    f"{row['rss_mib']:11.0f} {row['pss_mib']:11.0f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
