"""SkyRL: every env id as a ``skyrl_gym`` ``BaseTextEnv`` (extra ``skyrl``: ``skyrl-gym`` 0.4).

SkyRL's generator makes an env per dataset row, ``skyrl_gym.make(row["env_class"], env_config=..., extras=row)``,
then calls ``init(row["prompt"])`` and ``step(model_text)`` until ``done``. ``register_envs()`` (call it once, before
SkyRL makes envs) registers each id of the suite as an ``env_class`` (and ``"agentgym"``, which reads the id from the
row); ``skyrl_rows(env_id, split)`` are ``datasets.tasks`` rows with the two columns SkyRL reads.

- ``init`` resets the env to the row's ``task_id`` and ``seed`` and returns the prompt ending with the first
  observation (the row's prompt already does: it is returned as given);
- ``step`` reads the reply as ``ChatEnv`` does (``Action: ...``, a fenced block, a bare line), plays it and returns
  the env's answer as a user message; ``reward`` is the progress increase, so an episode's rewards sum to its
  progress rate (SkyRL puts each at the end of its turn); ``done`` is the env's end or SkyRL's ``max_turns``;
  ``metadata`` is the step's info (task id, progress, validity, finish reason, success);
- ``get_metrics()``: ``progress_rate``, ``success``, ``steps``, ``grounding_accuracy`` (valid steps / steps).
"""

from __future__ import annotations

import functools
from typing import Any

from agentgym_text.integrations.datasets import tasks

__all__ = ["AgentGymTextEnv", "register_envs", "skyrl_rows", "GENERIC_ENV_CLASS"]  # noqa: F822  (see __getattr__)

GENERIC_ENV_CLASS = "agentgym"
"""The ``env_class`` that takes its env id from the row (``env_id`` column)."""

_METADATA_KEYS = ("task_id", "progress_rate", "progress_now", "valid", "invalid_reason", "finish_reason", "success")


@functools.lru_cache(maxsize=1)
def _text_env_class() -> type:
    try:
        from skyrl_gym.envs.base_text_env import BaseTextEnv, BaseTextEnvStepOutput
    except ModuleNotFoundError as error:
        raise ModuleNotFoundError(
            f"the SkyRL env needs the 'skyrl' extra: pip install 'agentgym-text[skyrl]' (missing module {error.name!r})",
            name=error.name,
        ) from error

    from agentgym_text.integrations.chat import ChatEnv

    class AgentGymTextEnv(BaseTextEnv):
        """One row's episode. ``extras`` is the row (``env_id`` unless registered under the id, ``env_kwargs``,
        ``task_id``, ``seed``, optional ``max_turns``); ``env_config`` is SkyRL's per-class config (unused)."""

        def __init__(self, env_config: Any = None, extras: dict[str, Any] | None = None, env_id: str | None = None):
            super().__init__()
            extras = dict(extras or {})
            self.env_id = env_id or extras.get("env_id")
            if not self.env_id:
                raise ValueError(f"env_class {GENERIC_ENV_CLASS!r} needs the row's 'env_id' (e.g. from skyrl_rows)")
            self.task_id = extras.get("task_id")
            self.seed = extras.get("seed", 0)
            self.requested_turns = extras.get("max_turns")
            self.chat = ChatEnv(self.env_id, **dict(extras.get("env_kwargs") or {}))
            self.info: dict[str, Any] = {}
            self.valid_steps = 0

        def init(self, prompt: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
            options = {"task_id": self.task_id} if self.task_id else None
            messages, self.info = self.chat.reset(seed=self.seed, options=options)
            self.turns, self.valid_steps = 0, 0
            self.max_turns = int(self.requested_turns or self.info["max_steps"])
            first = messages[-1]
            if not prompt:
                conversation = messages
            elif prompt[-1].get("role") == "user" and prompt[-1].get("content") == first["content"]:
                conversation = list(prompt)
            else:
                conversation = [*prompt, first]
            return conversation, {"task_id": self.info["task_id"], "env_id": self.env_id}

        def step(self, action: str) -> BaseTextEnvStepOutput:
            self.turns += 1
            reply, reward, terminated, truncated, self.info = self.chat.step(action)
            self.valid_steps += bool(self.info["valid"])
            done = bool(terminated or truncated) or self.turns >= self.max_turns
            return BaseTextEnvStepOutput(
                observations=[] if done else [{"role": "user", "content": reply["content"]}],
                reward=float(reward),
                done=done,
                metadata={key: self.info[key] for key in _METADATA_KEYS},
                postprocessed_action=None,
            )

        def get_metrics(self) -> dict[str, Any]:
            return {
                "progress_rate": float(self.info.get("progress_rate", 0.0)),
                "success": float(bool(self.info.get("success", False))),
                "steps": self.turns,
                "grounding_accuracy": self.valid_steps / self.turns if self.turns else 0.0,
            }

        def close(self) -> None:
            self.chat.close()

    return AgentGymTextEnv


def __getattr__(name: str):
    if name == "AgentGymTextEnv":
        return _text_env_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def register_envs() -> list[str]:
    """Register every env id of the suite, and ``"agentgym"``, with ``skyrl_gym`` (ids already there are left as
    they are, so calling it again is harmless); returns the ids."""
    import skyrl_gym

    import agentgym_text

    cls = _text_env_class()
    ids = [GENERIC_ENV_CLASS, *(entry.env_id for entry in agentgym_text.list_envs())]
    for env_id in ids:
        if env_id not in skyrl_gym.registry:
            kwargs = {} if env_id == GENERIC_ENV_CLASS else {"env_id": env_id}
            skyrl_gym.register(env_id, entry_point=cls, kwargs=kwargs)
    return ids


def skyrl_rows(env_id: str, split: str = "test", *, limit: int | None = None, **kwargs: Any) -> list[dict[str, Any]]:
    """``datasets.tasks`` rows with SkyRL's columns: ``env_class`` (the id) and ``prompt`` (system prompt and first
    observation, as the rows have it). Write them to parquet for SkyRL's dataset (``env_kwargs`` as a dict)."""
    return [{**row, "env_class": env_id} for row in tasks(env_id, split, limit=limit, **kwargs)]
