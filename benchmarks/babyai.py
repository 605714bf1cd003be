"""BabyAI throughput: the text env against raw minigrid, measured the same way in one run; "go to" latency; the
cost of listing admissible actions.

Both sides play the same level instances (the text env's engine seed for ``reset(seed=e)`` is derived the way
the base class derives it, and the benchmark checks that both grids, agent positions and missions are equal),
the same random low-level action sequence per episode (the text env gets the action names), episodes of at most
``--episode-steps`` steps ended early on termination, and only the CPU time of the ``step`` calls counts (CPU
time, not wall-clock: this machine is shared, and wall-clock rates moved 3x with the load of other work). Both are made
with ``gymnasium.make`` (default: minigrid's id with its wrappers; ``AgentBoard/BabyAI-v0`` with ``level=``) or,
with ``--unwrapped``, both are the bare env classes. Raw and text episodes alternate so that load on the machine
affects both alike.

Run: .venv/bin/python benchmarks/babyai.py [--level GoToLocal] [--episodes 300] [--unwrapped]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import time

import gymnasium as gym
import numpy as np

import agentgym_text  # noqa: F401  (registers the ids)
from agentgym_text.envs.babyai.env import BabyAIEnv
from agentgym_text.envs.babyai.levels import engine_id

__all__ = ["engine_seed", "compare_throughput", "goto_latencies_ms", "listing_costs_ms"]

_LOW_LEVEL_TEXT = ("turn left", "turn right", "move forward", "pick up", "drop", "toggle")


def engine_seed(seed: int) -> int:
    """The minigrid seed the text env uses for ``reset(seed=seed)`` of a procedural level (as ``TextEnv`` draws it)."""
    return int(np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed))).integers(2**31 - 1))


def _quiet():
    """minigrid's level generation prints rejected samples to stdout (the text env's engine logs them instead)."""
    return contextlib.redirect_stdout(io.StringIO())


def _actions(episode: int, steps: int) -> list[int]:
    # mostly moves, like an exploring agent; pickup/drop/toggle now and then
    rng = np.random.default_rng([7, episode])
    return [int(a) for a in rng.choice(6, size=steps, p=[0.25, 0.25, 0.35, 0.05, 0.05, 0.05])]


def _make_pair(level: str, unwrapped: bool, list_admissible: bool):
    with _quiet():
        raw = gym.make(engine_id(level))
    if unwrapped:
        return raw.unwrapped, BabyAIEnv(level=level, list_admissible_actions=list_admissible)
    return raw, gym.make("AgentBoard/BabyAI-v0", level=level, list_admissible_actions=list_admissible)


def _same_instance(raw, text) -> None:
    engine, mine = raw.unwrapped, text.unwrapped.world.env
    assert engine.mission == mine.mission
    assert np.array_equal(engine.grid.encode(), mine.grid.encode())
    assert tuple(engine.agent_pos) == tuple(mine.agent_pos) and engine.agent_dir == mine.agent_dir


def compare_throughput(
    level: str, episodes: int, episode_steps: int, unwrapped: bool, list_admissible: bool
) -> tuple[float, float, int]:
    """(raw steps/s, text steps/s, steps per side) over the same episodes."""
    raw, text = _make_pair(level, unwrapped, list_admissible)
    raw_time = text_time = 0.0
    raw_steps = text_steps = 0
    for episode in range(episodes):
        with _quiet():
            raw.reset(seed=engine_seed(episode))
        text.reset(seed=episode)
        _same_instance(raw, text)
        actions = _actions(episode, episode_steps)
        start = time.thread_time()
        for action in actions:
            raw_steps += 1
            _, _, terminated, truncated, _ = raw.step(action)
            if terminated or truncated:
                break
        raw_time += time.thread_time() - start
        names = [_LOW_LEVEL_TEXT[action] for action in actions]
        start = time.thread_time()
        for name in names:
            text_steps += 1
            _, _, terminated, truncated, _ = text.step(name)
            if terminated or truncated:
                break
        text_time += time.thread_time() - start
        assert tuple(raw.unwrapped.agent_pos) == tuple(text.unwrapped.world.env.agent_pos), episode
    assert raw_steps == text_steps, (raw_steps, text_steps)
    return raw_steps / raw_time, text_steps / text_time, raw_steps


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

        def distance(action: str, world=world, reach=reach) -> int:
            obj = world.perception.names.get(action[len("go to ") :])
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


def listing_costs_ms(level: str | None, episodes: int, steps: int = 30) -> list[float]:
    """CPU time of listing the admissible actions after each random valid step (the list recomputed each time), in
    this package's text (AgentBoard's text lists the actions its view computed for the description)."""
    env = BabyAIEnv(level=level, list_admissible_actions=False, text_format="clear")
    rng = np.random.default_rng(0)
    costs = []
    for episode in range(episodes):
        options = {"task_index": episode % len(env.task_ids)}
        env.reset(seed=episode, options=options)
        for _ in range(steps):
            if env.episode_over:
                break
            env.world._admissible = None  # measure the listing, not its per-step cache
            start = time.thread_time()
            actions = env.admissible_actions()
            costs.append((time.thread_time() - start) * 1000)
            env.step(actions[int(rng.integers(len(actions)))])
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--level", default="GoToLocal")
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--episode-steps", type=int, default=50)
    parser.add_argument("--unwrapped", action="store_true", help="both sides unwrapped (default: both gym.make)")
    parser.add_argument("--goto-episodes", type=int, default=300)
    args = parser.parse_args()

    how = "both unwrapped" if args.unwrapped else "both through gymnasium.make"
    results = {
        listing: compare_throughput(args.level, args.episodes, args.episode_steps, args.unwrapped, listing)
        for listing in (True, False)
    }
    steps = results[True][2]
    print(
        f"level {args.level}, {how}, {args.episodes} episodes (seeds 0..{args.episodes - 1}, same instances), "
        f"same random low-level actions, {steps} steps per side; CPU time of step() calls only"
    )
    for listing, label in ((True, "admissible list in info (default)"), (False, "list_admissible_actions=False")):
        raw, text, _ = results[listing]
        print(f"raw minigrid {raw:8.0f} steps/s | text env, {label:34s} {text:8.0f} steps/s  ({text / raw:.2f}x raw)")

    for level, label in ((None, "AgentBoard's 112 tasks"), ("BossLevel", "BossLevel")):
        costs = sorted(listing_costs_ms(level, 112 if level is None else 30))
        print(
            f"admissible-action listing, {label}: mean {statistics.mean(costs):.3f} ms, median "
            f"{statistics.median(costs):.3f} ms, p95 {costs[int(0.95 * (len(costs) - 1))]:.3f} ms "
            f"(CPU time, {len(costs)} states)"
        )

    for explore in (0, 4):
        latencies, walked = goto_latencies_ms(args.goto_episodes, explore_steps=explore)
        if not latencies:
            continue
        latencies_sorted = sorted(latencies)
        p95 = latencies_sorted[int(0.95 * (len(latencies_sorted) - 1))]
        print(
            f"'go to' farthest known object, BossLevel 22x22, after {explore} expert steps, {len(latencies)} "
            f"episodes (mean {statistics.mean(walked):.1f}, max {max(walked)} low-level steps walked):"
        )
        print(
            f"  latency mean {statistics.mean(latencies):.2f} ms, median {statistics.median(latencies):.2f} ms, "
            f"p95 {p95:.2f} ms, max {max(latencies):.2f} ms"
        )


if __name__ == "__main__":
    main()
