"""TextWorld task sets: 30 test games per challenge from fixed seeds, or any seeds on demand.

>>> [task.task_id for task in make_tasks("coin")][:2]
['coin-level1-seed1', 'coin-level1-seed2']
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.textworld.registration import MAX_STEPS, TASK_COUNT

__all__ = ["TEST_SETTINGS", "TASK_COUNT", "MAX_STEPS", "make_tasks"]


_COIN = [{"level": level} for level in (1, 2, 3, 5, 8, 10, 101, 103, 105, 110)]
# Odd levels 1-19 (easy: 5 rooms, medium: 10 rooms). textworld's hard levels (21-30, 20 rooms) can search for
# a quest for many minutes on some seeds (level 30, seed 1: over 10 minutes), and level 20 needs a retry with
# another seed for seed 3 (about 2 minutes), so they are left out.
_TREASURE = [{"level": level} for level in (1, 3, 5, 7, 9, 11, 13, 15, 17, 19)]
_COOKING_BASE = {"split": "test"}
_COOKING = [
    {"recipe": 1, "take": 1, "go": 1},
    {"recipe": 1, "take": 1, "go": 1, "open": True},
    {"recipe": 1, "take": 1, "go": 6, "open": True},
    {"recipe": 1, "take": 1, "go": 1, "cook": True},
    {"recipe": 2, "take": 1, "go": 1, "cut": True},
    {"recipe": 2, "take": 2, "go": 6, "open": True},
    {"recipe": 2, "take": 2, "go": 6, "open": True, "cook": True},
    {"recipe": 2, "take": 2, "go": 6, "open": True, "cut": True},
    {"recipe": 3, "take": 3, "go": 6, "open": True, "cook": True, "cut": True},
    {"recipe": 3, "take": 3, "go": 9, "open": True, "cook": True, "cut": True},
]
TEST_SETTINGS = {"coin": _COIN, "treasure": _TREASURE, "cooking": _COOKING}
"""Per challenge, the settings the test games cycle through (textworld's levels/difficulties)."""


def _label(challenge: str, settings: dict) -> str:
    if "level" in settings:
        return f"level{settings['level']}"
    flags = "".join(f"-{flag}" for flag in ("open", "cook", "cut") if settings.get(flag))
    return f"r{settings['recipe']}t{settings['take']}g{settings['go']}{flags}"


@lru_cache(maxsize=32)
def _tasks(challenge: str, seeds: tuple[int, ...] | None) -> TaskSet:
    table = TEST_SETTINGS[challenge]
    if seeds is None:
        per = TASK_COUNT // len(table)
        games = [(settings, 1 + index % per) for settings in table for index in range(per)]
    else:
        games = [(table[index % len(table)], seed) for index, seed in enumerate(seeds)]
    tasks = []
    for settings, seed in games:
        full = {**_COOKING_BASE, "recipe_seed": seed, **settings} if challenge == "cooking" else dict(settings)
        tasks.append(
            TaskSpec(
                task_id=f"{challenge}-{_label(challenge, settings)}-seed{seed}",
                params={"challenge": challenge, "settings": full, "seed": seed},
                max_steps=MAX_STEPS,
            )
        )
    return TaskSet(tasks)


def make_tasks(challenge: str, seeds: Iterable[int] | None = None) -> TaskSet:
    """The 30 test tasks, or one task per seed in ``seeds`` (settings cycle through the test settings)."""
    return _tasks(challenge, None if seeds is None else tuple(int(seed) for seed in seeds))
