"""The training split: ScienceWorld's own train variations of the 30 task types, which no shipped task uses.

The simulator splits each task type's variations into train, dev and test; the shipped tasks are test variations
(dev ones for grow-fruit). ``listing()`` asks the simulator for every type's train variations once and keeps them in
the cache (``scienceworld-train/``, about 15 s in one JVM). ``ordered()`` deals them round the task types (the first
30 are one of each type), so any prefix mixes the types as the shipped set does.

A training variation becomes a task as any unshipped variation does: its gold path is replayed and its goal and
subgoals derived (``gold_paths.derive_instance``). Here that happens in a freshly started JVM, so the record is the
same on every machine, and the record is cached per variation (``scienceworld-train-instances/``): about 10-40 s a
variation at first use, nothing after. Some gold paths do not solve their variation (the plant tasks wait a fixed
time for the bees), and a variation can open exactly as a shipped one does (the same goal, start room and
inventory); ``training_instances(size)`` skips both, so the expert solves every instance it lists and none opens as
a test task.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentgym_text.core.cache import build_cached, progress_bar, source_key
from agentgym_text.core.tasks import DEFAULT_MAX_STEPS, TaskSet, TaskSpec, TrainInstance

if TYPE_CHECKING:
    from agentgym_text.envs.scienceworld.engine import ScienceWorldEngine

__all__ = [
    "SPLIT",
    "listing",
    "shipped_openings",
    "ordered",
    "training_task_set",
    "derived_record",
    "training_instances",
]

SPLIT = "train"
"""The ``split=`` of the env and the ``split`` param of a training task."""
_LISTING = "train_variations.json"
_RECORD = "instance.json"


def _scienceworld_version() -> str:
    from importlib.metadata import version

    return version("scienceworld")


def _opening(engine: ScienceWorldEngine, task_name: str, variation: int, simplifications: str) -> str:
    """The simulator's first observation of a variation (the room and the inventory)."""
    engine.load(task_name, variation, simplifications)
    return engine.reset()


def _build_listing(folder: Path) -> None:
    from agentgym_text.envs.scienceworld.engine import ScienceWorldEngine
    from agentgym_text.envs.scienceworld.tasks import load_instances

    engine = ScienceWorldEngine()
    try:
        variations = {}
        for task_name in engine.task_names():
            engine.load(task_name, 0, "")
            variations[task_name] = sorted(int(v) for v in engine._sim.get_variations_train())
        openings = [
            [inst["goal"], _opening(engine, inst["task_name"], int(inst["variation"]), inst["simplifications"])]
            for inst in load_instances()
        ]
    finally:
        engine.close()
    record = {"train": variations, "shipped_openings": openings}
    (folder / _LISTING).write_text(json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False))


@lru_cache(maxsize=1)
def _listed() -> dict[str, Any]:
    from agentgym_text.envs.scienceworld import tasks

    shipped = Path(tasks.__file__).with_name(tasks.DATA_FILE)
    key = source_key(sys.modules[__name__], shipped, _scienceworld_version())
    folder = build_cached("scienceworld-train", key, _build_listing)
    return json.loads((folder / _LISTING).read_text())


def listing() -> dict[str, list[int]]:
    """Task type -> its train variations, as the installed simulator lists them (cached)."""
    return _listed()["train"]


def shipped_openings() -> set[tuple[str, str]]:
    """(goal, the simulator's first observation) of every shipped task (cached with the listing)."""
    return {(goal, first) for goal, first in _listed()["shipped_openings"]}


def ordered() -> list[tuple[str, int]]:
    """Every training variation, dealt round the task types in name order: (type, variation)."""
    variations = listing()
    deals: list[tuple[str, int]] = []
    for position in range(max(len(v) for v in variations.values())):
        deals.extend((name, found[position]) for name, found in sorted(variations.items()) if position < len(found))
    return deals


def training_task_set(count: int | None = None) -> TaskSet:
    """The first ``count`` (all by default) training variations as tasks; goal and subgoals come at first reset."""
    from agentgym_text.envs.scienceworld.tasks import task_id_for

    return TaskSet(
        [
            TaskSpec(
                task_id=task_id_for(name, variation),
                params={"task_name": name, "variation": variation, "split": SPLIT},
                max_steps=DEFAULT_MAX_STEPS,
            )
            for name, variation in ordered()[:count]
        ]
    )


def _derive(task_name: str, variation: int, folder: Path) -> None:
    from agentgym_text.envs.scienceworld.engine import ScienceWorldEngine
    from agentgym_text.envs.scienceworld.gold_paths import InstanceError, derive_instance

    engine = ScienceWorldEngine()
    try:
        engine.start()  # a fresh JVM: the gold path the simulator generates depends on what the JVM did before
        try:
            instance = derive_instance(engine, task_name, variation)
            first = _opening(engine, task_name, variation, instance["simplifications"])
            record: dict[str, Any] = {"instance": instance, "first_observation": first}
        except InstanceError as error:
            record = {"instance": None, "error": str(error)}
    finally:
        engine.close()
    (folder / _RECORD).write_text(json.dumps(record, indent=1, ensure_ascii=False))


def derived_record(task_name: str, variation: int) -> dict[str, Any]:
    """``{"instance": the task_set.json record, "first_observation": the simulator's}`` of a training variation, or
    ``{"instance": None, "error": why}`` when its gold path does not solve it; derived in a fresh JVM at first use,
    then read from the cache."""
    from agentgym_text.envs.scienceworld import gold_paths, session, subgoals

    key = source_key(
        sys.modules[__name__], gold_paths, subgoals, session, _scienceworld_version(), task_name, int(variation)
    )
    folder = build_cached(
        "scienceworld-train-instances", key, lambda staging: _derive(task_name, int(variation), staging), quiet=True
    )
    return json.loads((folder / _RECORD).read_text())


def _usable() -> Iterator[tuple[str, int]]:
    """The training variations whose gold path solves them and whose opening (goal and first observation) is no
    shipped task's: a variation can differ from a shipped one only where the agent does not yet see."""
    shipped = shipped_openings()
    deals = ordered()
    for name, variation in progress_bar(deals, total=len(deals), desc="ScienceWorld training variations"):
        record = derived_record(name, variation)
        instance = record["instance"]
        if instance is not None and (instance["goal"], record["first_observation"]) not in shipped:
            yield name, variation


def training_instances(size: int) -> list[TrainInstance]:
    """The first ``size`` usable training variations (``_usable``, in ``ordered()`` order), each played by
    ``gym.make(id, split="train")`` reset to its id with seed 0. Derives what the cache lacks (slow at first use)."""
    from agentgym_text.envs.scienceworld.tasks import task_id_for

    chosen: list[TrainInstance] = []
    if size < 1:
        return chosen
    for name, variation in _usable():
        chosen.append(({"split": SPLIT}, task_id_for(name, variation), 0))
        if len(chosen) == size:
            break
    return chosen
