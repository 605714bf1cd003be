"""Deterministic ALFWorld scenes: (floor plan, task type, seed) -> a world dict, from what the alfworld wheel ships.

The receptacles and their agent poses come from ``alfworld/gen/layouts/FloorPlan<n>-openable.json``; receptacle
types the scene lists in ``-objects.json`` but that have no pose there (StoveBurner, Toaster, GarbageCan, towel
holders, ...) get synthetic instances at a random grid point of ``-layout.npy``. Object types and instance counts
(1-3, ALFWorld's ``MAX_NUM_OF_OBJ_INSTANCES``) are sampled, and every instance is placed in a receptacle that
``constants.VAL_RECEPTACLE_OBJECTS`` allows. Lamps (in no such list) go on a desk, side table, dresser or
similar. The goal is sampled under each task type's constraints (heat needs a Microwave, cool a Fridge, clean a
SinkBasin, look-at a lamp, pick-two two instances) and no instance of the goal object starts in a goal
receptacle, so the goal never holds at the start.

A world is plain JSON: THOR-style ids ("Apple|+00.12|+00.95|-01.40"), types, locations ("loc|x|z|rot|horizon"
in 0.25 m grid units) and the goal. ``gamefile.py`` turns it into ALFWorld's PDDL problem; ``engine.py`` plays it.

>>> world = generate_world(1, "heat", 0)
>>> world["goal"]["task_type"], world["goal"]["receptacle"] != "Microwave"
('pick_heat_then_place_in_recep', True)
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

__all__ = [
    "TASK_TYPES",
    "SHORT_NAMES",
    "room_type",
    "generate_world",
    "supported",
    "GenerationError",
    "APPLIANCES",
    "RECEPTACLE_OBJECTS",
]

TASK_TYPES = {
    "pick": "pick_and_place_simple",
    "clean": "pick_clean_then_place_in_recep",
    "heat": "pick_heat_then_place_in_recep",
    "cool": "pick_cool_then_place_in_recep",
    "look": "look_at_obj_in_light",
    "picktwo": "pick_two_obj_and_place",
}
"""Short task-type names (used in task ids) -> ALFWorld's task types."""
SHORT_NAMES = {long: short for short, long in TASK_TYPES.items()}

_ROOMS = {
    "Kitchen": range(1, 31),
    "LivingRoom": range(201, 231),
    "Bedroom": range(301, 331),
    "Bathroom": range(401, 431),
}
APPLIANCES = {"clean": "SinkBasin", "heat": "Microwave", "cool": "Fridge"}
"""The receptacle type each state-changing task type needs (the domain hard-codes these types)."""
RECEPTACLE_OBJECTS = frozenset({"Bowl", "Cup", "Mug", "Plate", "Pan", "Pot", "Box"})
"""Object types that get ``isReceptacleObject`` (examined as "This is a normal bowl 1. In it, ...")."""
_LAMPS = ("DeskLamp", "FloorLamp")
_LAMP_HOLDERS = ("Desk", "SideTable", "Dresser", "Shelf", "DiningTable", "CoffeeTable", "TVStand")
_MAX_INSTANCES = 3
_SYNTHETIC_COUNT = {"StoveBurner": 4}


class GenerationError(ValueError):
    """The floor plan cannot host the task type (e.g. heat outside a kitchen, look-at without a lamp)."""


@lru_cache(maxsize=1)
def _constants() -> tuple[Any, Any]:
    import alfworld.gen.constants as constants
    import alfworld.gen.goal_library as goal_library

    return constants, goal_library


def _action_set(name: str) -> frozenset[str]:
    return frozenset(_constants()[0].VAL_ACTION_OBJECTS[name])


def room_type(floorplan: int) -> str:
    for name, numbers in _ROOMS.items():
        if floorplan in numbers:
            return name
    raise GenerationError(f"FloorPlan{floorplan} is not an ALFWorld scene")


@lru_cache(maxsize=256)
def _layout(floorplan: int) -> tuple[dict, list[str], np.ndarray]:
    folder = resources.files("alfworld.gen").joinpath("layouts")
    openable = json.loads(folder.joinpath(f"FloorPlan{floorplan}-openable.json").read_text())
    objects = json.loads(folder.joinpath(f"FloorPlan{floorplan}-objects.json").read_text())
    with folder.joinpath(f"FloorPlan{floorplan}-layout.npy").open("rb") as handle:
        points = np.load(handle)
    return openable, objects, points


def _type_of(thor_id: str) -> str:
    parts = thor_id.split("|")
    return parts[-1] if len(parts) == 5 else parts[0]


def _grid_location(x: float, z: float, rotation: float, horizon: float) -> str:
    return f"loc|{int(round(x / 0.25))}|{int(round(z / 0.25))}|{int(round(rotation))}|{int(round(horizon))}"


def _coord(value: float) -> str:
    return f"{value:+06.2f}"


def _receptacles(floorplan: int, rng: np.random.Generator) -> list[dict[str, Any]]:
    constants, _ = _constants()
    static = set(constants.VAL_RECEPTACLE_OBJECTS) - set(constants.MOVABLE_RECEPTACLES)
    openable, objects, points = _layout(floorplan)
    receptacles = []
    for thor_id in sorted(openable):
        kind = _type_of(thor_id)
        if kind in static:
            x, z, rotation, horizon = openable[thor_id]
            receptacles.append({"id": thor_id, "type": kind, "location": _grid_location(x, z, rotation, horizon)})
    present = {r["type"] for r in receptacles}
    for kind in sorted(set(objects) & static - present):
        for _ in range(_SYNTHETIC_COUNT.get(kind, 1)):
            x, z = points[int(rng.integers(len(points)))]
            y = float(rng.uniform(0.0, 1.2))
            base = f"{kind}|{_coord(x)}|{_coord(y)}|{_coord(z)}"
            thor_id = {
                "SinkBasin": f"Sink|{_coord(x)}|{_coord(y)}|{_coord(z)}|SinkBasin",
                "BathtubBasin": f"Bathtub|{_coord(x)}|{_coord(y)}|{_coord(z)}|BathtubBasin",
            }.get(kind, base)
            rotation = float(rng.choice([0, 90, 180, 270]))
            receptacles.append({"id": thor_id, "type": kind, "location": _grid_location(x, z, rotation, 30)})
    openable_types = set(constants.OPENABLE_CLASS_LIST)
    for receptacle in receptacles:
        receptacle["openable"] = receptacle["type"] in openable_types
    return receptacles


def _holders(kind: str, receptacle_types: set[str]) -> list[str]:
    constants, _ = _constants()
    if kind in _LAMPS:
        return sorted(t for t in _LAMP_HOLDERS if t in receptacle_types)
    return sorted(t for t in receptacle_types if kind in constants.VAL_RECEPTACLE_OBJECTS[t])


@lru_cache(maxsize=1024)
def supported(floorplan: int, short_type: str) -> bool:
    """Whether ``generate_world`` can build ``short_type`` in this floor plan (for every seed)."""
    constants, _ = _constants()
    if TASK_TYPES[short_type] not in {g for g, rooms in constants.GOALS_VALID.items() if room_type(floorplan) in rooms}:
        return False
    receptacle_types = {r["type"] for r in _receptacles(floorplan, np.random.default_rng(0))}
    return bool(_goal_candidates(floorplan, short_type, receptacle_types))


def _object_types(floorplan: int, receptacle_types: set[str]) -> list[str]:
    constants, _ = _constants()
    static = set(constants.VAL_RECEPTACLE_OBJECTS) - set(constants.MOVABLE_RECEPTACLES)
    placeable = set().union(*constants.VAL_RECEPTACLE_OBJECTS.values())
    _, objects, _ = _layout(floorplan)
    kinds = [k for k in sorted(set(objects)) if (k in placeable or k in _LAMPS) and k not in static]
    return [k for k in kinds if _holders(k, receptacle_types)]


def _goal_candidates(floorplan: int, short_type: str, receptacle_types: set[str]) -> list[tuple[str, str, str]]:
    """(object type, receptacle type, toggle type) triples the task type allows in this scene."""
    kinds = [k for k in _object_types(floorplan, receptacle_types) if k not in _LAMPS]
    if short_type == "look":
        _, objects, _ = _layout(floorplan)
        lamps = [lamp for lamp in _LAMPS if lamp in objects and _holders(lamp, receptacle_types)]
        return [(k, "", lamp) for lamp in lamps for k in kinds]
    needs = {"clean": "Cleanable", "heat": "Heatable", "cool": "Coolable"}.get(short_type)
    appliance = APPLIANCES.get(short_type)
    if appliance and appliance not in receptacle_types:
        return []
    triples = []
    for kind in kinds:
        if needs and kind not in _action_set(needs):
            continue
        holders = _holders(kind, receptacle_types)
        for target in holders:
            # the object must be able to start somewhere else than a goal receptacle
            if target != appliance and any(h != target for h in holders):
                triples.append((kind, target, ""))
    return triples


def generate_world(floorplan: int, short_type: str, seed: int) -> dict[str, Any]:
    """The world of task type ``short_type`` ("pick", "heat", ...) in FloorPlan``floorplan``, seed ``seed``."""
    if short_type not in TASK_TYPES:
        raise GenerationError(f"unknown task type {short_type!r}; one of {sorted(TASK_TYPES)}")
    constants, goal_library = _constants()
    task_type = TASK_TYPES[short_type]
    if room_type(floorplan) not in constants.GOALS_VALID[task_type]:
        raise GenerationError(f"{task_type} does not occur in a {room_type(floorplan)} (FloorPlan{floorplan})")
    rng = np.random.default_rng([int(floorplan), list(TASK_TYPES).index(short_type), int(seed)])
    receptacles = _receptacles(floorplan, rng)
    receptacle_types = {r["type"] for r in receptacles}
    candidates = _goal_candidates(floorplan, short_type, receptacle_types)
    if not candidates:
        raise GenerationError(f"FloorPlan{floorplan} has no valid {task_type} goal")
    target_object, target_receptacle, toggle = candidates[int(rng.integers(len(candidates)))]

    by_type: dict[str, list[dict]] = {}
    for receptacle in receptacles:
        by_type.setdefault(receptacle["type"], []).append(receptacle)
    objects = []
    for kind in _object_types(floorplan, receptacle_types):
        if kind in _LAMPS:
            if kind != toggle and short_type == "look":
                continue
            count = 1
        else:
            low = 2 if (kind == target_object and short_type == "picktwo") else 1
            count = int(rng.integers(low, _MAX_INSTANCES + 1))
        holder_types = [
            t for t in _holders(kind, receptacle_types) if not (kind == target_object and t == target_receptacle)
        ]
        hosts = [r for t in holder_types for r in by_type[t]]
        for _ in range(count):
            host = hosts[int(rng.integers(len(hosts)))]
            _, hx, hy, hz = host["id"].split("|")[:4]
            while True:
                x, y, z = (float(v) + float(rng.uniform(-0.4, 0.4)) for v in (hx, hy, hz))
                thor_id = f"{kind}|{_coord(x)}|{_coord(y)}|{_coord(z)}"
                if all(o["id"] != thor_id for o in objects):
                    break
            objects.append({"id": thor_id, "type": kind, "receptacle": host["id"]})

    used = {r["location"] for r in receptacles}
    _, _, points = _layout(floorplan)
    while True:
        x, z = points[int(rng.integers(len(points)))]
        start = _grid_location(x, z, float(rng.choice([0, 90, 180, 270])), 30)
        if start not in used:
            break
    template = goal_library.gdict[task_type]["templates"][int(rng.integers(2))]
    sentence = template.format(obj=target_object.lower(), recep=target_receptacle.lower(), toggle=toggle.lower())
    return {
        "floorplan": int(floorplan),
        "seed": int(seed),
        "receptacles": receptacles,
        "objects": objects,
        "agent_location": start,
        "goal": {
            "task_type": task_type,
            "object": target_object,
            "receptacle": target_receptacle,
            "toggle": toggle,
            "sentence": sentence,
        },
    }
