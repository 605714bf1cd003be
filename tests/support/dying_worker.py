"""An expert agent whose env ends its own (worker) process once, mid-episode, as a crash or the out-of-memory killer
would: for the runner's engine_error tests."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path

import gymnasium as gym

from agentgym_text.agents.expert import ExpertAgent

__all__ = ["ExpertKillingOneWorker", "sigkill", "exit_without_cleanup"]


def sigkill() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def exit_without_cleanup() -> None:
    os._exit(1)


class _DieOnce(gym.Wrapper):
    """Ends its process with ``die`` at step 2 of one task, once per marker file (which holds the pid)."""

    def __init__(self, env: gym.Env, task_id: str, marker: Path, die: Callable[[], None]):
        super().__init__(env)
        self.task_id, self.marker, self.die = task_id, marker, die

    def step(self, action):
        result = self.env.step(action)
        info = result[4]
        if info["task_id"] == self.task_id and info["step"] == 2 and not self.marker.exists():
            self.marker.write_text(str(os.getpid()))
            self.die()
        return result


class ExpertKillingOneWorker(ExpertAgent):
    """The expert, with its envs wrapped so that the one playing ``task_id`` dies at step 2 (once)."""

    def __init__(self, task_id: str, marker: Path, die: Callable[[], None] = sigkill):
        super().__init__()
        self.task_id, self.marker, self.die = task_id, marker, die

    def env_wrappers(self):
        return [lambda env: _DieOnce(env, self.task_id, self.marker, self.die)]
