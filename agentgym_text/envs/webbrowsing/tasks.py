"""The task set: every other WebArena task whose gold path only clicks and types (122 over the five sites), or
the annotations of a Mind2Web json file.

A shipped task names its WebArena task (``params["webarena_task"]``); its pages are recorded at its first reset
(``dataset.recorded``). Its difficulty counts the gold steps, known from WebArena's task file before recording.
"""

from __future__ import annotations

from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.webbrowsing.dataset import Annotation
from agentgym_text.envs.webbrowsing.recorder import eligible
from agentgym_text.envs.webbrowsing.registration import FAMILY, MAX_STEPS, TASK_COUNT

__all__ = ["default_tasks", "file_tasks", "budget", "webarena_config", "TASK_COUNT"]


def budget(steps: int) -> int:
    """A task's step budget: 30, or twice its steps when longer."""
    return max(MAX_STEPS, 2 * steps)


def _eligible_configs() -> list[dict]:
    from agentgym_text.envs.webarena.tasks import TASKS

    return [task.params for task in TASKS if eligible(task.params)][::2]


def webarena_config(task_id: int) -> dict:
    from agentgym_text.envs.webarena.tasks import TASKS

    return TASKS[task_id].params


def default_tasks() -> TaskSet:
    specs = []
    for config in _eligible_configs():
        steps = sum(1 for step in config["gold"] if step["action"] != "stop")
        specs.append(
            TaskSpec(
                f"webbrowsing-{config['task_id']:03d}",
                {"webarena_task": int(config["task_id"]), "website": config["sites"][0], "steps": steps},
                goal=str(config["intent"]),
                difficulty=FAMILY.difficulty.label(steps),
                max_steps=budget(steps),
            )
        )
    return TaskSet(specs)


def file_tasks(annotations: list[Annotation]) -> TaskSet:
    return TaskSet(
        [
            TaskSpec(
                f"mind2web-{index:04d}",
                {"index": index, "annotation_id": item.annotation_id, "steps": len(item.steps)},
                goal=item.task,
                difficulty=FAMILY.difficulty.label(len(item.steps)),
                max_steps=budget(len(item.steps)),
            )
            for index, item in enumerate(annotations)
        ]
    )
