"""Building one task instance from the simulator: replay the gold path, derive goal and subgoals, verify them.

ScienceWorld worlds (bees and animals wander, plants get pollinated) evolve differently depending on what the
JVM did before, not only on the variation: the simulator reseeds its random generator at every load, but other
JVM state carries over (a bee walks into the kitchen on one replay and not on the next, in the same JVM). In a
fresh JVM the same actions give the same run. So the gold path is replayed in a fresh JVM; an instance whose
gold path fails there is not shipped. The env gives each episode a fresh JVM (the expert sweep in the tests
replays every shipped gold path through the env, in fresh JVMs again).
"""

from __future__ import annotations

from typing import Any

from agentgym_text.envs.scienceworld.engine import ScienceWorldEngine, StepResult, simplifications_for
from agentgym_text.envs.scienceworld.commands import refusal_kind
from agentgym_text.envs.scienceworld.subgoals import GoldStep, derive_subgoals, rewrite_goal
from agentgym_text.envs.scienceworld.tasks import subgoal_tracker

__all__ = ["derive_instance", "InstanceError", "replay"]


class InstanceError(ValueError):
    """The gold path of a variation does not solve it, or its subgoals are not all credited along it."""


def replay(engine: ScienceWorldEngine, actions: list[str]) -> tuple[str, list[GoldStep], StepResult | None]:
    """Reset the loaded variation and play ``actions`` until the task completes; (first observation, steps, last)."""
    first = engine.reset()
    steps, result = [], None
    for action in actions:
        result = engine.step(action)
        steps.append(GoldStep(action, result.observation))
        if result.completed:
            break
    return first, steps, result


def _fresh_run(
    engine: ScienceWorldEngine, task_name: str, variation: int, simplifications: str, actions: list[str]
) -> tuple[str, list[GoldStep]]:
    """Play ``actions`` in a fresh JVM; raise ``InstanceError`` unless the task ends in success."""
    engine.restart()
    engine.load(task_name, variation, simplifications)
    first, steps, result = replay(engine, actions)
    if result is None or not result.success:
        raise InstanceError(f"{task_name} variation {variation}: gold path ends without success")
    return first, steps


def derive_instance(engine: ScienceWorldEngine, task_name: str, variation: int) -> dict[str, Any]:
    """Replay the gold path of ``task_name`` / ``variation`` and return the instance record that task_set.json holds.

    Restarts ``engine``'s JVM. Raises ``InstanceError`` when the gold path does not reach success in a fresh
    JVM or a subgoal would stay uncredited.
    """
    simplifications = simplifications_for(task_name)
    engine.load(task_name, variation, simplifications, gold_path=True)
    gold = engine.gold_actions()
    if not gold or gold[0].startswith("ERROR"):
        raise InstanceError(f"{task_name} variation {variation}: no gold path ({gold[:1]})")
    description = engine.task_description()
    first, steps = _fresh_run(engine, task_name, variation, simplifications, gold)
    gold = gold[: len(steps)]  # gold paths often go on after the task is already complete
    # Gold paths open doors and containers the simplifications already opened; those refused no-ops would be
    # invalid expert moves, so drop them when the path still succeeds without them.
    useful = [step.action for step in steps if refusal_kind(step.observation) is None]
    if useful != gold:
        try:
            first, steps = _fresh_run(engine, task_name, variation, simplifications, useful)
            gold = useful
        except InstanceError:
            first, steps = _fresh_run(engine, task_name, variation, simplifications, gold)
    subgoals = derive_subgoals(steps)
    tracker = subgoal_tracker(subgoals)
    tracker.update(first, False)
    for index, step in enumerate(steps):
        reading = tracker.update(step.observation, index == len(steps) - 1)
    if not all(reading.subgoals_done):
        missing = [name for name, done in zip(reading.subgoals, reading.subgoals_done) if not done]
        raise InstanceError(f"{task_name} variation {variation}: subgoals not credited: {missing}")
    return {
        "task_name": task_name,
        "variation": int(variation),
        "simplifications": simplifications,
        "original_goal": description.replace("Task Description:", "").strip(),
        "goal": rewrite_goal(description, steps, first),
        "subgoals": [list(pair) for pair in subgoals],
        "gold_actions": gold,
    }
