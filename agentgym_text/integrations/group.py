"""Group rollouts: G sub-envs play the same task (GRPO-style groups), with no autoreset.

``gym.make_vec`` autoresets a finished sub-env on the next step and the new episode draws a random task, so a
hand-written GRPO loop had to mask that step and lost the group's task. ``GroupEnv`` instead keeps a finished
sub-env finished (its last observation and info are repeated, reward 0, its action ignored) until the whole
group is reset, and every reset puts every sub-env on the group's task. Sub-env ``i`` is seeded ``seed + i``, so
tasks with randomness (engine seeds) differ within a group while the task stays the same.

>>> group = make_group("AgentQuest/Mastermind-v0", "mastermind-003", 4)
>>> observations, infos = group.reset(seed=0)
>>> {info["task_id"] for info in infos}
{'mastermind-003'}
>>> _ = group.step(["guess 0573", "guess 0123", "guess 0123", "nonsense"])
>>> group.done.tolist(), group.progress.tolist()
([True, False, False, False], [1.0, 0.5, 0.5, 0.0])
>>> group.advantages("progress").round(2).tolist()
[1.41, 0.0, 0.0, -1.41]
>>> group.close()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from agentgym_text.integrations.chat import ChatEnv

__all__ = ["GroupEnv", "make_group", "SCORES"]

SCORES = ("progress", "return", "success")
"""What ``advantages`` can normalise: final progress rate, sum of rewards, or success (0/1)."""


class GroupEnv:
    """``group_size`` copies of ``env_id`` on one task; ``chat=True`` makes them ``ChatEnv`` (messages in/out).

    ``step(actions)`` takes one action per sub-env (text, or an assistant message with ``chat=True``); entries
    for finished sub-envs are ignored (``None`` is fine). It returns lists/arrays over the group:
    ``(observations, rewards, terminated, truncated, infos)``.
    """

    def __init__(
        self,
        env_id: str,
        task_id: str,
        group_size: int,
        *,
        seed: int = 0,
        chat: bool = False,
        tools: bool = False,
        **make_kwargs: Any,
    ):
        import agentgym_text  # noqa: F401  (registers the ids)

        if group_size < 1:
            raise ValueError("group_size must be at least 1")
        self.env_id = env_id
        self.group_size = int(group_size)
        self.seed = int(seed)
        self.chat = chat
        self.envs: list[Any] = [
            ChatEnv(env_id, tools=tools, **make_kwargs) if chat else gym.make(env_id, **make_kwargs)
            for _ in range(group_size)
        ]
        base = self.envs[0].unwrapped
        base.tasks.index_of(str(task_id))  # an unknown id fails here, naming the id
        self.task_id = str(task_id)
        self._last: list[tuple[Any, dict]] = []
        self.terminated = np.zeros(group_size, dtype=bool)
        self.truncated = np.zeros(group_size, dtype=bool)
        self.returns = np.zeros(group_size, dtype=np.float64)
        self.lengths = np.zeros(group_size, dtype=np.int64)
        self.infos: list[dict] = []

    # ---- episodes ----------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, task_id: str | None = None):
        """Every sub-env on the group's task (``task_id`` changes it); sub-env i seeded ``seed + i``."""
        if task_id is not None:
            self.envs[0].unwrapped.tasks.index_of(str(task_id))
            self.task_id = str(task_id)
        base_seed = self.seed if seed is None else int(seed)
        self.seed = base_seed
        observations, infos = [], []
        for index, env in enumerate(self.envs):
            observation, info = env.reset(seed=base_seed + index, options={"task_id": self.task_id})
            observations.append(observation)
            infos.append(info)
        self._last = list(zip(observations, infos))
        self.terminated[:] = False
        self.truncated[:] = False
        self.returns[:] = 0.0
        self.lengths[:] = 0
        self.infos = infos
        return observations, infos

    def step(self, actions: Sequence[Any]):
        if len(actions) != self.group_size:
            raise ValueError(f"expected {self.group_size} actions, got {len(actions)}")
        if not self._last:
            raise RuntimeError("call reset() before step()")
        observations, rewards, infos = [], np.zeros(self.group_size), []
        for index, (env, action) in enumerate(zip(self.envs, actions)):
            if self.done[index]:  # finished: stays finished until the group is reset
                observation, info = self._last[index]
            else:
                observation, reward, terminated, truncated, info = env.step(action)
                rewards[index] = reward
                self.returns[index] += reward
                self.lengths[index] += 1
                self.terminated[index] = terminated
                self.truncated[index] = truncated
                self._last[index] = (observation, info)
            observations.append(observation)
            infos.append(info)
        self.infos = infos
        return observations, rewards, self.terminated.copy(), self.truncated.copy(), infos

    # ---- what a trainer reads ------------------------------------------------------------------------
    @property
    def done(self) -> np.ndarray:
        return self.terminated | self.truncated

    @property
    def all_done(self) -> bool:
        return bool(self.done.all())

    @property
    def progress(self) -> np.ndarray:
        """Final (best-so-far) progress rate of each sub-env's episode."""
        return np.array([float(info["progress_rate"]) for info in self.infos])

    @property
    def success(self) -> np.ndarray:
        return np.array([bool(info["success"]) for info in self.infos])

    def scores(self, score: str = "progress") -> np.ndarray:
        if score not in SCORES:
            raise ValueError(f"score must be one of {SCORES}")
        if score == "progress":
            return self.progress
        if score == "return":
            return self.returns.copy()
        return self.success.astype(np.float64)

    def advantages(self, score: str = "progress", eps: float = 1e-6) -> np.ndarray:
        """Group-normalised advantages (score - group mean) / (group std + eps), as in GRPO."""
        values = self.scores(score)
        return (values - values.mean()) / (values.std() + eps)

    def close(self) -> None:
        for env in self.envs:
            env.close()


def make_group(env_id: str, task_id: str, group_size: int, **kwargs: Any) -> GroupEnv:
    """``GroupEnv(env_id, task_id, group_size, **kwargs)``: G sub-envs on one task, no autoreset."""
    return GroupEnv(env_id, task_id, group_size, **kwargs)
