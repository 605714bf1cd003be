"""``ChatEnv``: any env of the suite as an OpenAI-style chat, with tool calls or plain-text actions.

``reset`` returns the messages a chat model starts from: a system message (the family's prompt: rules, an
example, the action format and the step budget) and a user message holding the first observation. ``step``
takes the model's assistant message (a string, or a dict with ``content`` and/or ``tool_calls``), appends it
to the history unchanged, plays one action and appends exactly one new message: a ``tool`` message answering
the tool call, or a ``user`` message for a plain-text reply. The history only ever grows at its end, so a
trainer can tokenise it incrementally.

Plain text is read by the agents' parser (``Action: guess 0123``, a fenced block, a bare first line); a tool
call is turned into the same action text, so both give the same trajectory.

>>> chat = ChatEnv("AgentQuest/Mastermind-v0")
>>> messages, info = chat.reset(seed=0, options={"task_id": "mastermind-003"})
>>> [m["role"] for m in messages]
['system', 'user']
>>> reply, reward, terminated, truncated, info = chat.step("Action: guess 0123")
>>> reply["role"], reply["content"]
('user', '0123: 2 in the right place, 0 right but in the wrong place.')
>>> call = {"id": "c1", "type": "function", "function": {"name": "act", "arguments": '{"command": "guess 0573"}'}}
>>> reply, reward, terminated, truncated, info = chat.step({"role": "assistant", "content": None, "tool_calls": [call]})
>>> reply["role"], reply["tool_call_id"], terminated, len(chat.messages)
('tool', 'c1', True, 6)
>>> chat.close()
"""

from __future__ import annotations

import copy
from typing import Any

import gymnasium as gym

from agentgym_text.agents.parsing import parse_reply
from agentgym_text.agents.prompts import load_prompt
from agentgym_text.agents.protocols import AgentProtocol, Request
from agentgym_text.core.registry import reads_whole_replies
from agentgym_text.integrations.chat_protocol import ProtocolChat, make_protocol_env, resolve_protocol
from agentgym_text.integrations.tool_schemas import action_from_tool_call, tool_schemas

__all__ = ["ChatEnv", "system_prompt", "family_of", "action_from_message", "NOT_RUN"]

NOT_RUN = "Not run: send one action per turn; only the first tool call of a message is played."

_TEXT_FORMAT = "Reply with your next action only, on one line, in the form 'Action: <action>'."
_TOOL_FORMAT = (
    "Each turn, make exactly one tool call; its result comes back as the tool's reply. "
    "(You may also write 'Action: <action>' as plain text.)"
)


def family_of(env_id: str) -> str:
    """The registered family of ``env_id`` ("generic" when the id is not one of ours)."""
    import agentgym_text

    for entry in agentgym_text.list_envs():
        if entry.env_id == env_id:
            return entry.family
    return "generic"


def system_prompt(env: gym.Env, family: str, *, tools: bool, budget: int | None = None) -> str:
    """The family's rules and in-context example, the action format, the help action and the step budget
    (``budget``: the episode's ``info["max_steps"]``; by default the env's own ``step_budget``)."""
    base = env.unwrapped
    prompt = load_prompt(family, getattr(base, "text_format", None))
    parts = [prompt.system, prompt.instruction, "Here is an example:\n" + prompt.example]
    action_format = getattr(base, "action_format", "")
    help_action = getattr(base, "help_action", "check valid actions")
    line = f"Actions: {action_format}, e.g. '{getattr(base, 'action_example', '')}'. " if action_format else ""
    parts.append(line + f"'{help_action}' lists what you can do.")
    if budget is None:
        budget = getattr(base, "step_budget", 0)
    if budget:
        parts.append(f"You have {budget} steps; the episode ends at the goal or when they run out.")
    parts.append(_TOOL_FORMAT if tools else _TEXT_FORMAT)
    return "\n\n".join(parts)


def _field(message: Any, name: str) -> Any:
    if isinstance(message, dict):
        return message.get(name)
    return getattr(message, name, None)


def action_from_message(
    message: Any, *, react: bool = False, whole: bool = False, env: gym.Env | None = None
) -> tuple[str, str | None]:
    """The action text an assistant message plays and the id of the tool call it answers (None for text).

    A message without a readable action plays its raw text, so the env says what is wrong with it. A tool call
    of one of ``env``'s functions is worded by ``env`` (see ``action_from_tool_call``).
    """
    if isinstance(message, str):
        message = {"role": "assistant", "content": message}
    calls = _field(message, "tool_calls") or []
    if calls:
        call = calls[0]
        function = _field(call, "function") or {}
        return (
            action_from_tool_call(str(_field(function, "name") or ""), _field(function, "arguments"), env),
            _field(call, "id") or "call_0",
        )
    content = _field(message, "content")
    if isinstance(content, list):  # content parts: keep the text ones
        content = "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    text = content if isinstance(content, str) else ""
    parsed = parse_reply(text, react=react, whole=whole)
    return (parsed.action if parsed.action is not None else text), None


class ChatEnv:
    """An env as a chat: ``reset`` -> messages, ``step(assistant message)`` -> one new message.

    ``env`` is an env id (made with ``gym.make(env, **make_kwargs)``) or an env already made. ``tools=True``
    words the system prompt for tool calls (``self.tools`` holds the schemas for the current task either
    way); ``react=True`` reads plain-text replies in the Thought/Action style.

    The return of ``step`` is ``(new_message, reward, terminated, truncated, info)``; ``self.messages`` is
    the whole history (the caller's assistant messages included, as sent).

    ``protocol=`` (an ``AgentProtocol`` or its name, e.g. "ours", "agentboard") hands the words to that protocol's
    dialogue instead: an env made from an id gets the protocol's env kwargs, step budget and wrappers; ``reset``
    returns the first request's messages; ``step(message)`` reads the reply's text with ``dialogue.read``, steps
    the env with its action (unless the protocol keeps a thought and asks again, or ends the episode itself:
    then no env step, ``info["finish_reason"]`` says why, ``info["success"]`` is the env's ``judge_as_ended()``
    and ``messages`` the last request with the reply that ended it), hands the observation to ``dialogue.observe`` and
    returns ``(messages, reward, terminated, truncated, info)`` with ``messages`` the next request's whole list,
    which ``self.messages`` also becomes (a protocol may rewrite or cut earlier turns, so it need not only grow).
    """

    def __init__(
        self,
        env: str | gym.Env,
        *,
        tools: bool = False,
        react: bool = False,
        family: str | None = None,
        protocol: AgentProtocol | str | None = None,
        **make_kwargs: Any,
    ):
        self.protocol = None if protocol is None else resolve_protocol(protocol)
        if isinstance(env, str):
            import agentgym_text  # noqa: F401  (registers the ids)

            self.env_id = env
            if self.protocol is None:
                self.env = gym.make(env, **make_kwargs)
            else:
                self.env = make_protocol_env(env, self.protocol, make_kwargs)
        else:
            self.env_id = env.spec.id if env.spec is not None else type(env.unwrapped).__name__
            self.env = env
        self.family = family or family_of(self.env_id)
        self.use_tools = tools
        self.react = react
        self.messages: list[dict[str, Any]] = []
        self.tools: list[dict[str, Any]] = []
        self.info: dict[str, Any] = {}
        self.episode_over = True
        self._chat = None if self.protocol is None else ProtocolChat(self.protocol, self.env, self.env_id, self.family)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        observation, info = self.env.reset(seed=seed, options=options)
        self.tools = tool_schemas(self.env)
        if self._chat is not None:
            self.messages = self._chat.open(str(observation), info)
            self.info = info
            self.episode_over = False
            return copy.deepcopy(self.messages), info
        self.messages = [
            {
                "role": "system",
                "content": system_prompt(self.env, self.family, tools=self.use_tools, budget=info.get("max_steps")),
            },
            {"role": "user", "content": observation},
        ]
        self.info = info
        self.episode_over = False
        return copy.deepcopy(self.messages), info

    def step(self, message: Any):
        """Play the action of ``message`` (an assistant message or its text); append it and the answer."""
        if isinstance(message, str):
            message = {"role": "assistant", "content": message}
        message = (
            dict(message)
            if isinstance(message, dict)
            else {
                "role": "assistant",
                "content": _field(message, "content"),
                "tool_calls": _field(message, "tool_calls"),
            }
        )
        message.setdefault("role", "assistant")
        if self._chat is not None:
            return self._protocol_step(message)
        whole = reads_whole_replies(self.env.spec.id) if self.env.spec else False
        action, call_id = action_from_message(message, react=self.react, whole=whole, env=self.env)
        observation, reward, terminated, truncated, info = self.env.step(action)
        self.messages.append(copy.deepcopy(message))
        if call_id is None:
            reply: dict[str, Any] = {"role": "user", "content": observation}
            self.messages.append(reply)
        else:
            reply = {"role": "tool", "tool_call_id": call_id, "content": observation}
            self.messages.append(reply)
            # The API wants an answer to every tool call; only the first is played (one action per turn).
            for extra in (message.get("tool_calls") or [])[1:]:
                self.messages.append({"role": "tool", "tool_call_id": _field(extra, "id"), "content": NOT_RUN})
        self.info = info
        self.episode_over = bool(terminated or truncated)
        return dict(reply), reward, terminated, truncated, info

    def _protocol_step(self, message: dict[str, Any]):
        assert self._chat is not None
        content = message.get("content")
        if isinstance(content, list):
            content = "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
        result = self._chat.answer(content if isinstance(content, str) else "", self.info)
        self.messages = result.messages
        self.info = result.info
        self.episode_over = result.terminated or result.truncated
        return copy.deepcopy(result.messages), result.reward, result.terminated, result.truncated, result.info

    @property
    def request(self) -> Request | None:
        """Under a protocol, the request to send now (``messages`` with the protocol's temperature, max tokens, stop,
        and ``finish_reason`` when the original harness would end the episode unsent); None without one."""
        return None if self._chat is None else self._chat.request()

    @property
    def unwrapped(self):
        return self.env.unwrapped

    def close(self) -> None:
        self.env.close()
