"""The BabyAI env's ``"agentboard"`` text: runs high-level actions on the world exactly as AgentBoard's env does.

The text (descriptions, action table, errors) is :mod:`~agentgym_text.envs.babyai.agentboard_text.view`'s; this
module drives the world with it: a listed action's minigrid steps run in order and stop at the first step that
leaves the 7x7 view unchanged (as AgentBoard verifies), "check ..." lists the table, and the clear-mode expert's
commands are translated into the table's names. With AgentBoard's data the mode also keeps its progress rule.
``fixes`` (``agentboard_fixes=``) fixes AgentBoard's bugs, each listed in the family README.
"""

from __future__ import annotations

from pathlib import Path

from agentgym_text.core.info import InvalidReason
from agentgym_text.core.progress import Progress, SubgoalTracker
from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.core.text_env import Outcome, Start
from agentgym_text.core.text_mode import AgentBoardText
from agentgym_text.envs.babyai.actions import parse_command
from agentgym_text.envs.babyai.agentboard_data import Annotation, PatternProgress, annotated_tasks
from agentgym_text.envs.babyai.agentboard_text.view import (
    CHECK_ACTION,
    COMPLETED,
    UNKNOWN,
    AgentBoardView,
    agentboard_goal,
    agentboard_view,
)  # fmt: skip
from agentgym_text.envs.babyai.navigation import DROP, FORWARD, LEFT, RIGHT, TOGGLE
from agentgym_text.envs.babyai.world import BabyAIWorld, Refusal

__all__ = ["AgentBoardMode"]


class AgentBoardMode(AgentBoardText):
    """AgentBoard's words and action semantics over a :class:`~agentgym_text.envs.babyai.world.BabyAIWorld`."""

    action_format = (
        "one per step: turn left, turn right, move forward, go to <obj> <id>, pickup <obj> <id>, drop, "
        "go through <door> <id> (an open door), toggle and go through <door> <id> (a closed or locked door; a locked "
        "door needs a key of its color), toggle (the door right in front of you), with <obj> <id> as in the "
        "observation"
    )

    def __init__(self, fixes: bool = True):
        super().__init__(fixes)
        self.view: AgentBoardView | None = None
        self.labels: PatternProgress | None = None
        self._label_subgoals: tuple[str, ...] = ()

    def annotated(self, tasks: TaskSet, folder: Path) -> TaskSet:
        """``tasks`` with the goal, difficulty and subgoal patterns of AgentBoard's data in ``folder``."""
        return annotated_tasks(tasks, folder)

    def start(self, world: BabyAIWorld, task: TaskSpec, difficulty: str) -> Start:
        """The first observation; an annotated ``task`` (AgentBoard's data) then decides progress, difficulty and
        (with minigrid) the ending, as AgentBoard's env does."""
        annotation = task.params.get("agentboard_annotation")
        self.labels = PatternProgress(Annotation.from_params(annotation)) if annotation is not None else None
        self.view = agentboard_view(world.env, self.fixes)
        goal = world.mission if self.fixes else agentboard_goal(world.mission)
        if annotation is not None:
            self._label_subgoals = tuple(annotation["lists"][0])
            difficulty = task.difficulty
            if self.fixes:
                goal = task.goal  # the file's goal (AgentBoard's agent sees the mission it rewrites, kept unfixed)
        return Start(observation=self.view.description, goal=goal, difficulty=difficulty)

    def actions(self, world: BabyAIWorld | None) -> list[str]:
        return list(self.view.actions) if self.view is not None else []

    def help_text(self, world: BabyAIWorld | None) -> str:
        return "You can take the following actions: " + ", ".join(self.actions(world))

    def progress(self, world: BabyAIWorld, tracker: SubgoalTracker) -> Progress:
        """The package's subgoals (``tracker``), or AgentBoard's patterns when the task is annotated."""
        labels = self.labels
        if labels is None:
            return tracker.update("", world)
        solved = self.fixes and world.success  # FIX: a success is progress 1; AgentBoard keeps the patterns' count
        return Progress(
            now=1.0 if solved else labels.rate,
            subgoals=self._label_subgoals,
            subgoals_done=labels.subgoals_done(self._label_subgoals),
        )

    def act(self, world: BabyAIWorld, action: str) -> Outcome:
        """Run one action as AgentBoard does; the outcome for the text env."""
        view = self.view
        assert view is not None
        text = action.lower().strip()
        if "check" in text:
            return Outcome(observation=self.help_text(world), changed=False)
        if self.fixes and text.startswith("pick up "):
            text = "pickup " + text[len("pick up ") :]
        if text not in view.actions:
            if text in view.errors:
                return Outcome.invalid(view.errors[text], InvalidReason.PRECONDITION)
            return Outcome.invalid(UNKNOWN, InvalidReason.UNKNOWN_ACTION)
        steps = view.actions[text]
        if not steps:
            return Outcome(observation="No change in state.", changed=False)
        env = world.env
        image = env.gen_obs()["image"]
        ended: tuple[bool, bool] | None = None
        last = (False, False)
        for low_level in steps:  # like AgentBoard, the whole list runs even past the step that ends the episode
            world.terminated = world.success = False
            world.step_low_level(low_level)
            last = (world.terminated, world.success)
            if world.terminated and ended is None:
                ended = last
            new_image = env.gen_obs()["image"]
            if (new_image == image).all():
                break
            image = new_image
        self.view = agentboard_view(env, self.fixes)
        if self.fixes:  # the first ending counts; "completed" only on success
            terminated, success = ended or (False, False)
            completed = success
        else:  # AgentBoard reads only the last low-level step, says "completed" on failure too and plays on
            terminated, success = last[1], last[1]
            completed = last[0]
        observation = self.view.description + (COMPLETED if completed else "")
        if self.labels is not None:
            terminated, success, observation = self._labelled_ending(observation, ended, last)
        world.terminated, world.success = terminated, success
        return Outcome(observation=observation, terminated=terminated, success=success)

    def _labelled_ending(
        self, observation: str, ended: tuple[bool, bool] | None, last: tuple[bool, bool]
    ) -> tuple[bool, bool, str]:
        """Credit the annotation on the observation, then end as AgentBoard's env does: (terminated, success,
        observation)."""
        labels = self.labels
        assert labels is not None
        labels.update(observation)
        if self.fixes:  # FIX: a minigrid ending is the episode's, a failure never a success, whatever the progress
            terminated, success = ended or (False, False)
        else:  # AgentBoard: minigrid's last-step ending, undone at progress <= 0.5; done is success
            terminated = success = last[0] and labels.rate > 0.5
        if labels.rate == 1 and not terminated:  # every pattern matched: AgentBoard ends the episode a success
            terminated = success = True
            observation += COMPLETED
        return terminated, success, observation

    def expert(self, world: BabyAIWorld, command_text: str) -> str | None:
        """The clear-mode expert's next command, named as an action of AgentBoard's table.

        A command on an object becomes AgentBoard's action on the object in the same cell when the table has
        one; otherwise the command's first low-level step (a turn, a move, a pickup or toggle right ahead).
        """
        view = self.view
        assert view is not None
        command = parse_command(command_text)
        plan = world.check(command)
        if isinstance(plan, Refusal):
            return None
        if command.high_level:
            resolved = world.resolve(command)
            pos = None if isinstance(resolved, Refusal) else world.position_of(resolved[1])
            verb = {"goto": "go to ", "pickup": "pickup ", "go_through": "go through ",
                    "toggle_through": "toggle and go through "}[command.kind]  # fmt: skip
            for name, target in view.targets.items():
                if target == pos and name.startswith(verb):
                    return name
        first = plan.actions[0] if plan.actions else (FORWARD if plan.cross else None)
        simple = {LEFT: "turn left", RIGHT: "turn right", FORWARD: "move forward", DROP: "drop", TOGGLE: "toggle"}
        if first in simple and simple[first] in view.actions:
            return simple[first]
        for name, steps in view.actions.items():  # a pickup (or toggle) of the object right in front
            if name != CHECK_ACTION and steps and steps[0] == first:
                return name
        return None
