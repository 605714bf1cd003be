"""The heavy families at batch sizes: ScienceWorld, WebArena and Jericho in an async vector env of N envs.

For each family and each N: the wall clock of the first ``reset`` (all N envs starting at once: JVMs, site
servers and browsers, game files), sub-env steps per second over ``--seconds`` of expert actions (the vector
env's ``call("expert_action")``; "check valid actions" where the expert has none; an episode that ends is reset
by the vector env), and memory: RSS and PSS of this process and every process under it (workers, JVMs,
Chromium) after the steps, minus the same figures before the vector env was made, divided by N. PSS splits
shared pages between the processes sharing them, so it adds up; RSS counts them once per process.

    AGENTGYM_TEXT_JERICHO_DIR=../shared/jericho-game-suite .venv/bin/python benchmarks/scale.py \\
        [--families scienceworld webarena jericho] [--envs 1 8 64] [--seconds 20]

Figures on a shared 2-core machine: N envs share 2 cores, so steps/s saturates at the cores, not at N.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path
from typing import Any

# this folder holds files named like the engines' packages (jericho.py, scienceworld.py): keep it off the path
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE] + [str(_HERE.parent)]

import gymnasium as gym  # noqa: E402

import agentgym_text  # noqa: E402,F401

FAMILIES = {
    "scienceworld": "AgentBoard/ScienceWorld-v0",
    "webarena": "AgentBoard/WebArena-v0",
    "jericho": "AgentBoard/Jericho-v0",
}


def memory_tree_mib(pid: int) -> tuple[float, float]:
    """(RSS, PSS) in MiB of ``pid`` and all its descendants (from /proc)."""
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


def measure(env_id: str, num_envs: int, seconds: float, **in_process: Any) -> dict[str, float]:
    """First-reset wall clock, sub-env steps/s and memory per env of ``num_envs`` envs in an async vector env, or
    with ``in_process`` (env keywords) in a sync vector env: every env in this process (see ``scienceworld_jvm``)."""
    rss0, pss0 = memory_tree_mib(os.getpid())
    if in_process:
        envs = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="sync", **in_process)
    else:
        envs = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="async")
    try:
        start = time.perf_counter()
        envs.reset(seed=list(range(num_envs)))
        first_reset = time.perf_counter() - start
        steps, elapsed = 0, 0.0
        while elapsed < seconds:
            actions = [action or "check valid actions" for action in envs.call("expert_action")]
            start = time.perf_counter()
            envs.step(actions)
            elapsed += time.perf_counter() - start
            steps += num_envs
        rss, pss = memory_tree_mib(os.getpid())
    finally:
        envs.close()
    return {
        "first_reset_s": first_reset,
        "steps_per_s": steps / elapsed,
        "rss_mib": (rss - rss0) / num_envs,
        "pss_mib": (pss - pss0) / num_envs,
    }


def scienceworld_jvm(mode: str | None) -> dict[str, Any]:
    """``--scienceworld-jvm own|shared``: the ScienceWorld envs in this process (a sync vector env), each with a
    JVM of its own or all sharing the process's JVM pool (``jvm="shared"``); unset: the async vector env."""
    return {} if mode is None else {"jvm": mode}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", nargs="*", default=list(FAMILIES), choices=list(FAMILIES))
    parser.add_argument("--envs", nargs="*", type=int, default=[1, 8, 64])
    parser.add_argument("--seconds", type=float, default=20.0, help="stepping time per measurement")
    parser.add_argument(
        "--scienceworld-jvm",
        choices=["own", "shared"],
        help="ScienceWorld envs in this process, a JVM each (own) or one shared JVM (shared)",
    )
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    print(
        f"{'family':13s} {'envs':>4s} {'first reset s':>13s} {'steps/s':>8s} {'RSS MiB/env':>11s} {'PSS MiB/env':>11s}"
    )
    for family in args.families:
        for count in args.envs:
            try:
                extra = scienceworld_jvm(args.scienceworld_jvm) if family == "scienceworld" else {}
                row = measure(FAMILIES[family], count, args.seconds, **extra)
            except Exception as error:  # noqa: BLE001 - a size that does not fit is a figure too
                print(f"{family:13s} {count:4d} failed: {type(error).__name__}: {str(error)[:80]}", flush=True)
                continue
            print(
                f"{family:13s} {count:4d} {row['first_reset_s']:13.2f} {row['steps_per_s']:8.1f} "
                f"{row['rss_mib']:11.0f} {row['pss_mib']:11.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
