"""``AgentBoard/BabyAI-v0``: BabyAI levels with a text description of the view and text actions."""

from __future__ import annotations

import os

from agentgym_text.core.agentboard_data import AgentBoardDataError, data_folder
from agentgym_text.core.progress import Progress, SubgoalTracker
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.core.text_mode import AGENTBOARD
from agentgym_text.envs.babyai.actions import parse_command
from agentgym_text.envs.babyai.agentboard_data import Annotation, PatternProgress, annotated_tasks
from agentgym_text.envs.babyai.agentboard_text.mode import AgentBoardMode
from agentgym_text.envs.babyai.expert import expert_action
from agentgym_text.envs.babyai.instructions import build_subgoals
from agentgym_text.envs.babyai.registration import FAMILY
from agentgym_text.envs.babyai.render import describe_view, step_text
from agentgym_text.envs.babyai.tasks import agentboard_tasks, procedural_tasks
from agentgym_text.envs.babyai.world import BabyAIWorld, Refusal

__all__ = ["BabyAIEnv"]

_AGENTBOARD_FORMAT = (
    "one per step: turn left, turn right, move forward, go to <obj> <id>, pickup <obj> <id>, drop, "
    "go through <door> <id> (an open door), toggle and go through <door> <id> (a closed or locked door; a locked "
    "door needs a key of its color), toggle (the door right in front of you), with <obj> <id> as in the "
    "observation"
)

_HELP = (
    "Actions: turn left, turn right, move forward, pick up, drop, toggle (low level: one grid step), and "
    "go to <object>, pick up <object>, go through <door>, toggle and go through <door> (high level: walk there "
    "over cells you have seen), with objects named as in the observation, e.g. 'go to red ball 1'."
)


class BabyAIEnv(TextEnv):
    """A BabyAI level in text. ``level=None`` plays AgentBoard's 112 tasks; a level name draws from the seed.

    ``text_format="agentboard"`` (the default for AgentBoard's tasks, ``level=None``) speaks as AgentBoard's
    BabyAI env: its observations ("In front of you in this room, you can see several objects: There is a red ball
    1 right in front of you 3 steps away. ..."), action names ("pickup green box 1", "go to red ball 1", "toggle
    and go through blue locked door 1", "check available actions"), help answer ("You can take the following
    actions: ...") and error messages, with each high-level action run as AgentBoard runs it (its search path,
    stopping at the first low-level step that leaves the view unchanged). ``text_format="clear"`` is this
    package's own text ("You see: red ball 1: 3 steps straight ahead", "pick up <object>", paths over seen cells
    only, a reason for every refusal), the default for a ``level`` (AgentBoard's actions cannot open a box, as
    KeyInBox needs).

    Where AgentBoard's behaviour is a bug, agentboard mode fixes it and keeps the wording (``agentboard_fixes=False``
    restores the bugs; the reference replay in tests/test_babyai_words.py uses it):

    - FIX numbering: AgentBoard numbers ``pickup``/``go to`` targets by counting only reachable objects, so "go to
      red ball 1" can name the description's red ball 2; here every action uses the description's number.
    - FIX closed doors: AgentBoard's path search walks through closed and locked doors (the walk then stops at the
      door); here they block paths (a path to a door itself is unchanged).
    - FIX lava: AgentBoard offers ``pickup <color> lava <k>``; lava is not offered.
    - FIX door message: AgentBoard's "You cannot toggle and go through <door>, as there is no path leading to it."
      prints its internal door-count table instead of the door's number; here the number.
    - FIX "pick up": AgentBoard's own prompt says "pick up <obj> <id>" while its env only accepts "pickup"; both
      are accepted (the action list says "pickup").
    - FIX ending: AgentBoard reads only the last low-level step of a high-level action, so a success reached
      midway (a GoTo target passed on the walk, a door opened by "toggle and go through") is lost; and it appends
      "The task is completed." also when minigrid ends a Debug level in failure (then plays on). Here the first
      ending within the action counts, the episode ends there, and the line is appended on success only.
    - FIX goal: AgentBoard rewrites "then" and "after you" in the mission as "and", hiding an order that the
      Debug levels enforce (the wrong order fails); the goal here is minigrid's mission.
    - FIX failure (with ``agentboard_data``): AgentBoard ends an episode that minigrid ended as a failure (a
      Debug level's wrong order) as a success when the annotation's progress is above 0.5; here it is a failure.
    - FIX success (with ``agentboard_data``): AgentBoard undoes minigrid's success when the annotation's progress
      is at most 0.5 (plays on), and otherwise keeps the patterns' count below 1; here a success ends the episode
      with progress 1.
    - Worlds: all 112 as AgentBoard's (minigrid 2.3); GoToObjS6 is built with its v0 parameters (see levels).
    - Not AgentBoard's: inputs the core answers before the family sees them (empty, huge, non-text; AgentBoard says
      "No change in state." to an empty action), and the footer the core adds to the first observation (goal,
      action format, step budget). Any other text containing "check" lists the actions, as in AgentBoard.

    ``agentboard_data`` (else ``$AGENTGYM_TEXT_AGENTBOARD_DATA``) is AgentBoard's data folder: the 112 tasks then
    take the goal, difficulty and subgoal patterns of ``<folder>/babyai/test.jsonl`` (line k is the k-th task) and
    progress is AgentBoard's rule on them (``agentboard_data.py``): one pattern credited per executed action, and
    the episode ends a success once every pattern has matched. Without it, progress is this package's subgoal
    tracker and the difficulty this package's count. The data needs the ``"agentboard"`` text format, and a
    ``level`` draw ignores the setting.

    >>> env = BabyAIEnv()
    >>> obs, info = env.reset(options={"task_index": 0})
    >>> while not env.episode_over:
    ...     obs, reward, terminated, truncated, info = env.step(env.expert_action())
    >>> info["success"], info["progress_rate"]
    (True, 1.0)
    """

    cheap_admissible_actions = True
    text_formats = (AGENTBOARD, "clear")
    action_format = (
        "one per step, 'turn left', 'turn right', 'move forward', 'pick up', 'drop', 'toggle', or "
        "'go to <object>', 'pick up <object>', 'go through <door>', 'toggle and go through <door>' with the "
        "object named as in the observation"
    )
    action_example = "turn left"

    def __init__(
        self,
        level: str | None = None,
        text_format: str | None = None,
        agentboard_data: str | os.PathLike[str] | None = None,
        **kwargs,
    ):
        if text_format is None and level is not None:  # AgentBoard's actions cannot open a box (KeyInBox needs it)
            text_format = "clear"
        tasks = agentboard_tasks() if level is None else procedural_tasks(level)
        if level is not None and agentboard_data not in (None, ""):
            raise AgentBoardDataError("agentboard_data= annotates AgentBoard's 112 tasks, not a level= draw")
        folder = data_folder(agentboard_data) if level is None else None  # the setting does not apply to level=
        if folder is not None:
            if text_format not in (None, AGENTBOARD):
                raise AgentBoardDataError(
                    "AgentBoard's BabyAI annotations match AgentBoard's words: agentboard_data= (or "
                    f"$AGENTGYM_TEXT_AGENTBOARD_DATA) needs text_format='agentboard', not {text_format!r}"
                )
            tasks = annotated_tasks(tasks, folder)
        super().__init__(tasks, text_format=text_format, **kwargs)
        self._agentboard = AgentBoardMode(self.agentboard_fixes) if self.text_format == AGENTBOARD else None
        if self._agentboard is not None:
            self.action_format = _AGENTBOARD_FORMAT
        self._worlds: dict[str, BabyAIWorld] = {}
        self.world: BabyAIWorld | None = None
        self._tracker = SubgoalTracker([], ordered=False)
        self._labels: PatternProgress | None = None
        self._label_subgoals: tuple[str, ...] = ()

    def _start(self, task: TaskSpec, seed: int) -> Start:
        level = str(task.params["level"])
        if level not in self._worlds:
            self._worlds[level] = BabyAIWorld(level)
        self.world = self._worlds[level]
        engine_seed = task.params.get("seed")
        self.world.reset(int(engine_seed) if engine_seed is not None else seed)
        subgoals = build_subgoals(self.world)
        self._tracker = SubgoalTracker(subgoals, ordered=False)
        difficulty = FAMILY.difficulty.label(len(subgoals))
        annotation = task.params.get("agentboard_annotation")
        self._labels = PatternProgress(Annotation.from_params(annotation)) if annotation is not None else None
        if self._labels is not None:
            self._label_subgoals = tuple(annotation["lists"][0])
            difficulty = task.difficulty
        if self._agentboard is not None:
            observation, goal = self._agentboard.start(self.world, self._labels)
            if self._labels is not None and self.agentboard_fixes:
                goal = task.goal  # the file's goal (AgentBoard's agent sees the mission it rewrites, kept unfixed)
            gotos = [action for action in self._agentboard.actions() if action.startswith("go to ")]
            self.action_example = gotos[0] if gotos else type(self).action_example
            return Start(observation=observation, goal=goal, difficulty=difficulty)
        gotos = [action for action in self.world.admissible() if action.startswith("go to ")]
        # an instance attribute: the first-observation footer quotes a command that works in this very view
        self.action_example = gotos[0] if gotos else type(self).action_example
        observation = f"Your goal: {self.world.mission}.\n{describe_view(self.world.view())}"
        return Start(observation=observation, goal=self.world.mission, difficulty=difficulty)

    def _act(self, action: str) -> Outcome:
        world = self.world
        assert world is not None
        if self._agentboard is not None:
            return self._agentboard.act(world, action)
        command = parse_command(action)  # an ActionError is the step's invalid outcome
        event = world.execute(command)
        if isinstance(event, Refusal):
            return Outcome.invalid(f"{event.message}\n{describe_view(world.view())}", event.reason)
        return Outcome(observation=step_text(event, world.view()), terminated=event.terminated, success=event.success)

    def _progress(self) -> Progress:
        labels = self._labels
        if labels is None:
            return self._tracker.update("", self.world)
        # FIX (with AgentBoard's annotation): a success is progress 1; AgentBoard keeps the patterns' count
        solved = self.agentboard_fixes and self.world is not None and self.world.success
        return Progress(
            now=1.0 if solved else labels.rate,
            subgoals=self._label_subgoals,
            subgoals_done=labels.subgoals_done(self._label_subgoals),
        )

    def _admissible_actions(self) -> list[str]:
        if self._agentboard is not None:
            return self._agentboard.actions()
        return self.world.admissible() if self.world is not None else []

    def _help_text(self) -> str:
        if self._agentboard is not None:
            return self._agentboard.help_text()
        return "Valid actions now: " + ", ".join(self._admissible_actions()) + ".\n" + _HELP

    def _expert_action(self) -> str | None:
        if self.world is None:
            return None
        command = expert_action(self.world)
        if self._agentboard is not None:
            return self._agentboard.expert(self.world, command)
        return command
