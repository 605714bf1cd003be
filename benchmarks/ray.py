"""Ray vector env: episodes/s with 1, 2 and 4 workers (actors) against the sync vector env, and the overhead per
step on a 0.1 ms env.

- Scaling: a millisecond-scale single-threaded env, ``AgentBoard/BabyAI-v0`` (~1 ms a step with the admissible
  listing the info carries; ALFWorld steps in 0.04 ms here), ``--scaling-env
  TextWorld/Cooking-v0`` (~8 ms) or ``AgentBoard/PDDL-v0`` Barman (~0.1 ms a step); ``--num-envs`` sub-envs, episodes cut at
  ``--episode-steps`` steps, a seeded random policy over each sub-env's admissible actions (chosen in the
  driver). The same sub-envs run in ``gym.make_vec(..., "sync")`` in this process and in ``RayVectorEnv`` with 1,
  2 and 4 actors (num_envs / workers sub-envs each), in the same run, after a warm-up (every task reset once in
  every process: PDDL grounds each problem there), interleaved ``--repeats`` times (best of the repeats kept).
- Overhead: ``AgentQuest/Mastermind-v0`` (~0.1 ms a step): time per vector step of ``RayVectorEnv`` against the
  sync vector env, with one sub-env, and per sub-env step with 8 sub-envs in one actor.

Ray is started here on this machine (all its CPUs, no dashboard). First the script measures the machine's own
ceiling: how much faster two plain processes do pure-Python work than one (a 2-vCPU VM whose vCPUs share a host
gives less than 2x), the most any 2-worker row can reach.

    .venv/bin/python benchmarks/ray.py [--scaling-env ID] [--num-envs 8] [--episodes 32] [--repeats 2] [--parts scaling,overhead]
    .venv/bin/python benchmarks/ray.py --parts scienceworld [--sw-steps 200]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

# this file is named ray.py: drop its folder from the path so that ``import ray`` finds Ray, not this script
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402

import agentgym_text  # noqa: F401, E402  (registers the ids)
from agentgym_text.integrations.ray import RayVectorEnv, init_ray  # noqa: E402

__all__ = ["main"]

PDDL = "AgentBoard/PDDL-v0"
BABYAI = "AgentBoard/BabyAI-v0"
COOKING = "TextWorld/Cooking-v0"
MASTERMIND = "AgentQuest/Mastermind-v0"


def _play(envs: gym.vector.VectorEnv, episodes: int, policy_seed: int) -> tuple[float, int]:
    """Random admissible actions until ``episodes`` episodes ended; returns (wall s, steps)."""
    rng = random.Random(policy_seed)
    started = time.perf_counter()
    _, infos = envs.reset(seed=list(range(envs.num_envs)))
    ended = steps = 0
    restarting = np.zeros(envs.num_envs, dtype=bool)
    while ended < episodes:
        listings = infos.get("admissible_actions")
        actions = []
        for i in range(envs.num_envs):
            options = list(listings[i]) if listings is not None and infos["_admissible_actions"][i] else []
            actions.append(rng.choice(options) if options else "check valid actions")
        _, _, terminated, truncated, infos = envs.step(actions)
        steps += int(np.sum(~restarting))
        restarting = terminated | truncated
        ended += int(np.sum(restarting))
    return time.perf_counter() - started, steps


def _scaling(args: argparse.Namespace) -> None:
    env_id = args.scaling_env
    make_kwargs = {"max_episode_steps": args.episode_steps, **({"domain": "barman"} if env_id == PDDL else {})}
    configs: list[tuple[str, int]] = [("sync", 1)] + [("ray", w) for w in (1, 2, 4) if args.num_envs % w == 0]
    print(
        f"{env_id}{' barman' if env_id == PDDL else ''}, {args.num_envs} sub-envs, {args.episodes} episodes of up "
        f"to {args.episode_steps} random admissible steps per row, best of {args.repeats}"
    )
    built: dict[tuple[str, int], gym.vector.VectorEnv] = {}
    for mode, workers in configs:
        if mode == "sync":
            built[mode, workers] = gym.make_vec(
                env_id, num_envs=args.num_envs, vectorization_mode="sync", **make_kwargs
            )
        else:
            built[mode, workers] = RayVectorEnv(
                env_id, args.num_envs, envs_per_actor=args.num_envs // workers, **make_kwargs
            )
    best: dict[tuple[str, int], tuple[float, int]] = {}
    try:
        for key in configs:  # warm-up: every task once in every process (PDDL grounds its problems)
            for index in range(len(built[key].get_attr("task_ids")[0])):
                built[key].reset(options={"task_index": index})
            _play(built[key], args.num_envs, policy_seed=1000)
        for repeat in range(args.repeats):
            for key in configs:
                wall, steps = _play(built[key], args.episodes, policy_seed=repeat)
                if key not in best or wall < best[key][0]:
                    best[key] = (wall, steps)
    finally:
        for envs in built.values():
            envs.close()
    base = args.episodes / best["sync", 1][0]
    one = args.episodes / best["ray", 1][0]
    print(
        f"{'backend':<8} {'workers':>7} {'steps':>6} {'wall s':>7} {'episodes/s':>10} {'steps/s':>8} "
        f"{'vs sync':>7} {'vs 1 worker':>11}"
    )
    for mode, workers in configs:
        wall, steps = best[mode, workers]
        rate = args.episodes / wall
        print(
            f"{mode:<8} {workers:>7} {steps:>6} {wall:>7.2f} {rate:>10.2f} {steps / wall:>8.0f} "
            f"{rate / base:>6.2f}x {rate / one:>10.2f}x"
        )


def _busy(iterations: int) -> int:
    total = 0
    for i in range(iterations):
        total += i * i
    return total


def _machine_ceiling(repeats: int = 5, iterations: int = 8_000_000) -> float:
    """What two processes of pure-Python work get on this machine against one (fastest of ``repeats`` on each
    side): the most any 2-worker setup can reach here, whatever runs the workers."""
    import multiprocessing

    one, two = float("inf"), float("inf")
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.map(_busy, [1000, 1000])  # start both workers before timing
        for _ in range(repeats):
            started = time.perf_counter()
            _busy(iterations)
            one = min(one, time.perf_counter() - started)
            started = time.perf_counter()
            pool.map(_busy, [iterations, iterations])
            two = min(two, time.perf_counter() - started)
    return 2 * one / two


def _per_step_ms(envs: gym.vector.VectorEnv, steps: int) -> float:
    envs.reset(seed=list(range(envs.num_envs)))
    actions = ["guess 1234"] * envs.num_envs
    started = time.perf_counter()
    for _ in range(steps):
        envs.step(actions)
    return 1000 * (time.perf_counter() - started) / steps


def _overhead(args: argparse.Namespace) -> None:
    print(f"\n{MASTERMIND}, {args.overhead_steps} vector steps (invalid-free guesses; next-step autoreset)")
    print(
        f"{'sub-envs':>8} {'sync ms/step':>12} {'ray ms/step':>11} {'overhead ms per vector step':>27} "
        f"{'per sub-env step':>16}"
    )
    for count in (1, 8):
        sync = gym.make_vec(MASTERMIND, num_envs=count, vectorization_mode="sync")
        remote = RayVectorEnv(MASTERMIND, count, envs_per_actor=count)
        try:
            _per_step_ms(remote, 50)  # warm-up
            sync_ms = _per_step_ms(sync, args.overhead_steps)
            ray_ms = _per_step_ms(remote, args.overhead_steps)
        finally:
            sync.close()
            remote.close()
        print(
            f"{count:>8} {sync_ms:>12.3f} {ray_ms:>11.3f} {ray_ms - sync_ms:>27.3f} {(ray_ms - sync_ms) / count:>16.3f}"
        )


def _scienceworld(args: argparse.Namespace) -> None:
    """Two ScienceWorld sub-envs (one JVM each) following the expert: sync in this process, one actor holding
    both, one actor each."""
    env_id = "AgentBoard/ScienceWorld-v0"
    print(
        f"\n{env_id}, 2 sub-envs following the expert, {args.sw_steps} vector steps after {args.sw_steps // 4} "
        "warm-up steps"
    )
    print(f"{'backend':<8} {'workers':>7} {'sub-env steps/s':>15}")
    for mode, workers in (("sync", 1), ("ray", 1), ("ray", 2)):
        envs = (
            gym.make_vec(env_id, num_envs=2, vectorization_mode="sync")
            if mode == "sync"
            else RayVectorEnv(env_id, 2, envs_per_actor=2 // workers)
        )
        try:
            envs.reset(seed=[0, 1])
            for count, timed in ((args.sw_steps // 4, False), (args.sw_steps, True)):
                started = time.perf_counter()
                for _ in range(count):
                    envs.step([action or "look around" for action in envs.call("expert_action")])
                if timed:
                    print(f"{mode:<8} {workers:>7} {2 * count / (time.perf_counter() - started):>15.1f}")
        finally:
            envs.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--scaling-env",
        default=BABYAI,
        choices=(BABYAI, COOKING, PDDL),
        help="the scaling part's env: BabyAI (~1 ms a step, pure Python), TextWorld Cooking (~8 ms) "
        "or PDDL Barman (~0.1 ms)",
    )
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--episodes", type=int, default=32, help="episodes per scaling row")
    parser.add_argument("--episode-steps", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--overhead-steps", type=int, default=1000)
    parser.add_argument(
        "--parts",
        default="scaling,overhead",
        help="comma-separated: scaling, overhead, scienceworld (2 JVMs, reported only)",
    )
    parser.add_argument("--sw-steps", type=int, default=200)
    args = parser.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    started = time.perf_counter()
    print(f"this machine's ceiling: two processes of pure-Python work run {_machine_ceiling():.2f}x one")
    init_ray()
    print(f"Ray started in {time.perf_counter() - started:.1f} s ({os.cpu_count()} CPUs)")
    parts = args.parts.split(",")
    for name, part in (("scaling", _scaling), ("overhead", _overhead), ("scienceworld", _scienceworld)):
        if name in parts:
            part(args)


if __name__ == "__main__":
    main()
