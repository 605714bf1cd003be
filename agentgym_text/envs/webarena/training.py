"""The training split: WebArena task instances from the same 57 templates on the same seeded sites, drawn again.

Each template draws its subjects (products, customers, forums, projects, articles...) from the sites' databases with
``rng_for``; the shipped tasks are draw round 0. The training pool is draw rounds 1 to ``TRAIN_ROUNDS`` in order,
every instance whose intent equals a shipped task's or an earlier training instance's left out: no training task is
a test task, and none asks what a test task asks. Templates whose instances are fixed lists (the two products the
shop does not sell, the first and latest order, ...) give no training tasks. Answers, evaluators and gold plans come
from the same generators, so the expert plays a training task as it plays a test task.

The pool is generated once (about a second a round) into the cache (``webarena/train-<key>/train.json``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from agentgym_text.core.cache import build_cached, source_key
from agentgym_text.core.tasks import TaskSet
from agentgym_text.envs.webarena import tasks as shipped
from agentgym_text.envs.webarena.sites import taskkit, tasks_admin, tasks_gitlab, tasks_reddit, tasks_shop, tasks_wiki

__all__ = ["TRAIN_ROUNDS", "training_configs", "training_tasks", "DEFAULT_TRAIN_SIZE"]

TRAIN_ROUNDS = 12
"""Draw rounds in the pool: 1,433 tasks (each round adds fewer, as the templates' small pools run out)."""
DEFAULT_TRAIN_SIZE = 200
_FILE = "train.json"


def _generate() -> list[dict]:
    seen = {task.goal for task in shipped.TASKS}
    configs: list[dict] = []
    for number in range(1, TRAIN_ROUNDS + 1):
        with taskkit.draw_round(number):
            drawn = shipped.generate_configs()
        for config in drawn:
            if config["intent"] not in seen:
                seen.add(config["intent"])
                configs.append(config)
    for index, config in enumerate(configs):
        config["task_id"] = index
    return configs


@cache
def training_configs() -> tuple[dict, ...]:
    """The whole training pool, in order (built into the cache at first use)."""
    from agentgym_text.envs.webarena.sites import template_dir

    key = source_key(
        taskkit,
        tasks_shop,
        tasks_admin,
        tasks_reddit,
        tasks_gitlab,
        tasks_wiki,
        shipped,
        shipped.TASKS_FILE,
        template_dir().name,
        TRAIN_ROUNDS,
    )

    def build(folder: Path) -> None:
        (folder / _FILE).write_text(shipped.tasks_file_text(_generate()))

    entry = build_cached("webarena", f"train-{key}", build)
    return tuple(json.loads((entry / _FILE).read_text()))


def training_tasks(count: int | None = None) -> TaskSet:
    """The first ``count`` training tasks (200 by default), ids ``webarena-train-NNNN``."""
    pool = training_configs()
    count = DEFAULT_TRAIN_SIZE if count is None else int(count)
    if not 1 <= count <= len(pool):
        raise ValueError(f"num_tasks must be 1 to {len(pool)} (the training pool's size), not {count}")
    return TaskSet([shipped.config_spec(config, f"webarena-train-{config['task_id']:04d}") for config in pool[:count]])
