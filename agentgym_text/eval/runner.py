"""The evaluation runner: rolls an agent out over planned episodes, each episode on its own.

One pool of ``num_envs`` slots serves the whole run: a slot is a thread holding one env (in this process or in a
worker process: see ``slots``) and plays planned episodes one after another: reset to the planned task and seed,
ask the agent, step, repeat. A slow reply holds up only its own episode, and a freed slot starts the next one.
Episodes of every env id share the pool. A slot keeps its env while it plays episodes of the same id (made with the
same kwargs: a training split's instances may differ in them; see ``plan.plan_instances``), so each id's
engine starts once per slot, not once per episode; it takes another id's work (closing its env and opening one of
the new id) only when its id has no episode left, so no slot idles while any episode waits. A slot without work
takes the id with the most work left per slot holding it (``episode_queue.EpisodeQueue``): the ids play side by side
and end together. An id whose env cannot be opened (or whose episode raises) stops alone: its remaining episodes
are left unplayed, with the reason, and the other ids go on.

Each step is appended to ``trajectories.jsonl`` and each finished episode to ``episodes.jsonl`` at once; a rerun
into the same folder skips finished episodes and plays again those the agent could not finish because its
endpoint failed (``agent_error``). Episodes are seeded per task, so the files hold the same episodes whatever the
order in which slots finish them.

A slot whose engine dies (``EngineLost``: an env that raises, a worker process that is killed) records its episode
as ``engine_error`` and opens a new env for its next episode. With ``vector_mode="ray"`` each slot's env lives in a
Ray actor (on a local Ray instance started for the run, or on the cluster at ``ray_address``); the driver alone
writes the folder. A dead actor is replaced and its episode replayed into the new one from its seed and actions, so
no row is lost or written twice; an episode that cannot be carried on ends with ``engine_error`` and, like
``agent_error``, is played again by the next run.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentgym_text.agents.base import Agent, Turn
from agentgym_text.core.info import EngineLost, FinishReason
from agentgym_text.core.registry import EnvEntry
from agentgym_text.eval.episode_queue import EpisodeQueue
from agentgym_text.eval.plan import (
    EpisodePlan,
    Instance,
    env_kwargs_for,
    plan_env,
    plan_instances,
    requested_task_ids,
    resolve_env_ids,
)
from agentgym_text.eval.ray_actors import init_ray
from agentgym_text.eval.records import EpisodeLog
from agentgym_text.eval.run_meters import Clock, ProgressBar
from agentgym_text.eval.slots import SLOT_MODES, Slot, open_slot, slot_mode
from agentgym_text.eval.store import RunStore

__all__ = ["EvalConfig", "RunResult", "run_eval", "REPLAY_MODES"]

REPLAY_MODES = ("agent_error", "failed", "all")
"""Which finished episodes a rerun plays again: only those the agent or the engine could not finish (the default:
``agent_error`` and ``engine_error``), every
unsuccessful one (``--rerun-failed``), or all (``--rerun``)."""

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
    replay: str = "agent_error"
    """One of ``REPLAY_MODES``."""
    ray_address: str | None = None
    """With ``vector_mode="ray"``: the cluster ("auto", "ray://host:10001"); None starts Ray on this machine."""
    env_args: dict[str, dict[str, Any]] = field(default_factory=dict)
    """``gym.make`` kwargs: ``{"*": {...}}`` for every env of the run, ``{env_id: {...}}`` for one (see
    ``plan.parse_env_args``, which reads ``--env-arg``)."""
    instances: dict[str, list[Instance]] | None = None
    """Per env id, the instances ``(env_kwargs, task_id, seed)`` to play instead of ``tasks`` (a training split;
    see ``plan.plan_instances``)."""

    def __post_init__(self) -> None:
        if self.max_steps is not None and self.max_steps < 1:
            raise ValueError(f"--max-steps must be at least 1, not {self.max_steps}")
        if self.num_envs < 1:
            raise ValueError(f"--num-envs must be at least 1, not {self.num_envs}")
        if self.repeats < 1:
            raise ValueError(f"--repeats must be at least 1, not {self.repeats}")
        if self.vector_mode not in SLOT_MODES:
            raise ValueError(f"the vector mode must be one of {SLOT_MODES}")
        if self.replay not in REPLAY_MODES:
            raise ValueError(f"replay must be one of {REPLAY_MODES}")
        if self.ray_address and self.vector_mode != "ray":
            raise ValueError("a Ray address needs the Ray backend (--backend ray)")

    def resume_settings(self) -> dict[str, Any]:
        """The settings that change what an episode is: a resumed run must match them."""
        return {
            "max_steps": self.max_steps,
            "seed": self.seed,
            "repeats": self.repeats,
            "stop_after_repeats": self.stop_after_repeats,
            "env_args": self.env_args,
        }


@dataclass
class RunResult:
    """What a call of ``run_eval`` did (the files hold the results)."""

    out: Path
    planned: int
    skipped: int
    finished: int
    errors: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    agent_errors: int = 0
    """Episodes ended because the agent could not be reached (recorded, and replayed by the next run)."""
    replayed: int = 0
    """Episodes of an earlier run in this folder that this run played again."""
    engine_errors: int = 0
    """Episodes ended because their engine died for good (recorded, and replayed by the next run)."""
    unplayed: list[dict[str, Any]] = field(default_factory=list)
    """Planned episodes this run did not play, each ``{"env_id", "task_id", "repeat", "reason"}`` (also in
    ``run.json``); the next run of the same command plays them. An env whose tasks could not even be listed
    appears once, with ``task_id`` None."""
    by_env: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per env id: ``planned``, ``skipped`` (already in the folder), ``finished`` (played by this run) and
    ``unplayed`` episodes."""

    @property
    def complete(self) -> bool:
        return (
            not self.errors
            and not self.agent_errors
            and not self.engine_errors
            and not self.unplayed
            and self.skipped + self.finished == self.planned
        )


def _replay_rule(mode: str) -> Callable[[dict[str, Any]], bool]:
    if mode == "all":
        return lambda row: True
    if mode == "failed":
        return lambda row: not row.get("success")
    lost = (FinishReason.AGENT_ERROR.value, FinishReason.ENGINE_ERROR.value)
    return lambda row: row.get("finish_reason") in lost


def run_eval(agent: Agent, config: EvalConfig, out: str | Path) -> RunResult:
    """Play every planned episode not yet in ``out/episodes.jsonl``; returns counts, errors and timings.

    Raises ``ValueError`` when the selection plans no episode, and whatever ``agent.preflight()`` raises when the
    agent cannot act at all (both before anything is written).
    """
    started = time.perf_counter()
    entries = resolve_env_ids(config.envs)
    agent.check_envs([entry.env_id for entry in entries])
    env_errors: dict[str, str] = {}  # env id -> why it could not be planned, or why its evaluation stopped
    plans: dict[str, list[EpisodePlan]] = {}
    clock = Clock()
    since = time.perf_counter()
    seen_task_ids: set[str] = set()
    for entry in entries:
        try:
            if config.instances is not None:
                plans[entry.env_id] = plan_instances(
                    entry,
                    config.instances.get(entry.env_id, []),
                    max_steps=_max_steps(agent, config, entry.env_id),
                    start_index=sum(len(p) for p in plans.values()),
                    env_kwargs=_env_kwargs(agent, config, entry.env_id),
                )
                continue
            plans[entry.env_id] = plan_env(
                entry,
                config.tasks,
                seed=config.seed,
                repeats=config.repeats,
                max_steps=_max_steps(agent, config, entry.env_id),
                start_index=sum(len(p) for p in plans.values()),
                seen_task_ids=seen_task_ids,
                env_kwargs=_env_kwargs(agent, config, entry.env_id),
            )
        except Exception as error:  # an env that cannot even be built (missing engine) must not stop the run
            logger.debug("cannot plan %s", entry.env_id, exc_info=True)
            env_errors[entry.env_id] = f"{type(error).__name__}: {error}"
    clock.add("setup_s", since)
    asked = requested_task_ids(config.tasks) if config.instances is None else None
    unknown = [name for name in asked or () if name not in seen_task_ids]
    if unknown and not env_errors:
        names = ", ".join(entry.env_id for entry in entries)
        raise ValueError(
            f"--tasks names task ids that no env of {names} has: {', '.join(unknown)}; "
            "`agentgym-text tasks <env id>` lists the task ids"
        )
    planned = sum(len(p) for p in plans.values())
    if planned == 0 and not env_errors:
        names = ", ".join(entry.env_id for entry in entries)
        raise ValueError(
            f"--tasks {config.tasks!r} selects no task of {names}; `agentgym-text tasks <env id>` lists the task ids"
        )
    agent.preflight()
    settings = {
        **agent.describe(),
        "env_ids": [entry.env_id for entry in entries],
        "tasks": config.tasks,
        "num_envs": config.num_envs,
        "vector_mode": config.vector_mode,
        **config.resume_settings(),
    }
    store = RunStore(out)
    if config.replay == "all":
        store.clear()
    finished = store.open(
        settings, {**agent.resume_settings(), **config.resume_settings()}, replay=_replay_rule(config.replay)
    )
    todo = {env_id: [p for p in env_plans if p.key not in finished] for env_id, env_plans in plans.items()}
    skipped = planned - sum(len(p) for p in todo.values())
    progress = ProgressBar(
        {env_id: len(pending) for env_id, pending in todo.items()},
        agent.name,
        enabled=config.progress_bar and planned > skipped,
    )
    pool = _Pool(agent, config, {entry.env_id: entry for entry in entries}, todo, store, progress)
    started_ray = False
    try:
        if config.vector_mode == "ray" and planned > skipped:
            since = time.perf_counter()
            started_ray = init_ray(config.ray_address)
            clock.add("setup_s", since)
        pool.run()
        env_errors.update(pool.errors)
        unplayed = _unplayed(plans, store.keys, env_errors)
        store.record_unplayed(unplayed)
        store.record_tables(settings.get("protocol"))
    finally:
        store.close()
        progress.close()
        if started_ray:
            import ray

            ray.shutdown()
    wall = time.perf_counter() - started
    timings = dict(Clock.merged([clock, *pool.clocks]), wall_s=wall)
    timings["overhead_s"] = max(0.0, wall - timings["setup_s"] - timings["agent_s"] - timings["env_s"])
    return RunResult(
        Path(out),
        planned,
        skipped,
        sum(pool.finished.values()),
        [f"{env_id}: {error}" for env_id, error in env_errors.items()],
        timings,
        agent_errors=progress.agent_errors,
        replayed=store.dropped,
        engine_errors=progress.engine_errors,
        unplayed=unplayed,
        by_env=_counts_by_env(plans, todo, pool.finished, unplayed),
    )


def _max_steps(agent: Agent, config: EvalConfig, env_id: str) -> int | None:
    """``--max-steps``, else the agent's protocol's budget for ``env_id``, else None (the task's own)."""
    return config.max_steps or agent.max_steps(env_id)


def _env_kwargs(agent: Agent, config: EvalConfig, env_id: str) -> dict[str, Any]:
    """What the agent's protocol needs of ``env_id``, then the run's ``--env-arg`` settings."""
    return {**agent.env_kwargs(env_id), **env_kwargs_for(env_id, config.env_args)}


def _unplayed(plans: dict[str, list[EpisodePlan]], recorded: set[str], env_errors: dict[str, str]) -> list[dict]:
    """Every planned episode with no row in the folder, with the reason its env stopped (if one did)."""
    missing = [
        {"env_id": env_id, "task_id": None, "repeat": None, "reason": reason}
        for env_id, reason in env_errors.items()
        if env_id not in plans
    ]
    for env_id, env_plans in plans.items():
        reason = env_errors.get(env_id, "not played (the run was interrupted)")
        missing += [
            {"env_id": env_id, "task_id": plan.task_id, "repeat": plan.repeat, "reason": reason}
            for plan in env_plans
            if plan.key not in recorded
        ]
    return missing


def _counts_by_env(
    plans: dict[str, list[EpisodePlan]],
    todo: dict[str, list[EpisodePlan]],
    finished: Counter[str],
    unplayed: list[dict[str, Any]],
) -> dict[str, dict[str, int]]:
    """Per env id: its planned episodes, those already in the folder, those this run played, those left unplayed."""
    left = Counter(row["env_id"] for row in unplayed if row["task_id"] is not None)
    return {
        env_id: {
            "planned": len(env_plans),
            "skipped": len(env_plans) - len(todo[env_id]),
            "finished": finished[env_id],
            "unplayed": left[env_id],
        }
        for env_id, env_plans in plans.items()
    }


class _Pool:
    """``num_envs`` slot threads playing every id's pending episodes (see the module docstring)."""

    def __init__(
        self,
        agent: Agent,
        config: EvalConfig,
        entries: dict[str, EnvEntry],
        todo: dict[str, list[EpisodePlan]],
        store: RunStore,
        progress: ProgressBar,
    ):
        self.agent = agent
        self.config = config
        self.store = store
        self.progress = progress
        self.queue = EpisodeQueue(todo)
        pending = {env_id: len(plans) for env_id, plans in todo.items() if plans}
        self.size = min(config.num_envs, sum(pending.values()))
        # A family not declared thread-safe gets worker processes when several of its envs (of any of its ids:
        # they share the family's modules) may run at once.
        by_family = Counter[str]()
        for env_id, count in pending.items():
            by_family[entries[env_id].family] += count
        self._modes = {
            env_id: slot_mode(
                entries[env_id], config.vector_mode, min(config.num_envs, by_family[entries[env_id].family])
            )
            for env_id in pending
        }
        # Envs in this process's threads take what their family shares between threads (ScienceWorld's JVM).
        self._threads_share = {
            env_id: dict(entries[env_id].threads_share) if mode == "sync" and self.size > 1 else {}
            for env_id, mode in self._modes.items()
        }
        self._wrappers = agent.env_wrappers()
        self.errors: dict[str, str] = {}
        """Env id -> why its evaluation stopped (its env could not be opened, or an episode raised)."""
        self.clocks: list[Clock] = []
        self.finished: Counter[str] = Counter()
        """Env id -> episodes this run played."""
        self._lock = threading.Lock()

    def run(self) -> None:
        """Play until no episode is left; an interruption (Ctrl-C) lets the slots end their current episode."""
        if not self.size:
            return
        with ThreadPoolExecutor(max_workers=self.size, thread_name_prefix="eval-slot") as threads:
            futures = [threads.submit(self._work, index) for index in range(self.size)]
            try:
                for future in wait(futures, return_when=FIRST_EXCEPTION).done:
                    future.result()  # a slot's error (an interruption in a slot) stops the others too
            except BaseException:
                self.queue.stop()
                raise

    def _work(self, index: int) -> None:
        """One slot: take episodes, keeping the env open while they are of its id."""
        clock = Clock()
        with self._lock:
            self.clocks.append(clock)
        env_id: str | None = None
        made_with: tuple[tuple[str, Any], ...] = ()
        slot: Slot | None = None
        try:
            while (plan := self.queue.take(index)) is not None:
                if plan.env_id in self.errors:  # its id stopped after this episode was handed out
                    continue
                if slot is not None and (plan.env_id != env_id or plan.env_kwargs != made_with):
                    self._close(slot, env_id, clock)
                    slot = None
                env_id = plan.env_id
                try:
                    if slot is None:
                        slot, made_with = self._open(plan, clock), plan.env_kwargs
                    reason, success, episode = self._play(slot, index, plan, clock)
                except Exception as error:  # the env cannot be opened, or the agent raised: this id stops
                    logger.debug("evaluation of %s stopped", env_id, exc_info=True)
                    with self._lock:
                        self.errors.setdefault(env_id, f"{type(error).__name__}: {error}")
                    self.queue.drop(env_id)
                    if slot is not None:
                        self._close(slot, env_id, clock)
                        slot = None
                    continue
                self.store.append_episode(episode.row(self.agent.name, reason, success))
                with self._lock:
                    self.finished[env_id] += 1
                self.progress.episode_done(env_id)
                if slot.dead:  # its next episode gets a new env
                    self._close(slot, env_id, clock)
                    slot = None
        except BaseException:  # an interruption: no slot takes another episode (not only once run() sees it)
            self.queue.stop()
            raise
        finally:
            if slot is not None:
                self._close(slot, env_id, clock)

    def _open(self, plan: EpisodePlan, clock: Clock) -> Slot:
        """A slot for ``plan``'s env, made with its kwargs (the run's, or a training instance's own)."""
        env_id = plan.env_id
        since = time.perf_counter()
        try:
            return open_slot(
                env_id,
                self._modes[env_id],
                max_steps=_max_steps(self.agent, self.config, env_id),
                wrappers=self._wrappers,
                stop_after_repeats=self.config.stop_after_repeats,
                env_kwargs={**self._threads_share[env_id], **dict(plan.env_kwargs)},
            )
        finally:
            clock.add("setup_s", since)

    @staticmethod
    def _close(slot: Slot, env_id: str | None, clock: Clock) -> None:
        since = time.perf_counter()
        try:
            slot.close()
        except Exception:  # a crashed worker process must not hide the error that stopped the slot
            logger.exception("closing a slot of %s failed", env_id)
        clock.add("setup_s", since)

    def _play(self, slot: Slot, index: int, plan: EpisodePlan, clock: Clock) -> tuple[str, bool, EpisodeLog]:
        """One episode on ``slot``; returns its finish reason, success and log."""
        episode = EpisodeLog(plan)
        try:
            since = time.perf_counter()
            observation, info = slot.reset(plan.task_id, plan.seed)
            clock.add("env_s", since)
            episode.begin(observation, info)
            self.agent.begin_episode(_turn(index, episode, {}))
            try:
                reason, success = self._play_turns(slot, index, episode, clock)
                since = time.perf_counter()
                trailing = self.agent.trailing_request(_turn(index, episode, {}), reason)
                clock.add("agent_s", since)
                if trailing is not None:
                    episode.count_tokens(trailing)
                    episode.trailing_reply = trailing.reply if trailing.reply is not None else ""
            finally:
                self.agent.end_episode(_turn(index, episode, {}))
        except EngineLost as error:
            self.progress.engine_error(plan.env_id, str(error))
            reason, success = FinishReason.ENGINE_ERROR.value, False
        return reason, success, episode

    def _play_turns(self, slot: Slot, index: int, episode: EpisodeLog, clock: Clock) -> tuple[str, bool]:
        agent, plan = self.agent, episode.plan
        needs = sorted(agent.needs)
        while True:
            since = time.perf_counter()
            extras = {need: slot.call(need) for need in needs}
            clock.add("env_s", since)
            since = time.perf_counter()
            decision = agent.act([_turn(index, episode, extras)])[0]
            clock.add("agent_s", since)
            if decision.finish_reason:
                episode.count_tokens(decision)
                if decision.finish_reason == FinishReason.AGENT_ERROR.value:
                    self.progress.agent_error(plan.env_id, decision.error, str(getattr(agent, "endpoint", agent.name)))
                    return decision.finish_reason, False
                return decision.finish_reason, bool(slot.call("judge_as_ended"))
            since = time.perf_counter()
            observation, reward, terminated, truncated, info = slot.step(decision.action)
            clock.add("env_s", since)
            clock.add("steps", since, count=1.0)
            row = episode.record_step(decision, decision.action, observation, reward, terminated, truncated, info)
            model_observation = agent.observe(_turn(index, episode, {}))
            if model_observation is not None:
                row["model_observation"] = model_observation
            self.store.append_step(row)
            if terminated or truncated:
                reason = info.get("finish_reason") or (
                    FinishReason.STEP_LIMIT.value if truncated else FinishReason.FAILURE.value
                )
                return reason, bool(info.get("success"))


def _turn(slot: int, episode: EpisodeLog, extras: dict[str, Any]) -> Turn:
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
        expert_action=extras.get("expert_action"),
        admissible_actions=list(extras["admissible_actions"]) if "admissible_actions" in extras else None,
        text_format=plan.text_format,
    )
