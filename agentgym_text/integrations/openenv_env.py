"""One OpenEnv session's env: the suite's env id behind OpenEnv's ``Environment``, with typed action, observation and
state (imported only when used: it needs the ``openenv`` extra). ``openenv_server`` serves it."""

from __future__ import annotations

import html
import uuid
from typing import Any

import gymnasium as gym

import agentgym_text
from agentgym_text.agents.protocols import AgentProtocol
from agentgym_text.integrations.chat import ChatEnv
from agentgym_text.integrations.chat_protocol import resolve_protocol
from agentgym_text.integrations.extras import extra_needed
from agentgym_text.integrations.mixture import EnvIds, parse_mixture
from agentgym_text.integrations.openenv_tasks import (
    INFO_FIELDS,
    engine_guard,
    task_count,
    task_row,
    task_spec,
    task_splits,
)

with extra_needed("openenv", "the OpenEnv server"):
    from openenv.core.env_server.interfaces import Environment
    from openenv.core.env_server.types import Action, EnvironmentMetadata, Observation, State
    from pydantic import Field

__all__ = ["TextAction", "TextObservation", "TextEnvState", "AgentGymEnvironment"]


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
    messages: list[dict[str, Any]] | None = Field(
        default=None, description="under an agent protocol: its whole next request, to send as it is (else None)"
    )
    sampling: dict[str, Any] | None = Field(
        default=None, description="under an agent protocol: the request's temperature, max_tokens and stop"
    )


class TextEnvState(State):
    env_id: str = ""
    task_id: str = ""
    progress_rate: float = 0.0
    done: bool = False


class AgentGymEnvironment(Environment[TextAction, TextObservation, TextEnvState]):
    """One session's env: ``gym.make(env_id, **env_kwargs)`` behind OpenEnv's ``Environment``, made on first
    use (the task API runs on instances that never reset). ``envs`` may be several ids with weights (a multi-task
    set; ``size`` and ``mix_seed`` as ``datasets.tasks`` takes them): a reset by split and index makes the row's
    own id's env; a reset without them plays ``env_id=`` (one of the set's ids; default the first).

    ``protocol`` (an ``AgentProtocol`` or its name): the session plays ``ChatEnv(env_id, protocol=...)`` (the
    protocol's env kwargs, step budget and reply parsing): the action is the model's whole reply, and each
    observation carries the protocol's next request in ``messages`` (the whole list, which the client sends as it
    is, so every protocol works, also those that rebuild their prompt each step) and its ``sampling``; ``text`` is
    that request's last message. A request the original harness would not send ends the episode (``done``, its
    ``finish_reason``). The task API's rows stay this package's (their first observation is not the protocol's)."""

    SUPPORTS_CONCURRENT_SESSIONS = True  # each session has its own env instance and engine

    def __init__(
        self,
        envs: EnvIds,
        *,
        size: int | None = None,
        mix_seed: int = 0,
        protocol: AgentProtocol | str | None = None,
        **env_kwargs: Any,
    ):
        super().__init__()
        self.protocol = None if protocol is None else resolve_protocol(protocol)
        self._chat: ChatEnv | None = None
        self.mixture = parse_mixture(envs)
        self.envs = self.mixture.spec()
        self.size, self.mix_seed = size, mix_seed
        self.env_id = self.mixture.env_ids[0]
        """The id the session's env plays now."""
        self.env_kwargs = env_kwargs
        self._guard = engine_guard(self.env_id)
        self._env: Any = None
        self._env_made_with: dict[str, Any] = env_kwargs
        self._state = TextEnvState(env_id=self.env_id)
        self._closed = False

    @property
    def env(self) -> Any:
        if self._env is None:
            self._make(self.env_id, self.env_kwargs)
        return self._env

    def _make(self, env_id: str, kwargs: dict[str, Any]) -> None:
        with self._guard:
            if self._env is not None:
                self._env.close()
                self._env = None
        self._guard = engine_guard(env_id)
        with self._guard:
            if self.protocol is None:
                self._env = gym.make(env_id, **kwargs)
            else:
                self._chat = ChatEnv(env_id, protocol=self.protocol, **kwargs)
                self._env = self._chat.env
        self.env_id, self._env_made_with = env_id, kwargs

    def _observation(self, text: str, info: dict, reward: float | None, terminated: bool, truncated: bool):
        fields = {name: info[name] for name in INFO_FIELDS}
        fields["truncated"] = bool(truncated)
        return TextObservation(
            text=text, **fields, reward=reward, done=bool(terminated or truncated), metadata=dict(fields)
        )

    def _request_observation(self, info: dict, reward: float | None, terminated: bool, truncated: bool):
        """The observation under a protocol: its next request, or the end it calls."""
        assert self._chat is not None
        request = self._chat.request
        assert request is not None
        if request.finish_reason and not (terminated or truncated):
            info, terminated = {**info, "finish_reason": request.finish_reason}, True
        observation = self._observation(str(request.messages[-1]["content"]), info, reward, terminated, truncated)
        observation.messages = [dict(message) for message in request.messages]
        sampling = {"temperature": request.temperature, "max_tokens": request.max_tokens, "stop": request.stop}
        observation.sampling = {key: value for key, value in sampling.items() if value is not None}
        return observation

    def reset(
        self,
        seed: int | None = None,
        episode_id: str | None = None,
        task_id: str | None = None,
        task_index: int | None = None,
        split: str | None = None,
        index: int | None = None,
        env_id: str | None = None,
        **kwargs: Any,
    ) -> TextObservation:
        if split is not None or index is not None:
            row = self._row(split or "test", 0 if index is None else index)
            task_id, task_index = row["task_id"], None
            seed = row["seed"] if seed is None else seed
            if (row["env_id"], row["env_kwargs"]) != (self.env_id, self._env_made_with):
                self._make(row["env_id"], row["env_kwargs"])
        elif env_id is not None and env_id != self.env_id:
            if env_id not in self.mixture.env_ids:
                raise ValueError(f"{env_id} is not served here; the ids: {', '.join(self.mixture.env_ids)}")
            self._make(env_id, self.env_kwargs)
        options = {key: value for key, value in (("task_id", task_id), ("task_index", task_index)) if value is not None}
        env = self.env
        with self._guard:
            if self._chat is None:
                text, info = env.reset(seed=seed, options=options or None)
            else:
                _, info = self._chat.reset(seed=seed, options=options or None)
        self._state = TextEnvState(
            episode_id=episode_id or str(uuid.uuid4()), step_count=0, env_id=self.env_id, task_id=info["task_id"]
        )
        if self._chat is not None:
            return self._request_observation(info, None, False, False)
        return self._observation(text, info, None, False, False)

    def step(self, action: TextAction, timeout_s: float | None = None, **kwargs: Any) -> TextObservation:
        env = self.env
        with self._guard:
            if self._chat is None:
                text, reward, terminated, truncated, info = env.step(action.message)
            else:
                _, reward, terminated, truncated, info = self._chat.step(action.message)
        self._state.step_count += 1
        self._state.progress_rate = info["progress_rate"]
        if self._chat is not None:
            observation = self._request_observation(info, float(reward), terminated, truncated)
            self._state.done = observation.done
            return observation
        self._state.done = bool(terminated or truncated)
        return self._observation(text, info, float(reward), terminated, truncated)

    @property
    def state(self) -> TextEnvState:
        return self._state

    # OpenEnv's task API (a structural protocol: these methods are found by name).
    def _row(self, split: str, index: int) -> dict[str, Any]:
        return task_row(self.envs, self.env_kwargs, split, index, size=self.size, mix_seed=self.mix_seed)

    def list_splits(self) -> list[str]:
        return list(task_splits(self.envs, self.env_kwargs))

    def num_tasks(self, split: str) -> int:
        return task_count(self.envs, self.env_kwargs, split, size=self.size, mix_seed=self.mix_seed)

    def get_task(self, split: str, index: int) -> dict[str, Any]:
        return task_spec(self.envs, self.env_kwargs, split, index, size=self.size, mix_seed=self.mix_seed)

    def get_task_range(self, split: str, start: int | None = None, stop: int | None = None) -> list[dict]:
        indices = range(self.num_tasks(split))[start:stop]
        return [self.get_task(split, index) for index in indices]

    def list_tasks(self, split: str) -> list[dict[str, Any]]:
        return self.get_task_range(split)

    def render_web(self, observation: dict[str, Any]) -> str | None:
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
        if not self.mixture.single:
            description = f"a multi-task set of {', '.join(self.mixture.env_ids)} (weights {self.envs})"
        else:
            entry = next((e for e in agentgym_text.list_envs() if e.env_id == self.env_id), None)
            description = entry.description if entry else self.env_id
        return EnvironmentMetadata(name=self.envs, description=description, version=agentgym_text.__version__)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self._env is not None:
                with self._guard:
                    self._env.close()
