"""The Mastermind task set: secrets drawn from a fixed seed, so every install has the same 60 tasks."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from agentgym_text.core.tasks import TaskSet, TaskSpec, TrainInstance
from agentgym_text.envs.mastermind.expert import consistent_guess
from agentgym_text.envs.mastermind.game import CodeRules, feedback
from agentgym_text.envs.mastermind.registration import FAMILY, MAX_STEPS, TASK_COUNT

__all__ = ["TASK_COUNT", "MAX_STEPS", "make_tasks", "expert_guess_count", "training_instances"]


def expert_guess_count(rules: CodeRules, secret: str) -> int:
    history: list[tuple[str, tuple[int, int]]] = []
    while True:
        guess = consistent_guess(rules, history)
        history.append((guess, feedback(secret, guess)))
        if guess == secret:
            return len(history)


@lru_cache(maxsize=16)
def make_tasks(rules: CodeRules, count: int = TASK_COUNT, seed: int = 0) -> TaskSet:
    """``count`` tasks; "hard" when the consistent-guess expert needs more than 5 guesses."""
    rng = np.random.default_rng(seed)
    tasks = []
    for index in range(count):
        if rules.repeats:
            symbols = rng.choice(list(rules.alphabet), size=rules.length, replace=True)
        else:
            symbols = rng.choice(list(rules.alphabet), size=rules.length, replace=False)
        secret = "".join(symbols)
        guesses = expert_guess_count(rules, secret)
        tag = (
            "" if rules == CodeRules() else f"-L{rules.length}-A{len(rules.alphabet)}{'-rep' if rules.repeats else ''}"
        )
        tasks.append(
            TaskSpec(
                task_id=f"mastermind{tag}-{index:03d}",
                params={"secret": secret, "expert_guesses": guesses},
                goal=f"Find the secret code: {rules.describe()}. After each guess you are told how many "
                "symbols are in the right place and how many are right but in the wrong place.",
                difficulty=FAMILY.difficulty.label(guesses),
                max_steps=MAX_STEPS,
            )
        )
    return TaskSet(tasks)


def training_instances(size: int) -> list[TrainInstance]:
    """The train split: secrets after the shipped ones in the same seeded stream, those equal to a shipped secret
    left out (made with ``num_tasks=`` the stream's length, reset with seed 0)."""
    total = TASK_COUNT + size
    while True:
        task_set = make_tasks(CodeRules(), total)
        shipped = {task.params["secret"] for task in task_set[:TASK_COUNT]}
        fresh = [task for task in task_set[TASK_COUNT:] if task.params["secret"] not in shipped]
        if len(fresh) >= size:
            break
        total += size - len(fresh)
    return [({"num_tasks": total}, task.task_id, 0) for task in fresh[:size]]
