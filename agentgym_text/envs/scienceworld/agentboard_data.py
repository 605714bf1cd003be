"""ScienceWorld from AgentBoard's data folder (``<folder>/scienceworld/test.jsonl``) and AgentBoard's progress rule.

AgentBoard's env (``environment/scienceworld_env.py``) reads one label per line into a dict keyed
``<additional_info.env_name>_<additional_info.var>`` and its task (``tasks/scienceworld.py``) plays the dict's
entries in order: ``env.load(env_name, var)``, the line's ``goal`` as the goal, its ``difficulty``, and its
``subgoals`` as Python regexes. After every step except the help action each regex is ``re.search``ed in the
simulator's observation; a match is kept for the rest of the episode. Progress = matched / number of regexes, and
the episode is done (a success) when every regex has matched; the simulator's own score, success and failure are
not read.

Here a line is played as the instance ``scienceworld-<task>-var<N>``: a shipped one keeps its gold path (for the
expert) and load options; any other variation of ScienceWorld's 30 tasks is built at its first reset. A line AgentBoard
would keep silently under the same key as an earlier one (its dict keeps the later line) is refused, as is every
other line that would give a wrong score: one ``AgentBoardDataError`` naming the file and line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from agentgym_text.core.agentboard_data import AgentBoardDataError, LabelLine, read_task_file
from agentgym_text.core.progress import Progress
from agentgym_text.core.tasks import DEFAULT_MAX_STEPS, TaskSet, TaskSpec
from agentgym_text.core.text_env import Outcome
from agentgym_text.envs.scienceworld.tasks import instance_to_task, load_instances, task_id_for

__all__ = [
    "TASK_FOLDER",
    "LabelProgress",
    "agentboard_tasks",
    "annotation_of",
    "canonical_task_name",
    "check_variation",
]

TASK_FOLDER = "scienceworld"
"""AgentBoard's folder for ScienceWorld in its data folder."""


def canonical_task_name(name: str) -> str:
    """The simulator's own name for ``name`` (as its ``load`` reads it: "task-1-boil", "1-1", the paper's name, or
    the 1.1.3 spelling "mendellian" are all accepted there)."""
    from scienceworld.utils import infer_task

    return str(infer_task(name))


@dataclass
class LabelProgress:
    """AgentBoard's ScienceWorld progress: each regex searched in every step's observation, sticky; matched / n.

    ``reads_simulator_success`` (FIX completion): the simulator's success ends the episode as a success with
    progress 1.0; False: AgentBoard's rule, which reads the regexes only."""

    patterns: tuple[str, ...]
    reads_simulator_success: bool = True
    done: list[bool] = field(init=False)

    def __post_init__(self) -> None:
        self._compiled = [re.compile(pattern) for pattern in self.patterns]
        self.done = [False] * len(self.patterns)

    def scan(self, observation: str) -> None:
        for index, pattern in enumerate(self._compiled):
            if pattern.search(observation):
                self.done[index] = True

    @property
    def rate(self) -> float:
        return sum(self.done) / len(self.done)

    @property
    def complete(self) -> bool:
        return all(self.done)

    def judge(self, outcome: Outcome) -> Outcome:
        """``outcome`` under the rule: its observation scanned; done, a success, when every regex has matched."""
        self.scan(outcome.observation)
        if self.complete:
            return replace(outcome, terminated=True, success=True, finish_reason=None, changed=True)
        if outcome.success and not self.reads_simulator_success:  # AgentBoard plays on
            return replace(outcome, terminated=False, success=False, changed=True)
        return replace(outcome, changed=True)

    def progress(self, won: bool) -> Progress:
        """The reading after ``judge``; ``won``: the simulator's success."""
        if won and self.reads_simulator_success:
            return Progress(now=1.0, best=1.0, subgoals=self.patterns, subgoals_done=(True,) * len(self.done))
        return Progress(now=self.rate, subgoals=self.patterns, subgoals_done=tuple(self.done))


def _variation(line: LabelLine) -> int:
    value = line.get("additional_info.var", int)
    if isinstance(value, bool) or value < 0:
        raise line.error(f"additional_info.var must be a variation number (0 or more), not {value!r}")
    return value


def _subgoals(line: LabelLine) -> list[str]:
    patterns = line.get("subgoals", list)
    if not patterns:
        raise line.error("'subgoals' is empty (AgentBoard divides by their number)")
    for pattern in patterns:
        if not isinstance(pattern, str):
            raise line.error(f"every subgoal must be a regex string, not {pattern!r}")
        try:
            re.compile(pattern)
        except re.error as error:
            raise line.error(f"the subgoal {pattern!r} is not a Python regex ({error})") from None
    return patterns


def _task_for(line: LabelLine, shipped: dict[str, Any], names: set[str]) -> TaskSpec:
    raw_name = line.get("additional_info.env_name")
    name = canonical_task_name(raw_name)
    if name not in names:
        raise line.error(f"additional_info.env_name {raw_name!r} is not one of ScienceWorld's tasks {sorted(names)}")
    variation = _variation(line)
    goal, difficulty = line.goal, line.difficulty
    annotation = {"subgoals": _subgoals(line), "where": line.where}
    task_id = task_id_for(name, variation)
    if task_id in shipped:
        params = dict(shipped[task_id].params)
    else:  # built at the first reset from the simulator's gold path (for the expert), as make_tasks does
        params = {"task_name": name, "variation": variation}
    params["agentboard"] = annotation
    return TaskSpec(task_id, params, goal, difficulty, DEFAULT_MAX_STEPS)


def agentboard_tasks(folder: Path, task_name: str | None = None, variation: int | None = None) -> TaskSet:
    """The file's instances in line order (with ``task_name=`` / ``variation=``, only those lines)."""
    shipped = {task.task_id: task for task in (instance_to_task(inst) for inst in load_instances())}
    names = {inst["task_name"] for inst in load_instances()}
    wanted = None if task_name is None else canonical_task_name(task_name)
    tasks: list[TaskSpec] = []
    seen: dict[str, str] = {}
    lines = read_task_file(folder, TASK_FOLDER)
    for line in lines:
        task = _task_for(line, shipped, names)
        if task.task_id in seen:
            raise line.error(
                f"it names {task.task_id} again (first at {seen[task.task_id]}); AgentBoard would play that "
                "instance once, with this line's annotation"
            )
        seen[task.task_id] = line.where
        params = task.params
        if (wanted is None or params["task_name"] == wanted) and (
            variation is None or params["variation"] == int(variation)
        ):
            tasks.append(task)
    if not tasks:
        which = f"task_name={task_name!r}" + ("" if variation is None else f", variation={variation!r}")
        raise AgentBoardDataError(f"AgentBoard data: {lines[0].path} has no line for {which}")
    return TaskSet(tasks)


def annotation_of(task: TaskSpec) -> dict[str, Any] | None:
    """The line's annotation a task from ``agentboard_tasks`` carries (None for this package's own tasks)."""
    return task.params.get("agentboard")


def check_variation(task: TaskSpec, count: int) -> None:
    """Refuse a line whose variation the simulator does not have (it would load an empty "unknown" task)."""
    variation = int(task.params["variation"])
    if not 0 <= variation < count:
        annotation = annotation_of(task) or {}
        raise AgentBoardDataError(
            f"AgentBoard data {annotation.get('where', '?')}: {task.params['task_name']} has variations 0 to "
            f"{count - 1}, not {variation}"
        )
