"""WebShop task sets: 251 shipped test goals (``tasks.json``) and training goals generated on demand.

A goal is kept only if its target product is on the first results page (10 products) when searching the
goal's own key terms in the default 20,000-product catalogue, so every task can be solved by searching well.
Test goals come from the seed namespace ``webshop-test``; training goals from ``webshop-train`` and never
target a test goal's product. ``build_tasks.py`` regenerates ``tasks.json`` after a generator change.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path

from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.webshop.catalogue import Catalogue
from agentgym_text.envs.webshop.goals import goal_difficulty, make_goal
from agentgym_text.envs.webshop.registration import MAX_STEPS, TASK_COUNT, TRAIN_TASK_COUNT
from agentgym_text.envs.webshop.reward import Goal, best_reward

__all__ = [
    "TASK_COUNT",
    "MAX_STEPS",
    "PAGE_SIZE",
    "shipped_tasks",
    "train_tasks",
    "candidate_goal",
    "on_first_page",
    "train_goal",
    "select_goals",
    "TASK_FILE",
    "TRAIN_TASK_COUNT",
]

PAGE_SIZE = 10
TASK_FILE = Path(__file__).with_name("tasks.json")
_MAX_ATTEMPTS = 200


def candidate_goal(catalogue: Catalogue, namespace: str, number: int, attempt: int) -> tuple[Goal, str]:
    """Goal candidate ``attempt`` for task ``number`` of a namespace (target drawn from the whole catalogue)."""
    rng = random.Random(f"{namespace}:{number}:{attempt}")
    product = catalogue.product_at(rng.randrange(len(catalogue)))
    return make_goal(product, rng)


def on_first_page(catalogue: Catalogue, goal: Goal, keywords: str) -> bool:
    return goal.asin in catalogue.search(keywords)[:PAGE_SIZE]


def _spec(task_id: str, goal: Goal, keywords: str, extra: dict | None = None) -> TaskSpec:
    params = {**goal.to_params(), "keywords": keywords, **(extra or {})}
    return TaskSpec(task_id, params, goal.instruction, goal_difficulty(goal), MAX_STEPS)


def select_goals(catalogue: Catalogue, namespace: str, count: int, exclude: frozenset = frozenset()):
    """``count`` findable goals of a namespace and how many candidates it took (for the pass rate)."""
    goals, tried, number = [], 0, 0
    while len(goals) < count:
        for attempt in range(_MAX_ATTEMPTS):
            goal, keywords = candidate_goal(catalogue, namespace, number, attempt)
            tried += 1
            if goal.asin in exclude or goal.asin in {g.asin for g, _ in goals}:
                continue
            assert best_reward(catalogue.product(goal.asin), goal) == 1.0, goal
            if on_first_page(catalogue, goal, keywords):
                goals.append((goal, keywords))
                break
        number += 1
    return goals, tried


@lru_cache(maxsize=1)
def _test_specs() -> tuple[TaskSpec, ...]:
    rows = json.loads(TASK_FILE.read_text())["tasks"]
    return tuple(TaskSpec(row["task_id"], row["params"], row["goal"], row["difficulty"], MAX_STEPS) for row in rows)


def shipped_tasks(count: int | None = None) -> TaskSet:
    """The shipped test tasks (the first ``count`` of them)."""
    specs = _test_specs()
    return TaskSet(specs[: count or len(specs)])


def train_tasks(count: int = TRAIN_TASK_COUNT, start: int = 0) -> TaskSet:
    """Training task ids; each goal is generated when its episode starts (see ``train_goal``)."""
    return TaskSet(
        [
            TaskSpec(f"webshop-train-{i:06d}", {"split": "train", "number": i}, "", "", MAX_STEPS)
            for i in range(start, start + count)
        ]
    )


def train_goal(catalogue: Catalogue, number: int) -> tuple[Goal, str]:
    """The goal of training task ``number``: the first findable candidate not aimed at a test target."""
    exclude = {spec.params["asin"] for spec in _test_specs()}
    for attempt in range(_MAX_ATTEMPTS):
        goal, keywords = candidate_goal(catalogue, "webshop-train", number, attempt)
        if goal.asin not in exclude and on_first_page(catalogue, goal, keywords):
            return goal, keywords
    raise RuntimeError(f"no findable goal for training task {number}")
