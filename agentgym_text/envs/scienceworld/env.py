"""``AgentBoard/ScienceWorld-v0``: ScienceWorld with AgentBoard's rewritten goals and evenly weighted subgoals."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from agentgym_text.core.progress import Progress, SubgoalTracker
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.scienceworld.commands import COMMAND_HELP, normalise, refusal_kind
from agentgym_text.envs.scienceworld.engine import ScienceWorldEngine
from agentgym_text.envs.scienceworld.session import CommandSession
from agentgym_text.envs.scienceworld.tasks import instance_to_task, make_tasks, subgoal_tracker

__all__ = ["ScienceWorldTextEnv"]

_REFUSAL_HINTS = {
    "unknown_object": "ScienceWorld understood the verb but no object here matches that name",
    "precondition_failed": "ScienceWorld understood the action but it is not possible in the current state",
    "unknown_action": "ScienceWorld did not understand the command",
}


class ScienceWorldTextEnv(TextEnv):
    """ScienceWorld tasks in a simulated school; progress = ordered necessary observations, then completion.

    ``task_name`` (and ``variation``) restrict the task set; a variation that is not shipped is built at its
    first reset from the simulator's gold path. Each instance runs its own JVM, started at the first reset and
    stopped by ``close()``. It runs with identity hashes pinned (``JVM_OPTIONS``), so an episode plays out the
    same whatever the JVM did before, and it is reused between episodes (reset about 0.1 s);
    ``fresh_jvm_per_episode=True`` restarts it at every reset (about 1.8 s), which caps its memory.

    An action counts as valid when ScienceWorld carried it out in the state it was given in: text that is not
    a ScienceWorld command is rejected before it reaches the simulator; objects the simulator cannot match
    ("No known action matches that input.") and actions it refuses ("The door is already open.") are invalid.
    An "Ambiguous request" question is valid; the next action may then be one of the listed numbers.

    The expert replays the gold path from reset; it advances when the agent's action is the next gold action.
    """

    def __init__(
        self,
        task_name: str | None = None,
        variation: int | None = None,
        fresh_jvm_per_episode: bool = False,
        **kwargs: Any,
    ):
        super().__init__(make_tasks(task_name, variation), **kwargs)
        self._fresh_jvm = fresh_jvm_per_episode
        self._engine = ScienceWorldEngine()
        self._session = CommandSession(self._engine)
        self._derived: dict[str, TaskSpec] = {}
        self._tracker: SubgoalTracker = subgoal_tracker([])
        self._reading = Progress(now=0.0)
        self._pending_observation: str | None = None
        self._won = False
        self._gold: list[str] = []
        self._gold_index = 0
        self._valid_cache: list[str] | None = None

    # ---- TextEnv hooks ---------------------------------------------------------------------------------
    def _start(self, task: TaskSpec, seed: int) -> Start:
        task = self._complete_task(task)
        self._task = task  # a derived task carries its goal, subgoals and step budget (StepLimit reads them)
        params = task.params
        if self._fresh_jvm and not self._engine.fresh:
            self._engine.restart()
        self._engine.load(params["task_name"], params["variation"], params["simplifications"])
        observation = self._session.reset()
        self._tracker = subgoal_tracker(params["subgoals"])
        self._pending_observation = observation
        self._won = False
        self._gold = list(params["gold_actions"])
        self._gold_index = 0
        self._valid_cache = None
        return Start(observation=observation, goal=task.goal, difficulty=task.difficulty)

    def _act(self, action: str) -> Outcome:
        parsed, result = self._session.send(action)
        if result is None:
            return Outcome.invalid(parsed.error, parsed.reason)
        self._valid_cache = None
        self._pending_observation = result.observation
        self._won = result.success
        if self._gold_index < len(self._gold) and parsed.text == normalise(self._gold[self._gold_index]):
            self._gold_index += 1
        if result.success:
            return Outcome(result.observation, terminated=True, success=True)
        if result.completed or result.failed:
            return Outcome(result.observation + "\nThe task has failed.", terminated=True, finish_reason="failure")
        kind = refusal_kind(result.observation)
        if kind is not None:
            return Outcome.invalid(
                f"{result.observation}\n({_REFUSAL_HINTS[kind]}. Type 'check valid actions' to list them.)", kind
            )
        return Outcome(result.observation)

    def _progress(self) -> Progress:
        if self._pending_observation is None:  # nothing new from the simulator since the last reading
            return self._reading
        reading = self._tracker.update(self._pending_observation, self._won)
        self._pending_observation = None
        if self._won:  # success is full progress even along a path other than the gold one
            self._tracker.done = [True] * len(self._tracker.subgoals)
            reading = replace(reading, now=1.0, best=1.0, subgoals_done=tuple(self._tracker.done))
        return reading

    def _admissible_actions(self) -> list[str]:
        if self._session.choice_count:
            return [str(i) for i in range(self._session.choice_count)]
        if self._valid_cache is None:
            self._valid_cache = self._engine.valid_actions()
        return list(self._valid_cache)

    def _help_text(self) -> str:
        if self._session.choice_count:
            return f"Answer the question above with a number from 0 to {self._session.choice_count - 1}."
        return "Choose an action from these valid actions: " + ", ".join(self._admissible_actions()) + (
            "\n" + COMMAND_HELP
        )

    def _expert_action(self) -> str | None:
        return self._gold[self._gold_index] if self._gold_index < len(self._gold) else None

    @property
    def jvm_pid(self) -> int | None:
        """The process id of this env's JVM (None before the first reset and after ``close()``)."""
        return self._engine.jvm_pid

    # ---- helpers ---------------------------------------------------------------------------------------
    def _complete_task(self, task: TaskSpec) -> TaskSpec:
        """Shipped tasks are complete; others are derived once from the gold path (needs the JVM)."""
        if "subgoals" in task.params:
            return task
        if task.task_id not in self._derived:
            from agentgym_text.envs.scienceworld.gold import derive_instance

            instance = derive_instance(self._engine, task.params["task_name"], int(task.params["variation"]))
            self._derived[task.task_id] = instance_to_task(instance)
        return self._derived[task.task_id]

    def close(self) -> None:
        self._engine.close()
        super().close()
