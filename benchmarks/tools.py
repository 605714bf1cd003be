"""Throughput of the tool envs: env steps/s per tool vs raw backend calls/s.

Usage: .venv/bin/python benchmarks/tools.py [--seconds 2.0]

For each tool, every shipped task is replayed with its expert's actions (the golden calls and finish),
once through ``gym.make`` (all wrappers) and once as bare backend calls on a fresh toolkit (the "raw
engine": argument conversion + the call, no parsing, rendering, progress or info). A third column runs
a mix of invalid actions (bad JSON, unknown function, wrong type) to show the rejection path's cost.
Times are CPU time of this process (``time.process_time``), i.e. throughput of one core, so other load
on a shared machine distorts them less than wall-clock time would.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym

import agentgym_text  # noqa: F401  (registers the ids)
from agentgym_text.envs.tools.actions import Call
from agentgym_text.envs.tools.catalog import OPERATION_TOOLS, QUERY_TOOLS
from agentgym_text.envs.tools.task_builder import run_calls, toolkit_class

_INVALID = (
    "get_everything with Action Input: {}",
    'finish with Action Input: {"answer": ',
    "finish with Action Input: {'answer': __import__('os')}",
    'finish with Action Input: {"answer": "x", "extra": 1}',
    "not a call at all",
)


def _expert_scripts(env: gym.Env) -> list[tuple[str, list[str]]]:
    scripts = []
    for task_id in env.unwrapped.task_ids:
        env.reset(options={"task_id": task_id})
        actions = []
        while not env.unwrapped.episode_over:
            action = env.unwrapped.expert_action()
            actions.append(action)
            env.step(action)
        scripts.append((task_id, actions))
    return scripts


def _env_rate(env: gym.Env, scripts, seconds: float) -> tuple[float, float]:
    steps = resets = 0
    step_time = reset_time = 0.0
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        for task_id, actions in scripts:
            start = time.process_time()
            env.reset(options={"task_id": task_id})
            middle = time.process_time()
            for action in actions:
                env.step(action)
            end = time.process_time()
            reset_time += middle - start
            step_time += end - middle
            steps += len(actions)
            resets += 1
    return steps / step_time, resets / reset_time


def _invalid_rate(env: gym.Env, seconds: float) -> float:
    env.reset(options={"task_index": 0})
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for action in _INVALID:
            env.step(action)
        steps += len(_INVALID)
    return steps / (time.process_time() - start)


def _raw_rate(env: gym.Env, seconds: float) -> float:
    tasks = list(env.unwrapped.tasks)
    calls = 0
    elapsed = 0.0
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        for task in tasks:
            params = task.params
            toolkit = toolkit_class(params["tool"])(params["config"])
            golden = [Call(name, args) for name, args in params["calls"]]
            start = time.process_time()
            run_calls(toolkit, golden)
            elapsed += time.process_time() - start
            toolkit.close()
            calls += len(golden)
    return calls / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    options = parser.parse_args()
    print(f"{'tool':<10}{'env steps/s':>14}{'raw calls/s':>14}{'env/raw':>9}{'resets/s':>11}{'invalid steps/s':>17}")
    for env_id, tools in (("AgentBoard/ToolQuery-v0", QUERY_TOOLS), ("AgentBoard/ToolOperation-v0", OPERATION_TOOLS)):
        for tool in tools:
            env = gym.make(env_id, tool=tool, max_episode_steps=10**9)
            scripts = _expert_scripts(env)
            steps_per_s, resets_per_s = _env_rate(env, scripts, options.seconds)
            raw = _raw_rate(env, options.seconds)
            invalid = _invalid_rate(env, options.seconds)
            print(
                f"{tool:<10}{steps_per_s:>14,.0f}{raw:>14,.0f}{steps_per_s / raw:>9.2f}{resets_per_s:>11,.0f}"
                f"{invalid:>17,.0f}"
            )
            env.close()


if __name__ == "__main__":
    main()
