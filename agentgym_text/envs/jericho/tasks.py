"""The Jericho task set: AgentBoard's 20 games, goals and subgoals from ``goals.json`` (built by ``build_tasks.py``)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.jericho.registration import FAMILY, MAX_STEPS, TASK_COUNT

__all__ = ["TASK_COUNT", "MAX_STEPS", "GOALS_FILE", "load_goals", "make_tasks", "custom_game_task"]

GOALS_FILE = Path(__file__).with_name("goals.json")


@lru_cache(maxsize=1)
def load_goals() -> dict[str, dict]:
    """Game name -> its derived record (goal, subgoals, walkthrough prefix length, trace, file hash)."""
    data = json.loads(GOALS_FILE.read_text())
    return {record["game"]: record for record in data["games"]}


@lru_cache(maxsize=1)
def make_tasks() -> TaskSet:
    tasks = []
    for name, record in load_goals().items():
        tasks.append(
            TaskSpec(
                task_id=f"jericho-{name}",
                params={"game": name, "file": record["file"], "md5": record["md5"]},
                goal=record["goal"],
                difficulty=FAMILY.difficulty.label(len(record["subgoals"])),
                max_steps=MAX_STEPS,
            )
        )
    return TaskSet(tasks)


def custom_game_task(path: Path, max_steps: int) -> TaskSet:
    """One task playing any game jericho supports: maximise the score."""
    return TaskSet(
        [
            TaskSpec(
                task_id=f"jericho-{path.stem}",
                params={"game": path.stem, "path": str(path)},
                goal=f"Play {path.stem} and score as many points as you can.",
                difficulty="hard",
                max_steps=max_steps,
            )
        ]
    )
