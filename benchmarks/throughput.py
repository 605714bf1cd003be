"""Throughput of every registered env: steps/s and resets/s with a random valid-action agent, the cost of
the wrappers, and sync vs async vector scaling.

    .venv/bin/python benchmarks/throughput.py                       # every env, ~2 s each
    .venv/bin/python benchmarks/throughput.py --envs AgentQuest/Sudoku-v0 --seconds 5

Only time inside ``env.step``/``env.reset`` is counted (the agent's choice of action is not). Per-family
scripts beside this one (babyai.py, pddl.py, ...) compare against the raw engines.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import agentgym_text
from agentgym_text.wrappers import HistoryWindow, RepetitionTracker


def _timed_random_steps(env: gym.Env, seconds: float, seed: int = 0) -> tuple[float, float]:
    """(steps per second, resets per second) of a random valid-action agent."""
    rng = np.random.default_rng(seed)
    step_time = reset_time = 0.0
    steps = resets = 0
    start = time.perf_counter()
    episode_seed = seed
    while time.perf_counter() - start < seconds:
        t0 = time.perf_counter()
        env.reset(seed=episode_seed)
        reset_time += time.perf_counter() - t0
        resets += 1
        episode_seed += 1
        done = False
        while not done and time.perf_counter() - start < seconds:
            actions = env.unwrapped.admissible_actions() or ["check valid actions"]
            action = actions[int(rng.integers(len(actions)))]
            t0 = time.perf_counter()
            *_, terminated, truncated, _ = env.step(action)
            step_time += time.perf_counter() - t0
            steps += 1
            done = terminated or truncated
    return steps / max(step_time, 1e-9), resets / max(reset_time, 1e-9)


def _vector_steps_per_second(env_id: str, num_envs: int, mode: str, seconds: float) -> float:
    """Sub-env steps per second of a vector env fed each sub-env's expert actions."""
    envs = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode=mode)
    try:
        envs.reset(seed=list(range(num_envs)))
        steps, elapsed = 0, 0.0
        while elapsed < seconds:
            actions = envs.call("expert_action")
            actions = [action or "check valid actions" for action in actions]
            t0 = time.perf_counter()
            envs.step(actions)
            elapsed += time.perf_counter() - t0
            steps += num_envs
        return steps / elapsed
    finally:
        envs.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", nargs="*", default=None, help="env ids (default: every registered id)")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--vector-envs", nargs="*", default=["AgentQuest/Mastermind-v0", "AgentQuest/Sudoku-v0"])
    args = parser.parse_args()
    env_ids = args.envs or [entry.env_id for entry in agentgym_text.list_envs()]

    print(f"{'env id':<30} {'steps/s':>10} {'resets/s':>10} {'wrapped steps/s':>16} {'wrapper overhead':>17}")
    for env_id in env_ids:
        bare = gym.make(env_id)
        wrapped = HistoryWindow(
            RepetitionTracker(gym.make(env_id), similarity="levenshtein", threshold=0.9), max_turns=10
        )
        steps, resets = _timed_random_steps(bare, args.seconds)
        wrapped_steps, _ = _timed_random_steps(wrapped, args.seconds)
        overhead = steps / wrapped_steps - 1.0
        print(f"{env_id:<30} {steps:>10.0f} {resets:>10.0f} {wrapped_steps:>16.0f} {overhead:>16.1%}")
        bare.close()
        wrapped.close()

    print(
        f"\n{'vector scaling (expert actions)':<30} {'single':>10} {'sync x2':>10} {'async x2':>10} {'async/sync':>11}"
    )
    for env_id in args.vector_envs:
        single = _vector_steps_per_second(env_id, 1, "sync", args.seconds)
        sync = _vector_steps_per_second(env_id, 2, "sync", args.seconds)
        asynchronous = _vector_steps_per_second(env_id, 2, "async", args.seconds)
        print(f"{env_id:<30} {single:>10.0f} {sync:>10.0f} {asynchronous:>10.0f} {asynchronous / sync:>10.2f}x")


if __name__ == "__main__":
    main()
