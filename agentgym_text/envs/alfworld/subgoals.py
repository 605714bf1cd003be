"""Subgoals from the task's structure, checked on the engine's facts (never by matching text).

pick: find X, pick up X, put X in/on R. clean/heat/cool: find X, pick up X, clean/heat/cool X, put X in/on R.
pick-two: find X, pick up X, put one X in/on R, put a second X in/on R. look-at: find X, pick up X, turn on
the lamp, look at X under the lamp. The last subgoal is the goal itself; they are credited in order and stay
credited (AgentBoard §3.3), so progress = credited / count.

>>> from agentgym_text.envs.alfworld.engine import World
>>> from agentgym_text.envs.alfworld.generator import generate_world
>>> [goal.name for goal in subgoals_for(World(generate_world(1, "heat", 0)))]
['find the apple', 'pick up the apple', 'heat the apple', 'put the apple in/on the garbagecan']
"""

from __future__ import annotations

from agentgym_text.core.progress import Subgoal
from agentgym_text.envs.alfworld.engine import World

__all__ = ["subgoals_for", "subgoal_count"]

_VERBS = {
    "pick_clean_then_place_in_recep": ("clean", "clean"),
    "pick_heat_then_place_in_recep": ("heat", "hot"),
    "pick_cool_then_place_in_recep": ("cool", "cool"),
}


def subgoal_count(task_type: str) -> int:
    return 3 if task_type == "pick_and_place_simple" else 4


def _found(kind: str):
    def met(world: World) -> bool:
        if world.held is not None and world.otype[world.held] == kind:
            return True
        return any(
            world.otype[o] == kind
            for r in world.receptacles_at.get(world.agent_location, ())
            if world.visible(r)
            for o in world.contents[r]
        )

    return met


def _holding(kind: str):
    return lambda world: world.held is not None and world.otype[world.held] == kind


def subgoals_for(world: World) -> list[Subgoal]:
    """The ordered subgoals of ``world``'s task, each a predicate over the engine state."""
    kind = world.goal_object
    obj = kind.lower()
    recep = world.goal_receptacle.lower()
    goals = [
        Subgoal(f"find the {obj}", predicate=_found(kind)),
        Subgoal(f"pick up the {obj}", predicate=_holding(kind)),
    ]
    task_type = world.task_type
    if task_type in _VERBS:
        verb, flag = _VERBS[task_type]
        goals.append(
            Subgoal(
                f"{verb} the {obj}",
                predicate=lambda w, flag=flag: any(w.otype[o] == kind for o in w.flag_sets[flag]),
            )
        )
    if task_type == "pick_two_obj_and_place":
        goals.append(
            Subgoal(
                f"put one {obj} in/on the {recep}",
                predicate=lambda w: any(w.instances_in_goal_receptacles().values()),
            )
        )
        goals.append(Subgoal(f"put a second {obj} in/on the {recep}", predicate=World.won))
    elif task_type == "look_at_obj_in_light":
        lamp = world.goal_toggle.lower()
        goals.append(
            Subgoal(
                f"turn on the {lamp}",
                predicate=lambda w: any(w.otype[o] == world.goal_toggle for o in w.toggled),
            )
        )
        goals.append(Subgoal(f"look at the {obj} under the {lamp}", predicate=World.won))
    else:
        goals.append(Subgoal(f"put the {obj} in/on the {recep}", predicate=World.won))
    return goals
