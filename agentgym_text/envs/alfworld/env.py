"""``AgentBoard/AlfWorld-v0`` and ``AgentBench/ALFWorld-v0``: ALFWorld's household tasks on generated games. The env
keeps the worlds, the tasks and progress; its text mode reads the commands and words the replies
(``agentboard_text.py``, ``agentbench_v02_text.py``)."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any

from agentgym_text.core.agentboard_data import data_folder
from agentgym_text.core.progress import Progress, SubgoalTracker
from agentgym_text.core.tasks import DEFAULT_MAX_STEPS, TaskSet, TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.alfworld import agentbench_v02_text as agentbench
from agentgym_text.envs.alfworld.agentboard_data import PATTERNS_PARAM, PatternScan, annotated_tasks
from agentgym_text.envs.alfworld.agentboard_text import AgentBoardAlfWorld, AgentBoardEpisode
from agentgym_text.envs.alfworld.downloaded import world_from_game
from agentgym_text.envs.alfworld.engine import World
from agentgym_text.envs.alfworld.expert import expert_command
from agentgym_text.envs.alfworld.gamefile import game_name
from agentgym_text.envs.alfworld.split_file import split_tasks
from agentgym_text.envs.alfworld.subgoals import subgoals_for
from agentgym_text.envs.alfworld.tasks import agentbench_tasks, downloaded_tasks, load_world, make_tasks, with_budget

__all__ = ["AlfWorldEnv", "AgentBenchAlfWorldEnv"]

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
    rule (``agentboard_data.py``). ``agentboard_fixes=False`` restores AgentBoard's quirks (``agentboard_text.py``).
    ``task_file`` (with ``game_dir``, the ALFWorld data root) plays AgentBench's split json (``split_file.py``).
    ``budget`` sets every task's steps (default 30, AgentBoard's; ``AgentQuest/ALFWorld-v0`` sets 60).
    The reset info also holds ``task_type``, ALFWorld's task type of the game (AgentBoard's harness picks its prompt
    examples by it).

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
    modes = (AgentBoardAlfWorld,)
    default_budget = DEFAULT_MAX_STEPS

    def __init__(
        self,
        task_type: str | None = None,
        floorplan: int | None = None,
        num_tasks: int | None = None,
        game_dir: str | None = None,
        agentboard_data: str | None = None,
        task_file: str | None = None,
        budget: int | None = None,
        **kwargs: Any,
    ):
        if "strict" in kwargs:  # Python's own error would name TextEnv.__init__
            raise ValueError("strict= is an option of AgentBench's protocol (AgentBench/ALFWorld-v0)")
        if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or budget < 1):
            raise ValueError(f"budget must be a positive number of steps, not {budget!r}")
        budget = budget or self.default_budget
        generated = (task_type, floorplan, num_tasks) != (None, None, None)
        if task_file is not None:
            if generated:
                raise ValueError(
                    "task_file plays the split's games; task_type, floorplan and num_tasks choose "
                    "generated ones: pass one or the other"
                )
            tasks, self._games = split_tasks(str(task_file), game_dir, budget), None
        elif game_dir is not None:
            if generated:
                raise ValueError(
                    "game_dir plays downloaded games; task_type, floorplan and num_tasks choose "
                    "generated ones: pass one or the other"
                )
            tasks, self._games = downloaded_tasks(str(game_dir)), None
        elif not generated:
            tasks, self._games = self._default_tasks(budget)
        else:
            tasks, self._games = make_tasks(task_type, floorplan, num_tasks)
        if budget != DEFAULT_MAX_STEPS:  # every task set is built with AgentBoard's 30
            tasks = with_budget(tasks, budget)
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
        self._episode: AgentBoardEpisode | agentbench.AgentBenchEpisode | None = None
        """The episode's reading and words (``mode.open``)."""

    def _default_tasks(self, budget: int) -> tuple[TaskSet, Path]:
        """The tasks played when none are chosen: the 134 generated test games."""
        return make_tasks()

    def _open_episode(self, intro: str) -> AgentBoardEpisode | agentbench.AgentBenchEpisode:
        return self.mode.open(self.world, intro, self._read)

    def _world_for(self, task: TaskSpec) -> World:
        world = self._worlds.pop(task.task_id, None)
        if world is None:
            game_file = task.params.get("game_file")
            world = World(world_from_game(game_file) if game_file else load_world(self._games, task.task_id))
        self._worlds[task.task_id] = world
        while len(self._worlds) > _KEPT_WORLDS:
            self._worlds.popitem(last=False)
        return world

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict]:
        observation, info = super().reset(seed=seed, options=options)
        assert self.world is not None
        info["task_type"] = self.world.task_type
        return observation, info

    def _start(self, task: TaskSpec, seed: int) -> Start:
        self.world = self._world_for(task)
        intro = self.world.reset()
        self._tracker = SubgoalTracker(subgoals_for(self.world), ordered=True)
        patterns = task.params.get(PATTERNS_PARAM)
        self._scan = None if patterns is None else PatternScan(patterns)
        goal = intro.split("\n\n")[2].removeprefix("Your task is to: ")
        self._episode = self._open_episode(intro)
        return Start(observation=self._episode.first_observation(), goal=goal)

    def _act(self, action: str) -> Outcome:
        return self._episode.act(action)

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
        return self._episode.help_text()

    def _help_outcome(self) -> Outcome:
        text = self._help_text()
        return Outcome(observation=text, changed=self._episode.help_read(text))

    def _expert_action(self) -> str | None:
        assert self.world is not None
        return expert_command(self.world)


class AgentBenchAlfWorldEnv(AlfWorldEnv):
    """``AgentBench/ALFWorld-v0``: AgentBench v0.2's protocol (``agentbench_v02_text.py``).

    Observations end with `` AVAILABLE ACTIONS: ...``, the reply's ``ACTION:`` line is the command, a non-admissible
    one is mapped to the admissible one of highest BLEU, three identical replies fail, 35 steps, and the default
    tasks are 50 of the 134 in AgentBench's test proportions. ``strict=True`` ends the episode on a reply without
    ``ACTION:`` (finish reason ``invalid_format``), as AgentBench does; by default such a reply's first line is read
    as the command (agents that send the bare action). Other options as ``AlfWorldEnv``'s.
    """

    modes = (agentbench.AgentBenchV02AlfWorld,)
    default_budget = agentbench.MAX_STEPS
    unwrap_actions = False  # the reply's ACTION: line is read by the mode, as AgentBench reads it

    def __init__(self, *args: Any, strict: bool = False, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.strict = bool(strict)

    def _default_tasks(self, budget: int) -> tuple[TaskSet, Path]:
        """AgentBench's 50 test games."""
        return agentbench_tasks(budget)

    def _open_episode(self, intro: str) -> agentbench.AgentBenchEpisode:
        return self.mode.open(self.world, intro, self._read, self.strict)

    def _expert_action(self) -> str | None:
        command = super()._expert_action()
        return f"ACTION: {command}" if command is not None and self.strict else command
