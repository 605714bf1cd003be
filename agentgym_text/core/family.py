"""A family's one declaration: everything the rest of the package needs to know about it, in its
``registration.py``.

``declare(Family(...))`` (in ``core.registry``) registers the family's ids with gymnasium; core, the datasets, the
integrations, the test configuration and the README's table read the declaration, so that nothing outside the
family's folder names the family. The fields, in the order a new family fills them in:

- ``name``, ``category`` and ``ids`` (each ``EnvId``: id, entry point, task count, description, sub-skill
  weights, fixed kwargs, budget);
- ``difficulty``: how a task is labelled easy or hard (``DifficultyRule``);
- ``train_split``: how training instances that do not overlap the shipped tasks are made, or why there are none
  (``TrainSplit``);
- ``text_formats``: the texts the family speaks (the first is the default; each has its prompt in
  ``prompt.json``); empty when there is one text and no ``text_format=`` option;
- ``thread_safe``: several envs may run in threads of one process (established by ``tests/test_thread_safety.py``);
- ``threads_share``: constructor kwargs the evaluation runner gives envs that play in threads of one process
  (a kwarg the user sets wins), e.g. ScienceWorld's ``jvm="shared"``: one warm JVM for every slot instead of one each;
- what it needs: ``requires`` (the pyproject extra), ``programs`` (on PATH), ``setting`` (an environment
  variable), ``depends_on`` (other families it imports);
- ``outside_data``: the options that read a user's copy of an original's files (``problem_file=``, ...);
- test-cost hints: ``heavy`` and ``expert_sample``;
- ``whole_replies``: agents send the model's whole reply (the family reads its own ``Action:`` format).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from agentgym_text.core.info import SUBSKILLS

__all__ = ["Family", "EnvId", "DifficultyRule", "TrainSplit", "CATEGORIES", "AGENTBOARD_TABLE_10"]

CATEGORIES = ("embodied", "game", "web", "tool")
"""AgentBoard's task categories; every family belongs to one (AgentQuest's puzzles count as games)."""

AGENTBOARD_TABLE_10 = "AgentBoard Table 10"


@dataclass(frozen=True)
class DifficultyRule:
    """A task is "hard" when it needs more than ``hard_above`` of ``counts`` (AgentBoard's Table 10 uses subgoals
    or goal conditions; ``source`` says whose cutoff it is).

    >>> DifficultyRule("subgoals", 3, AGENTBOARD_TABLE_10).label(4)
    'hard'
    """

    counts: str
    hard_above: int
    source: str = "ours"

    def label(self, count: int) -> str:
        return "hard" if count > self.hard_above else "easy"

    def describe(self) -> str:
        return f"hard above {self.hard_above} {self.counts} ({self.source})"


@dataclass(frozen=True)
class TrainSplit:
    """Training instances apart from the shipped tasks. One of:

    - ``builder``: "module:function" taking a size and returning ``[(env_kwargs, task_id, reset_seed), ...]``;
    - ``env_kwargs``: constructor kwargs that select the family's training range; ``size_kwarg`` (when set) gets
      the requested size, and the instances are the env's tasks in order, reset with seed 0;
    - ``unavailable``: why there is none.

    An available split declares ``size``: how many training tasks it gives (one number for every id of the family,
    or one per id); ``datasets.train_instances`` refuses more, and the README's env table shows it. The rows speak
    the test tasks' text, system prompt and budget. A training first observation never equals a test one, unless
    ``hidden_world`` says why it may: the opening text is shared and the instance behind it differs (a hidden code,
    hidden cards, the files behind a fixed question); ``tests/test_train_splits.py`` then checks that the expert's
    episodes on the two differ. Nor does a training goal equal a test goal, unless ``repeated_goals`` says why it
    may (the goal is a template, or drawn from a small set, and the instance is in the world).
    """

    builder: str | None = None
    env_kwargs: Mapping[str, Any] | None = None
    size_kwarg: str | None = None
    unavailable: str = ""
    size: int | Mapping[str, int] | None = None
    hidden_world: str = ""
    repeated_goals: str = ""

    def __post_init__(self) -> None:
        ways = (self.builder is not None) + (self.env_kwargs is not None) + bool(self.unavailable)
        if ways != 1:
            raise ValueError("a TrainSplit has exactly one of builder=, env_kwargs= and unavailable=")
        if self.unavailable and (self.size is not None or self.hidden_world or self.repeated_goals):
            raise ValueError("an unavailable TrainSplit declares no size, hidden_world or repeated_goals")

    @property
    def available(self) -> bool:
        return not self.unavailable

    def size_of(self, env_id: str) -> int | None:
        """The number of training tasks of ``env_id`` (None: not declared)."""
        if isinstance(self.size, Mapping):
            return self.size.get(env_id)
        return self.size


@dataclass(frozen=True)
class EnvId:
    """One registered id of a family."""

    env_id: str
    entry_point: str
    """"module:Class", imported only when an env is made (registration imports no engine)."""
    task_count: int
    description: str
    subskill_weights: Mapping[str, int]
    """AgentBoard sub-skill -> weight (Table 7 for AgentBoard's tasks; ours, by its criteria, elsewhere)."""
    subskill_source: str = "ours"
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    """Fixed constructor kwargs of this id (e.g. a TextWorld challenge)."""
    max_steps: int | None = None
    """The step budget when every task shares one (``spec.max_episode_steps``)."""
    agentboard_task: str | None = None
    """AgentBoard's name for this task (its data folder ``<folder>/<task>/test.jsonl``) when the id plays an AgentBoard
    task: the id then takes ``agentboard_data=`` (see ``core.agentboard_data``)."""
    agentbench_task: str | None = None
    """AgentBench v0.2's task server for this id (``src/server/tasks/<name>``) when the id plays an AgentBench
    environment: the ``agentbench`` agent protocol then speaks it."""

    def __post_init__(self) -> None:
        if set(self.subskill_weights) != set(SUBSKILLS):
            raise ValueError(f"{self.env_id}: subskill_weights needs exactly the keys {SUBSKILLS}")


@dataclass(frozen=True)
class Family:
    """A task family's declaration (see the module docstring for the fields)."""

    name: str
    category: str
    ids: tuple[EnvId, ...]
    difficulty: DifficultyRule
    train_split: TrainSplit
    thread_safe: bool
    text_formats: tuple[str, ...] = ()
    requires: str = "core"
    programs: tuple[str, ...] = ()
    setting: str | None = None
    setting_help: str = ""
    depends_on: tuple[str, ...] = ()
    outside_data: tuple[str, ...] = ()
    heavy: bool = False
    """A step or an admissible listing costs milliseconds to seconds, or tasks are built at first use: the fast
    test suite plays its first task only; the vector checks run under ``-m slow``."""
    expert_sample: int | None = None
    """How many evenly spread tasks per id the fast suite runs the expert on (None: every task)."""
    whole_replies: bool = False
    threads_share: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.category not in CATEGORIES:
            raise ValueError(f"{self.name}: category must be one of {CATEGORIES}, not {self.category!r}")
        if not self.ids:
            raise ValueError(f"{self.name}: a family declares at least one id")
        if self.expert_sample is not None and self.expert_sample < 1:
            raise ValueError(f"{self.name}: expert_sample must be at least 1")
