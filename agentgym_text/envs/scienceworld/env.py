"""``AgentBoard/ScienceWorld-v0``: ScienceWorld with AgentBoard's rewritten goals and evenly weighted subgoals.

By default the env speaks as AgentBoard's ScienceWorld env (``text_format="agentboard"``, see ``ScienceWorldTextEnv``
and ``agentboard_text.py``); ``text_format="clear"`` keeps this package's own framing (screened commands, refusal
hints, a concrete action list with command help). Where AgentBoard's behaviour is a bug, agentboard mode fixes it
and keeps the wording (``agentboard_fixes=False`` restores the bugs; tests/test_scienceworld_words.py replays
AgentBoard's own env with it):

- FIX validity: AgentBoard checks whether the action is one of the simulator's action-object combinations AFTER
  the step, in the state the action produced (so "pick up X" that worked is often "invalid", and an action that
  only became possible is "valid"); here the combinations of the state the action was given in. And the
  simulator carries out more than its listed combinations (aliases and qualified names: "examine lead", "use
  thermometer in inventory on lead", half its own gold actions), which AgentBoard counts as invalid; here an
  action the simulator carried out (not "No known action ...", not a refusal, not a question) is valid too.
- FIX ending: AgentBoard ignores the simulator's failure (a focus on a wrong object sets the score to -100) and
  plays on in a failed task; here the episode ends there (the observation is the simulator's text unchanged).
- FIX questions: a command sent while the simulator waits for the number of an "Ambiguous request" is taken by
  the simulator as a wrong answer ("Unknown action. Type 'help' ..."), uses up a time step and is lost; here the
  question is cancelled first (as the simulator's "or blank to cancel" allows) and the command is carried out,
  and a number that answers the question is a valid action.
- FIX completion (only with ``agentboard_data=``): AgentBoard reads no simulator success: where its regexes miss
  part of a completed task, it plays on and scores the regexes matched; here the simulator's success ends the
  episode as a success with progress 1.0.
- Progress and success: with ``agentboard_data=`` (or the setting ``AGENTGYM_TEXT_AGENTBOARD_DATA``) AgentBoard's,
  from the file's lines (``agentboard_data.py``): its regexes searched in every simulator answer, sticky, matched /
  number, done and a success when all matched; the simulator's success and failure end nothing with fixes off.
  Without the folder, this package's ordered subgoals and the simulator's success (not AgentBoard's annotation).
- Not AgentBoard's: inputs the core answers before the family sees them (empty, huge, non-text, spellings of the
  help action such as "help" or "Check Valid Actions."; an "Action:" marker and a final period are removed), and
  the footer the core adds to the first observation (goal, action format, step budget). Text over 300
  characters or with characters no command uses gets the simulator's "No known action matches that input."
  without reaching it (the simulator would answer the same and let no time pass).
- Engine: AgentBoard ran scienceworld 1.1.3 (its requirements do not pin it; 1.1.3 was the newest release until
  1.2.1 in July 2024); this package runs the installed release (1.2.3), and the worlds differ: in 1.1.3 the
  ``openContainers`` simplification leaves containers closed (cupboards, bee hives, blast furnaces), so room
  descriptions and action lists differ, 1.1.3 lists combinations with objects in closed containers that it then
  answers with "No known action matches that input.", and answers "look at door" with "ERROR: SHOULD USE
  OVERRIDE FOR PORTAL.". AgentBoard's electrical tasks cannot load with its ``noElectricalAction`` in either
  release (ValueError); they run without it, as in the clear format.
"""

from __future__ import annotations

import logging
import os
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from agentgym_text.core.agentboard_data import AgentBoardDataError, data_folder
from agentgym_text.core.info import FinishReason, InvalidReason
from agentgym_text.core.progress import Progress, SubgoalTracker
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import ENGINE_ERROR, Outcome, Start, TextEnv
from agentgym_text.core.text_mode import AGENTBOARD
from agentgym_text.envs.scienceworld.actions import (
    ACTION_EXAMPLE,
    ACTION_FORMAT,
    COMMAND_HELP,
    normalise,
    refusal_kind,
)
from agentgym_text.envs.scienceworld.agentboard_data import (
    LabelProgress,
    agentboard_tasks,
    annotation_of,
    check_variation,
)
from agentgym_text.envs.scienceworld.agentboard_text import AGENTBOARD_ACTION_FORMAT, NO_MATCH, help_answer, screen
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

if TYPE_CHECKING:
    from collections.abc import Sequence

    from agentgym_text.envs.scienceworld.pool import JvmPool

__all__ = ["ScienceWorldTextEnv", "DEFAULT_JVM_RESTART_EVERY", "DEFAULT_JVM_MAX_RSS_MIB"]

logger = logging.getLogger(__name__)

DEFAULT_JVM_RESTART_EVERY = 100
"""Episodes one JVM plays before it is replaced (a restart costs about 1.8 s, under 1% of 100 episodes)."""
DEFAULT_JVM_MAX_RSS_MIB = 1024.0
"""A JVM whose resident memory is above this at a reset is replaced."""

_REFUSAL_HINTS = {
    InvalidReason.UNKNOWN_OBJECT: "ScienceWorld understood the verb but no object here matches that name",
    InvalidReason.PRECONDITION: "ScienceWorld understood the action but it is not possible in the current state",
    InvalidReason.UNKNOWN_ACTION: "ScienceWorld did not understand the command",
}


JVM_MODES = ("own", "shared")


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

    ``text_format="agentboard"`` (the default) speaks as AgentBoard's ScienceWorld env: the simulator's text
    verbatim (first observation: the room plus the inventory), ``check valid actions`` answered with the
    simulator's action templates ("Choose an action from these valid actions: activate OBJ, close OBJ, ...,
    check valid actions"), and an action valid when it is exactly one of the simulator's action-object
    combinations (``admissible_actions()``) in the state it was given in, or the simulator carried it out; the
    FIX list is in the module docstring (``agentboard_fixes=False`` restores AgentBoard's bugs). A listed action
    the simulator refuses is valid, as in AgentBoard. The simulator is called exactly as AgentBoard's harness
    calls it (each step also fetches the look, inventory, task and two combination listings, about 0.1 s more
    than the clear format), because it renames ambiguous objects in every listing.

    ``text_format="clear"``: an action counts as valid when ScienceWorld carried it out in the state it was given
    in: text that is not a ScienceWorld command is rejected before it reaches the simulator with format help;
    objects the simulator cannot match ("No known action matches that input.") and actions it refuses ("The door
    is already open.") are invalid, with a hint. An "Ambiguous request" question is valid; the next action may
    then be one of the listed numbers.

    ``agentboard_data=`` (default: the setting ``AGENTGYM_TEXT_AGENTBOARD_DATA``) plays the lines of AgentBoard's
    ``scienceworld/test.jsonl`` in that folder, with their goals, difficulty labels and AgentBoard's progress rule
    (``agentboard_data.py``); it needs ``text_format="agentboard"``. Every task's budget is AgentBoard's 30 steps.

    The expert (``expert.py``) follows the gold path from the current state: it undoes what the agent did off
    the path where that can be undone and re-aligns with the path; it looks at what a gold action would find
    already done (an open door, a broken stove), answers the questions its own actions raise, and in AgentBoard's
    text names objects as the current listing does; it returns None, with the reason logged, where it cannot
    recover.

    >>> env = ScienceWorldTextEnv(task_name="boil")  # no JVM yet: it starts at the first reset
    >>> len(env.task_ids), env.jvm_pid, env.jvm_restart_every, env.text_format
    (3, None, 100, 'agentboard')
    """

    cheap_admissible_actions = False
    text_formats = (AGENTBOARD, "clear")
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
        **kwargs: Any,
    ):
        require_package()
        pool = _pool_for(jvm)
        if jvm_restart_every is not None and int(jvm_restart_every) < 1:
            raise ValueError(f"jvm_restart_every must be at least 1 (or None), not {jvm_restart_every!r}")
        folder = data_folder(agentboard_data)
        tasks = make_tasks(task_name, variation) if folder is None else agentboard_tasks(folder, task_name, variation)
        super().__init__(tasks, **kwargs)
        if folder is not None and self.text_format != AGENTBOARD:
            raise AgentBoardDataError(
                "agentboard_data= scores with AgentBoard's regexes over AgentBoard's observations: use "
                f"text_format='{AGENTBOARD}' (the default), not {self.text_format!r}"
            )
        self._fresh_jvm = fresh_jvm_per_episode
        self.jvm_restart_every = None if jvm_restart_every is None else int(jvm_restart_every)
        self.jvm_max_rss_mib = jvm_max_rss_mib
        self.jvm_restarts = 0
        """JVM replacements so far (not counting the first start)."""
        self._agentboard = self.text_format == AGENTBOARD
        if self._agentboard:
            self.action_format = AGENTBOARD_ACTION_FORMAT
        self._engine = ScienceWorldEngine(pool)
        self._session = CommandSession(self._engine, cancel_questions=not self._agentboard or self.agentboard_fixes)
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
            if self._agentboard:
                observation, listing = self._session.reset_agentboard()
            else:
                observation = self._session.reset()
        self._tracker = subgoal_tracker(params["subgoals"])
        annotation = annotation_of(task)
        self._labels = None if annotation is None else LabelProgress(tuple(annotation["subgoals"]))
        self._last_observation = observation
        self._won = False
        self._expert = GoldPathExpert(
            params["gold_actions"], observation, starts_open=_opens_all(params), world=self._engine
        )
        self._valid_cache = sorted(set(listing)) if self._agentboard else None
        return Start(observation=observation, goal=task.goal, difficulty=task.difficulty, task=task)

    def _act(self, action: str) -> Outcome:
        try:
            with self._engine.exclusive():  # in a pool: one swap of the JVM's globals for all of the step's calls
                return self._act_agentboard(action) if self._agentboard else self._act_clear(action)
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

    def _act_clear(self, action: str) -> Outcome:
        pending = self._session.choice_count
        parsed, result = self._session.send(action)
        if result is None:
            return Outcome.invalid(parsed.error, parsed.reason)
        self._valid_cache = None
        self._last_observation = result.observation
        self._won = result.success
        kind = refusal_kind(result.observation)
        self._expert.observe(parsed.text, result.observation, kind, pending)
        if result.success:
            return Outcome(result.observation, terminated=True, success=True)
        if result.completed or result.failed:
            return Outcome(
                result.observation + "\nThe task has failed.", terminated=True, finish_reason=FinishReason.FAILURE.value
            )
        if kind is not None:
            # the simulator took the step (time passes in its world), so progress is read again
            return Outcome.invalid(
                f"{result.observation}\n({_REFUSAL_HINTS[kind]}. Type 'check valid actions' to list them.)",
                kind,
                changed=True,
            )
        return Outcome(result.observation)

    def _act_agentboard(self, action: str) -> Outcome:
        """AgentBoard's step: the simulator's answer verbatim; valid = a listed combination (see the FIX list)."""
        fixes = self.agentboard_fixes
        pending = self._session.choice_count
        answers = bool(pending) and action.isdigit() and int(action) < pending
        if not pending or fixes and not answers:
            reason = screen(action)
            if reason is not None:  # the simulator would answer the same (and AgentBoard's regexes read it)
                return self._labelled(Outcome.invalid(NO_MATCH, reason))
        before = set(self._valid_cache or ())
        # FIX questions: cancels a pending one first (fixes); AgentBoard's validity listing comes after the step
        result, combinations = self._session.send_agentboard(action)
        self._keep_combinations(combinations)
        self._last_observation = result.observation
        self._won = result.success
        kind = refusal_kind(result.observation)
        self._expert.observe(normalise(action), result.observation, kind, pending)
        # FIX validity: the combinations of the state before the action, and what the simulator carried out
        carried_out = kind is None and not self._session.choice_count
        valid = (fixes and (answers or carried_out)) or action in (before if fixes else set(self._valid_cache))
        if result.success:
            outcome = Outcome(result.observation, terminated=True, success=True)
        elif fixes and (result.completed or result.failed):
            outcome = Outcome(result.observation, terminated=True, finish_reason=FinishReason.FAILURE.value)
        elif not valid:
            outcome = Outcome.invalid(result.observation, kind or InvalidReason.UNKNOWN_OBJECT, changed=True)
        else:
            outcome = Outcome(result.observation)
        return self._labelled(outcome)

    def _labelled(self, outcome: Outcome) -> Outcome:
        """With the data folder, AgentBoard's rule: its regexes read every observation the simulator gave, and the
        episode is done, a success, when all have matched. Fixes off, the simulator's success ends nothing
        (AgentBoard plays on); fixes on, it ends the episode as a success (FIX completion), and a failure too."""
        if self._labels is None:
            return outcome
        self._labels.scan(outcome.observation)
        if self._labels.complete:
            return replace(outcome, terminated=True, success=True, finish_reason=None, changed=True)
        if outcome.success and not self.agentboard_fixes:
            return replace(outcome, terminated=False, success=False, changed=True)
        return replace(outcome, changed=True)

    def _list_combinations(self) -> None:
        """List the action-object combinations as AgentBoard's harness does after every step (names rotate)."""
        self._keep_combinations(self._engine.grounding_combinations())

    def _keep_combinations(self, combinations: Combinations) -> None:
        self._combinations = combinations
        self._valid_cache = sorted(set(combinations.actions))

    def _progress(self) -> Progress:
        labels = self._labels
        if labels is not None:  # AgentBoard's rule (the observations were scanned in _act)
            if self._won and self.agentboard_fixes:  # FIX completion: the simulator's success is full progress
                return Progress(now=1.0, best=1.0, subgoals=labels.patterns, subgoals_done=(True,) * len(labels.done))
            return Progress(now=labels.rate, subgoals=labels.patterns, subgoals_done=tuple(labels.done))
        # Updating with the same observation again changes nothing, so this can be read any number of times.
        reading = self._tracker.update(self._last_observation, self._won)
        if self._won:  # success is full progress even along a path other than the gold one
            self._tracker.done = [True] * len(self._tracker.subgoals)
            done = tuple(self._tracker.done)
            reading = Progress(now=1.0, best=1.0, subgoals=reading.subgoals, subgoals_done=done)
        return reading

    def _admissible_actions(self) -> list[str]:
        if self._session.choice_count and not self._agentboard:
            return [str(i) for i in range(self._session.choice_count)]
        if self._valid_cache is None:
            self._valid_cache = self._engine.valid_actions()
        return list(self._valid_cache)

    def _help_text(self) -> str:
        if self._agentboard:
            answer = help_answer(self._engine.possible_actions())
            self._list_combinations()  # AgentBoard's harness lists them after the help action too
            return answer
        if self._session.choice_count:
            return f"Answer the question above with a number from 0 to {self._session.choice_count - 1}."
        return (
            "Choose an action from these valid actions: "
            + ", ".join(self._admissible_actions())
            + ("\n" + COMMAND_HELP)
        )

    def _expert_action(self) -> str | None:
        # AgentBoard's validity needs listed names; the clear format is not listed for the expert: a listing
        # changes how the world goes on (bees, plants), so the world would leave the gold run's
        listing = self._combinations if self._agentboard else None
        return self._expert.next_action(self._session.choice_count, listing)

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

    def close(self) -> None:
        self._engine.close()
        super().close()
