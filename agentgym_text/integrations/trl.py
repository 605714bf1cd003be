"""TRL's ``GRPOTrainer(environment_factory=...)``: an env object whose public methods are the env's actions.

``environment_factory(env_id, ...)`` returns a zero-argument callable that TRL calls once per concurrent rollout
(it pools and reuses the instances, calling ``reset`` before each rollout). Given several ids with weights (a
multi-task set: a mapping id -> weight, a list of ids or ``"ID=W,ID=W"``), it returns TRL's multi-environment form,
``{env_id: factory}``: each row's ``environment`` column (``train_dataset`` writes it: the row's ``env_id``) picks
the env, so each rollout gets its own id's env and only that id's tools. The weights shape the dataset
(``train_dataset(mixture, size=...)``, through ``datasets.tasks``), not the factory. Each instance:

- ``reset(**row)`` resets to the row's ``task_id`` and ``seed`` (columns of ``agentgym_text.integrations.datasets`` rows, or of
  ``train_dataset``) and returns the first observation, which TRL appends to the prompt's last user message
  (nothing when the prompt already ends with it). The row's ``env_kwargs`` (a dict, or the JSON string
  ``to_hf_dataset`` writes) go over the factory's: a training row's own kwargs (``num_tasks=``) make its env. A row
  of another id than the instance's is refused (``ValueError``);
- exposes the env's actions as tools: ``act(command)`` for text envs; for envs with function tools (the tool envs
  ``AgentBoard/ToolQuery-v0``, ``AgentBoard/ToolOperation-v0``) the functions every task of the env offers
  (``TextEnv.tool_functions(every_task=True)``: pass ``tool=`` to train on one toolkit; without it, the functions
  of all of the env's toolkits, plus ``finish`` and ``check_valid_actions``), each call worded by the env
  (``TextEnv.tool_call_action``). A call returns the observation text; once the episode is over it says so;
- ``get_reward()`` scores the rollout: the episode's progress rate (``reward="progress"``, dense) or success
  (``reward="success"``).

Agent protocols (``protocol=``, as ``ChatEnv(env_id, protocol=...)`` takes them) are refused here, every one of them
(``ValueError``): TRL's environment loop is tool calling, the model's actions arriving as tool-call arguments and the
env's answers going back as ``tool`` messages, while a protocol's requests are plain user/assistant text whose replies
the protocol itself parses, so TRL cannot send them as the protocol words them, not even AgentBench's, which only
grows. To train on a protocol's messages, drive ``ChatEnv(env_id, protocol=...)`` from a custom rollout, or use the
SkyRL or verifiers adapters (AgentBench's protocol) or Inspect (every protocol).

``progress_reward`` / ``success_reward`` are the same scores as reward functions (TRL passes ``environments``).

>>> factory = environment_factory("AgentQuest/Mastermind-v0")
>>> env = factory()
>>> first = env.reset(task_id="mastermind-003", seed=0)
>>> env.act("guess 0123")
'0123: 2 in the right place, 0 right but in the wrong place.'
>>> env.get_reward(), env.calls
(0.5, 1)
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any

import gymnasium as gym

from agentgym_text.core.function_tools import FunctionTool
from agentgym_text.core.info import TOOL_HELP_ACTION
from agentgym_text.core.text_env import TextEnv
from agentgym_text.integrations.mixture import EnvIds, parse_mixture

__all__ = ["environment_factory", "AgentGymToolEnv", "progress_reward", "success_reward", "train_dataset", "REWARDS"]

REWARDS = ("progress", "success")
_OVER = "The episode is over; no more actions are taken."
_PYTHON_TYPES = {"string": str, "number": float, "integer": int, "boolean": bool, "array": list}
"""JSON-schema type -> annotation of a tool method's argument (no single type, e.g. ``anyOf``: str)."""


class AgentGymToolEnv:
    """One rollout's env for TRL. Subclasses made by ``environment_factory`` add the tool methods."""

    env_id: str = ""
    env_kwargs: dict[str, Any] = {}
    """The factory's ``gym.make`` kwargs; a row's ``env_kwargs`` go over them."""
    reward_kind: str = "progress"
    instances: list[AgentGymToolEnv] = []
    """Every instance the factory made (TRL makes one per concurrent rollout)."""

    def __init__(self):
        import agentgym_text  # noqa: F401  (registers the ids)

        self._env = gym.make(self.env_id, **self.env_kwargs)
        self._made_with = dict(self.env_kwargs)
        self._info: dict[str, Any] = {}
        self._over = True
        self.calls = 0
        """Tool calls played in the current rollout."""
        self.resets = 0
        self.trajectory: list[tuple[str, str]] = []
        type(self).instances.append(self)

    def reset(
        self,
        task_id: str | None = None,
        seed: int | None = None,
        prompt: Any = None,
        env_id: str | None = None,
        env_kwargs: dict[str, Any] | str | None = None,
        **row: Any,
    ) -> str | None:
        if env_id is not None and env_id != self.env_id:
            raise ValueError(
                f"a row of {env_id} reached the env of {self.env_id}: for a multi-task set pass the same ids to "
                "environment_factory (TRL then routes each row by its 'environment' column)"
            )
        kwargs = {**self.env_kwargs, **(json.loads(env_kwargs) if isinstance(env_kwargs, str) else env_kwargs or {})}
        if kwargs != self._made_with:
            self._env.close()
            self._env = gym.make(self.env_id, **kwargs)
            self._made_with = kwargs
        options = {"task_id": task_id} if task_id else None
        observation, info = self._env.reset(seed=None if seed is None else int(seed), options=options)
        self._info, self._over, self.calls, self.trajectory = info, False, 0, []
        self.resets += 1
        last = prompt[-1].get("content") if isinstance(prompt, list) and prompt else prompt
        if isinstance(last, str) and last.rstrip().endswith(observation.rstrip()):
            return None  # the dataset row already shows it
        return observation

    def _play(self, action: str) -> str:
        if self._over:
            return _OVER
        self.calls += 1
        observation, _, terminated, truncated, info = self._env.step(action)
        self._info = info
        self._over = bool(terminated or truncated)
        self.trajectory.append((action, observation))
        return observation

    def get_reward(self) -> float:
        if self.reward_kind == "success":
            return float(bool(self._info.get("success", False)))
        return float(self._info.get("progress_rate", 0.0))

    @property
    def info(self) -> dict[str, Any]:
        return dict(self._info)


def _act_method(help_action: str, example: str) -> Callable:
    def act(self, command: str) -> str:
        return self._play(command)

    act.__doc__ = (
        f"Send one action to the environment and get back what happens.\n\n"
        f"Args:\n    command: The action, e.g. '{example}' ('{help_action}' lists them).\n\n"
        f"Returns:\n    The observation."
    )
    return act


def _function_method(function: FunctionTool) -> Callable:
    name = function.name

    def call(self, **kwargs: Any) -> str:
        return self._play(self._env.unwrapped.tool_call_action(name, kwargs))

    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {"return": str}
    arg_lines = []
    required = set(function.parameters.get("required", ()))
    for param_name, schema in function.parameters.get("properties", {}).items():
        kind = _PYTHON_TYPES.get(schema.get("type"), str)
        default = inspect.Parameter.empty if param_name in required else None
        parameters.append(
            inspect.Parameter(param_name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=kind)
        )
        annotations[param_name] = kind
        description = schema.get("description") or param_name.replace("_", " ")
        if schema.get("enum"):
            description += f" (one of {', '.join(schema['enum'])})"
        arg_lines.append(f"    {param_name}: {description}")
    call.__name__ = call.__qualname__ = name
    call.__signature__ = inspect.Signature(parameters, return_annotation=str)  # type: ignore[attr-defined]
    call.__annotations__ = annotations
    doc = function.description + ("\n\nArgs:\n" + "\n".join(arg_lines) if arg_lines else "")
    call.__doc__ = doc + "\n\nReturns:\n    " + (function.returns or "The result.")
    return call


def _help_method() -> Callable:
    def check_valid_actions(self) -> str:
        """List the functions of this tool with their arguments.

        Returns:
            The list of functions.
        """
        return self._play("check_valid_actions")

    return check_valid_actions


def _tool_methods(env_id: str, env_kwargs: dict[str, Any]) -> dict[str, Callable]:
    probe = gym.make(env_id, **env_kwargs)
    try:
        base = probe.unwrapped
        functions = base.tool_functions(every_task=True) if isinstance(base, TextEnv) else []
        if not functions:
            return {"act": _act_method(base.help_action, base.action_example)}
        return {
            function.name: _help_method() if function.name == TOOL_HELP_ACTION else _function_method(function)
            for function in functions
        }
    finally:
        probe.close()


def environment_factory(
    envs: EnvIds, *, reward: str = "progress", protocol: Any = None, **env_kwargs: Any
) -> Callable[[], AgentGymToolEnv] | dict[str, Callable[[], AgentGymToolEnv]]:
    """A factory for ``GRPOTrainer(environment_factory=...)``: each call makes one env for one rollout. Several ids
    (a multi-task set) give ``{env_id: factory}``, TRL's multi-environment form (the module docstring).

    ``env_kwargs`` go to ``gym.make`` of every id (e.g. ``tool="weather"``, ``max_episode_steps=``); a row's own
    kwargs go over them at ``reset``. The class a factory makes is reachable as ``factory.env_class``;
    ``factory.env_class.instances`` lists every instance. ``protocol``: refused (the module docstring says why).
    """
    import agentgym_text  # noqa: F401

    if protocol is not None:
        name = protocol if isinstance(protocol, str) else getattr(protocol, "name", protocol)
        raise ValueError(
            f"TRL's environment_factory plays envs through tool calls and answers with tool messages, so it cannot "
            f"send the {name!r} protocol's text requests: TRL supports no agent protocol (use ChatEnv(env_id, "
            "protocol=...) in a custom rollout, or the SkyRL, verifiers or Inspect adapters)"
        )
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {REWARDS}")
    mixture = parse_mixture(envs)
    factories = {env_id: _factory(env_id, reward, env_kwargs) for env_id in mixture.env_ids}
    return factories[mixture.env_ids[0]] if mixture.single else factories


def _factory(env_id: str, reward: str, env_kwargs: dict[str, Any]) -> Callable[[], AgentGymToolEnv]:
    methods = _tool_methods(env_id, env_kwargs)
    # the namespace too: TRL logs each env class's reward under the class's name, and ids share names across papers
    class_name = "".join(ch for ch in env_id.split("-v")[0] if ch.isalnum()) + "ToolEnv"
    env_class = type(
        class_name,
        (AgentGymToolEnv,),
        {
            **methods,
            "env_id": env_id,
            "env_kwargs": dict(env_kwargs),
            "reward_kind": reward,
            "instances": [],
            "__doc__": f"{env_id} for TRL: its actions as tool methods; get_reward() = {reward}.",
        },
    )

    def factory() -> AgentGymToolEnv:
        return env_class()

    factory.env_class = env_class  # type: ignore[attr-defined]
    return factory


def progress_reward(environments: list[AgentGymToolEnv] | None = None, **kwargs: Any) -> list[float]:
    """Reward function: each rollout's progress rate (TRL passes the rollouts' ``environments``)."""
    return [float(env.info.get("progress_rate", 0.0)) for env in environments or []]


def success_reward(environments: list[AgentGymToolEnv] | None = None, **kwargs: Any) -> list[float]:
    """Reward function: 1.0 for a rollout that succeeded, else 0.0."""
    return [float(bool(env.info.get("success", False))) for env in environments or []]


def train_dataset(envs: EnvIds, split: str = "train", *, limit: int | None = None, **kwargs: Any):
    """A ``datasets.Dataset`` of task rows for the trainer (``prompt`` = system prompt + first observation;
    ``env_id``, ``env_kwargs``, ``task_id`` and ``seed`` go to ``reset``; ``environment`` = the row's env id, TRL's
    routing column for ``environment_factory(envs)`` of several ids). ``envs`` and ``kwargs`` (``size=``,
    ``mix_seed=``, ``env_kwargs=``, ...) are ``datasets.tasks``'s. Returns the dataset and the rows' common
    ``env_kwargs`` (None when they differ; each row's reach its env at ``reset`` either way)."""
    from agentgym_text.integrations.datasets import tasks, to_hf_dataset

    rows = [{**row, "environment": row["env_id"]} for row in tasks(envs, split, limit=limit, tools=True, **kwargs)]
    kwargs_seen = {json.dumps(row["env_kwargs"], sort_keys=True) for row in rows}
    env_kwargs = rows[0]["env_kwargs"] if len(kwargs_seen) == 1 else None
    return to_hf_dataset(rows), env_kwargs
