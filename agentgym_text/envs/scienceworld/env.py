"""``AgentBoard/ScienceWorld-v0``: ScienceWorld with AgentBoard's rewritten goals and evenly weighted subgoals.

It speaks AgentBoard's words by default (``agentboard_text.AgentBoardMode``, with its fixes of AgentBoard's bugs)
or this package's own (``text_format="clear"``, ``clear_text.ClearMode``); the family README lists the FIXes,
what the core adds and how the engine differs from AgentBoard's.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING, Any

from agentgym_text.core.agentboard_data import data_folder
from agentgym_text.core.info import FinishReason
from agentgym_text.core.progress import Progress, SubgoalTracker
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import ENGINE_ERROR, Outcome, Start, TextEnv
from agentgym_text.envs.scienceworld.actions import ACTION_EXAMPLE, ACTION_FORMAT
from agentgym_text.envs.scienceworld.agentboard_data import (
    LabelProgress,
    agentboard_tasks,
    annotation_of,
    check_variation,
)
from agentgym_text.envs.scienceworld.agentboard_text import AgentBoardMode
from agentgym_text.envs.scienceworld.clear_text import ClearMode
from agentgym_text.envs.scienceworld.engine import (
    Combinations,
    ScienceWorldEngine,
    require_package,
    simplifications_for,
    simulator_error,
)
from agentgym_text.envs.scienceworld.expert import GoldPathExpert
from agentgym_text.envs.scienceworld.session import CommandSession
from agentgym_text.envs.scienceworld.tasks import instance_to_task, make_tasks, subgoal_tracker
from agentgym_text.envs.scienceworld.train_variations import SPLIT, derived_record, training_task_set

if TYPE_CHECKING:
    from collections.abc import Sequence

    from agentgym_text.envs.scienceworld.pool import JvmPool

__all__ = ["ScienceWorldTextEnv", "SPLITS", "DEFAULT_JVM_RESTART_EVERY", "DEFAULT_JVM_MAX_RSS_MIB"]

logger = logging.getLogger(__name__)

DEFAULT_JVM_RESTART_EVERY = 100
"""Episodes one JVM plays before it is replaced (a restart costs about 1.8 s, under 1% of 100 episodes)."""
DEFAULT_JVM_MAX_RSS_MIB = 1024.0
"""A JVM whose resident memory is above this at a reset is replaced."""

JVM_MODES = ("own", "shared")
SPLITS = ("test", SPLIT)


def _pool_for(jvm: str | JvmPool) -> JvmPool | None:
    """The pool an env's simulator comes from: None for a JVM of its own, the process's pool for "shared"."""
    from agentgym_text.envs.scienceworld.pool import JvmPool, default_pool

    if isinstance(jvm, JvmPool):
        return jvm
    if jvm == "own":
        return None
    if jvm == "shared":
        return default_pool()
    raise ValueError(f"jvm must be one of {JVM_MODES} or a JvmPool, not {jvm!r}")


def _opens_all(params: dict[str, Any]) -> bool:
    """Whether the load opens every door and container (so the expert knows what starts open)."""
    return {"openDoors", "openContainers"} <= set(str(params["simplifications"]).split(","))


class ScienceWorldTextEnv(TextEnv):
    """ScienceWorld tasks in a simulated school; progress = ordered necessary observations, then completion.

    ``task_name`` (and ``variation``) restrict the task set; a variation that is not shipped is built at its
    first reset from the simulator's gold path. Each instance runs its own JVM, started at the first reset and
    stopped by ``close()``. It runs with identity hashes pinned (``JVM_OPTIONS``), so an episode plays out the
    same whatever the JVM did before, and it is reused between episodes (reset about 0.1 s). The JVM's memory
    grows with the episodes it plays, so it is replaced transparently, at a reset, after
    ``jvm_restart_every`` episodes or when its resident memory exceeds ``jvm_max_rss_mib`` (None turns either
    off); ``fresh_jvm_per_episode=True`` restarts it at every reset (about 1.8 s each).

    ``jvm="shared"`` (or ``jvm=JvmPool(...)``, ``pool.py``) takes the simulator from a pool whose JVMs hold several
    simulators, for many envs in one process (threads too); every episode plays as in a JVM of its own. There the
    recycling replaces the env's own simulator, not the JVM the others use: after ``jvm_restart_every`` episodes,
    at every reset with ``fresh_jvm_per_episode``, and when the JVM's resident memory divided by its simulators is
    above ``jvm_max_rss_mib`` (the JVM is then retired: each env moves to a new one at its next reset, and the old
    one stops when empty). ``jvm="own"`` is the default: one env per process (async vector envs, Ray) gains
    nothing from a pool, and envs in their own JVMs run their simulator calls in parallel.

    A Java exception in the simulator, or a lost JVM, ends that env's episode (``finish_reason="engine_error"``,
    ``valid=False``); the next reset replaces the simulator (and a lost JVM).

    ``text_format=`` picks the words (``modes``): AgentBoard's (the default; ``agentboard_fixes=False`` restores
    its bugs) or this package's own ("clear"); the README describes both.

    ``split="train"`` plays ScienceWorld's own train variations instead (``train_variations.py``; ``num_tasks`` the
    first of them): no shipped task's variation, each derived in a fresh JVM at its first reset and cached.

    ``agentboard_data=`` (default: the setting ``AGENTGYM_TEXT_AGENTBOARD_DATA``) plays the lines of AgentBoard's
    ``scienceworld/test.jsonl`` in that folder, with their goals, difficulty labels and AgentBoard's progress rule
    (``agentboard_data.py``); it needs ``text_format="agentboard"``. Every task's budget is AgentBoard's 30 steps.

    The expert (``expert.py``) follows the gold path from the current state: it undoes what the agent did off
    the path where that can be undone and re-aligns with the path; it looks at what a gold action would find
    already done (an open door, a broken stove), answers the questions its own actions raise, and in AgentBoard's
    text names objects as the current listing does; it returns None, with the reason logged, where it cannot
    recover.

    >>> env = ScienceWorldTextEnv(task_name="boil")  # no JVM yet: it starts at the first reset
    >>> len(env.task_ids), env.jvm_pid, env.jvm_restart_every, env.mode
    (3, None, 100, AgentBoardMode(fixes=True))
    """

    cheap_admissible_actions = False
    modes = (AgentBoardMode, ClearMode)
    mode: AgentBoardMode | ClearMode
    action_format = ACTION_FORMAT
    action_example = ACTION_EXAMPLE

    def __init__(
        self,
        task_name: str | None = None,
        variation: int | None = None,
        fresh_jvm_per_episode: bool = False,
        jvm_restart_every: int | None = DEFAULT_JVM_RESTART_EVERY,
        jvm_max_rss_mib: float | None = DEFAULT_JVM_MAX_RSS_MIB,
        agentboard_data: str | os.PathLike[str] | None = None,
        jvm: str | JvmPool = "own",
        split: str = "test",
        num_tasks: int | None = None,
        **kwargs: Any,
    ):
        require_package()
        pool = _pool_for(jvm)
        if jvm_restart_every is not None and int(jvm_restart_every) < 1:
            raise ValueError(f"jvm_restart_every must be at least 1 (or None), not {jvm_restart_every!r}")
        if split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
        folder = data_folder(agentboard_data) if split == "test" else None
        if split == SPLIT:
            if task_name is not None or variation is not None or agentboard_data is not None:
                raise ValueError(
                    "split='train' is every training variation: task_name=, variation= and "
                    "agentboard_data= choose test tasks"
                )
            tasks = training_task_set(num_tasks)
        elif num_tasks is not None:
            raise ValueError("num_tasks= sizes the training split (split='train')")
        elif folder is None:
            tasks = make_tasks(task_name, variation)
        else:
            tasks = agentboard_tasks(folder, task_name, variation)
        super().__init__(tasks, **kwargs)
        self._label_rule = None if folder is None else self.mode.agentboard_progress()
        """AgentBoard's progress rule for the data folder's lines (the clear text refuses the folder)."""
        self._fresh_jvm = fresh_jvm_per_episode
        self.jvm_restart_every = None if jvm_restart_every is None else int(jvm_restart_every)
        self.jvm_max_rss_mib = jvm_max_rss_mib
        self.jvm_restarts = 0
        """JVM replacements so far (not counting the first start)."""
        self.action_format = self.mode.action_format
        self._engine = ScienceWorldEngine(pool)
        self._session = CommandSession(self._engine, cancel_questions=self.mode.cancels_questions)
        self._combinations: Sequence[dict] = []
        self._derived: dict[str, TaskSpec] = {}
        self._tracker: SubgoalTracker = subgoal_tracker([])
        self._labels: LabelProgress | None = None
        """AgentBoard's progress rule on the data folder's annotation (None on this package's own tasks)."""
        self._last_observation = ""
        self._won = False
        self._expert = GoldPathExpert([], "")
        self._valid_cache: list[str] | None = None

    # ---- TextEnv hooks ---------------------------------------------------------------------------------
    def _start(self, task: TaskSpec, seed: int) -> Start:
        task = self._complete_task(task)  # a derived task carries its goal, subgoals and step budget
        params = task.params
        self._recycle_jvm()
        self._engine.start()  # so that the reset's calls below hold its JVM together (in a pool)
        with self._engine.exclusive():
            self._engine.load(params["task_name"], params["variation"], params["simplifications"])
            self._combinations = []
            observation, self._valid_cache = self.mode.start(self._session)
        self._tracker = subgoal_tracker(params["subgoals"])
        annotation = annotation_of(task)  # only on the data folder's tasks, so the rule is there
        self._labels = None if annotation is None else self._label_rule(tuple(annotation["subgoals"]))
        self._last_observation = observation
        self._won = False
        self._expert = GoldPathExpert(
            params["gold_actions"], observation, starts_open=_opens_all(params), world=self._engine
        )
        return Start(observation=observation, goal=task.goal, difficulty=task.difficulty, task=task)

    def _act(self, action: str) -> Outcome:
        try:
            with self._engine.exclusive():  # in a pool: one swap of the JVM's globals for all of the step's calls
                return self._played(action)
        except simulator_error() as error:
            return self._simulator_lost(error)

    def _simulator_lost(self, error: Exception) -> Outcome:
        """A Java exception or a lost JVM ends this episode only; the simulator is replaced at the next reset."""
        self._engine.mark_broken()
        logger.warning("the ScienceWorld simulator failed; the episode ends: %s", str(error).splitlines()[0][:300])
        return Outcome(
            f"The ScienceWorld simulator failed ({type(error).__name__}); this episode cannot go on. "
            "Call reset() to start a new one.",
            valid=False,
            invalid_reason=ENGINE_ERROR,
            terminated=True,
            finish_reason=FinishReason.ENGINE_ERROR.value,
        )

    def _played(self, action: str) -> Outcome:
        """The mode's reply to ``action``, and what the simulator's answer changes in the env's state."""
        pending = self._session.choice_count
        reply = self.mode.act(self._session, action, self._valid_cache or ())
        result = reply.result
        if result is not None:
            if reply.combinations is None:
                self._valid_cache = None
            else:
                self._keep_combinations(reply.combinations)
            self._last_observation = result.observation
            self._won = result.success
            self._expert.observe(reply.command, result.observation, reply.refusal, pending)
        return reply.outcome if self._labels is None else self._labels.judge(reply.outcome)

    def _keep_combinations(self, combinations: Combinations) -> None:
        self._combinations = combinations
        self._valid_cache = sorted(set(combinations.actions))

    def _progress(self) -> Progress:
        if self._labels is not None:  # AgentBoard's rule (the observations were scanned in _act)
            return self._labels.progress(self._won)
        # Updating with the same observation again changes nothing, so this can be read any number of times.
        reading = self._tracker.update(self._last_observation, self._won)
        if self._won:  # success is full progress even along a path other than the gold one
            self._tracker.done = [True] * len(self._tracker.subgoals)
            done = tuple(self._tracker.done)
            reading = Progress(now=1.0, best=1.0, subgoals=reading.subgoals, subgoals_done=done)
        return reading

    def _admissible_actions(self) -> list[str]:
        answers = self.mode.answers(self._session.choice_count)
        if answers is not None:
            return answers
        if self._valid_cache is None:
            self._valid_cache = self._engine.valid_actions()
        return list(self._valid_cache)

    def _help_text(self) -> str:
        answer, listing = self.mode.help_text(self._engine, self._session.choice_count, self._admissible_actions)
        if listing is not None:
            self._keep_combinations(listing)
        return answer

    def _expert_action(self) -> str | None:
        return self._expert.next_action(self._session.choice_count, self.mode.expert_listing(self._combinations))

    @property
    def jvm_pid(self) -> int | None:
        """The process id of this env's JVM (None before the first reset and after ``close()``)."""
        return self._engine.jvm_pid

    @property
    def jvm_rss_mib(self) -> float | None:
        """The resident memory of this env's JVM in MiB (None when it is not running)."""
        return self._engine.rss_mib()

    # ---- helpers ---------------------------------------------------------------------------------------
    def _recycle_jvm(self) -> None:
        """Replace a used JVM when asked to at every episode, or when it played enough episodes or grew too big, and
        a broken one (a failed call, a lost JVM) always. In a pool the env's simulator is replaced, not the JVM the
        others use; a JVM too big for its simulators is retired (it stops when its last simulator has moved)."""
        engine = self._engine
        if not engine.started:
            return
        reason = None
        if engine.broken:
            reason = "the simulator failed"
        elif engine.jvm_retired:
            reason = "its JVM is retired"
        elif engine.fresh:
            return
        elif self._fresh_jvm:
            reason = "fresh_jvm_per_episode"
        elif self.jvm_restart_every is not None and engine.episodes >= self.jvm_restart_every:
            reason = f"{engine.episodes} episodes played"
        elif self.jvm_max_rss_mib is not None:
            rss = engine.rss_mib()
            share = None if rss is None else rss / max(1, engine.jvm_simulators)
            if share is not None and share > self.jvm_max_rss_mib:
                reason = f"resident memory {share:.0f} MiB per simulator > {self.jvm_max_rss_mib:.0f} MiB"
                engine.retire_jvm()
        if reason is None:
            return
        if not self._fresh_jvm:
            logger.info("replacing the ScienceWorld %s (%s)", "simulator" if engine.pooled else "JVM", reason)
        engine.restart()
        self.jvm_restarts += 1

    def _complete_task(self, task: TaskSpec) -> TaskSpec:
        """Shipped tasks are complete; others are derived once from the gold path (needs the JVM).

        A data-folder line keeps its goal, difficulty and annotation; where its variation's gold path does not
        solve it, it is played without one (the expert then has no path to follow)."""
        if "subgoals" in task.params:
            return task
        if task.task_id not in self._derived and task.params.get("split") == SPLIT:
            self._derived[task.task_id] = self._training_task(task)
        if task.task_id not in self._derived:
            from agentgym_text.envs.scienceworld.gold_paths import InstanceError, derive_instance

            name, variation = task.params["task_name"], int(task.params["variation"])
            annotation = annotation_of(task)
            if annotation is not None:
                check_variation(task, self._engine.variation_count(name))
            try:
                derived = instance_to_task(derive_instance(self._engine, name, variation))
            except InstanceError as error:
                if annotation is None:
                    raise
                logger.warning("%s: no gold path for the expert (%s)", task.task_id, error)
                params = {"task_name": name, "variation": variation, "split": "unknown"}
                params.update(simplifications=simplifications_for(name), subgoals=[], gold_actions=[])
                derived = TaskSpec(task.task_id, params, task.goal, task.difficulty, task.max_steps)
            if annotation is not None:
                params = {**derived.params, "agentboard": annotation}
                derived = TaskSpec(task.task_id, params, task.goal, task.difficulty, task.max_steps)
            self._derived[task.task_id] = derived
        return self._derived[task.task_id]

    @staticmethod
    def _training_task(task: TaskSpec) -> TaskSpec:
        """A training variation from its cached record (derived in a fresh JVM at first use); one whose gold path
        fails (``train_variations.training_instances`` lists none) is played without an expert path."""
        name, variation = task.params["task_name"], int(task.params["variation"])
        record = derived_record(name, variation)
        if record["instance"] is not None:
            return instance_to_task(record["instance"])
        logger.warning("%s: no gold path for the expert (%s)", task.task_id, record["error"])
        params = {**task.params, "simplifications": simplifications_for(name), "subgoals": [], "gold_actions": []}
        return TaskSpec(task.task_id, params, task.goal, task.difficulty, task.max_steps)

    def close(self) -> None:
        self._engine.close()
        super().close()
