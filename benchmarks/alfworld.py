"""AgentBoard/AlfWorld-v0: reset (cold/warm), step against textworld's PddlEnv, generation time, cache size.

The raw side is the official stack (textworld ``PddlEnv`` + alfworld's ``AlfredDemangler``, admissible commands
requested) on the same generated game and the same command sequence (a seeded random agent over the admissible
commands, biased away from ``go to``, with expert actions mixed in). "engine" is our grounded engine alone
(``World.step`` + ``admissible()`` + ``won()``); "text env" is ``gym.make`` with everything the env adds (action
parsing, subgoal progress, the info dict with the admissible list, the step-limit wrapper). "AgentBench
protocol" is ``gym.make("AgentBench/ALFWorld-v0")`` on the same game and commands, each sent as a reply
``THOUGHT: ...`` + ``ACTION: <command>`` (AVAILABLE ACTIONS text, reply parsing, the repeat rule), and again with
every command a near miss (a word added) that the BLEU mapping brings back to an admissible one.

    .venv/bin/python benchmarks/alfworld.py [--games 4] [--steps 40]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# this file is named alfworld.py: keep its folder off the path so that `import alfworld` finds the package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import gymnasium as gym  # noqa: E402

import agentgym_text  # noqa: F401,E402
from agentgym_text.envs.alfworld.engine import World  # noqa: E402
from agentgym_text.envs.alfworld.expert import expert_command  # noqa: E402
from agentgym_text.envs.alfworld.gamefile import pddl_problem  # noqa: E402
from agentgym_text.envs.alfworld.generator import generate_world  # noqa: E402
from agentgym_text.envs.alfworld.official import OfficialGame  # noqa: E402
from agentgym_text.envs.alfworld.tasks import DEFAULT_COUNTS, task_specs  # noqa: E402

_COLD = """
import time, gymnasium as gym, agentgym_text
t = time.perf_counter(); env = gym.make("AgentBoard/AlfWorld-v0"); made = time.perf_counter() - t
t = time.perf_counter(); env.reset(options={"task_index": 0}); print(made, time.perf_counter() - t)
"""


def _commands(world: dict, steps: int, seed: int) -> list[str]:
    engine, rng, commands = World(world), random.Random(seed), []
    for _ in range(steps):
        admissible = engine.admissible()
        others = [c for c in admissible if not c.startswith("go to")]
        roll = rng.random()
        command = (
            (expert_command(engine) or "look")
            if roll < 0.3
            else (rng.choice(others) if roll < 0.6 and others else rng.choice(admissible))
        )
        engine.step(command)
        commands.append(command)
    return commands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per side for the step comparison")
    parser.add_argument("--steps", type=int, default=40)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as cache:
        environ = {**os.environ, "AGENTGYM_TEXT_CACHE": cache, "AGENTGYM_TEXT_QUIET": "1"}
        first = subprocess.run([sys.executable, "-c", _COLD], env=environ, capture_output=True, text=True, check=True)
        build, cold_reset = map(float, first.stdout.split())
        again = subprocess.run([sys.executable, "-c", _COLD], env=environ, capture_output=True, text=True, check=True)
        make_warm, cold_reset_cached = map(float, again.stdout.split())
        size = sum(p.stat().st_size for p in Path(cache).rglob("*") if p.is_file())
        files = sum(1 for p in Path(cache).rglob("*") if p.is_file())
    print(f"first gym.make (builds 134 games into an empty cache): {build:.2f} s; later gym.make: {make_warm:.2f} s")
    print(f"cache: {size / 1e6:.1f} MB in {files} files (134 games: world.json, problem.pddl, traj_data.json)")
    print(
        f"first reset in a fresh process (game read from the cache): {cold_reset * 1000:.1f} ms "
        f"(with the cache already built: {cold_reset_cached * 1000:.1f} ms)"
    )

    triples = task_specs()
    t = time.perf_counter()
    for short, floorplan, seed in triples:
        pddl_problem(generate_world(floorplan, short, seed))
    print(f"generation (world + PDDL problem): {(time.perf_counter() - t) / len(triples) * 1000:.1f} ms per game")

    env = gym.make("AgentBoard/AlfWorld-v0")
    times = []
    for index in range(len(triples)):
        t = time.perf_counter()
        env.reset(options={"task_index": index})
        times.append(time.perf_counter() - t)
    warm = []
    for index in range(len(triples)):
        t = time.perf_counter()
        env.reset(options={"task_index": index})
        warm.append(time.perf_counter() - t)
    print(
        f"reset, first time per task in a process: median {statistics.median(times) * 1000:.2f} ms, "
        f"max {max(times) * 1000:.2f} ms; warm: median {statistics.median(warm) * 1000:.3f} ms, "
        f"max {max(warm) * 1000:.2f} ms"
    )

    kinds = list(DEFAULT_COUNTS)
    # game i: the i-th default task of type i mod 6, so types and floor plans (kitchen to bathroom) both vary
    chosen = [[t for t in triples if t[0] == kinds[i % len(kinds)]][i] for i in range(args.games)]
    official_load, official_reset, official_step, engine_step, env_step = [], [], [], [], []
    bench = gym.make("AgentBench/ALFWorld-v0", max_episode_steps=args.steps + 1)
    bench_step, mapped_step = [], []
    for short, floorplan, seed in chosen:
        world = generate_world(floorplan, short, seed)
        commands = _commands(world, args.steps, seed)
        t = time.perf_counter()
        official = OfficialGame(world)
        official_load.append(time.perf_counter() - t)
        t = time.perf_counter()
        official.reset()
        official_reset.append(time.perf_counter() - t)
        t = time.perf_counter()
        for command in commands:
            official.step(command)
        official_step.append((time.perf_counter() - t) / len(commands))
        official.close()
        engine = World(world)
        t = time.perf_counter()
        for command in commands:
            engine.step(command)
            engine.admissible()
            engine.won()
        engine_step.append((time.perf_counter() - t) / len(commands))
        task_id = f"alfworld-{short}-FloorPlan{floorplan}-{seed}"
        env.reset(options={"task_id": task_id})
        t = time.perf_counter()
        for command in commands:
            env.step(command)
        env_step.append((time.perf_counter() - t) / len(commands))
        for near, times in ((False, bench_step), (True, mapped_step)):
            bench.reset(options={"task_id": task_id})
            t = time.perf_counter()
            for number, command in enumerate(commands):
                words = command.split()
                sent = " ".join([*words[:2], "the", *words[2:]]) if near else command
                bench.step(f"THOUGHT: step {number}.\nACTION: {sent}")
            times.append((time.perf_counter() - t) / len(commands))
        print(
            f"  {task_id}: official {official_step[-1] * 1000:.1f} ms/step, engine "
            f"{engine_step[-1] * 1000:.3f} ms/step, text env {env_step[-1] * 1000:.3f} ms/step"
        )
    mean = statistics.mean
    print(
        f"official stack: load {mean(official_load):.2f} s, reset {mean(official_reset):.2f} s, "
        f"step {mean(official_step) * 1000:.1f} ms ({1 / mean(official_step):.0f} steps/s)"
    )
    print(
        f"our engine    : step {mean(engine_step) * 1000:.3f} ms ({1 / mean(engine_step):.0f} steps/s, "
        f"{mean(official_step) / mean(engine_step):.0f}x the official stack)"
    )
    print(
        f"text env      : step {mean(env_step) * 1000:.3f} ms ({1 / mean(env_step):.0f} steps/s, "
        f"{mean(official_step) / mean(env_step):.0f}x the official stack)"
    )
    print(
        f"AgentBench protocol: step {mean(bench_step) * 1000:.3f} ms ({mean(official_step) / mean(bench_step):.0f}x "
        f"the official stack); near misses mapped by BLEU: {mean(mapped_step) * 1000:.2f} ms "
        f"({mean(official_step) / mean(mapped_step):.0f}x)"
    )


if __name__ == "__main__":
    main()
