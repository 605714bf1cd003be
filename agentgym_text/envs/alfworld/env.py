"""``AgentBoard/AlfWorld-v0``: ALFWorld's household tasks on generated games, nothing to download."""

from __future__ import annotations

from collections import OrderedDict

from agentgym_text.core.agentboard_data import data_folder
from agentgym_text.core.progress import Progress, SubgoalTracker
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.alfworld import render
from agentgym_text.envs.alfworld.actions import normalise, why_invalid
from agentgym_text.envs.alfworld.agentboard_data import PATTERNS_PARAM, PatternScan, annotated_tasks
from agentgym_text.envs.alfworld.agentboard_text import listing, updates_look
from agentgym_text.envs.alfworld.downloaded import world_from_game
from agentgym_text.envs.alfworld.engine import World
from agentgym_text.envs.alfworld.expert import expert_command
from agentgym_text.envs.alfworld.gamefile import game_name
from agentgym_text.envs.alfworld.subgoals import subgoals_for
from agentgym_text.envs.alfworld.tasks import downloaded_tasks, load_world, make_tasks

__all__ = ["AlfWorldEnv"]

_KEPT_WORLDS = 32


class AlfWorldEnv(TextEnv):
    """ALFWorld (TextWorld text, ``AlfredDemangler`` names) with AgentBoard's framing and subgoal progress.

    The reset observation is the room description (ALFWorld's first paragraph after the banner) and the goal
    is the task sentence; ``check valid actions`` answers "Choose an action from these valid actions: ...".
    Actions are ALFWorld 0.4.2's commands; anything else is "Nothing happens." with ``valid=False``.

    Kwargs: ``task_type`` ("pick", "clean", "heat", "cool", "look", "picktwo" or ALFWorld's long names),
    ``floorplan`` and ``num_tasks`` build a training set (train floor plans unless one is named) instead of the
    134 default test tasks; ``game_dir`` plays downloaded ALFWorld games (``json_2.1.1/valid_unseen`` layout);
    ``agentboard_data`` (else ``$AGENTGYM_TEXT_AGENTBOARD_DATA``) is AgentBoard's data folder: its
    ``alfworld/test.jsonl`` then gives each game its difficulty and subgoal patterns, scored by AgentBoard's
    rule (``agentboard_data.py``). ``agentboard_fixes=False`` restores AgentBoard's quirks (``agentboard_text.py``;
    with the data, the ``check valid actions`` listing is then searched for subgoals too, as AgentBoard does).

    >>> env = AlfWorldEnv()
    >>> obs, info = env.reset(options={"task_id": "alfworld-pick-FloorPlan301-0"})
    >>> obs.startswith("You are in the middle of a room."), info["goal"]
    (True, 'put a creditcard in desk.')
    >>> while not env.episode_over:
    ...     obs, reward, terminated, truncated, info = env.step(env.expert_action())
    >>> info["success"], info["progress_rate"], info["subgoals_done"]
    (True, 1.0, [True, True, True])
    """

    cheap_admissible_actions = True
    text_formats = ("agentboard",)

    def __init__(
        self,
        task_type: str | None = None,
        floorplan: int | None = None,
        num_tasks: int | None = None,
        game_dir: str | None = None,
        agentboard_data: str | None = None,
        **kwargs,
    ):
        if game_dir is not None:
            if (task_type, floorplan, num_tasks) != (None, None, None):
                raise ValueError(
                    "game_dir plays downloaded games; task_type, floorplan and num_tasks choose "
                    "generated ones: pass one or the other"
                )
            tasks, self._games = downloaded_tasks(str(game_dir)), None
        else:
            tasks, self._games = make_tasks(task_type, floorplan, num_tasks)
        folder = data_folder(agentboard_data)
        if folder is not None:
            names = {
                task.task_id: task.task_id if self._games is None else game_name(load_world(self._games, task.task_id))
                for task in tasks
            }
            tasks = annotated_tasks(tasks, names, folder, downloaded=self._games is None)
        super().__init__(tasks, **kwargs)
        self._worlds: OrderedDict[str, World] = OrderedDict()
        self.world: World | None = None
        self._tracker = SubgoalTracker([])
        self._scan: PatternScan | None = None
        self._look_text = ""

    def _world_for(self, task: TaskSpec) -> World:
        world = self._worlds.pop(task.task_id, None)
        if world is None:
            game_file = task.params.get("game_file")
            world = World(world_from_game(game_file) if game_file else load_world(self._games, task.task_id))
        self._worlds[task.task_id] = world
        while len(self._worlds) > _KEPT_WORLDS:
            self._worlds.popitem(last=False)
        return world

    def _start(self, task: TaskSpec, seed: int) -> Start:
        self.world = self._world_for(task)
        intro = self.world.reset()
        self._tracker = SubgoalTracker(subgoals_for(self.world), ordered=True)
        patterns = task.params.get(PATTERNS_PARAM)
        self._scan = None if patterns is None else PatternScan(patterns)
        room, goal_line = intro.split("\n\n")[1:3]
        self._look_text = room
        return Start(observation=room, goal=goal_line.removeprefix("Your task is to: "))

    def _act(self, action: str) -> Outcome:
        world = self.world
        assert world is not None
        command = normalise(action)
        known = world.commands().get(command)
        if known is None:
            feedback = render.NOTHING_HAPPENS
            # AgentBoard searches this reply too; a new match must be read as progress
            return Outcome.invalid(feedback, why_invalid(command, set(world.by_name)), changed=self._read(feedback))
        feedback = world.apply(known)
        if not self.agentboard_fixes:
            if action == "look":  # AgentBoard's exact test: "Look" reaches the engine's own look
                feedback = self._look_text
            elif updates_look(action, feedback):
                self._look_text = feedback
        self._read(feedback)
        if world.won():
            return Outcome(observation=feedback, terminated=True, success=True)
        return Outcome(observation=feedback)

    def _read(self, observation: str) -> bool:
        """Search AgentBoard's subgoal patterns (with its data) in an observation; True when one newly matched."""
        return self._scan is not None and self._scan.read(observation)

    def _progress(self) -> Progress:
        if self._scan is not None:
            assert self.world is not None
            return self._scan.progress(won=self.world.won())
        return self._tracker.update("", self.world)

    def _admissible_actions(self) -> list[str]:
        assert self.world is not None
        return self.world.admissible()

    def _help_text(self) -> str:
        return listing(self._admissible_actions(), fixes=self.agentboard_fixes)

    def _help_outcome(self) -> Outcome:
        text = self._help_text()
        # FIX: AgentBoard searches its subgoal patterns in the listing too (a listed "take apple 1 from ..." can
        # credit a subgoal); the fix searches only what the game says
        return Outcome(observation=text, changed=not self.agentboard_fixes and self._read(text))

    def _expert_action(self) -> str | None:
        assert self.world is not None
        return expert_command(self.world)
