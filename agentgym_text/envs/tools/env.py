"""``AgentBoard/ToolQuery-v0`` and ``AgentBoard/ToolOperation-v0``: call functions of an offline tool.

Progress (subgoal tools: weather, movie, academia, todo) is the share of golden call outputs the agent has
obtained, plus the final answer as the last subgoal; success is a correct ``finish`` answer (and, for
todo, the golden final state) and credits every subgoal. Sheet progress is the cell match score against
the golden sheet (see ``sheet.matching``), rescaled so the untouched sheet scores 0. With ``agentboard_data=``
progress follows AgentBoard's rule, kept by the AgentBoard text.

The texts (``agentboard_text.mode.AgentBoardMode``, the default, and ``clear_text.ClearMode``) read the actions
and write the observations; the README describes both and lists AgentBoard's bugs the first fixes.
"""

from __future__ import annotations

import os
from typing import Any

from agentgym_text.core.agentboard_data import AgentBoardDataError, data_folder
from agentgym_text.core.info import TOOL_HELP_ACTION
from agentgym_text.core.progress import Progress, Subgoal, SubgoalTracker
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.tools.agentboard_data import agentboard_tasks
from agentgym_text.envs.tools.agentboard_text.mode import AgentBoardMode
from agentgym_text.envs.tools.backend import Toolkit
from agentgym_text.envs.tools.clear_text import ClearMode
from agentgym_text.envs.tools.episode import Ledger, ToolEpisode
from agentgym_text.envs.tools.function_tools import FunctionTools
from agentgym_text.envs.tools.tasks import family_tasks, training_tasks

__all__ = ["ToolEnv", "ToolQueryEnv", "ToolOperationEnv"]


def _obtained_predicate(key: str, count: int):
    return lambda ledger: ledger.success or ledger.obtained[key] >= count


def _golden_tracker(episode: ToolEpisode, keys: list[str]) -> SubgoalTracker:
    """Our subgoals: the golden calls' outputs (any order, a repeated output counted as often), then the answer."""
    subgoals = [
        Subgoal(call.text(), predicate=_obtained_predicate(key, keys[: index + 1].count(key)))
        for index, (call, key) in enumerate(zip(episode.golden, keys))
    ]
    subgoals.append(Subgoal("finish with the correct answer", predicate=lambda ledger: ledger.success))
    return SubgoalTracker(subgoals, ordered=False)


class ToolEnv(FunctionTools, TextEnv):
    """A tool env over ``family`` ("query" or "operation"), optionally restricted to one ``tool``.

    ``text_format``: "agentboard" (default, AgentBoard's words) or "clear" (ours); ``agentboard_fixes=False``
    restores AgentBoard's bugs (README). ``agentboard_data``: AgentBoard's data folder (else the setting
    ``AGENTGYM_TEXT_AGENTBOARD_DATA``; None: ours). ``split="train"`` with ``num_tasks`` (200 by default): the
    training tasks (``tasks.training_tasks``) instead of the shipped ones.

    >>> env = ToolEnv("query", tool="academia")
    >>> obs, info = env.reset(options={"task_index": 0})
    >>> while not env.episode_over:
    ...     obs, reward, terminated, truncated, info = env.step(env.expert_action())
    >>> info["success"], info["progress_rate"]
    (True, 1.0)
    """

    help_action = TOOL_HELP_ACTION
    cheap_admissible_actions = True
    modes = (AgentBoardMode, ClearMode)
    mode: AgentBoardMode | ClearMode

    def __init__(
        self,
        family: str = "query",
        tool: str | None = None,
        agentboard_data: str | os.PathLike[str] | None = None,
        split: str = "test",
        num_tasks: int | None = None,
        **kwargs: Any,
    ):
        if split not in ("test", "train"):
            raise ValueError(f"split must be 'test' or 'train', not {split!r}")
        if split == "train" and agentboard_data is not None:
            raise ValueError("split='train' plays this suite's training tasks: drop agentboard_data")
        if num_tasks is not None and split != "train":
            raise ValueError("num_tasks= sizes the training split: pass split='train' with it")
        folder = None if split == "train" else data_folder(agentboard_data)
        if split == "train":
            tasks = training_tasks(family, tool, num_tasks)
        elif folder is None:
            tasks = family_tasks(family, tool)
        else:
            tasks = agentboard_tasks(folder, family, tool)
        super().__init__(tasks, **kwargs)
        if folder is not None and not self.mode.scores_agentboard_data:
            raise AgentBoardDataError(
                "agentboard_data= scores with AgentBoard's progress rule, which reads AgentBoard's tool outputs: "
                f"use text_format='{AgentBoardMode.name}' (the default), not {self.mode.name!r}"
            )
        self.family = family
        self.unwrap_actions = self.mode.unwrap_actions
        self.action_example = self.mode.action_example
        self._episode: ToolEpisode | None = None
        self._annotated = False
        self._tracker: SubgoalTracker | None = None
        self._sheet_baseline = 0.0
        self._score_cache: tuple[int | None, float] = (None, 0.0)

    # ---- episode ---------------------------------------------------------------------------------------
    def _start(self, task: TaskSpec, seed: int) -> Start:
        self.close()
        episode = self._episode = ToolEpisode(task.params)
        self._score_cache = (None, 0.0)
        keys = list(task.params["subgoal_keys"])
        self._annotated = "agentboard" in task.params  # AgentBoard's annotation: the mode keeps its progress rule
        self._tracker = _golden_tracker(episode, keys) if keys and not self._annotated else None
        if not keys and not self._annotated:
            self._sheet_baseline = self._sheet_score()
        return Start(observation=self.mode.start(episode, task.goal), goal=task.goal)

    def close(self) -> None:
        if self._episode is not None:
            self._episode.close()
            self._episode = None

    def _act(self, action: str) -> Outcome:
        assert self._episode is not None
        return self.mode.act(self._episode, action)

    # ---- progress, listings, expert -------------------------------------------------------------------
    def _sheet_score(self) -> float:
        from agentgym_text.envs.tools.sheet.matching import match_ratio

        assert self._episode is not None
        toolkit = self._episode.toolkit
        revision = toolkit.revision()
        if revision is None or revision != self._score_cache[0]:
            self._score_cache = (revision, match_ratio(toolkit.state(), self._episode.params["golden_state"]))
        return self._score_cache[1]

    def _progress(self) -> Progress:
        ledger = self._episode.ledger if self._episode is not None else Ledger()
        if self._annotated:
            return self.mode.annotated_progress()
        if self._tracker is not None:
            return self._tracker.update("", ledger)
        if ledger.success:
            return Progress(now=1.0)
        score = self._sheet_score()
        baseline = self._sheet_baseline
        now = 0.0 if baseline >= 1.0 else max(0.0, (score - baseline) / (1.0 - baseline))
        return Progress(now=now)

    def _admissible_actions(self) -> list[str]:
        assert self._episode is not None
        return list(dict.fromkeys(self.mode.call_text(call) for call in self._episode.candidate_calls()))

    def _help_text(self) -> str:
        assert self._episode is not None
        return self.mode.help_text(self._episode)

    def _expert_action(self) -> str:
        assert self._episode is not None
        return self.mode.call_text(self._episode.next_call())

    # ---- for tests and tools ---------------------------------------------------------------------------
    @property
    def toolkit(self) -> Toolkit | None:
        """The live backend of the current episode (None before reset)."""
        return self._episode.toolkit if self._episode is not None else None


class ToolQueryEnv(ToolEnv):
    """``AgentBoard/ToolQuery-v0``: weather, movie and academia (or one of them with ``tool=``)."""

    def __init__(self, tool: str | None = None, **kwargs: Any):
        super().__init__("query", tool, **kwargs)


class ToolOperationEnv(ToolEnv):
    """``AgentBoard/ToolOperation-v0``: todo and sheet (or one of them with ``tool=``)."""

    def __init__(self, tool: str | None = None, **kwargs: Any):
        super().__init__("operation", tool, **kwargs)
