"""Step latency of the game ids with a host/opponent, and the card game's seeded expert-vs-opponent match.

Usage: .venv/bin/python benchmarks/games.py [--seconds 2.0] [--match 1000] [--depth 1]

Latency: every shipped task is replayed with its expert's actions through ``gym.make`` (all wrappers);
the per-step time is CPU time (``time.process_time``) divided by steps, for the expert's replayed actions
and for a seeded random agent over the admissible actions. The lateral-thinking figures use the default
fact-matching host (an LLM host's latency is the model's). The card game's expert-action latency (its
search) is timed separately.

Match: ``--match N`` plays N card games between the expert and the built-in opponent on the first N
tasks of the train split (lineups and opponent seeds drawn from a fixed seed), and a seeded random agent
on the same games, and prints the win rates.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import agentgym_text  # noqa: F401  (registers the ids)

IDS = ("AgentBench/LateralThinking-v0", "AgentQuest/LateralThinking-v0", "AgentBench/CardGame-v0")


def _expert_scripts(env: gym.Env) -> tuple[list[tuple[str, list[str]]], float, int]:
    scripts, expert_time, calls = [], 0.0, 0
    for task_id in env.unwrapped.task_ids:
        env.reset(options={"task_id": task_id})
        actions = []
        while not env.unwrapped.episode_over:
            start = time.process_time()
            action = env.unwrapped.expert_action()
            expert_time += time.process_time() - start
            calls += 1
            actions.append(action)
            env.step(action)
        scripts.append((task_id, actions))
    return scripts, expert_time, calls


def _replay_rate(env: gym.Env, scripts, seconds: float) -> float:
    steps, spent = 0, 0.0
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        for task_id, actions in scripts:
            env.reset(options={"task_id": task_id})
            start = time.process_time()
            for action in actions:
                env.step(action)
            spent += time.process_time() - start
            steps += len(actions)
    return spent / steps


def _random_rate(env: gym.Env, seconds: float) -> float:
    steps, spent, episode = 0, 0.0, 0
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        rng = np.random.default_rng(episode)
        env.reset(seed=episode)
        done = False
        while not done:
            actions = env.unwrapped.admissible_actions() or ["check valid actions"]
            action = actions[int(rng.integers(len(actions)))]
            start = time.process_time()
            _, _, terminated, truncated, _ = env.step(action)
            spent += time.process_time() - start
            steps += 1
            done = terminated or truncated
        episode += 1
    return spent / steps


def latency(seconds: float) -> None:
    print(f"{'id':34} {'expert step':>12} {'random step':>12} {'expert decision':>16}")
    for env_id in IDS:
        env = gym.make(env_id)
        scripts, expert_time, calls = _expert_scripts(env)
        replay = _replay_rate(env, scripts, seconds)
        random = _random_rate(env, seconds)
        print(f"{env_id:34} {replay * 1e6:>10.0f}us {random * 1e6:>10.0f}us {expert_time / calls * 1e3:>14.2f}ms")
        env.close()


def match(games: int, depth: int) -> None:
    from agentgym_text.envs.cardgame.env import CardGameEnv

    env = CardGameEnv(split="train", num_tasks=max(games, 1), expert_depth=depth)
    results = {"expert": [], "random": []}
    rounds = []
    start = time.perf_counter()
    for index in range(games):
        env.reset(options={"task_index": index})
        while not env.episode_over:
            env.step(env.expert_action())
        results["expert"].append(env.match.result)
        rounds.append(env.match.game.round)
        rng = np.random.default_rng(index)
        env.reset(options={"task_index": index})
        while not env.episode_over:
            actions = env.admissible_actions()
            env.step(actions[int(rng.integers(len(actions)))])
        results["random"].append(env.match.result)
    elapsed = time.perf_counter() - start
    for player, outcome in results.items():
        wins = sum(r == 0 for r in outcome)
        draws = sum(r == -1 for r in outcome)
        print(
            f"{player:7} vs built-in opponent: {wins}/{games} won ({wins / games:.1%}), {draws} draws, "
            f"{games - wins - draws} lost"
        )
    print(f"expert games last {np.mean(rounds):.1f} rounds on average; {elapsed:.1f}s for {games} games of each")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--match", type=int, default=0, help="play this many card games (0: latency only)")
    parser.add_argument("--depth", type=int, default=1, help="the card-game expert's search depth")
    args = parser.parse_args()
    if args.match:
        match(args.match, args.depth)
    else:
        latency(args.seconds)


if __name__ == "__main__":
    main()
