"""Building one task instance from the simulator: replay the gold path, derive goal and subgoals, verify them.

The gold path is generated on a load with ``gold_path=True`` (which draws from the simulator's random generator)
and replayed on a plain load through the env's ``CommandSession``; an instance whose gold path does not end in
success there is not shipped. With pinned identity hashes (``JVM_OPTIONS``) a replay plays out the same in any
JVM, but the gold path the simulator generates still depends on what the JVM did before (seen: freeze var 23
got another route after other tasks had run). Each replay restarts the JVM, so within a build the history
before each generated path is short and the same from run to run (two full builds chose the same variations).
A variation derived at an env's reset gets a path that depends on that env's earlier episodes. Many plant tasks
(grow-fruit, Mendelian genetics) depend on where the bees fly, so their gold paths fail for some variations.

The expert (``expert.py``) follows these paths from the current state.
"""

from __future__ import annotations

from typing import Any

from agentgym_text.core.info import InvalidReason
from agentgym_text.envs.scienceworld.actions import refusal_kind
from agentgym_text.envs.scienceworld.engine import ScienceWorldEngine, StepResult, simplifications_for
from agentgym_text.envs.scienceworld.session import CommandSession
from agentgym_text.envs.scienceworld.subgoals import GoldStep, derive_subgoals, rewrite_goal
from agentgym_text.envs.scienceworld.tasks import subgoal_tracker

__all__ = ["derive_instance", "InstanceError", "replay"]


class InstanceError(ValueError):
    """The gold path of a variation does not solve it, or its subgoals are not all credited along it."""


def replay(engine: ScienceWorldEngine, actions: list[str]) -> tuple[str, list[GoldStep], StepResult | None]:
    """Reset the loaded variation and play ``actions`` as the env would until the task completes.

    Returns (first observation, steps, last result). Actions the env rejects before they reach the simulator
    (gold paths hold stray numbers with no question to answer) are left out of the steps.
    """
    session = CommandSession(engine)
    first = session.reset()
    steps, result = [], None
    for action in actions:
        _, reply = session.send(action)
        if reply is None:
            continue
        result = reply
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
    splits = (("test", engine.test_variations()), ("dev", engine.dev_variations()))
    split = next((name for name, variations in splits if variation in variations), "train")
    first, steps = _fresh_run(engine, task_name, variation, simplifications, gold)
    # Gold paths open doors and containers the simplifications already opened; those refused no-ops would be
    # invalid expert moves, so drop them while the path still succeeds without them. Each shorter path changes
    # the world (fewer moves, so less time passes), which can make a later move refused: repeat until none is.
    while True:
        useful = [step.action for step in steps if refusal_kind(step.observation) is None]
        if len(useful) == len(steps):
            break
        try:
            first, steps = _fresh_run(engine, task_name, variation, simplifications, useful)
        except InstanceError:
            break
    unmatched = [
        step.action
        for step in steps
        if refusal_kind(step.observation) in (InvalidReason.UNKNOWN_OBJECT, InvalidReason.UNKNOWN_ACTION)
    ]
    if unmatched:  # the expert would make an invalid move
        raise InstanceError(f"{task_name} variation {variation}: the simulator does not understand {unmatched[:2]}")
    # What was played: without the moves after completion and those the env rejects before the simulator (the
    # world can differ without the no-ops, so an answer to a question that is no longer asked is dropped here).
    gold = [step.action for step in steps]
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
        "split": split,
        "simplifications": simplifications,
        "original_goal": description.replace("Task Description:", "").strip(),
        "goal": rewrite_goal(description, steps, first),
        "subgoals": [list(pair) for pair in subgoals],
        "gold_actions": gold,
    }
