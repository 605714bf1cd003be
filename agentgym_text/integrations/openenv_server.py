"""An OpenEnv server for any env id, on OpenEnv's own server (extra ``openenv``: ``openenv`` 0.10).

``agentgym-text serve --env AgentQuest/Mastermind-v0 --port 8000 --max-sessions 16`` serves one env id; each
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

import contextlib
import functools
import inspect
import json
import logging
import threading
import uuid
from typing import Any

__all__ = [  # noqa: F822  (the first four are built on first use: see __getattr__)
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
_UNSAFE_ENGINES = threading.RLock()
"""Held around every env call of a family not declared thread-safe."""


def _engine_guard(env_id: str) -> Any:
    import agentgym_text

    entry = next((e for e in agentgym_text.list_envs() if e.env_id == env_id), None)
    return contextlib.nullcontext() if entry is not None and entry.thread_safe else _UNSAFE_ENGINES


INFO_FIELDS = (
    "goal",
    "task_id",
    "progress_rate",
    "progress_now",
    "valid",
    "invalid_reason",
    "finish_reason",
    "success",
    "step",
    "max_steps",
)
"""The info keys an observation carries as typed fields and in ``metadata`` (with ``truncated``)."""


def env_name(env_id: str) -> str:
    """The name OpenEnv serves ``env_id`` under in its task API routes (``/{name}/splits``): "/" as "-"."""
    return env_id.replace("/", "-")


def task_splits(env_id: str, env_kwargs: dict[str, Any] | None = None) -> tuple[str, ...]:
    """The splits of ``env_id``: "test" (the shipped tasks, or those ``env_kwargs`` name) and "train" where the
    family declares one (served without kwargs: a train row's kwargs are its own)."""
    from agentgym_text.integrations.datasets import train_splits

    return ("test", "train") if train_splits()[env_id].available and not env_kwargs else ("test",)


def _kwargs_key(env_kwargs: dict[str, Any]) -> str:
    return json.dumps(env_kwargs, sort_keys=True, default=str)


def _check_split(env_id: str, env_kwargs: dict[str, Any], split: str) -> None:
    splits = task_splits(env_id, env_kwargs)
    if split not in splits:
        raise ValueError(f"{env_id} (served with {env_kwargs}) has no split {split!r}; its splits: {', '.join(splits)}")


@functools.lru_cache(maxsize=64)
def _count(env_id: str, kwargs_key: str, split: str) -> int:
    from agentgym_text.integrations.datasets import count_tasks

    return count_tasks(env_id, split, env_kwargs=json.loads(kwargs_key) or None)


def task_count(env_id: str, env_kwargs: dict[str, Any], split: str) -> int:
    _check_split(env_id, env_kwargs, split)
    return _count(env_id, _kwargs_key(env_kwargs), split)


@functools.lru_cache(maxsize=4096)
def _row(env_id: str, kwargs_key: str, split: str, index: int) -> str:
    from agentgym_text.integrations.datasets import tasks

    (row,) = tasks(env_id, split, offset=index, limit=1, env_kwargs=json.loads(kwargs_key) or None)
    return json.dumps(row)


def task_row(env_id: str, env_kwargs: dict[str, Any], split: str, index: int) -> dict[str, Any]:
    """Row ``index`` of ``datasets.tasks(env_id, split)``; ``IndexError`` (OpenEnv answers 400) when out of range."""
    count = task_count(env_id, env_kwargs, split)
    if not 0 <= index < count:
        raise IndexError(f"{split} has {count} tasks; index {index} is out of range")
    return json.loads(_row(env_id, _kwargs_key(env_kwargs), split, index))


def task_spec(env_id: str, env_kwargs: dict[str, Any], split: str, index: int) -> dict[str, Any]:
    """What the task API returns for a row: OpenEnv's ``id`` and ``index``, then the row (its ``prompt``
    messages left out: they are ``system_prompt`` and ``first_observation``)."""
    row = task_row(env_id, env_kwargs, split, index)
    row.pop("prompt", None)
    return {"id": row["task_id"], "index": index, **row}


@functools.lru_cache(maxsize=1)
def _models() -> dict[str, type]:
    """The server's classes, built on first use: this module imports without the ``openenv`` extra (so the suite's
    doctest collection and ``agentgym-text --help`` work without it); using it needs the extra."""
    try:
        from openenv.core.env_server.interfaces import Environment
        from openenv.core.env_server.types import Action, EnvironmentMetadata, Observation, State
        from pydantic import Field
    except ModuleNotFoundError as error:
        raise ModuleNotFoundError(
            f"the OpenEnv server needs the 'openenv' extra: pip install 'agentgym-text[openenv]' "
            f"(missing module {error.name!r})",
            name=error.name,
        ) from error

    class TextAction(Action):
        """One text action, e.g. ``{"message": "guess 0123"}``."""

        message: str = Field(..., description="the action text (the env reads it as an LLM's reply would be read)")

    class TextObservation(Observation):
        """What the env answered, with the suite's info fields as typed fields."""

        text: str = Field(default="", description="the observation text")
        goal: str = ""
        task_id: str = ""
        progress_rate: float = Field(default=0.0, description="best progress so far, 0..1 (AgentBoard's r_t)")
        progress_now: float = 0.0
        valid: bool = True
        invalid_reason: str | None = None
        finish_reason: str | None = None
        success: bool = False
        truncated: bool = False
        step: int = 0
        max_steps: int = 0

    class TextEnvState(State):
        env_id: str = ""
        task_id: str = ""
        progress_rate: float = 0.0
        done: bool = False

    class AgentGymEnvironment(Environment[TextAction, TextObservation, TextEnvState]):
        """One session's env: ``gym.make(env_id, **env_kwargs)`` behind OpenEnv's ``Environment``, made on first
        use (the task API runs on instances that never reset)."""

        SUPPORTS_CONCURRENT_SESSIONS = True  # each session has its own env instance and engine

        def __init__(self, env_id: str, **env_kwargs: Any):
            super().__init__()
            import agentgym_text  # noqa: F401  (registers the ids)

            self.env_id = env_id
            self.env_kwargs = env_kwargs
            self._guard = _engine_guard(env_id)
            self._env: Any = None
            self._env_made_with: dict[str, Any] = env_kwargs
            self._state = TextEnvState(env_id=env_id)
            self._closed = False

        @property
        def env(self) -> Any:
            if self._env is None:
                self._make(self.env_kwargs)
            return self._env

        def _make(self, kwargs: dict[str, Any]) -> None:
            import gymnasium as gym

            with self._guard:
                if self._env is not None:
                    self._env.close()
                self._env = gym.make(self.env_id, **kwargs)
            self._env_made_with = kwargs

        def _observation(self, text: str, info: dict, reward: float | None, terminated: bool, truncated: bool):
            fields = {name: info[name] for name in INFO_FIELDS}
            fields["truncated"] = bool(truncated)
            return TextObservation(
                text=text, **fields, reward=reward, done=bool(terminated or truncated), metadata=dict(fields)
            )

        def reset(
            self,
            seed: int | None = None,
            episode_id: str | None = None,
            task_id: str | None = None,
            task_index: int | None = None,
            split: str | None = None,
            index: int | None = None,
            **kwargs: Any,
        ) -> TextObservation:
            if split is not None or index is not None:
                row = task_row(self.env_id, self.env_kwargs, split or "test", 0 if index is None else index)
                task_id, task_index = row["task_id"], None
                seed = row["seed"] if seed is None else seed
                if row["env_kwargs"] != self._env_made_with:
                    self._make(row["env_kwargs"])
            options = {
                key: value for key, value in (("task_id", task_id), ("task_index", task_index)) if value is not None
            }
            env = self.env
            with self._guard:
                text, info = env.reset(seed=seed, options=options or None)
            self._state = TextEnvState(
                episode_id=episode_id or str(uuid.uuid4()), step_count=0, env_id=self.env_id, task_id=info["task_id"]
            )
            return self._observation(text, info, None, False, False)

        def step(self, action: TextAction, timeout_s: float | None = None, **kwargs: Any) -> TextObservation:
            env = self.env
            with self._guard:
                text, reward, terminated, truncated, info = env.step(action.message)
            self._state.step_count += 1
            self._state.progress_rate = info["progress_rate"]
            self._state.done = bool(terminated or truncated)
            return self._observation(text, info, float(reward), terminated, truncated)

        @property
        def state(self) -> TextEnvState:
            return self._state

        # OpenEnv's task API (a structural protocol: these methods are found by name).
        def list_splits(self) -> list[str]:
            return list(task_splits(self.env_id, self.env_kwargs))

        def num_tasks(self, split: str) -> int:
            return task_count(self.env_id, self.env_kwargs, split)

        def get_task(self, split: str, index: int) -> dict[str, Any]:
            return task_spec(self.env_id, self.env_kwargs, split, index)

        def get_task_range(self, split: str, start: int | None = None, stop: int | None = None) -> list[dict]:
            indices = range(task_count(self.env_id, self.env_kwargs, split))[start:stop]
            return [task_spec(self.env_id, self.env_kwargs, split, index) for index in indices]

        def list_tasks(self, split: str) -> list[dict[str, Any]]:
            return self.get_task_range(split)

        def render_web(self, observation: dict[str, Any]) -> str | None:
            import html

            progress = observation.get("progress_rate", 0.0)
            status = f"step {observation.get('step', 0)}/{observation.get('max_steps', 0)}, progress {progress:.2f}"
            if observation.get("done"):
                status += f", finished: {observation.get('finish_reason')}"
            return (
                f"<p><b>{html.escape(str(observation.get('task_id', '')))}</b>: "
                f"{html.escape(str(observation.get('goal', '')))}</p><p>{html.escape(status)}</p>"
                f"<pre style='white-space: pre-wrap'>{html.escape(str(observation.get('text', '')))}</pre>"
            )

        def web_actions(self, observation: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
            help_action = getattr(self.env.unwrapped, "help_action", None) if self._env is not None else None
            return [(help_action, {"message": help_action})] if help_action else []

        def get_metadata(self) -> EnvironmentMetadata:
            import agentgym_text

            entry = next((e for e in agentgym_text.list_envs() if e.env_id == self.env_id), None)
            return EnvironmentMetadata(
                name=self.env_id,
                description=entry.description if entry else self.env_id,
                version=agentgym_text.__version__,
            )

        def close(self) -> None:
            if not self._closed:
                self._closed = True
                if self._env is not None:
                    with self._guard:
                        self._env.close()

    return {name: value for name, value in locals().items() if name in _MODELS}


def __getattr__(name: str):
    if name in _MODELS:
        return _models()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def make_app(env_id: str, *, max_sessions: int = 8, idle_timeout: float | None = None, **env_kwargs: Any):
    """The FastAPI app serving ``env_id`` (OpenEnv's ``create_fastapi_app``) under the name ``env_name(env_id)``.

    One env is made (and closed) first: it checks the id and kwargs before any client connects, and fills the
    family's task caches once, instead of in every concurrent session's thread at the same time.
    """
    from openenv.core.env_server.http_server import create_fastapi_app
    from openenv.core.env_server.types import ConcurrencyConfig

    models = _models()
    factory = functools.partial(models["AgentGymEnvironment"], env_id, **env_kwargs)
    first = factory()
    first.env  # noqa: B018  (made now: a bad id or kwarg fails here)
    first.close()
    config = ConcurrencyConfig(max_concurrent_envs=max_sessions, session_timeout=idle_timeout)
    extra: dict[str, Any] = {"concurrency_config": config}
    if "env_name" in inspect.signature(create_fastapi_app).parameters:  # OpenEnv >= 0.4; openenv-core 0.3 lacks it
        extra.update(env_name=env_name(env_id), state_cls=models["TextEnvState"])
    return create_fastapi_app(factory, models["TextAction"], models["TextObservation"], **extra)


class _DropClientGone(logging.Filter):
    """OpenEnv (openenv-core 0.3) closes a socket the client already closed and logs the resulting error with a full
    traceback for every session a client ends; that is a normal end of session, not an error."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return type(error).__name__ not in ("WebSocketDisconnect", "ClientDisconnected")


def serve(
    env_id: str,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    max_sessions: int = 8,
    idle_timeout: float | None = None,
    **env_kwargs: Any,
) -> None:
    """Run the server until interrupted (uvicorn)."""
    import uvicorn

    app = make_app(env_id, max_sessions=max_sessions, idle_timeout=idle_timeout, **env_kwargs)
    logging.getLogger("uvicorn.error").addFilter(_DropClientGone())
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=5)
