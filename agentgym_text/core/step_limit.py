"""``StepLimit``: truncates an episode after a step budget and says so in ``info["finish_reason"]``.

It lives in core because every registered id comes wrapped in it; ``agentgym_text.wrappers`` offers it beside the
other wrappers."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from gymnasium.wrappers import TimeLimit

from agentgym_text.core.info import FinishReason

__all__ = ["StepLimit"]


def _time_limit_steps(env: gym.Env) -> int | None:
    """The budget of a gymnasium ``TimeLimit`` inside ``env``, if there is one."""
    while isinstance(env, gym.Wrapper):
        if isinstance(env, TimeLimit):
            return int(env._max_episode_steps)
        env = env.env
    return None


class StepLimit(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Truncate after ``max_steps`` steps and set ``finish_reason="step_limit"``.

    ``max_steps=None`` takes the budget of the current task (``env.unwrapped.current_task.max_steps``;
    AgentBoard's 30 unless a task sets its own). Where a gymnasium ``TimeLimit`` is already inside (as
    ``gym.make(id, max_episode_steps=N)`` adds), ``None`` defers to it and only labels its truncations.
    Every registered id of this suite comes wrapped in ``StepLimit(max_steps=None)``.

    >>> import gymnasium as gym, agentgym_text
    >>> env = gym.make("AgentQuest/Mastermind-v0", max_episode_steps=2)
    >>> _ = env.reset(seed=0)
    >>> _ = env.step("guess 0123")
    >>> env.step("guess 4567")[3:5][1]["finish_reason"]
    'step_limit'
    """

    def __init__(self, env: gym.Env, max_steps: int | None = None):
        gym.utils.RecordConstructorArgs.__init__(self, max_steps=max_steps)
        gym.Wrapper.__init__(self, env)
        if max_steps is not None and max_steps < 1:
            raise ValueError("max_steps must be a positive number of steps")
        self.max_steps = max_steps
        self._outer_budget = _time_limit_steps(env) if max_steps is None else None
        self._defer = self._outer_budget is not None
        self._budget: int | None = max_steps
        self._elapsed = 0

    def reset(self, **kwargs: Any):
        announce = getattr(self.env.unwrapped, "limit_budget", None)
        if callable(announce):  # our envs state the budget in the first observation: tell them the one enforced
            announce(self._outer_budget if self._defer else self.max_steps)
        obs, info = self.env.reset(**kwargs)
        self._elapsed = 0
        if self.max_steps is None and not self._defer:
            task = getattr(self.env.unwrapped, "current_task", None)
            self._budget = getattr(task, "max_steps", None)
        return obs, self._with_budget(info)

    def _with_budget(self, info: dict) -> dict:
        """``info["max_steps"]``: the smallest budget of this wrapper and those inside it."""
        budget = self._outer_budget if self._defer else self._budget
        if budget is None:
            return info
        inner = info.get("max_steps")
        if isinstance(inner, int) and 0 < inner < budget:
            budget = inner
        if info.get("max_steps") != budget:
            info = {**info, "max_steps": int(budget)}
        return info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._elapsed += 1
        if self._budget is not None and self._elapsed >= self._budget:
            truncated = True
        if truncated and not terminated:
            info = dict(info)
            info["finish_reason"] = FinishReason.STEP_LIMIT.value
        return obs, reward, terminated, truncated, self._with_budget(info)
