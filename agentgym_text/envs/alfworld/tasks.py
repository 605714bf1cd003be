"""Task sets: the default 134 test tasks, or any (task type, floor plan, count) on demand; games built into the cache.

The default set has ALFWorld's unseen-split proportions (pick 24, clean 31, heat 23, cool 21, look 18,
pick-two 17) spread round-robin over the test floor plans (``constants.TEST_SCENE_NUMBERS``) that can host each
type; task ``n`` of a type uses seed ``n // plans``. Training sets (``task_type=``, ``floorplan=``,
``num_tasks=``) use the train floor plans unless a floor plan is named, so they never overlap the test set.

The first use of a task set generates its games (world JSON, ALFWorld's PDDL problem and traj_data.json per
task) into ``$AGENTGYM_TEXT_CACHE/alfworld/<key>/`` with a progress bar; the key covers the generator's
source, so a changed generator rebuilds. About 10 ms per game.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from agentgym_text.core.cache import build_cached, progress_bar, source_key
from agentgym_text.core.tasks import DEFAULT_MAX_STEPS, TaskSet, TaskSpec
from agentgym_text.envs.alfworld.registration import FAMILY

__all__ = [
    "TASK_COUNT",
    "DEFAULT_COUNTS",
    "task_specs",
    "make_tasks",
    "games_folder",
    "load_world",
    "task_id_for",
    "downloaded_tasks",
    "AGENTBENCH_COUNTS",
    "agentbench_tasks",
    "with_budget",
]

DEFAULT_COUNTS = {"pick": 24, "clean": 31, "heat": 23, "cool": 21, "look": 18, "picktwo": 17}
"""ALFWorld's valid_unseen split (134 games) by task type."""
TASK_COUNT = sum(DEFAULT_COUNTS.values())
AGENTBENCH_COUNTS = {"pick": 9, "clean": 9, "heat": 8, "cool": 8, "look": 8, "picktwo": 8}
"""AgentBench v0.2's test split (``data/alfworld/standard.json``, 50 games) by task type, in its order."""


def task_id_for(short_type: str, floorplan: int, seed: int) -> str:
    return f"alfworld-{short_type}-FloorPlan{floorplan}-{seed}"


def _plans(short_type: str, split: str) -> list[int]:
    import alfworld.gen.constants as constants

    from agentgym_text.envs.alfworld.generator import supported

    numbers = constants.TEST_SCENE_NUMBERS if split == "test" else constants.TRAIN_SCENE_NUMBERS
    return [n for n in sorted(numbers) if supported(n, short_type)]


def task_specs(
    task_type: str | None = None, floorplan: int | None = None, num_tasks: int | None = None
) -> list[tuple[str, int, int]]:
    """(short type, floor plan, seed) triples: the default test set, or a requested set (train plans by default)."""
    from agentgym_text.envs.alfworld.generator import SHORT_NAMES, TASK_TYPES, GenerationError, supported

    if task_type is None and floorplan is None and num_tasks is None:
        counts, split = DEFAULT_COUNTS, "test"
    else:
        short = SHORT_NAMES.get(task_type, task_type) if task_type else None
        if short is not None and short not in TASK_TYPES:
            raise ValueError(f"unknown task_type {task_type!r}; one of {sorted(TASK_TYPES)} or ALFWorld's long names")
        types = [short] if short else list(DEFAULT_COUNTS)
        if floorplan is not None and short is None:
            types = [t for t in types if supported(int(floorplan), t)] or types
        total = int(num_tasks) if num_tasks is not None else 10 * len(types)
        counts = {t: total // len(types) + (i < total % len(types)) for i, t in enumerate(types)}
        split = "train"
    by_type = {}
    for short, count in counts.items():
        if floorplan is not None:
            if not supported(int(floorplan), short):
                raise GenerationError(f"FloorPlan{floorplan} cannot host {TASK_TYPES[short]}")
            plans = [int(floorplan)]
        else:
            plans = _plans(short, split)
        by_type[short] = [(short, plans[n % len(plans)], n // len(plans)) for n in range(count)]
    if split == "test":
        return [triple for triples in by_type.values() for triple in triples]
    # the types in turn: a shorter training set is a prefix of a longer one
    return [triples[n] for n in range(max(counts.values())) for triples in by_type.values() if n < len(triples)]


def _build(triples: list[tuple[str, int, int]], folder: Path) -> None:
    from agentgym_text.envs.alfworld.engine import World
    from agentgym_text.envs.alfworld.expert import expert_command
    from agentgym_text.envs.alfworld.gamefile import pddl_problem, traj_data
    from agentgym_text.envs.alfworld.generator import generate_world

    index = []
    for short, floorplan, seed in progress_bar(triples, desc="alfworld games"):
        task_id = task_id_for(short, floorplan, seed)
        world = generate_world(floorplan, short, seed)
        game = folder / "games" / task_id
        game.mkdir(parents=True)
        (game / "world.json").write_text(json.dumps(world, indent=1))
        (game / "problem.pddl").write_text(pddl_problem(world))
        (game / "traj_data.json").write_text(json.dumps(traj_data(world), indent=1))
        engine, steps = World(world), 0
        while (command := expert_command(engine)) is not None:
            engine.step(command)
            steps += 1
        index.append(
            {
                "task_id": task_id,
                "task_type": short,
                "floorplan": floorplan,
                "seed": seed,
                "goal": world["goal"]["sentence"] + ".",
                "alfworld_type": world["goal"]["task_type"],
                "expert_steps": steps,
            }
        )
    (folder / "index.json").write_text(json.dumps(index, indent=1))


def games_folder(triples: tuple[tuple[str, int, int], ...]) -> Path:
    """The cache entry holding these games (built on first use)."""
    from agentgym_text.envs.alfworld import engine, expert, gamefile, generator, render

    key = source_key(generator, gamefile, engine, render, expert, repr(triples))
    return build_cached("alfworld", key, lambda folder: _build(list(triples), folder))


def load_world(folder: Path, task_id: str) -> dict[str, Any]:
    return json.loads((folder / "games" / task_id / "world.json").read_text())


@lru_cache(maxsize=16)
def make_tasks(
    task_type: str | None = None, floorplan: int | None = None, num_tasks: int | None = None
) -> tuple[TaskSet, Path]:
    """The task set and its games folder."""
    from agentgym_text.envs.alfworld.subgoals import subgoal_count

    triples = tuple(task_specs(task_type, floorplan, num_tasks))
    folder = games_folder(triples)
    index = json.loads((folder / "index.json").read_text())
    tasks = [
        TaskSpec(
            task_id=entry["task_id"],
            params={k: entry[k] for k in ("task_type", "floorplan", "seed", "alfworld_type", "expert_steps")},
            goal=entry["goal"],
            difficulty=FAMILY.difficulty.label(subgoal_count(entry["alfworld_type"])),
            max_steps=DEFAULT_MAX_STEPS,  # AgentBoard's budget, even where the expert needs more
        )
        for entry in index
    ]
    return TaskSet(tasks), folder


@lru_cache(maxsize=4)
def downloaded_tasks(game_dir: str) -> TaskSet:
    """One task per downloaded ALFWorld game under ``game_dir`` (see ``downloaded.py``); ids are AgentBoard's."""
    from agentgym_text.envs.alfworld.downloaded import find_games, task_name
    from agentgym_text.envs.alfworld.subgoals import subgoal_count

    tasks = []
    for game_file in find_games(game_dir):
        alfworld_type = game_file.parent.parent.name.split("-", 1)[0]
        tasks.append(
            TaskSpec(
                task_id=task_name(game_file),
                params={"game_file": str(game_file), "alfworld_type": alfworld_type},
                difficulty=FAMILY.difficulty.label(subgoal_count(alfworld_type)),
                max_steps=DEFAULT_MAX_STEPS,
            )
        )
    return TaskSet(tasks)


def with_budget(tasks: TaskSet, max_steps: int) -> TaskSet:
    """The same tasks, each with ``max_steps``."""
    return TaskSet([replace(task, max_steps=max_steps) for task in tasks])


def agentbench_tasks(max_steps: int) -> tuple[TaskSet, Path]:
    """AgentBench's default 50: the first tasks of each type of the 134 default ones, in ``AGENTBENCH_COUNTS``'s
    proportions and order (the same games, a subset of the test floor plans), each with ``max_steps``."""
    tasks, folder = make_tasks()
    chosen = []
    for short, count in AGENTBENCH_COUNTS.items():
        chosen += [task for task in tasks if task.params["task_type"] == short][:count]
    return with_budget(TaskSet(chosen), max_steps), folder
