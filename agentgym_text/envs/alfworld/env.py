"""``AgentBoard/AlfWorld-v0``: ALFWorld's household tasks on generated games, nothing to download."""

from __future__ import annotations

from collections import OrderedDict

from agentgym_text.core.progress import Progress, SubgoalTracker
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.alfworld import render
from agentgym_text.envs.alfworld.actions import normalise, why_invalid
from agentgym_text.envs.alfworld.downloaded import world_from_game
from agentgym_text.envs.alfworld.engine import World
from agentgym_text.envs.alfworld.expert import expert_command
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
    134 default test tasks; ``game_dir`` plays downloaded ALFWorld games (``json_2.1.1/valid_unseen`` layout).

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

    def __init__(
        self,
        task_type: str | None = None,
        floorplan: int | None = None,
        num_tasks: int | None = None,
        game_dir: str | None = None,
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
        super().__init__(tasks, **kwargs)
        self._worlds: OrderedDict[str, World] = OrderedDict()
        self.world: World | None = None
        self._tracker = SubgoalTracker([])

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
        room, goal_line = intro.split("\n\n")[1:3]
        return Start(observation=room, goal=goal_line.removeprefix("Your task is to: "))

    def _act(self, action: str) -> Outcome:
        world = self.world
        assert world is not None
        command = normalise(action)
        known = world.commands().get(command)
        if known is None:
            return Outcome.invalid(render.NOTHING_HAPPENS, why_invalid(command, set(world.by_name)))
        feedback = world.apply(known)
        if world.won():
            return Outcome(observation=feedback, terminated=True, success=True)
        return Outcome(observation=feedback)

    def _progress(self) -> Progress:
        return self._tracker.update("", self.world)

    def _admissible_actions(self) -> list[str]:
        assert self.world is not None
        return self.world.admissible()

    def _help_text(self) -> str:
        return "Choose an action from these valid actions: " + ", ".join(self._admissible_actions())

    def _expert_action(self) -> str | None:
        assert self.world is not None
        return expert_command(self.world)
