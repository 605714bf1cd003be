"""The expert: a scripted solver that reads object positions from the engine's state (any state, not only the start).

It fetches an instance of the goal object (going to its receptacle and opening it if needed), puts down anything
else it holds, applies the task's state change at the appliance (microwave, fridge, sink basin), and places the
object in a goal receptacle; for look-at it carries the object to the lamp and switches it on. ALFWorld's own
handcoded expert (0.4.2) mis-tracks ``move`` commands and its planner expert is too slow; this one needs neither.

>>> from agentgym_text.envs.alfworld.engine import World
>>> from agentgym_text.envs.alfworld.generator import generate_world
>>> world = World(generate_world(1, "heat", 0))
>>> steps = 0
>>> while (command := expert_command(world)) is not None and steps < 60:
...     _ = world.step(command); steps += 1
>>> world.won()
True
"""

from __future__ import annotations

from agentgym_text.envs.alfworld.engine import Action, World
from agentgym_text.envs.alfworld.generator import APPLIANCES, TASK_TYPES

__all__ = ["expert_command"]

_APPLIANCE = {TASK_TYPES[verb]: (verb, appliance) for verb, appliance in APPLIANCES.items()}
"""ALFWorld task type -> (command verb, appliance type)."""


def _reach(world: World, receptacle: str) -> Action | None:
    """The next action to stand at ``receptacle`` with its inside visible, or None when already so."""
    if world.location[receptacle] != world.agent_location:
        return ("goto", receptacle)
    if not world.visible(receptacle):
        return ("open", receptacle)
    return None


def _target_receptacle(world: World) -> str:
    placed = world.instances_in_goal_receptacles()
    # pick-two: the goal receptacle that already holds the most goal objects
    return max(sorted(placed), key=lambda r: len(placed[r]))


def _put_down(world: World, held: str) -> Action:
    fitting = [r for r in world.receptacle_ids if world.otype[held] in world.fits[r]]
    here = [r for r in fitting if world.location[r] == world.agent_location]
    for r in here + sorted(fitting, key=lambda r: r in world.openable):
        step = _reach(world, r)
        return step or ("move", held, r)
    raise RuntimeError(f"nowhere to put {held}")


def _fetch(world: World, wanted: list[str]) -> Action:
    """Go to, open and take the first of ``wanted`` (objects in receptacles)."""
    for obj in wanted:
        receptacle = world.inside[obj]
        if receptacle is not None:
            return _reach(world, receptacle) or ("take", obj, receptacle)
    raise RuntimeError("no instance of the goal object left to fetch")


def _next_action(world: World) -> Action | None:
    if world.won():
        return None
    kind, held = world.goal_object, world.held
    if held is not None and world.otype[held] != kind:
        return _put_down(world, held)
    instances = [o for o in world.object_ids if world.otype[o] == kind]
    if world.task_type == "look_at_obj_in_light":
        if held is None:
            return _fetch(world, instances)
        lamp = next(o for o in world.object_ids if world.otype[o] == world.goal_toggle and world.inside[o] is not None)
        if world.location[world.inside[lamp]] != world.agent_location:
            return ("goto", world.inside[lamp])
        return ("use", lamp)
    target = _target_receptacle(world)
    if held is None:
        if world.task_type == "pick_two_obj_and_place":
            wanted = [o for o in instances if world.inside[o] != target]
        else:
            wanted = [
                o for o in instances if world.inside[o] is None or world.rtype[world.inside[o]] != world.goal_receptacle
            ]
            wanted += [o for o in instances if o not in wanted]
        return _fetch(world, wanted)
    if world.task_type in _APPLIANCE and not world.state_done(held):
        verb, appliance_type = _APPLIANCE[world.task_type]
        appliance = next(r for r in world.receptacle_ids if world.rtype[r] == appliance_type)
        if world.location[appliance] != world.agent_location:
            return ("goto", appliance)
        return (verb, held, appliance)
    return _reach(world, target) or ("move", held, target)


def expert_command(world: World) -> str | None:
    """The expert's next command in ``world``'s current state, or None once the goal holds."""
    action = _next_action(world)
    if action is None:
        return None
    for command, candidate in world.commands().items():
        if candidate == action:
            return command
    raise RuntimeError(f"expert action {action!r} is not admissible")
