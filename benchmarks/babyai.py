"""BabyAI throughput: text env low-level steps/s vs raw minigrid on the same level, and "go to" latency.

Run: .venv/bin/python benchmarks/babyai.py [--steps N] [--level LEVEL]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from agentgym_text.envs.babyai.env import BabyAIEnv
from agentgym_text.envs.babyai.levels import make_engine, quiet_stdout

__all__ = ["raw_steps_per_second", "text_steps_per_second", "goto_latencies_ms"]

_LOW_LEVEL_TEXT = ("turn left", "turn right", "move forward", "pick up", "drop", "toggle")


def _action_sequence(steps: int, seed: int = 0) -> list[int]:
    # mostly moves, like an exploring agent; pickup/drop/toggle now and then
    rng = np.random.default_rng(seed)
    return [int(a) for a in rng.choice(6, size=steps, p=[0.25, 0.25, 0.35, 0.05, 0.05, 0.05])]


def raw_steps_per_second(level: str, steps: int) -> float:
    env = make_engine(level)
    actions = _action_sequence(steps)
    with quiet_stdout():
        env.reset(seed=0)
    episode = 0
    start = time.perf_counter()
    for action in actions:
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            episode += 1
            with quiet_stdout():
                env.reset(seed=episode)
    return steps / (time.perf_counter() - start)


def text_steps_per_second(level: str, steps: int, list_admissible: bool) -> float:
    env = BabyAIEnv(level=level, list_admissible_actions=list_admissible)
    actions = _action_sequence(steps)
    env.reset(seed=0)
    episode = 0
    start = time.perf_counter()
    for action in actions:
        _, _, terminated, truncated, _ = env.step(_LOW_LEVEL_TEXT[action])
        if terminated or truncated:
            episode += 1
            env.reset(seed=episode)
    return steps / (time.perf_counter() - start)


def goto_latencies_ms(episodes: int, explore_steps: int = 0) -> tuple[list[float], list[int]]:
    """Time of one "go to <farthest reachable object>" step on BossLevel (22x22), planning and walking.

    ``explore_steps`` expert actions are played first, so more of the map is known and paths are longer.
    """
    env = BabyAIEnv(level="BossLevel", list_admissible_actions=False)
    latencies, walked = [], []
    for seed in range(episodes):
        env.reset(seed=seed)
        for _ in range(explore_steps):
            if env.episode_over:
                break
            env.step(env.expert_action())
        if env.episode_over:
            continue
        world = env.world
        assert (world.env.width, world.env.height) == (22, 22)
        gotos = [a for a in env.admissible_actions() if a.startswith("go to ")]
        if not gotos:
            continue
        reach = world.reach()
        def distance(action: str) -> int:
            obj = world.perception.names.get(action[len("go to "):])
            x, y = world.position_of(obj)
            near = [reach.distance((x + dx, y + dy)) for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1))]
            return max(d for d in near if d is not None)
        action = max(gotos, key=distance)
        before = world.low_level_steps
        start = time.perf_counter()
        env.step(action)
        latencies.append((time.perf_counter() - start) * 1000)
        walked.append(world.low_level_steps - before)
    return latencies, walked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--level", default="GoToLocal")
    parser.add_argument("--goto-episodes", type=int, default=300)
    args = parser.parse_args()

    raw = raw_steps_per_second(args.level, args.steps)
    text = text_steps_per_second(args.level, args.steps, list_admissible=False)
    text_listing = text_steps_per_second(args.level, args.steps, list_admissible=True)
    print(f"level {args.level}, {args.steps} low-level steps each")
    print(f"raw minigrid                      : {raw:8.0f} steps/s")
    print(f"text env, low-level text actions  : {text:8.0f} steps/s  ({100 * text / raw:.0f}% of raw)")
    print(f"  ... with admissible list in info: {text_listing:8.0f} steps/s  ({100 * text_listing / raw:.0f}% of raw)")

    for explore in (0, 4):
        latencies, walked = goto_latencies_ms(args.goto_episodes, explore_steps=explore)
        latencies_sorted = sorted(latencies)
        p95 = latencies_sorted[int(0.95 * (len(latencies_sorted) - 1))]
        print(f"'go to' farthest known object, BossLevel 22x22, after {explore} expert steps, {len(latencies)} "
              f"episodes (mean {statistics.mean(walked):.1f}, max {max(walked)} low-level steps walked):")
        print(f"  latency mean {statistics.mean(latencies):.2f} ms, median {statistics.median(latencies):.2f} ms, "
              f"p95 {p95:.2f} ms, max {max(latencies):.2f} ms")


if __name__ == "__main__":
    main()
