"""Playing an id's expert episodes in threads of one process, as ``tests/test_thread_safety.py`` checks them: the
episodes as JSON lines, and the harness its fresh child process runs (``run_threads``)."""

from __future__ import annotations

import json
import os
import sys
import threading
import traceback
import warnings
from pathlib import Path
from typing import Any

import gymnasium as gym

from agentgym_text.wrappers.recorder import to_jsonable

__all__ = ["SWITCH_INTERVAL", "THREADS", "Trajectory", "play_episode", "run_threads"]

THREADS = 4

SWITCH_INTERVAL = 1e-5
"""Seconds a thread holds the GIL before another may take it (Python's default is 5 ms): threads interleave often,
even in pure-Python episodes that would otherwise fit into one turn."""

Trajectory = list[str]


def play_episode(env: gym.Env, task_id: str, max_steps: int) -> Trajectory:
    """The expert's episode as JSON lines (the reset, then each action with its step's result)."""
    obs, info = env.reset(seed=0, options={"task_id": task_id})
    lines = [json.dumps(to_jsonable(["reset", obs, info]), sort_keys=True)]
    for _ in range(max_steps):
        action = env.unwrapped.expert_action()
        if action is None:
            break
        obs, reward, terminated, truncated, info = env.step(action)
        lines.append(json.dumps(to_jsonable([action, obs, reward, terminated, truncated, info]), sort_keys=True))
        if terminated or truncated:
            break
    return lines


def _global_state() -> dict[str, Any]:
    return {
        "sys.stdout": sys.stdout,
        "sys.stderr": sys.stderr,
        "working directory": os.getcwd(),
        "warnings filters": list(warnings.filters),
        "os.environ": dict(os.environ),
    }


def _changes(before: dict[str, Any], keys: tuple[str, ...]) -> list[str]:
    after = _global_state()
    changed = []
    for key in keys:
        same = after[key] is before[key] if key.startswith("sys.") else after[key] == before[key]
        if not same:
            changed.append(f"{key}: {before[key]!r} -> {after[key]!r}"[:2000])
    return changed


def run_threads(env_id: str, task_ids: list[str], max_steps: int, per_round: int, output: str) -> None:
    """In the fresh process: the two rounds in ``THREADS`` threads, each playing ``per_round`` of ``task_ids`` per
    round; writes the episodes, the errors and the global-state changes to ``output``."""
    cold = _global_state()
    warm: dict[str, Any] = {}
    barrier = threading.Barrier(THREADS, action=lambda: warm.update(_global_state()))
    episodes: dict[str, Trajectory] = {}
    errors: dict[str, str] = {}

    def play(index: int) -> None:
        env = None
        try:
            env = gym.make(env_id)
            for round_ in range(2):
                barrier.wait()  # the second wait ends the cold round: its action records the warm state
                start = (index + round_) % len(task_ids)
                for task_id in (task_ids[start:] + task_ids[:start])[:per_round]:
                    episodes[f"thread {index}, round {round_}, {task_id}"] = play_episode(env, task_id, max_steps)
        except BaseException as error:
            errors[f"thread {index}"] = "".join(traceback.format_exception(error))
            barrier.abort()
        finally:
            if env is not None:
                env.close()

    threads = [threading.Thread(target=play, args=(index,)) for index in range(THREADS)]
    sys.setswitchinterval(SWITCH_INTERVAL)
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    changes = _changes(cold, ("sys.stdout", "sys.stderr", "working directory"))
    if warm:
        changes += _changes(warm, ("warnings filters", "os.environ"))
    Path(output).write_text(json.dumps({"episodes": episodes, "errors": errors, "changes": changes}))
