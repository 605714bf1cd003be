"""The evaluation runner: rolls an agent out over planned episodes through gymnasium vector envs.

Per env id it builds one vector env of ``num_envs`` sub-envs (each wrapped in ``RepetitionTracker`` and the
agent's wrappers) with autoreset disabled, gives every free sub-env the next planned task
(``set_attr("next_task_id", ...)`` + a masked reset), asks the agent for all running sub-envs at once and
steps them together. Each step is appended to ``trajectories.jsonl`` and each finished episode to
``episodes.jsonl`` at once; a rerun into the same folder skips finished episodes.
"""

from __future__ import annotations

import logging
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import gymnasium as gym
import numpy as np
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

from agentgym_text.agents.base import Agent, Decision, Turn
from agentgym_text.core.info import HELP_ACTION, FinishReason
from agentgym_text.eval.plan import EpisodePlan, plan_env, resolve_env_ids
from agentgym_text.eval.store import RunStore
from agentgym_text.wrappers.recorder import to_jsonable
from agentgym_text.wrappers.repetition import RepetitionTracker

__all__ = ["EvalConfig", "RunResult", "run_eval", "make_vector_env", "unbatch_info", "ProgressBar"]

logger = logging.getLogger(__name__)


@dataclass
class EvalConfig:
    """What to run. ``tasks`` is a task selection (see ``select_tasks``); ``max_steps`` None = per-task budget."""

    envs: str | Sequence[str] = "all"
    tasks: str = "quick"
    max_steps: int | None = None
    num_envs: int = 1
    vector_mode: str = "sync"
    seed: int = 0
    repeats: int = 1
    progress_bar: bool = True
    stop_after_repeats: int | None = None
    """End an episode (finish_reason "repetition") after this many repeated actions in a row."""


@dataclass
class RunResult:
    """What a call of ``run_eval`` did (the files hold the results)."""

    out: Path
    planned: int
    skipped: int
    finished: int
    errors: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return not self.errors and self.skipped + self.finished == self.planned


class ProgressBar:
    """A one-line progress display on stderr (a line per 10% when stderr is not a terminal)."""

    def __init__(self, total: int, label: str, enabled: bool = True, stream: TextIO | None = None):
        self.total = max(total, 0)
        self.label = label
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.done = 0
        self.started = time.perf_counter()
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._last_decile = -1

    def update(self, count: int = 1, note: str = "") -> None:
        self.done += count
        if not self.enabled or not self.total:
            return
        rate = self.done / max(time.perf_counter() - self.started, 1e-9)
        line = f"[{self.label}] {self.done}/{self.total} episodes  {rate:.2f} ep/s  {note}"
        if self._tty:
            self.stream.write("\r" + line[:150].ljust(150))
            if self.done >= self.total:
                self.stream.write("\n")
            self.stream.flush()
        elif self.done * 10 // self.total != self._last_decile:
            self._last_decile = self.done * 10 // self.total
            self.stream.write(line + "\n")
            self.stream.flush()


def make_vector_env(
    env_id: str,
    num_envs: int,
    *,
    mode: str = "sync",
    max_steps: int | None = None,
    wrappers: Sequence[Callable[[gym.Env], gym.Env]] = (),
    stop_after_repeats: int | None = None,
) -> gym.vector.VectorEnv:
    """``num_envs`` copies of ``env_id`` + ``RepetitionTracker`` + ``wrappers``, autoreset disabled."""
    wrappers = tuple(wrappers)

    def make_one() -> gym.Env:
        env = gym.make(env_id, max_episode_steps=max_steps) if max_steps else gym.make(env_id)
        env = RepetitionTracker(env, stop_after=stop_after_repeats)
        for wrapper in wrappers:
            env = wrapper(env)
        return env

    if mode == "sync":
        return SyncVectorEnv([make_one] * num_envs, autoreset_mode=AutoresetMode.DISABLED)
    if mode == "async":
        return AsyncVectorEnv([make_one] * num_envs, autoreset_mode=AutoresetMode.DISABLED)
    raise ValueError("vector mode must be 'sync' or 'async'")


def unbatch_info(infos: dict[str, Any], index: int) -> dict[str, Any]:
    """The info of sub-env ``index`` out of a vector env's batched info dict (plain JSON types)."""
    single: dict[str, Any] = {}
    for key, value in infos.items():
        if key.startswith("_"):
            continue
        if isinstance(value, dict):
            single[key] = unbatch_info(value, index)
            continue
        mask = infos.get(f"_{key}")
        if mask is not None and not mask[index]:
            continue
        single[key] = to_jsonable(value[index])
    return single


@dataclass
class _Episode:
    """A running episode in one sub-env slot."""

    plan: EpisodePlan
    goal: str
    initial_observation: str
    initial_progress: float
    difficulty: str
    started: float
    observation: str = ""
    info: dict[str, Any] = field(default_factory=dict)
    steps: int = 0
    valid_steps: int = 0
    progress: list[float] = field(default_factory=list)
    repetition: list[float] = field(default_factory=list)
    score_changes: list[list[float]] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    agent_errors: int = 0

    @property
    def best(self) -> float:
        return self.progress[-1] if self.progress else self.initial_progress


class _Clock:
    def __init__(self) -> None:
        self.totals: dict[str, float] = {"setup_s": 0.0, "agent_s": 0.0, "env_s": 0.0, "steps": 0.0}

    def add(self, name: str, since: float) -> None:
        self.totals[name] += time.perf_counter() - since


def run_eval(agent: Agent, config: EvalConfig, out: str | Path) -> RunResult:
    """Play every planned episode not yet in ``out/episodes.jsonl``; returns counts, errors and timings."""
    started = time.perf_counter()
    entries = resolve_env_ids(config.envs)
    settings = {
        **agent.describe(),
        "env_ids": [entry.env_id for entry in entries],
        "tasks": config.tasks,
        "max_steps": config.max_steps,
        "seed": config.seed,
        "repeats": config.repeats,
        "num_envs": config.num_envs,
        "vector_mode": config.vector_mode,
        "stop_after_repeats": config.stop_after_repeats,
    }
    store = RunStore(out)
    finished = store.open(settings)
    errors: list[str] = []
    plans: dict[str, list[EpisodePlan]] = {}
    clock = _Clock()
    since = time.perf_counter()
    for entry in entries:
        try:
            plans[entry.env_id] = plan_env(
                entry, config.tasks, seed=config.seed, repeats=config.repeats, max_steps=config.max_steps,
                start_index=sum(len(p) for p in plans.values()),
            )
        except Exception as error:  # an env that cannot even be built (missing engine) must not stop the run
            logger.debug("cannot plan %s", entry.env_id, exc_info=True)
            errors.append(f"{entry.env_id}: {type(error).__name__}: {error}")
    clock.add("setup_s", since)
    planned = sum(len(p) for p in plans.values())
    todo = {env_id: [p for p in env_plans if p.key not in finished] for env_id, env_plans in plans.items()}
    skipped = planned - sum(len(p) for p in todo.values())
    bar = ProgressBar(planned - skipped, agent.name, enabled=config.progress_bar)
    done = 0
    try:
        for env_id, pending in todo.items():
            if not pending:
                continue
            try:
                done += _run_env(agent, env_id, pending, config, store, bar, clock)
            except Exception as error:
                logger.debug("evaluation of %s stopped", env_id, exc_info=True)
                errors.append(f"{env_id}: {type(error).__name__}: {error}")
    finally:
        store.close()
    wall = time.perf_counter() - started
    timings = dict(clock.totals, wall_s=wall)
    timings["overhead_s"] = max(0.0, wall - timings["setup_s"] - timings["agent_s"] - timings["env_s"])
    return RunResult(Path(out), planned, skipped, done, errors, timings)


def _run_env(
    agent: Agent,
    env_id: str,
    pending_plans: list[EpisodePlan],
    config: EvalConfig,
    store: RunStore,
    bar: ProgressBar,
    clock: _Clock,
) -> int:
    count = max(1, min(config.num_envs, len(pending_plans)))
    since = time.perf_counter()
    envs = make_vector_env(env_id, count, mode=config.vector_mode, max_steps=config.max_steps,
                           wrappers=agent.env_wrappers(), stop_after_repeats=config.stop_after_repeats)
    if config.vector_mode == "async":
        envs.call("task_ids")  # wait until every worker has built its env
    clock.add("setup_s", since)
    pending = deque(pending_plans)
    idle_task = pending_plans[0].task_id
    slots: list[_Episode | None] = [None] * count
    needs_reset = np.ones(count, dtype=bool)
    finished = 0
    try:
        while True:
            if needs_reset.any():
                _reset_slots(envs, slots, needs_reset, pending, idle_task, agent, clock)
            active = [i for i, slot in enumerate(slots) if slot is not None]
            if not active:
                break
            extras = {}
            since = time.perf_counter()
            for need in sorted(agent.needs):
                extras[need] = envs.call(need)
            clock.add("env_s", since)
            turns = [_turn(i, slots[i], extras) for i in active]
            since = time.perf_counter()
            decisions = agent.act(turns)
            clock.add("agent_s", since)
            actions = [HELP_ACTION] * count
            stepping: dict[int, Decision] = {}
            for i, decision in zip(active, decisions):
                if decision.finish_reason:
                    episode = slots[i]
                    assert episode is not None
                    _count_tokens(episode, decision)
                    _finish(store, agent, episode, decision.finish_reason, success=False)
                    slots[i] = None
                    needs_reset[i] = True
                    finished += 1
                    bar.update(note=env_id)
                else:
                    actions[i] = decision.action
                    stepping[i] = decision
            since = time.perf_counter()
            observations, rewards, terminations, truncations, infos = envs.step(tuple(actions))
            clock.add("env_s", since)
            clock.totals["steps"] += len(stepping)
            for i in range(count):
                done = bool(terminations[i] or truncations[i])
                if i in stepping and slots[i] is not None:
                    episode = slots[i]
                    info = unbatch_info(infos, i)
                    _record_step(store, episode, stepping[i], actions[i], observations[i], float(rewards[i]),
                                 bool(terminations[i]), bool(truncations[i]), info)
                    if done:
                        reason = info.get("finish_reason") or (
                            FinishReason.STEP_LIMIT.value if truncations[i] else FinishReason.FAILURE.value
                        )
                        _finish(store, agent, episode, reason, success=bool(info.get("success")))
                        slots[i] = None
                        finished += 1
                        bar.update(note=env_id)
                if done:
                    needs_reset[i] = True
    finally:
        since = time.perf_counter()
        try:
            envs.close()
        except Exception:  # a crashed async worker must not hide the error that stopped the loop
            logger.exception("closing the vector env of %s failed", env_id)
        clock.add("setup_s", since)
    return finished


def _reset_slots(
    envs: gym.vector.VectorEnv,
    slots: list[_Episode | None],
    needs_reset: np.ndarray,
    pending: deque[EpisodePlan],
    idle_task: str,
    agent: Agent,
    clock: _Clock,
) -> None:
    """Give every slot that needs a reset its next planned task; slots with none left replay a placeholder."""
    count = len(slots)
    task_ids: list[str | None] = [None] * count
    seeds: list[int | None] = [None] * count
    for i in np.flatnonzero(needs_reset):
        if pending:
            plan = pending.popleft()
            slots[i] = _Episode(plan, "", "", 0.0, plan.difficulty, time.perf_counter())
            task_ids[i], seeds[i] = plan.task_id, plan.seed
        else:
            slots[i] = None
            task_ids[i], seeds[i] = idle_task, 0
    since = time.perf_counter()
    envs.set_attr("next_task_id", task_ids)
    observations, infos = envs.reset(seed=seeds, options={"reset_mask": needs_reset.copy()})
    clock.add("env_s", since)
    for i in np.flatnonzero(needs_reset):
        episode = slots[i]
        if episode is None:
            continue
        info = unbatch_info(infos, i)
        raw = info.get("raw_observation", observations[i])
        episode.goal = str(info.get("goal", ""))
        episode.initial_observation = str(raw)
        episode.initial_progress = float(info.get("progress_rate", 0.0))
        episode.difficulty = str(info.get("difficulty") or episode.difficulty or "easy")
        episode.observation = str(observations[i])
        episode.info = info
        episode.started = time.perf_counter()
        agent.begin_episode(_turn(int(i), episode, {}))
    needs_reset[:] = False


def _turn(slot: int, episode: _Episode | None, extras: dict[str, Any]) -> Turn:
    assert episode is not None
    plan = episode.plan
    return Turn(
        slot=slot,
        env_id=plan.env_id,
        family=plan.family,
        episode_key=plan.key,
        seed=plan.seed,
        step=episode.steps,
        goal=episode.goal,
        observation=episode.observation,
        info=episode.info,
        expert_action=extras["expert_action"][slot] if "expert_action" in extras else None,
        admissible_actions=list(extras["admissible_actions"][slot]) if "admissible_actions" in extras else None,
    )


def _count_tokens(episode: _Episode, decision: Decision) -> None:
    episode.prompt_tokens += decision.prompt_tokens
    episode.completion_tokens += decision.completion_tokens
    if decision.error:
        episode.agent_errors += 1


def _record_step(
    store: RunStore,
    episode: _Episode,
    decision: Decision,
    action: str,
    observation: str,
    reward: float,
    terminated: bool,
    truncated: bool,
    info: dict[str, Any],
) -> None:
    episode.steps += 1
    valid = bool(info.get("valid", False))
    episode.valid_steps += int(valid)
    progress = float(info.get("progress_rate", episode.best))
    if progress > episode.best:
        episode.score_changes.append([episode.steps - 1, progress])
    episode.progress.append(progress)
    episode.repetition.append(float(info.get("repetition_rate", 0.0)))
    _count_tokens(episode, decision)
    episode.observation = str(observation)
    episode.info = info
    row = {
        "episode": episode.plan.key,
        "env_id": episode.plan.env_id,
        "task_id": episode.plan.task_id,
        "step": episode.steps,
        "action": action,
        "observation": info.get("raw_observation", observation),
        "reward": reward,
        "progress_rate": progress,
        "progress_now": info.get("progress_now"),
        "valid": valid,
        "invalid_reason": info.get("invalid_reason"),
        "repeated": info.get("repeated"),
        "repetition_rate": info.get("repetition_rate"),
        "terminated": terminated,
        "truncated": truncated,
        "finish_reason": info.get("finish_reason"),
    }
    if decision.reply is not None or decision.error or decision.prompt_tokens:
        row.update(
            reply=decision.reply,
            thought=decision.thought,
            agent_error=decision.error,
            prompt_tokens=decision.prompt_tokens,
            completion_tokens=decision.completion_tokens,
            attempts=decision.attempts,
        )
    store.append_step(row)


def _finish(store: RunStore, agent: Agent, episode: _Episode, reason: str, success: bool) -> None:
    plan = episode.plan
    progress = episode.best
    store.append_episode(
        {
            "key": plan.key,
            "index": plan.index,
            "env_id": plan.env_id,
            "family": plan.family,
            "category": plan.category,
            "task_id": plan.task_id,
            "repeat": plan.repeat,
            "seed": plan.seed,
            "difficulty": episode.difficulty,
            "agent": agent.name,
            "goal": episode.goal,
            "initial_observation": episode.initial_observation,
            "success": bool(success),
            "progress_rate": 1.0 if success else progress,
            "initial_progress": episode.initial_progress,
            "steps": episode.steps,
            "budget": plan.budget,
            "valid_steps": episode.valid_steps,
            "grounding_accuracy": episode.valid_steps / episode.steps if episode.steps else None,
            "finish_reason": reason,
            "score_change_record": episode.score_changes,
            "progress": episode.progress,
            "repetition": episode.repetition,
            "prompt_tokens": episode.prompt_tokens,
            "completion_tokens": episode.completion_tokens,
            "agent_errors": episode.agent_errors,
            "wall_s": round(time.perf_counter() - episode.started, 4),
        }
    )
