"""Any agentgym-text env id as a verifiers v1 taskset; the env plays the user.

``vf-eval agentgym-vf --env.taskset.env-id AgentQuest/Mastermind-v0 ...`` or, from Python,
``vf.load_environment(vf.resolve_env_config({"taskset": {"id": "agentgym-vf", "env_id": ...}}))``.

- ``AgentGymTaskset`` yields one task per row of ``agentgym_text.integrations.datasets.tasks(env_id, split)``:
  the prompt is the first observation, the system prompt the family's (rules, example, action format, budget).
  ``env_id`` may name several ids with weights, a multi-task set (``--env.taskset.env-id
  "AgentQuest/Mastermind-v0=3,AgentQuest/Sudoku-v0=1" --env.taskset.size 400``, or a mapping / a list from
  Python): ``datasets.tasks`` shares ``size`` among them by weight and interleaves them (``mix_seed``); each task
  keeps its row's id, and its env is made from it.
- ``AgentGymEnv.run`` makes the row's env, resets it to the row's task and seed, and plays each model reply as one
  action (read as ``ChatEnv`` reads replies), answering with the next observation as the user turn, until the env
  ends the episode (goal, failure, step budget). It records the reward ``progress_rate`` (1.0 on success, else the
  best progress) and the metrics ``success``, ``steps``, ``grounding_accuracy``; ``trace.info`` holds the task id
  and finish reason.
- ``--env.taskset.protocol agentbench`` (a name; the checkout from ``AGENTGYM_TEXT_AGENTBENCH_DIR``): the model sees
  AgentBench v0.2's conversation exactly as ``ChatEnv(env_id, protocol=...)`` builds it (its env kwargs, round limit
  and reply parsing): the task's prompt is the protocol's first request (no system prompt) and each answer the turns
  its next request adds. verifiers' conversation only grows, so only append-only protocols play (``agentbench``);
  ``ours`` and ``agentboard``, which rebuild the whole prompt every step, are refused when the taskset loads, and an
  AgentBench episode whose history outgrows the session's limit (``filter_messages`` cuts it) fails when it happens.
  Sampling settings (AgentBench's temperature 0, 512 tokens) are the player's (``--env.player.*``).
- Local by default: the player runs in a subprocess runtime (verifiers' default is a remote Prime sandbox) with
  ``AgentGymHarness``, verifiers' tool-less ``null`` chat loop started with this Python instead of a ``uv``-built
  script environment (which ``uv`` would fetch from PyPI at run time).
"""

from __future__ import annotations

import hashlib
import sys
import uuid
from collections.abc import Iterator
from typing import Any

import verifiers.v1 as vf
from verifiers.v1.harnesses.null.harness import NullHarness
from verifiers.v1.runtimes import SubprocessConfig

from agentgym_text.core.info import FinishReason
from agentgym_text.integrations.chat import ChatEnv
from agentgym_text.integrations.chat_protocol import new_turns, require_append_only, resolve_protocol
from agentgym_text.integrations.datasets import tasks


class AgentGymConfig(vf.TasksetConfig):
    env_id: str | dict[str, float] | list[str] = "AgentQuest/Mastermind-v0"
    """The agentgym-text env id, or several with weights ("ID=W,ID=W", a mapping id -> weight, or a list)."""
    split: str = "test"
    """"test" (the shipped tasks) or "train" (where every id has one)."""
    size: int | None = None
    """Rows in the set (several ids: their total, shared by weight; default ``datasets.DEFAULT_MIXTURE_SIZE``)."""
    mix_seed: int = 0
    """The seed of a multi-task set's order."""
    limit: int | None = None
    offset: int = 0
    max_steps: int | None = None
    """Step budget (``gym.make``'s ``max_episode_steps``); None = each task's own."""
    env_kwargs: dict[str, Any] = {}
    """Further ``gym.make`` kwargs."""
    protocol: str | None = None
    """An append-only agent protocol whose messages the model sees ("agentbench"); None: this package's prompts."""


class AgentGymData(vf.TaskData):
    env_id: str
    env_kwargs: dict[str, Any] = {}
    task_id: str
    seed: int | None = 0
    protocol: str | None = None


class AgentGymTask(vf.Task[AgentGymData, vf.State, vf.TaskConfig]):
    pass


class AgentGymTaskset(vf.Taskset[AgentGymTask, AgentGymConfig]):
    def load(self) -> Iterator[AgentGymTask]:
        config = self.config
        kwargs = dict(config.env_kwargs)
        if config.max_steps is not None:
            kwargs["max_episode_steps"] = config.max_steps
        rows = tasks(
            config.env_id,
            config.split,
            size=config.size,
            mix_seed=config.mix_seed,
            limit=config.limit,
            offset=config.offset,
            env_kwargs=kwargs,
        )
        if config.protocol is not None:
            require_append_only(config.protocol, "verifiers")
        for index, row in enumerate(rows):
            prompt, system_prompt = row["first_observation"], row["system_prompt"]
            if config.protocol is not None:  # the protocol's first request
                prompt, system_prompt = _first_request(row, config.protocol), None
            yield AgentGymTask(
                AgentGymData(
                    idx=index,
                    name=row["task_id"],
                    prompt=prompt,
                    system_prompt=system_prompt,
                    env_id=row["env_id"],
                    env_kwargs=row["env_kwargs"],
                    task_id=row["task_id"],
                    seed=row["seed"],
                    protocol=config.protocol,
                ),
                config.task,
            )


def _first_request(row: dict[str, Any], protocol: str) -> list[dict[str, Any]]:
    chat = ChatEnv(row["env_id"], protocol=protocol, **row["env_kwargs"])
    try:
        messages, _ = chat.reset(seed=row["seed"], options={"task_id": row["task_id"]})
        return messages
    finally:
        chat.close()


class _ThisPython:
    """A runtime whose PEP 723 scripts run with this process's Python (verifiers installs what the null chat loop
    imports: openai, mcp, httpx, tenacity), so no ``uv`` environment is built at run time."""

    def __init__(self, runtime: Any):
        self._runtime = runtime

    def __getattr__(self, name: str) -> Any:
        return getattr(self._runtime, name)

    async def prepare_uv_script(self, script: str | bytes, env: dict[str, str] | None = None, **_: Any) -> list[str]:
        data = script.encode() if isinstance(script, str) else script
        path = f"{self._runtime.scripts_dir}/{hashlib.sha256(data).hexdigest()}.py"
        partial = f"{path}.{uuid.uuid4().hex}.tmp"  # concurrent episodes share the path: never run a half-written file
        await self._runtime.write(partial, data)
        moved = await self._runtime.run(["mv", "-f", partial, path], env or {})
        if moved.exit_code != 0:
            raise RuntimeError(f"could not place the chat loop script: {moved.stderr.strip()[-500:]}")
        return [sys.executable, path]


class AgentGymHarness(NullHarness):
    """verifiers' ``null`` harness (a plain chat loop, no tools, no code execution), run with this Python."""

    async def setup(self, runtime: Any) -> None:
        await super().setup(_ThisPython(runtime))

    async def launch(self, ctx: Any, trace: Any, runtime: Any, *args: Any, **kwargs: Any) -> Any:
        return await super().launch(ctx, trace, _ThisPython(runtime), *args, **kwargs)


class AgentGymEnvConfig(vf.EnvConfig):
    player: vf.AgentConfig = vf.AgentConfig(runtime=SubprocessConfig())
    """The model playing the env (``--env.player.*``); a local subprocess runtime unless told otherwise."""


class AgentGymEnv(vf.Env[AgentGymEnvConfig]):
    async def run(self, task: AgentGymTask, agents: vf.Agents) -> None:
        data = task.data
        protocol = None if data.protocol is None else resolve_protocol(data.protocol)
        chat = ChatEnv(data.env_id, protocol=protocol, **data.env_kwargs)
        steps = valid_steps = 0
        reason: str | None = None
        try:
            sent, info = chat.reset(seed=data.seed, options={"task_id": data.task_id})
            async with agents.player.interaction(task) as interaction:
                segment = await interaction.turn()  # the first observation is the task's prompt
                while not segment.terminated:
                    text = segment.last_reply or ""
                    reply, _, terminated, truncated, info = chat.step(text)
                    steps += 1
                    valid_steps += int(bool(info.get("valid")))
                    if terminated or truncated:
                        reason = info.get("finish_reason") or (
                            FinishReason.STEP_LIMIT.value if truncated else FinishReason.FAILURE.value
                        )
                        break
                    if protocol is None:
                        segment = await interaction.turn(reply["content"])
                    else:  # reply: the protocol's next request, of which the model gets the new turns
                        segment = await interaction.turn(new_turns(sent, text, reply, "verifiers"))
                        sent = reply
            trace = interaction.trace
            success = bool(info.get("success"))
            trace.record_reward("progress_rate", 1.0 if success else float(info.get("progress_rate") or 0.0), 1.0)
            trace.record_metrics(
                {
                    "success": float(success),
                    "steps": float(steps),
                    "grounding_accuracy": valid_steps / steps if steps else 0.0,
                }
            )
            trace.info["task_id"] = data.task_id
            trace.info["finish_reason"] = str(reason or "model_stopped")
        finally:
            chat.close()
