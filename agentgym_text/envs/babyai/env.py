"""``AgentBoard/BabyAI-v0``: BabyAI levels with a text description of the view and text actions."""

from __future__ import annotations

import os

from agentgym_text.core.agentboard_data import AgentBoardDataError, data_folder
from agentgym_text.core.progress import Progress, SubgoalTracker
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.babyai.agentboard_text.mode import AgentBoardMode
from agentgym_text.envs.babyai.clear_text import ClearMode
from agentgym_text.envs.babyai.expert import expert_action
from agentgym_text.envs.babyai.instructions import build_subgoals
from agentgym_text.envs.babyai.registration import FAMILY
from agentgym_text.envs.babyai.tasks import agentboard_tasks, procedural_tasks, training_tasks
from agentgym_text.envs.babyai.world import BabyAIWorld

__all__ = ["BabyAIEnv"]


class BabyAIEnv(TextEnv):
    """A BabyAI level in text. ``level=None`` plays AgentBoard's 112 tasks (``split="train"``: the train split's 1,120
    instances of the same levels, in the same text and budget); a level name draws from the seed.

    Texts (``modes``): AgentBoard's words (``agentboard_text``, the default for AgentBoard's tasks, its bugs fixed
    unless ``agentboard_fixes=False``) and this package's own (``clear_text``, the default for a ``level``:
    AgentBoard's actions cannot open a box, as KeyInBox needs). ``agentboard_data`` (else
    ``$AGENTGYM_TEXT_AGENTBOARD_DATA``) is AgentBoard's data folder: its goals, difficulties and progress rule for
    the 112 tasks, in AgentBoard's words only; a ``level`` draw ignores the setting. Details, and the FIX list, in
    the family README.

    >>> env = BabyAIEnv()
    >>> obs, info = env.reset(options={"task_index": 0})
    >>> while not env.episode_over:
    ...     obs, reward, terminated, truncated, info = env.step(env.expert_action())
    >>> info["success"], info["progress_rate"]
    (True, 1.0)
    """

    cheap_admissible_actions = True
    modes = (AgentBoardMode, ClearMode)
    action_example = "turn left"

    def __init__(
        self,
        level: str | None = None,
        *,
        split: str = "test",
        agentboard_data: str | os.PathLike[str] | None = None,
        **kwargs,
    ):
        if split not in ("test", "train"):
            raise ValueError(f"split must be 'test' or 'train', not {split!r}")
        if level is not None and split != "test":
            raise ValueError("level= draws from the reset seed; split='train' plays the train split's instances")
        if level is not None:  # the same texts, ours the default: AgentBoard's actions cannot open a box (KeyInBox)
            self.modes = (ClearMode, AgentBoardMode)
        agentboard = level is None and split == "test"
        if not agentboard and agentboard_data not in (None, ""):
            raise AgentBoardDataError(
                "agentboard_data= annotates AgentBoard's 112 tasks, not a level= draw or the train split"
            )
        if level is not None:
            tasks = procedural_tasks(level)
        else:
            tasks = agentboard_tasks() if agentboard else training_tasks()
        super().__init__(tasks, **kwargs)
        folder = data_folder(agentboard_data) if agentboard else None  # the setting applies to the 112 tasks only
        if folder is not None:
            self.tasks = self.mode.annotated(self.tasks, folder)
        self.action_format = self.mode.action_format
        self._worlds: dict[str, BabyAIWorld] = {}
        self.world: BabyAIWorld | None = None
        self._tracker = SubgoalTracker([], ordered=False)

    def _start(self, task: TaskSpec, seed: int) -> Start:
        level = str(task.params["level"])
        if level not in self._worlds:
            self._worlds[level] = BabyAIWorld(level)
        self.world = self._worlds[level]
        engine_seed = task.params.get("seed")
        self.world.reset(int(engine_seed) if engine_seed is not None else seed)
        subgoals = build_subgoals(self.world)
        self._tracker = SubgoalTracker(subgoals, ordered=False)
        start = self.mode.start(self.world, task, FAMILY.difficulty.label(len(subgoals)))
        gotos = [action for action in self.mode.actions(self.world) if action.startswith("go to ")]
        # an instance attribute: the first-observation footer quotes a command that works in this very view
        self.action_example = gotos[0] if gotos else type(self).action_example
        return start

    def _act(self, action: str) -> Outcome:
        assert self.world is not None
        return self.mode.act(self.world, action)

    def _progress(self) -> Progress:
        return self.mode.progress(self.world, self._tracker)

    def _admissible_actions(self) -> list[str]:
        return self.mode.actions(self.world)

    def _help_text(self) -> str:
        return self.mode.help_text(self.world)

    def _expert_action(self) -> str | None:
        if self.world is None:
            return None
        return self.mode.expert(self.world, expert_action(self.world))
