"""SkyRL's ``BaseTextEnv`` over one env id of the suite: the class ``agentgym_text.integrations.skyrl`` registers
(imported only when used: it needs the ``skyrl`` extra)."""

from __future__ import annotations

from typing import Any

from agentgym_text.agents.protocols import AgentProtocol
from agentgym_text.integrations.chat import ChatEnv
from agentgym_text.integrations.chat_protocol import new_turns, require_append_only
from agentgym_text.integrations.extras import extra_needed

with extra_needed("skyrl", "the SkyRL env"):
    from skyrl_gym.envs.base_text_env import BaseTextEnv, BaseTextEnvStepOutput

__all__ = ["AgentGymTextEnv"]

_METADATA_KEYS = ("task_id", "progress_rate", "progress_now", "valid", "invalid_reason", "finish_reason", "success")


class AgentGymTextEnv(BaseTextEnv):
    """One row's episode. ``extras`` is the row (``env_id``, which must be the id the class is registered under if
    any, ``env_kwargs``, ``task_id``, ``seed``, optional ``max_turns``); ``env_config`` is SkyRL's per-class config
    (unused). ``protocol``: an append-only agent protocol (``agentbench``) whose messages the model sees; SkyRL's
    chat history only grows, so a protocol that rebuilds its requests is refused (``ValueError``)."""

    def __init__(
        self,
        env_config: Any = None,
        extras: dict[str, Any] | None = None,
        env_id: str | None = None,
        protocol: AgentProtocol | str | None = None,
    ):
        super().__init__()
        extras = dict(extras or {})
        self.env_id = env_id or extras.get("env_id")
        if not self.env_id:
            raise ValueError(
                "an env_class registered without an env id needs the row's 'env_id' (e.g. from skyrl_rows)"
            )
        if extras.get("env_id") not in (None, self.env_id):
            raise ValueError(
                f"a row of {extras['env_id']} reached the env class of {self.env_id}: its env_class "
                "must be its env_id (skyrl_rows writes it so)"
            )
        self.task_id = extras.get("task_id")
        self.seed = extras.get("seed", 0)
        self.requested_turns = extras.get("max_turns")
        if protocol is not None:
            require_append_only(protocol, "SkyRL")
        self.chat = ChatEnv(self.env_id, protocol=protocol, **dict(extras.get("env_kwargs") or {}))
        self.sent: list[dict[str, Any]] = []
        """Under a protocol, the messages of its last request (what the model's chat history holds)."""
        self.info: dict[str, Any] = {}
        self.valid_steps = 0

    def init(self, prompt: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        options = {"task_id": self.task_id} if self.task_id else None
        messages, self.info = self.chat.reset(seed=self.seed, options=options)
        self.turns, self.valid_steps = 0, 0
        self.max_turns = int(self.requested_turns or self.info["max_steps"])
        if self.chat.protocol is not None:  # the protocol's first request, whatever the row's prompt
            self.sent = messages
            return messages, {"task_id": self.info["task_id"], "env_id": self.env_id}
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
        if done:
            observations = []
        elif self.chat.protocol is not None:  # reply: the protocol's next request, of which SkyRL gets the new turns
            observations, self.sent = new_turns(self.sent, action, reply, "SkyRL"), reply
        else:
            observations = [{"role": "user", "content": reply["content"]}]
        return BaseTextEnvStepOutput(
            observations=observations,
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
