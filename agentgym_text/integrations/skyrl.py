"""SkyRL: every env id as a ``skyrl_gym`` ``BaseTextEnv`` (extra ``skyrl``: ``skyrl-gym`` 0.4).

SkyRL's generator makes an env per dataset row, ``skyrl_gym.make(row["env_class"], env_config=..., extras=row)``,
then calls ``init(row["prompt"])`` and ``step(model_text)`` until ``done``. ``register_envs()`` (call it once, before
SkyRL makes envs) registers each id of the suite as an ``env_class`` (and ``"agentgym"``, which reads the id from the
row); ``skyrl_rows(env_id, split)`` are ``datasets.tasks`` rows with the two columns SkyRL reads. A multi-task set
is the same call with several ids and weights (``skyrl_rows({"AgentQuest/Mastermind-v0": 3, "AgentQuest/Sudoku-v0":
1}, "train", size=1000)``, as ``datasets.tasks`` mixes them): each row's ``env_class`` is its own id, so SkyRL makes
each row's env from that row's id.

- ``init`` resets the env to the row's ``task_id`` and ``seed`` and returns the prompt ending with the first
  observation (the row's prompt already does: it is returned as given);
- ``step`` reads the reply as ``ChatEnv`` does (``Action: ...``, a fenced block, a bare line), plays it and returns
  the env's answer as a user message; ``reward`` is the progress increase, so an episode's rewards sum to its
  progress rate (SkyRL puts each at the end of its turn); ``done`` is the env's end or SkyRL's ``max_turns``;
  ``metadata`` is the step's info (task id, progress, validity, finish reason, success);
- ``register_envs(protocol="agentbench")``: the model sees AgentBench v0.2's conversation as
  ``ChatEnv(env_id, protocol=...)`` builds it (its env kwargs, round limit and reply parsing; no system message):
  ``init`` returns the protocol's first request in place of the row's prompt, ``step`` the turns its next request
  adds. SkyRL's chat history only grows, so only append-only protocols play (``agentbench``); ``ours`` and
  ``agentboard``, which rebuild the whole prompt every step, are refused with a ``ValueError``, and so is an
  AgentBench episode whose history outgrows the session's limit (``filter_messages`` cuts it) when it happens.
  Sampling settings (AgentBench's temperature 0, 512 tokens) are SkyRL's own to set.
- ``get_metrics()``: ``progress_rate``, ``success``, ``steps``, ``grounding_accuracy`` (valid steps / steps).
"""

from __future__ import annotations

from typing import Any

from agentgym_text.agents.protocols import AgentProtocol
from agentgym_text.integrations.chat_protocol import require_append_only
from agentgym_text.integrations.datasets import tasks
from agentgym_text.integrations.mixture import EnvIds

__all__ = ["AgentGymTextEnv", "register_envs", "skyrl_rows", "GENERIC_ENV_CLASS"]  # noqa: F822  (see __getattr__)

GENERIC_ENV_CLASS = "agentgym"
"""The ``env_class`` that takes its env id from the row (``env_id`` column)."""


def __getattr__(name: str):
    if name == "AgentGymTextEnv":
        from agentgym_text.integrations.skyrl_env import AgentGymTextEnv

        return AgentGymTextEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def register_envs(protocol: AgentProtocol | str | None = None) -> list[str]:
    """Register every env id of the suite, and ``"agentgym"``, with ``skyrl_gym`` (ids already there are left as
    they are, so calling it again is harmless); returns the ids. ``protocol``: an append-only agent protocol the
    envs speak (the module docstring)."""
    import skyrl_gym

    import agentgym_text
    from agentgym_text.integrations.skyrl_env import AgentGymTextEnv

    if protocol is not None:
        require_append_only(protocol, "SkyRL")

    ids = [GENERIC_ENV_CLASS, *(entry.env_id for entry in agentgym_text.list_envs())]
    for env_id in ids:
        if env_id not in skyrl_gym.registry:
            kwargs: dict[str, Any] = {} if env_id == GENERIC_ENV_CLASS else {"env_id": env_id}
            if protocol is not None:
                kwargs["protocol"] = protocol
            skyrl_gym.register(env_id, entry_point=AgentGymTextEnv, kwargs=kwargs)
    return ids


def skyrl_rows(envs: EnvIds, split: str = "test", *, limit: int | None = None, **kwargs: Any) -> list[dict[str, Any]]:
    """``datasets.tasks(envs, split, ...)`` rows (one id, or several with weights and ``size=``) with SkyRL's
    columns: ``env_class`` (the row's id) and ``prompt`` (system prompt and first observation, as the rows have it).
    Write them to parquet for SkyRL's dataset (``env_kwargs`` as a dict)."""
    return [{**row, "env_class": row["env_id"]} for row in tasks(envs, split, limit=limit, **kwargs)]
