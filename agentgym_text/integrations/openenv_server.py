"""An OpenEnv server for any env id, on OpenEnv's own server (extra ``openenv``: ``openenv`` 0.10).

``agentgym-text serve --env AgentQuest/Mastermind-v0 --port 8000 --max-sessions 16`` serves one env id (or a
multi-task set: ``--env AgentQuest/Mastermind-v0=3,AgentQuest/Sudoku-v0=1 --size 400``, below); each
WebSocket client (OpenEnv's ``EnvClient``/``GenericEnvClient``) gets its own env instance, up to
``--max-sessions``. The action is ``{"message": "<text action>"}`` (as in OpenEnv's TextArena env). ``reset``
accepts ``seed``, ``task_id``, ``task_index``, or ``split`` and ``index`` (OpenEnv's task API: row ``index`` of
``agentgym_text.integrations.datasets.tasks(env_id, split)``, reset with that row's seed). The observation has
typed fields ``text``, ``goal``, ``task_id``, ``progress_rate``, ``progress_now``, ``valid``, ``invalid_reason``,
``finish_reason``, ``success``, ``truncated``, ``step``, ``max_steps``, and the same info in ``metadata`` (which
OpenEnv >= 0.4 sends to clients); ``reward`` is the progress increase and ``done`` is terminated or truncated.

The task API (``/{name}/splits``, ``/num_tasks``, ``/task``, ``/task_range``, ``/tasks``) serves the rows of
``datasets.tasks``: the splits the family has ("test", the shipped tasks; "train" where the family declares one).
``name`` is the env id with "/" as "-" (``AgentQuest-Mastermind-v0``: a URL path segment cannot hold "/";
``/list_environments`` says it); ``/metadata`` names the id itself. The calls are side-effect free and make no
engine (OpenEnv calls them on a fresh instance; the env is made on the first ``reset``). ``/web`` (with
``ENABLE_WEB_INTERFACE=true``) draws the observation and offers the help action as a button.

``serve --protocol NAME`` (with ``--agentboard-dir`` / ``--agentbench-dir``; ``protocol=`` of ``make_app`` and
``serve`` from Python): every session speaks that agent protocol; the action is the
model's whole reply and the observation's ``messages`` the protocol's next request, to send as it is (every protocol
works, those that rebuild their prompt each step too; ``AgentGymEnvironment``).

A multi-task set (several ids with weights, ``datasets.tasks``'s mixing with ``size`` and ``mix_seed``) is served
under the ids joined by "+" (``AgentQuest-Mastermind-v0+AgentQuest-Sudoku-v0``): the task API serves the mixed rows
(each with its ``env_id``; "train" when every id has a training split), ``reset(split=..., index=...)`` makes the
row's own id's env, and a reset without them plays ``env_id=`` (default the first id); ``/metadata`` names the set.

Sessions run in the server's threads; the sessions of an id whose family is not declared ``thread_safe`` take turns
(one lock around their env calls), so such a family is served correctly, one call at a time.

When a session ends (the client closes, or its connection drops) OpenEnv closes the session's env, which closes
its engine (a ScienceWorld JVM, a SQLite database); ``--idle-timeout`` also ends sessions left idle.

Client side, with OpenEnv's generic client::

    from openenv.core import GenericEnvClient
    with GenericEnvClient(base_url="http://127.0.0.1:8000").sync() as client:
        result = client.reset(split="test", index=3)
        result = client.step({"message": "guess 0123"})
        print(result.observation["text"], result.reward, result.done, result.observation["metadata"])
"""

from __future__ import annotations

import functools
import inspect
import logging
from typing import Any

from agentgym_text.agents.protocols import AgentProtocol
from agentgym_text.integrations.chat_protocol import resolve_protocol
from agentgym_text.integrations.mixture import EnvIds
from agentgym_text.integrations.openenv_tasks import INFO_FIELDS, env_name, task_row, task_splits

__all__ = [  # noqa: F822  (the first four come from openenv_env on first use: see __getattr__)
    "TextAction",
    "TextObservation",
    "TextEnvState",
    "AgentGymEnvironment",
    "make_app",
    "serve",
    "env_name",
    "task_splits",
    "task_row",
    "INFO_FIELDS",
]

_MODELS = ("TextAction", "TextObservation", "TextEnvState", "AgentGymEnvironment")


def __getattr__(name: str):
    if name in _MODELS:
        from agentgym_text.integrations import openenv_env

        return getattr(openenv_env, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def make_app(
    envs: EnvIds,
    *,
    max_sessions: int = 8,
    idle_timeout: float | None = None,
    size: int | None = None,
    mix_seed: int = 0,
    protocol: AgentProtocol | str | None = None,
    **env_kwargs: Any,
):
    """The FastAPI app serving ``envs`` (one env id, or several with weights; OpenEnv's ``create_fastapi_app``)
    under the name ``env_name(envs)``; ``protocol``: the agent protocol every session speaks (``AgentGymEnvironment``).

    One env per id is made (and closed) first: it checks the ids and kwargs before any client connects, and fills
    the families' task caches once, instead of in every concurrent session's thread at the same time.
    """
    from openenv.core.env_server.http_server import create_fastapi_app
    from openenv.core.env_server.types import ConcurrencyConfig

    from agentgym_text.integrations.openenv_env import AgentGymEnvironment, TextAction, TextEnvState, TextObservation

    protocol = None if protocol is None else resolve_protocol(protocol)  # read once, shared by the sessions
    factory = functools.partial(
        AgentGymEnvironment, envs, size=size, mix_seed=mix_seed, protocol=protocol, **env_kwargs
    )
    first = factory()
    for env_id in first.mixture.env_ids:
        first.reset(env_id=env_id)  # made now: a bad id or kwarg fails here
    first.close()
    config = ConcurrencyConfig(max_concurrent_envs=max_sessions, session_timeout=idle_timeout)
    extra: dict[str, Any] = {"concurrency_config": config}
    if "env_name" in inspect.signature(create_fastapi_app).parameters:  # OpenEnv >= 0.4; openenv-core 0.3 lacks it
        extra.update(env_name=env_name(envs), state_cls=TextEnvState)
    return create_fastapi_app(factory, TextAction, TextObservation, **extra)


class _DropClientGone(logging.Filter):
    """OpenEnv (openenv-core 0.3) closes a socket the client already closed and logs the resulting error with a full
    traceback for every session a client ends; that is a normal end of session, not an error."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return type(error).__name__ not in ("WebSocketDisconnect", "ClientDisconnected")


def serve(
    envs: EnvIds,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    max_sessions: int = 8,
    idle_timeout: float | None = None,
    size: int | None = None,
    mix_seed: int = 0,
    protocol: AgentProtocol | str | None = None,
    **env_kwargs: Any,
) -> None:
    """Run the server until interrupted (uvicorn)."""
    import uvicorn

    app = make_app(
        envs,
        max_sessions=max_sessions,
        idle_timeout=idle_timeout,
        size=size,
        mix_seed=mix_seed,
        protocol=protocol,
        **env_kwargs,
    )
    logging.getLogger("uvicorn.error").addFilter(_DropClientGone())
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=5)
