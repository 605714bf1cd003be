"""ALFWorld's text, as ``alfred.twl2``'s grammar derives it, from an ``engine.World`` state (pure functions).

List order follows textworld's derivation: facts sorted by the PDDL ids of their arguments, so "a cabinet 8,
..., a cabinet 1" (the demangler numbers the first id in sorted order highest).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentgym_text.envs.alfworld.engine import World

__all__ = [
    "display_list",
    "demangled_names",
    "look",
    "intro",
    "examine_receptacle",
    "examine_object",
    "inventory",
    "HELP_TEXT",
    "NOTHING_HAPPENS",
]

NOTHING_HAPPENS = "Nothing happens."
HELP_TEXT = (
    "Available commands:\n  look:                             look around your current location\n"
    "  inventory:                        check your current inventory\n"
    "  go to (receptacle):               move to a receptacle\n"
    "  open (receptacle):                open a receptacle\n"
    "  close (receptacle):               close a receptacle\n"
    "  take (object) from (receptacle):  take an object from a receptacle\n"
    "  move (object) to (receptacle):  place an object in or on a receptacle\n"
    "  examine (something):              examine a receptacle or an object\n"
    "  use (object):                     use an object\n"
    "  heat (object) with (receptacle):  heat an object using a receptacle\n"
    "  clean (object) with (receptacle): clean an object using a receptacle\n"
    "  cool (object) with (receptacle):  cool an object using a receptacle\n"
    "  slice (object) with (object):     slice an object using a sharp object\n"
)


def display_list(items: Sequence[str]) -> str:
    """textworld's list rendering: "nothing", "x", or "x, y, and z".

    >>> display_list([]), display_list(["a"]), display_list(["a", "b"])
    ('nothing', 'a', 'a, and b')
    """
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + ", and " + items[-1]


def demangled_names(ids: Sequence[str]) -> dict[str, str]:
    """alfworld's ``Demangler`` (shuffle=False): "apple_bar__plus_00..." -> "apple 2", numbered per class.

    Ids are sorted and each class's numbers are handed out from the highest down, as alfworld does.

    >>> demangled_names(["apple_bar_b", "apple_bar_a", "sink_bar_x_bar_sinkbasin"])["apple_bar_a"]
    'apple 2'
    """
    counts: dict[str, int] = {}
    ordered = sorted(ids)
    for thor_id in ordered:
        prefix = thor_id.split("_bar_", 1)[0] + ("basin" if "basin" in thor_id else "")
        if "_bar_" in thor_id:
            counts[prefix] = counts.get(prefix, 0) + 1
    names = {}
    for thor_id in ordered:
        if "_bar_" not in thor_id:
            names[thor_id] = f"{thor_id} "
            continue
        prefix = thor_id.split("_bar_", 1)[0] + ("basin" if "basin" in thor_id else "")
        names[thor_id] = f"{prefix} {counts[prefix]}"
        counts[prefix] -= 1
    return names


def _contents(world: World, receptacle: str) -> str:
    return display_list(["a " + world.names[o] for o in sorted(world.contents[receptacle])])


def examine_receptacle(world: World, receptacle: str) -> str:
    name = world.names[receptacle]
    if receptacle in world.openable:
        if receptacle in world.opened:
            return f"The {name} is open. In it, you see {_contents(world, receptacle)}."
        return f"The {name} is closed."
    return f"On the {name}, you see {_contents(world, receptacle)}."


_OBJECT_STATES = (
    (("clean", "hot", "sliced"), "This is a hot and clean sliced {}."),
    (("clean", "cool", "sliced"), "This is a cool and clean sliced {}."),
    (("clean", "sliced"), "This is a clean sliced {}."),
    (("hot", "sliced"), "This is a hot sliced {}."),
    (("cool", "sliced"), "This is a cool sliced {}."),
    (("clean", "hot"), "This is a hot and clean {}."),
    (("clean", "cool"), "This is a cool and clean {}."),
    (("hot",), "This is a hot {}."),
    (("clean",), "This is a clean {}."),
    (("cool",), "This is a cold {}."),
)


def examine_object(world: World, obj: str) -> str:
    name = world.names[obj]
    if obj in world.receptacle_objects:
        return f"This is a normal {name}. In it, you see nothing."
    for flags, text in _OBJECT_STATES:
        if all(obj in world.flag_sets[flag] for flag in flags):
            return text.format(name)
    if obj in world.toggleable and obj in world.toggled:
        return f"This {name} is on."
    # the grammar's "is off" branch needs a not_istoggled fact, which no action ever creates
    if obj in world.sliceable and obj in world.sliced:
        return f"This is a sliced {name}."
    return f"There's nothing special about {name}."


def inventory(world: World) -> str:
    if world.held is None:
        return "You are not carrying anything."
    return f"You are carrying: a {world.names[world.held]}."


def look(world: World, *, intro: bool = False) -> str:
    """The look text; away from every receptacle the ``look`` action lists nothing (its location is bound),
    while the intro, derived without a binding, lists every receptacle."""
    here = world.receptacles_at.get(world.agent_location, ())
    if not here:
        everything = ["a " + world.names[r] for r in world.receptacle_ids] if intro else []
        return f"You are in the middle of a room. Looking quickly around you, you see {display_list(everything)}."
    facing = display_list([world.names[r] for r in here])
    floor = [
        "a " + world.names[o]
        for o in sorted(world.objects_at(world.agent_location))
        for r in here
        if (o, r) in world.not_in
    ]
    return f"You are facing the {facing}. Next to it, you see {display_list(floor)}."


def intro(world: World) -> str:
    banner = "-= Welcome to TextWorld, ALFRED! =-"
    return f"{banner}\n\n{look(world, intro=True)}\n\nYour task is to: {world.goal_sentence}."
