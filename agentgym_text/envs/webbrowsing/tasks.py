"""The task set: every other WebArena task whose gold path only clicks and types (122 over the five sites), or
the annotations of a Mind2Web json file; the training split: every WebArena training task whose gold path only
clicks and types.

A shipped task names its WebArena task (``params["webarena_task"]``), a training task its WebArena training task
(``params["webarena_train_task"]``); its pages are recorded at its first reset (``dataset.recorded``). Its difficulty
counts the gold steps, known from WebArena's task config before recording.
"""

from __future__ import annotations

from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.webbrowsing.dataset import Annotation
from agentgym_text.envs.webbrowsing.recorder import eligible
from agentgym_text.envs.webbrowsing.registration import FAMILY, MAX_STEPS, TASK_COUNT

__all__ = ["default_tasks", "training_tasks", "file_tasks", "budget", "webarena_config", "TASK_COUNT"]

DEFAULT_TRAIN_SIZE = 200


def budget(steps: int) -> int:
    """A task's step budget: 30, or twice its steps when longer."""
    return max(MAX_STEPS, 2 * steps)


def _eligible_configs() -> list[dict]:
    from agentgym_text.envs.webarena.tasks import TASKS

    return [task.params for task in TASKS if eligible(task.params)][::2]


def webarena_config(params: dict) -> dict:
    """The WebArena task config a task's ``params`` name (a shipped task or a training task)."""
    if "webarena_train_task" in params:
        from agentgym_text.envs.webarena.training import training_configs

        return training_configs()[int(params["webarena_train_task"])]
    from agentgym_text.envs.webarena.tasks import TASKS

    return TASKS[int(params["webarena_task"])].params


def _spec(config: dict, task_id: str, key: str) -> TaskSpec:
    steps = sum(1 for step in config["gold"] if step["action"] != "stop")
    return TaskSpec(
        task_id,
        {key: int(config["task_id"]), "website": config["sites"][0], "steps": steps},
        goal=str(config["intent"]),
        difficulty=FAMILY.difficulty.label(steps),
        max_steps=budget(steps),
    )


def default_tasks() -> TaskSet:
    return TaskSet(
        [_spec(config, f"webbrowsing-{config['task_id']:03d}", "webarena_task") for config in _eligible_configs()]
    )


def training_tasks(count: int | None = None) -> TaskSet:
    """The first ``count`` training tasks (200 by default), ids ``webbrowsing-train-NNNN`` (NNNN: the WebArena
    training task's number)."""
    from agentgym_text.envs.webarena.training import training_configs

    pool = [config for config in training_configs() if eligible(config)]
    count = DEFAULT_TRAIN_SIZE if count is None else int(count)
    if not 1 <= count <= len(pool):
        raise ValueError(f"num_tasks must be 1 to {len(pool)} (the training pool's size), not {count}")
    return TaskSet(
        [_spec(config, f"webbrowsing-train-{config['task_id']:04d}", "webarena_train_task") for config in pool[:count]]
    )


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
