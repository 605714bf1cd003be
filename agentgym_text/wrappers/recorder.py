"""``TrajectoryRecorder``: one JSON line per reset and per step, flushed at once so a crash loses nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

__all__ = ["TrajectoryRecorder", "to_jsonable", "step_record", "STEP_FIELDS"]

STEP_FIELDS = (
    "step",
    "action",
    "observation",
    "reward",
    "terminated",
    "truncated",
    "progress_rate",
    "progress_now",
    "valid",
    "invalid_reason",
    "finish_reason",
    "repeated",
    "repetition_rate",
)
"""The fields of one step row, the same in ``TrajectoryRecorder`` files and an eval run's trajectories."""


_PLAIN = frozenset({str, int, float, bool, type(None)})


def to_jsonable(value: Any) -> Any:
    """Plain JSON types for numpy scalars/arrays, tuples and anything else (as its str)."""
    if type(value) in _PLAIN:  # the common case first (exact types: numpy's float64 subclasses float)
        return value
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


def step_record(
    step: int, action: Any, observation: Any, reward: float, terminated: bool, truncated: bool, info: dict[str, Any]
) -> dict[str, Any]:
    """One step as a row of ``STEP_FIELDS`` (plain JSON types); the raw observation where a wrapper windowed it."""
    return to_jsonable(
        {
            "step": int(step),
            "action": action,
            "observation": info.get("raw_observation", observation),
            "reward": float(reward),
            "terminated": bool(terminated),
            "truncated": bool(truncated),
            "progress_rate": info.get("progress_rate"),
            "progress_now": info.get("progress_now"),
            "valid": bool(info.get("valid", False)),
            "invalid_reason": info.get("invalid_reason"),
            "finish_reason": info.get("finish_reason"),
            "repeated": info.get("repeated"),
            "repetition_rate": info.get("repetition_rate"),
        }
    )


class TrajectoryRecorder(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Append one line per reset (``event="reset"``, the observation and info) and per step (``event="step"``,
    the ``STEP_FIELDS`` row plus the full info).

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
        row = step_record(self._step, action, obs, reward, terminated, truncated, info)
        self._write({"event": "step", "episode": self._episode, **row, "info": info})
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
