"""Expert demonstrations for supervised fine-tuning (``agentgym-text demos``): the family experts play training (or
test) instances through the eval runner, speaking an agent protocol (``agents.demonstrator``), and their
conversations become chat rows in ``OUT/demos.jsonl`` that TRL's ``SFTTrainer`` and ``datasets.load_dataset("json",
...)`` read as they are.

The run folder is an eval run folder (``run.json``, ``episodes.jsonl``, ``trajectories.jsonl``; concurrent slots,
resumed by a rerun of the same command) plus ``dialogues.jsonl``, the requests and replies of each played episode;
``demos.jsonl`` is rewritten from those at the end of every run, in instance order.

A row: ``messages`` (``{"role", "content"}``; assistant messages also carry ``weight``: 1 for the expert's
replies, 0 for detours and for assistant turns a protocol puts in its prompt), ``env_id``, ``task_id``, ``seed``,
``split``, ``progress``, ``success``, ``steps``, ``protocol``, ``style``, ``detours`` (detour steps in the episode)
and ``step``. Where a protocol's conversation only grows by appending (``agentbench``), an episode is one row
(``step`` null: the last request and the last reply). Where each request is written anew (``ours``: the prompt and
the history window; ``agentboard``: the whole history in one user message), each step is a row (``step``: the env
step the reply took, from 1): that step's request and the expert's reply; a detour step then has no row of its own
(later steps show it in their history). An ``agentbench`` episode whose history is cut (``filter_messages``) falls
back to rows per step.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentgym_text.agents.demonstrator import DemonstratorAgent
from agentgym_text.agents.protocols import make_protocol
from agentgym_text.core.info import FinishReason
from agentgym_text.eval.plan import Instance, instance_key, resolve_env_ids
from agentgym_text.eval.runner import EvalConfig, RunResult, run_eval
from agentgym_text.eval.store import EPISODES, read_jsonl
from agentgym_text.integrations.datasets import SPLITS, make_env, train_instances
from agentgym_text.integrations.mixture import parse_mixture

__all__ = [
    "DemoConfig",
    "DemoResult",
    "make_demos",
    "demo_rows",
    "split_instances",
    "DEMOS",
    "DIALOGUES",
    "WHOLE_EPISODE_PROTOCOLS",
]

DEMOS = "demos.jsonl"
DIALOGUES = "dialogues.jsonl"
WHOLE_EPISODE_PROTOCOLS = ("agentbench",)
"""Protocols whose conversation grows by appending: one row per episode."""
_LOST = (FinishReason.AGENT_ERROR.value, FinishReason.ENGINE_ERROR.value)


@dataclass
class DemoConfig:
    """What ``make_demos`` plays: ``episodes`` instances in all, shared among ``envs`` by ``mix`` weights (equal
    without), from the ``split``'s first instances of each id."""

    envs: Sequence[str]
    episodes: int
    split: str = "train"
    protocol: str = "ours"
    style: str = "vanilla"
    history_tokens: int = 3000
    """With ``ours``: the history window's size (as ``LLMConfig.history_tokens``)."""
    mix: Mapping[str, float] | None = None
    detours: float = 0.0
    all_episodes: bool = False
    seed: int = 0
    """Seeds the detours (the instances carry their own reset seeds)."""
    num_envs: int = 1
    vector_mode: str = "sync"
    agentboard_dir: str | None = None
    agentbench_dir: str | None = None
    progress_bar: bool = True

    def __post_init__(self) -> None:
        if self.split not in SPLITS:
            raise ValueError(f"--split must be one of {', '.join(SPLITS)}, not {self.split!r}")
        if self.episodes < 1:
            raise ValueError(f"--episodes must be at least 1, not {self.episodes}")


@dataclass
class DemoResult:
    """What a call of ``make_demos`` did: the run's counts, the episodes and rows in ``demos.jsonl``."""

    out: Path
    run: RunResult
    counts: dict[str, int]
    """Env id -> instances requested."""
    episodes: int = 0
    """Requested instances with a finished episode in the folder."""
    solved: int = 0
    written: int = 0
    """Episodes with rows in ``demos.jsonl``."""
    rows: int = 0
    mismatches: list[str] = field(default_factory=list)
    """Episodes whose expert reply the protocol did not read back as the expert's action (why, per episode)."""


def split_instances(env_id: str, split: str, count: int) -> list[Instance]:
    """The first ``count`` instances of ``env_id``'s ``split``: the family's training split
    (``datasets.train_instances``), or the shipped tasks reset with seed 0 (as ``datasets.tasks(..., "test")``)."""
    if split == "train":
        return train_instances(env_id, count)
    env = make_env(env_id)
    try:
        task_ids = list(env.unwrapped.task_ids[:count])
    finally:
        env.close()
    return [({}, task_id, 0) for task_id in task_ids]


class _DialogueFile:
    """``dialogues.jsonl``: one line per played episode, appended from the slots' threads."""

    def __init__(self, path: Path):
        self.path = path
        self._lock = threading.Lock()

    def append(self, key: str, record: dict[str, Any]) -> None:
        line = json.dumps({"key": key, **record}, ensure_ascii=False) + "\n"
        with self._lock, self.path.open("a", encoding="utf-8") as handle:
            handle.write(line)


def _env_ids(config: DemoConfig) -> list[str]:
    names = list(config.envs) or list(config.mix or {})
    env_ids = [entry.env_id for entry in resolve_env_ids(names)]
    if config.mix is not None:
        unknown = sorted(set(config.mix) - set(env_ids))
        if unknown:
            raise ValueError(f"--mix names ids that --envs does not: {', '.join(unknown)}")
        unweighted = [env_id for env_id in env_ids if env_id not in config.mix]
        if unweighted:
            raise ValueError(f"--mix gives no weight to {', '.join(unweighted)}")
    return env_ids


def make_demos(config: DemoConfig, out: str | Path) -> DemoResult:
    """Play the instances not yet in ``out`` and rewrite ``out/demos.jsonl`` (see the module docstring)."""
    out = Path(out)
    env_ids = _env_ids(config)
    weights = {env_id: config.mix[env_id] for env_id in env_ids} if config.mix else env_ids  # else equal weights
    counts = parse_mixture(weights).counts(config.episodes)
    protocol = make_protocol(
        config.protocol,
        style=config.style,
        history_tokens=config.history_tokens,
        agentboard_dir=config.agentboard_dir,
        agentbench_dir=config.agentbench_dir,
    )
    protocol.check(env_ids)
    instances = {env_id: split_instances(env_id, config.split, count) for env_id, count in counts.items() if count}
    out.mkdir(parents=True, exist_ok=True)
    agent = DemonstratorAgent(
        protocol, detours=config.detours, seed=config.seed, sink=_DialogueFile(out / DIALOGUES).append
    )
    run = run_eval(
        agent,
        EvalConfig(
            envs=list(instances),
            tasks="all",
            num_envs=config.num_envs,
            vector_mode=config.vector_mode,
            seed=config.seed,
            progress_bar=config.progress_bar,
            instances=instances,
        ),
        out,
    )
    keys = [
        instance_key(env_id, task_id, seed, {**protocol.env_kwargs(env_id), **own})
        for env_id, chosen in instances.items()
        for own, task_id, seed in chosen
    ]
    return _write_demos(config, out, keys, run, counts)


def _write_demos(config: DemoConfig, out: Path, keys: list[str], run: RunResult, counts: dict[str, int]) -> DemoResult:
    episodes = {row.get("key"): row for row in read_jsonl(out / EPISODES)}
    dialogues = {row.get("key"): row for row in read_jsonl(out / DIALOGUES)}  # the last one of a key wins
    result = DemoResult(out, run, counts)
    temporary = out / (DEMOS + ".tmp")
    with temporary.open("w", encoding="utf-8") as handle:
        for key in keys:
            episode, dialogue = episodes.get(key), dialogues.get(key)
            if episode is None or dialogue is None or episode.get("finish_reason") in _LOST:
                continue
            result.episodes += 1
            result.solved += int(bool(episode.get("success")))
            if dialogue.get("mismatch"):
                result.mismatches.append(f"{key}: {dialogue['mismatch']}")
            if not (episode.get("success") or config.all_episodes):
                continue
            rows = demo_rows(
                dialogue["turns"], episode, split=config.split, protocol=config.protocol, style=config.style
            )
            result.written += 1
            result.rows += len(rows)
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    temporary.replace(out / DEMOS)
    return result


def _assistant(content: str, weight: int) -> dict[str, Any]:
    return {"role": "assistant", "content": content, "weight": weight}


def _conversation(turns: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The episode as one conversation (the last request and reply) when every earlier request and its reply are
    a prefix of it; assistant turns weigh 1 where they are the expert's replies, 0 otherwise. None when a request
    was not an extension of the one before."""
    last = turns[-1]
    whole = [*last["messages"], {"role": "assistant", "content": last["reply"]}]
    ours: dict[int, bool] = {}
    for turn in turns:
        at = len(turn["messages"])
        if whole[:at] != turn["messages"] or whole[at] != {"role": "assistant", "content": turn["reply"]}:
            return None
        ours[at] = bool(turn["detour"])
    return [
        _assistant(m["content"], int(index in ours and not ours[index])) if m["role"] == "assistant" else dict(m)
        for index, m in enumerate(whole)
    ]


def demo_rows(
    turns: list[dict[str, Any]], episode: Mapping[str, Any], *, split: str, protocol: str, style: str
) -> list[dict[str, Any]]:
    """The rows of one played episode (``turns``: the demonstrator's ``DemoTurn`` dicts; ``episode``: its row in
    ``episodes.jsonl``); see the module docstring."""
    common = {
        "env_id": episode["env_id"],
        "task_id": episode["task_id"],
        "seed": episode["seed"],
        "split": split,
        "progress": episode["progress_rate"],
        "success": bool(episode["success"]),
        "steps": episode["steps"],
        "protocol": protocol,
        "style": style,
        "detours": sum(bool(turn["detour"]) for turn in turns),
    }
    if not turns:
        return []
    if protocol in WHOLE_EPISODE_PROTOCOLS:
        conversation = _conversation(turns)
        if conversation is not None:
            return [{"messages": conversation, **common, "step": None}]
    return [
        {"messages": [*map(dict, turn["messages"]), _assistant(turn["reply"], 1)], **common, "step": step}
        for step, turn in enumerate(turns, start=1)
        if not turn["detour"]
    ]
