"""Inspect AI: any env id and split as an Inspect ``Task`` (extra ``inspect``: ``inspect-ai`` 0.3).

::

    inspect eval agentgym_text/agentgym -T env_id=AgentQuest/Mastermind-v0 -T limit=5 \\
        --model openai-api/local/my-model   # OPENAI_API_KEY / LOCAL_BASE_URL: any OpenAI-compatible server
    inspect view --log-dir logs             # the viewer, served from the wheel on 127.0.0.1

(``agentgym_text/agentgym`` is this module's ``agentgym`` task, registered through the package's ``inspect_ai``
entry point; from Python, ``inspect_ai.eval(agentgym(env_id=...), model=...)``.)

- ``agentgym(env_id, split="test", limit=None, offset=0, tools=False, max_steps=None, env_kwargs=None, size=None,
  mix_seed=0)``: one ``Sample`` per row of ``agentgym_text.integrations.datasets.tasks(env_id, split)`` (id = the
  task id; input = the first observation; metadata = how to make and reset the env). ``env_id`` may be several ids
  with weights, a multi-task set (``-T env_id=AgentQuest/Mastermind-v0=1,AgentQuest/Sudoku-v0=1 -T size=20``;
  ``datasets.tasks`` mixes them): each sample's env is its row's id, and its id is ``<env id>/<task id>``.
- ``play_env(tools=False)``: the solver. It resets the sample's env (``ChatEnv``: the family's system prompt and the
  first observation become the messages), then asks the model for a turn and plays its reply until the env ends
  the episode (goal, failure or the step budget) or Inspect's own limits stop the sample. With ``tools=True`` the
  env's actions are offered as tools (Inspect does not run them: the env answers each call).
- ``protocol=`` (``agentgym(..., protocol="agentboard")``, ``-T protocol=agentbench``; an ``AgentProtocol`` from
  Python; default none: the prompts above): the model sees exactly the agent protocol's requests, as
  ``ChatEnv(env_id, protocol=...)`` words them (the protocol's env kwargs, step budget and reply parsing; the
  checkouts from ``AGENTGYM_TEXT_AGENTBOARD_DIR`` / ``AGENTGYM_TEXT_AGENTBENCH_DIR`` for a name). Every protocol
  works: before each turn the solver replaces ``state.messages`` with the protocol's whole request (AgentBoard's
  and ours rebuild it every step; AgentBench's only grows) and generates with the protocol's temperature, max tokens
  and stop; a request the original harness would not send (``finish_reason``, e.g. ``context_limit``) ends the
  sample with that reason. A reply the protocol keeps as a thought and asks again (ReAct) is no step of the score's
  count. Protocols speak plain text, so ``tools=True`` with a protocol is refused.
- ``env_score()``: the scorer. Value ``{"progress_rate", "success", "grounding_accuracy"}`` (means reported; the
  same rules as ``agentgym_text.eval.run_eval``'s episode rows), answer = the finish reason.

Env calls run on Inspect's event loop (one env per sample; text envs answer in milliseconds). A scripted model
(``mockllm/model`` with outputs that carry ``usage``) runs fully offline; without ``usage`` mockllm counts tokens
with tiktoken, which downloads its encoding on first use.
"""

from __future__ import annotations

import json
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageTool, ChatMessageUser
from inspect_ai.scorer import Score, Target, mean, scorer, stderr
from inspect_ai.solver import Generate, TaskState, solver
from inspect_ai.tool import ToolDef, ToolParams

from agentgym_text.agents.protocols import AgentProtocol, Request
from agentgym_text.core.info import FinishReason
from agentgym_text.integrations.chat import ChatEnv
from agentgym_text.integrations.datasets import tasks
from agentgym_text.integrations.mixture import EnvIds, parse_mixture

__all__ = ["agentgym", "play_env", "env_score", "samples", "STORE_KEY"]

STORE_KEY = "agentgym"
"""The per-sample store entry the solver writes and the scorer reads."""


def samples(
    env_id: EnvIds,
    split: str = "test",
    *,
    limit: int | None = None,
    offset: int = 0,
    tools: bool = False,
    env_kwargs: dict[str, Any] | None = None,
    size: int | None = None,
    mix_seed: int = 0,
) -> list[Sample]:
    """One Inspect ``Sample`` per ``datasets.tasks`` row (one id, or several with weights)."""
    single = parse_mixture(env_id).single
    rows = tasks(
        env_id, split, size=size, mix_seed=mix_seed, limit=limit, offset=offset, tools=tools, env_kwargs=env_kwargs
    )
    return [
        Sample(
            input=row["first_observation"],
            id=row["task_id"] if single else f"{row['env_id']}/{row['task_id']}",  # task ids may repeat across ids
            metadata={
                key: row[key] for key in ("env_id", "env_kwargs", "split", "task_id", "seed", "goal", "difficulty")
            },
        )
        for row in rows
    ]


@task
def agentgym(
    env_id: EnvIds = "AgentQuest/Mastermind-v0",
    split: str = "test",
    limit: int | None = None,
    offset: int = 0,
    tools: bool = False,
    max_steps: int | None = None,
    env_kwargs: dict[str, Any] | str | None = None,
    size: int | None = None,
    mix_seed: int = 0,
    protocol: AgentProtocol | str | None = None,
) -> Task:
    """``env_id``'s ``split`` played to each episode's end and scored by progress, success and grounding.
    ``env_id`` is one id or several with weights (``"ID=W,ID=W"``, a mapping or a list), ``size`` the set's rows
    and ``mix_seed`` its order (``datasets.tasks``).
    ``max_steps`` sets the step budget (``gym.make``'s ``max_episode_steps``; default the task's own);
    ``env_kwargs`` are further ``gym.make`` kwargs (a dict, or JSON from the command line). Both apply to the test
    split (``datasets.tasks`` refuses kwargs for a train split, whose rows carry their own). ``protocol``: the agent
    protocol whose requests the model sees (the module docstring)."""
    kwargs = json.loads(env_kwargs) if isinstance(env_kwargs, str) else dict(env_kwargs or {})
    if max_steps is not None:
        kwargs["max_episode_steps"] = int(max_steps)
    mixture = parse_mixture(env_id)
    return Task(
        dataset=samples(
            env_id,
            split,
            limit=limit,
            offset=offset,
            tools=tools,
            env_kwargs=kwargs,
            size=size,
            mix_seed=mix_seed,
        ),
        solver=play_env(tools=tools, protocol=protocol),
        scorer=env_score(),
        name=f"agentgym-{mixture.name}",
        metadata={"env_id": mixture.spec(), "split": split},
    )


def _assistant_dict(message: ChatMessageAssistant) -> dict[str, Any]:
    """An Inspect assistant message as the OpenAI-style dict ``ChatEnv.step`` reads."""
    calls = [
        {
            "id": call.id,
            "type": "function",
            "function": {"name": call.function, "arguments": json.dumps(call.arguments)},
        }
        for call in message.tool_calls or []
    ]
    return {"role": "assistant", "content": message.text, "tool_calls": calls or None}


def _inspect_tools(schemas: list[dict[str, Any]]) -> list[ToolDef]:
    """The env's tool schemas as Inspect tool definitions (never executed by Inspect: ``tool_calls="none"``)."""

    async def answered_by_the_env(**kwargs: Any) -> str:
        raise RuntimeError("the env answers tool calls; Inspect must not run them")

    return [
        ToolDef(
            answered_by_the_env,
            name=schema["function"]["name"],
            description=schema["function"].get("description") or schema["function"]["name"],
            parameters=ToolParams.model_validate(schema["function"].get("parameters") or {}),
        )
        for schema in schemas
    ]


def _inspect_messages(messages: list[dict[str, Any]]) -> list[ChatMessage]:
    """A protocol's request as Inspect messages (its roles: system, user, assistant)."""
    kinds = {"system": ChatMessageSystem, "user": ChatMessageUser, "assistant": ChatMessageAssistant}
    return [kinds[m["role"]](content=m["content"]) for m in messages]


def _sampling(request: Request) -> dict[str, Any]:
    """The request's sampling settings the protocol fixes, as Inspect's generate config."""
    stop = [request.stop] if isinstance(request.stop, str) else request.stop
    settings = {"temperature": request.temperature, "max_tokens": request.max_tokens, "stop_seqs": stop}
    return {key: value for key, value in settings.items() if value is not None}


@solver
def play_env(tools: bool = False, protocol: AgentProtocol | str | None = None):
    """Play the sample's episode to the env's end (see the module docstring)."""
    if protocol is not None and tools:
        raise ValueError("Inspect's agentgym task: a protocol's requests are plain text; use tools=False with it")

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        meta = state.metadata
        if protocol is not None:
            return await _play_protocol(state, generate, protocol)
        chat = ChatEnv(meta["env_id"], tools=tools, **dict(meta.get("env_kwargs") or {}))
        record: dict[str, Any] = {"steps": 0, "valid_steps": 0, "finish_reason": None}
        state.store.set(STORE_KEY, record)
        try:
            messages, info = chat.reset(seed=meta.get("seed"), options={"task_id": meta["task_id"]})
            state.messages = [
                ChatMessageSystem(content=messages[0]["content"]),
                ChatMessageUser(content=messages[1]["content"]),
            ]
            if tools:
                state.tools = _inspect_tools(chat.tools)
            record.update(info=_info(info))
            while True:
                state = await generate(state, tool_calls="none")
                if state.completed:  # an Inspect limit (messages, tokens, time) ended the sample
                    record["finish_reason"] = record["finish_reason"] or "inspect_limit"
                    break
                reply, _, terminated, truncated, info = chat.step(_assistant_dict(state.output.message))
                over = _record_step(record, info, terminated, truncated)
                if reply["role"] == "tool":
                    state.messages.extend(
                        ChatMessageTool(content=str(m["content"]), tool_call_id=m["tool_call_id"])
                        for m in chat.messages[_first_new_tool(chat.messages) :]
                    )
                else:
                    state.messages.append(ChatMessageUser(content=reply["content"]))
                if over:
                    break
        finally:
            state.store.set(STORE_KEY, record)
            chat.close()
        return state

    return solve


async def _play_protocol(state: TaskState, generate: Generate, protocol: AgentProtocol | str) -> TaskState:
    """The episode under ``protocol``: each turn, ``state.messages`` becomes the protocol's whole request."""
    meta = state.metadata
    chat = ChatEnv(meta["env_id"], protocol=protocol, **dict(meta.get("env_kwargs") or {}))
    record: dict[str, Any] = {"steps": 0, "valid_steps": 0, "finish_reason": None}
    state.store.set(STORE_KEY, record)
    try:
        _, info = chat.reset(seed=meta.get("seed"), options={"task_id": meta["task_id"]})
        record.update(info=_info(info))
        while True:
            request = chat.request
            assert request is not None
            if request.finish_reason:  # the original harness ends the episode here, unsent
                record["finish_reason"] = request.finish_reason
                break
            state.messages = _inspect_messages(request.messages)
            state = await generate(state, tool_calls="none", **_sampling(request))
            if state.completed:
                record["finish_reason"] = "inspect_limit"
                break
            before = record["info"].get("step")
            _, _, terminated, truncated, info = chat.step(state.output.message.text)
            if info.get("step") == before and not (terminated or truncated):
                continue  # a thought the protocol keeps (ReAct): asked again, no env step
            if _record_step(record, info, terminated, truncated):
                break
    finally:
        state.store.set(STORE_KEY, record)
        chat.close()
    return state


def _record_step(record: dict[str, Any], info: dict[str, Any], terminated: bool, truncated: bool) -> bool:
    """Count one played step in the sample's ``record``; whether the episode is over (its finish reason recorded)."""
    record["steps"] += 1
    record["valid_steps"] += int(bool(info.get("valid")))
    record["info"] = _info(info)
    if terminated or truncated:
        reason = info.get("finish_reason") or (
            FinishReason.STEP_LIMIT.value if truncated else FinishReason.FAILURE.value
        )
        record["finish_reason"] = str(reason)
    return bool(terminated or truncated)


def _first_new_tool(messages: list[dict[str, Any]]) -> int:
    """Index of the first of the trailing tool messages (the answers to the last assistant message's calls)."""
    index = len(messages)
    while index > 0 and messages[index - 1].get("role") == "tool":
        index -= 1
    return index


def _info(info: dict[str, Any]) -> dict[str, Any]:
    keys = ("task_id", "progress_rate", "success", "valid", "finish_reason", "step", "max_steps")
    return {key: info.get(key) for key in keys}


@scorer(
    metrics={
        "progress_rate": [mean(), stderr()],
        "success": [mean(), stderr()],
        "grounding_accuracy": [mean()],
    }
)
def env_score():
    """Progress rate (1.0 on success, else the best progress), success, grounding accuracy (valid steps / steps);
    the finish reason is the answer."""

    async def score(state: TaskState, target: Target) -> Score:
        record = state.store.get(STORE_KEY) or {}
        info = record.get("info") or {}
        success = bool(info.get("success"))
        steps = record.get("steps", 0)
        return Score(
            value={
                "progress_rate": 1.0 if success else float(info.get("progress_rate") or 0.0),
                "success": float(success),
                "grounding_accuracy": record.get("valid_steps", 0) / steps if steps else 0.0,
            },
            answer=record.get("finish_reason") or "not_finished",
            explanation=f"{steps} steps on {info.get('task_id')}",
            metadata={"steps": steps, "valid_steps": record.get("valid_steps", 0), "task_id": info.get("task_id")},
        )

    return score
