"""``TrajectoryRecorder``: one JSON line per reset and per step, flushed at once so a crash loses nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

__all__ = ["TrajectoryRecorder", "to_jsonable"]


def to_jsonable(value: Any) -> Any:
    """Plain JSON types for numpy scalars/arrays, tuples and anything else (as its str)."""
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


class TrajectoryRecorder(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Append ``{"event": "reset"|"step", "episode", "step", "action", "observation", "reward", ...}`` lines.

    >>> import gymnasium as gym, agentgym_text, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "t.jsonl")
    >>> env = TrajectoryRecorder(gym.make("AgentQuest/Mastermind-v0"), path)
    >>> _ = env.reset(seed=0); _ = env.step("guess 0123"); env.close()
    >>> len(open(path).read().splitlines())
    2
    """

    def __init__(self, env: gym.Env, path: str | Path):
        gym.utils.RecordConstructorArgs.__init__(self, path=str(path))
        gym.Wrapper.__init__(self, env)
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.path.open("a", encoding="utf-8")
        self._episode = -1
        self._step = 0

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        self._episode += 1
        self._step = 0
        self._write({"event": "reset", "episode": self._episode, "step": 0, "observation": obs, "info": info})
        return obs, info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._step += 1
        self._write(
            {
                "event": "step",
                "episode": self._episode,
                "step": self._step,
                "action": action,
                "observation": obs,
                "reward": reward,
                "terminated": terminated,
                "truncated": truncated,
                "info": info,
            }
        )
        return obs, reward, terminated, truncated, info

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()
        super().close()

    def _write(self, record: dict) -> None:
        if self._file.closed:
            self._file = self.path.open("a", encoding="utf-8")
        self._file.write(json.dumps(to_jsonable(record), ensure_ascii=False) + "\n")
        self._file.flush()
