"""The BabyAI env's ``"clear"`` text: this package's own words over the world (see the family README)."""

from __future__ import annotations

from pathlib import Path

from agentgym_text.core.agentboard_data import AgentBoardDataError
from agentgym_text.core.progress import Progress, SubgoalTracker
from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.core.text_env import Outcome, Start
from agentgym_text.core.text_mode import AGENTBOARD, TextMode
from agentgym_text.envs.babyai.actions import parse_command
from agentgym_text.envs.babyai.render import describe_view, step_text
from agentgym_text.envs.babyai.world import BabyAIWorld, Refusal

__all__ = ["ClearMode"]

_GRAMMAR = (
    "Actions: turn left, turn right, move forward, pick up, drop, toggle (low level: one grid step), and "
    "go to <object>, pick up <object>, go through <door>, toggle and go through <door> (high level: walk there "
    "over cells you have seen), with objects named as in the observation, e.g. 'go to red ball 1'."
)


class ClearMode(TextMode):
    """ "You see: red ball 1: 3 steps straight ahead", "pick up <object>", paths over seen cells only, a reason for
    every refusal."""

    name = "clear"
    action_format = (
        "one per step, 'turn left', 'turn right', 'move forward', 'pick up', 'drop', 'toggle', or "
        "'go to <object>', 'pick up <object>', 'go through <door>', 'toggle and go through <door>' with the "
        "object named as in the observation"
    )

    def annotated(self, tasks: TaskSet, folder: Path) -> TaskSet:
        """Refused: AgentBoard's annotations are patterns over AgentBoard's words."""
        raise AgentBoardDataError(
            "AgentBoard's BabyAI annotations match AgentBoard's words: agentboard_data= (or "
            f"$AGENTGYM_TEXT_AGENTBOARD_DATA) needs text_format={AGENTBOARD!r}, not {self.name!r}"
        )

    def start(self, world: BabyAIWorld, task: TaskSpec, difficulty: str) -> Start:
        observation = f"Your goal: {world.mission}.\n{describe_view(world.view())}"
        return Start(observation=observation, goal=world.mission, difficulty=difficulty)

    def actions(self, world: BabyAIWorld | None) -> list[str]:
        return world.admissible() if world is not None else []

    def help_text(self, world: BabyAIWorld | None) -> str:
        return "Valid actions now: " + ", ".join(self.actions(world)) + ".\n" + _GRAMMAR

    def act(self, world: BabyAIWorld, action: str) -> Outcome:
        command = parse_command(action)  # an ActionError is the step's invalid outcome
        event = world.execute(command)
        if isinstance(event, Refusal):
            return Outcome.invalid(f"{event.message}\n{describe_view(world.view())}", event.reason)
        return Outcome(observation=step_text(event, world.view()), terminated=event.terminated, success=event.success)

    def progress(self, world: BabyAIWorld, tracker: SubgoalTracker) -> Progress:
        return tracker.update("", world)

    def expert(self, world: BabyAIWorld, command: str) -> str:
        """The expert's command as it is: the expert speaks this text."""
        return command
