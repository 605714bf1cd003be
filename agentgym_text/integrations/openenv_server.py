"""An OpenEnv server for any env id, on ``openenv-core``'s own server (extra ``openenv``).

``agentgym-text serve --env AgentQuest/Mastermind-v0 --port 8000 --max-sessions 16`` serves one env id; each
WebSocket client (openenv-core's ``EnvClient``/``GenericEnvClient``) gets its own env instance, up to
``--max-sessions``. The action is ``{"message": "<text action>"}`` (as in OpenEnv's TextArena env). ``reset``
accepts ``seed``, ``task_id`` and ``task_index``. The observation has typed fields (openenv-core's serializer
drops ``metadata`` from what clients receive): ``text``, ``goal``, ``task_id``, ``progress_rate``,
``progress_now``, ``valid``, ``invalid_reason``, ``finish_reason``, ``success``, ``truncated``, ``step``,
``max_steps``; ``reward`` is the progress increase and ``done`` is terminated or truncated.

Sessions run in the server's threads; the sessions of an id whose family is not declared ``thread_safe`` take turns
(one lock around their env calls), so such a family is served correctly, one call at a time.

When a session ends (the client closes, or its connection drops) openenv-core closes the session's env, which
closes its engine (a ScienceWorld JVM, a SQLite database); ``--idle-timeout`` also ends sessions left idle.

Client side, with openenv-core's generic client::

    from openenv.core import GenericEnvClient
    with GenericEnvClient(base_url="http://127.0.0.1:8000").sync() as client:
        result = client.reset(seed=0, task_id="mastermind-003")
        result = client.step({"message": "guess 0123"})
        print(result.observation["text"], result.reward, result.done)
"""

from __future__ import annotations

import contextlib
import functools
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
]

_MODELS = ("TextAction", "TextObservation", "TextEnvState", "AgentGymEnvironment")
_UNSAFE_ENGINES = threading.RLock()
"""Held around every env call of a family not declared thread-safe."""


def _engine_guard(env_id: str) -> Any:
    import agentgym_text

    entry = next((e for e in agentgym_text.list_envs() if e.env_id == env_id), None)
    return contextlib.nullcontext() if entry is not None and entry.thread_safe else _UNSAFE_ENGINES


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
        """One session's env: ``gym.make(env_id, **env_kwargs)`` behind openenv-core's ``Environment``."""

        SUPPORTS_CONCURRENT_SESSIONS = True  # each session has its own env instance and engine

        def __init__(self, env_id: str, **env_kwargs: Any):
            super().__init__()
            import gymnasium as gym

            import agentgym_text  # noqa: F401  (registers the ids)

            self.env_id = env_id
            self._guard = _engine_guard(env_id)
            with self._guard:
                self.env = gym.make(env_id, **env_kwargs)
            self._state = TextEnvState(env_id=env_id)
            self._closed = False

        def _observation(self, text: str, info: dict, reward: float | None, terminated: bool, truncated: bool):
            return TextObservation(
                text=text,
                goal=info["goal"],
                task_id=info["task_id"],
                progress_rate=info["progress_rate"],
                progress_now=info["progress_now"],
                valid=info["valid"],
                invalid_reason=info["invalid_reason"],
                finish_reason=info["finish_reason"],
                success=info["success"],
                truncated=bool(truncated),
                step=info["step"],
                max_steps=info["max_steps"],
                reward=reward,
                done=bool(terminated or truncated),
            )

        def reset(
            self,
            seed: int | None = None,
            episode_id: str | None = None,
            task_id: str | None = None,
            task_index: int | None = None,
            **kwargs: Any,
        ) -> TextObservation:
            options = {
                key: value for key, value in (("task_id", task_id), ("task_index", task_index)) if value is not None
            }
            with self._guard:
                text, info = self.env.reset(seed=seed, options=options or None)
            self._state = TextEnvState(
                episode_id=episode_id or str(uuid.uuid4()), step_count=0, env_id=self.env_id, task_id=info["task_id"]
            )
            return self._observation(text, info, None, False, False)

        def step(self, action: TextAction, timeout_s: float | None = None, **kwargs: Any) -> TextObservation:
            with self._guard:
                text, reward, terminated, truncated, info = self.env.step(action.message)
            self._state.step_count += 1
            self._state.progress_rate = info["progress_rate"]
            self._state.done = bool(terminated or truncated)
            return self._observation(text, info, float(reward), terminated, truncated)

        @property
        def state(self) -> TextEnvState:
            return self._state

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
                with self._guard:
                    self.env.close()

    return {name: value for name, value in locals().items() if name in _MODELS}


def __getattr__(name: str):
    if name in _MODELS:
        return _models()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def make_app(env_id: str, *, max_sessions: int = 8, idle_timeout: float | None = None, **env_kwargs: Any):
    """The FastAPI app serving ``env_id`` (openenv-core's ``create_fastapi_app``).

    One env is made (and closed) first: it checks the id and kwargs before any client connects, and fills the
    family's task caches once, instead of in every concurrent session's thread at the same time.
    """
    from openenv.core.env_server.http_server import create_fastapi_app
    from openenv.core.env_server.types import ConcurrencyConfig

    models = _models()
    factory = functools.partial(models["AgentGymEnvironment"], env_id, **env_kwargs)
    factory().close()
    config = ConcurrencyConfig(max_concurrent_envs=max_sessions, session_timeout=idle_timeout)
    return create_fastapi_app(factory, models["TextAction"], models["TextObservation"], concurrency_config=config)


class _DropClientGone(logging.Filter):
    """openenv-core 0.3 closes a socket the client already closed and logs the resulting error with a full
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
