"""A world (``generator.py``) as ALFWorld's game files: the PDDL problem, the grammar with the goal, traj_data.json.

The domain (``alfred.pddl``) and grammar (``alfred.twl2``) are read from the alfworld wheel, never copied into the
cache; ``tw_pddl_game`` assembles the full ``game.tw-pddl`` JSON only when the official stack needs it (the
fidelity test, the benchmark, ``export_game`` for alfworld's own ``AlfredTWEnv``).

>>> from agentgym_text.envs.alfworld.generator import generate_world
>>> problem = pddl_problem(generate_world(301, "look", 0))
>>> problem.startswith("(define (problem plan_trial)"), "(:goal" in problem
(True, True)
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = [
    "mangle",
    "pddl_problem",
    "grammar_with_goal",
    "traj_data",
    "tw_pddl_game",
    "export_game",
    "domain_text",
    "game_name",
]


def mangle(thor_id: str) -> str:
    """A THOR id as ALFWorld's PDDL spells it (``fix_pddl_str_chars``), lower-cased as Fast Downward does."""
    for old, new in (("|", "_bar_"), ("+", "_plus_"), ("-", "_minus_"), (".", "_dot_"), (",", "_comma_")):
        thor_id = thor_id.replace(old, new)
    return thor_id.lower()


@lru_cache(maxsize=1)
def domain_text() -> str:
    return resources.files("alfworld").joinpath("data", "alfred.pddl").read_text()


@lru_cache(maxsize=1)
def _grammar_text() -> str:
    return resources.files("alfworld").joinpath("data", "alfred.twl2").read_text()


@lru_cache(maxsize=1)
def _all_types() -> tuple[list[str], list[str]]:
    import alfworld.gen.constants as constants

    otypes = set().union(*constants.VAL_RECEPTACLE_OBJECTS.values())
    otypes |= set().union(*constants.VAL_ACTION_OBJECTS.values())
    otypes |= {"DeskLamp", "FloorLamp", "Knife", "ButterKnife"}
    # Bowl, Mug, ... are object types here (a type name can be declared once), as in ALFWorld's own problems
    rtypes = (set(constants.VAL_RECEPTACLE_OBJECTS) | {"SinkBasin", "Microwave", "Fridge"}) - otypes
    return sorted(otypes), sorted(rtypes)


def pddl_problem(world: dict[str, Any]) -> str:
    """ALFWorld's ``initial_state.pddl`` for the world (original ids; Fast Downward lower-cases them)."""
    import alfworld.gen.constants as constants
    import alfworld.gen.goal_library as goal_library

    from agentgym_text.envs.alfworld.generator import RECEPTACLE_OBJECTS

    otypes, rtypes = _all_types()
    fix = lambda text: mangle(text).replace("#", "-")  # noqa: E731 (the goal library writes types as "?r # receptacle")
    receptacles, objects = world["receptacles"], world["objects"]
    locations = sorted({r["location"] for r in receptacles} | {world["agent_location"]})
    lines = ["(define (problem plan_trial)", "(:domain alfred)", "(:objects", "agent1 - agent"]
    lines += [f"{t}Type - otype" for t in otypes] + [f"{t}Type - rtype" for t in rtypes]
    lines += [f"{fix(o['id'])} - object" for o in objects]
    lines += [f"{fix(r['id'])} - receptacle" for r in receptacles]
    lines += [f"{fix(loc)} - location" for loc in locations]
    lines += [")", "(:init", f"(atLocation agent1 {fix(world['agent_location'])})"]
    location_of = {r["id"]: r["location"] for r in receptacles}
    present = sorted({r["type"] for r in receptacles})
    for kind in present:
        lines += [f"(canContain {kind}Type {o}Type)" for o in sorted(constants.VAL_RECEPTACLE_OBJECTS[kind])]
    for r in receptacles:
        lines.append(f"(receptacleType {fix(r['id'])} {r['type']}Type)")
        lines.append(f"(receptacleAtLocation {fix(r['id'])} {fix(r['location'])})")
        if r["openable"]:
            lines.append(f"(openable {fix(r['id'])})")
    actions = constants.VAL_ACTION_OBJECTS
    for o in objects:
        name, kind = fix(o["id"]), o["type"]
        lines.append(f"(objectType {name} {kind}Type)")
        lines.append(f"(inReceptacle {name} {fix(o['receptacle'])})")
        lines.append(f"(objectAtLocation {name} {fix(location_of[o['receptacle']])})")
        if kind in actions["Toggleable"]:
            lines.append(f"(toggleable {name})")
        else:
            lines.append(f"(pickupable {name})")
        for flag, group in (
            ("cleanable", "Cleanable"),
            ("heatable", "Heatable"),
            ("coolable", "Coolable"),
            ("sliceable", "Sliceable"),
        ):
            if kind in actions[group]:
                lines.append(f"({flag} {name})")
        if kind in RECEPTACLE_OBJECTS:
            lines.append(f"(isReceptacleObject {name})")
    lines.append(")")
    goal = world["goal"]
    template = goal_library.gdict[goal["task_type"]]["pddl"]
    lines.append(template.format(obj=goal["object"], recep=goal["receptacle"], toggle=goal["toggle"]).replace("#", "-"))
    return "\n".join(lines) + "\n"


def grammar_with_goal(world: dict[str, Any]) -> str:
    return _grammar_text().replace("UNKNOWN GOAL", world["goal"]["sentence"])


def traj_data(world: dict[str, Any]) -> dict[str, Any]:
    """The fields of ALFWorld's ``traj_data.json`` that its loaders and handcoded expert read."""
    goal = world["goal"]
    return {
        "task_type": goal["task_type"],
        "scene": {"floor_plan": f"FloorPlan{world['floorplan']}", "random_seed": world["seed"]},
        "pddl_params": {
            "object_target": goal["object"],
            "parent_target": goal["receptacle"],
            "toggle_target": goal["toggle"],
            "mrecep_target": "",
            "object_sliced": False,
        },
        "turk_annotations": {"anns": [{"task_desc": goal["sentence"], "high_descs": [], "votes": []}]},
    }


def tw_pddl_game(world: dict[str, Any], problem: str | None = None) -> dict[str, Any]:
    """The ``game.tw-pddl`` JSON that textworld's ``PddlEnv.load`` accepts (as a dict or a file)."""
    return {
        "pddl_domain": domain_text(),
        "grammar": grammar_with_goal(world),
        "pddl_problem": problem if problem is not None else pddl_problem(world),
        "solvable": True,
        "walkthrough": None,
    }


def game_name(world: dict[str, Any]) -> str:
    """The game's ``task/trial`` name in ALFWorld's folder layout (what AgentBoard's annotations call it):
    ``<task type>-<object>-None-<receptacle, or the lamp for look-at>-<floor plan>/trial_T<seed>``.

    >>> from agentgym_text.envs.alfworld.generator import generate_world
    >>> game_name(generate_world(301, "look", 0))
    'look_at_obj_in_light-Statue-None-DeskLamp-301/trial_T0'
    """
    goal = world["goal"]
    target = goal["receptacle"] or goal["toggle"]
    return f"{goal['task_type']}-{goal['object']}-None-{target}-{world['floorplan']}/trial_T{world['seed']}"


def export_game(world: dict[str, Any], folder: str | Path) -> Path:
    """Write ``game.tw-pddl`` and ``traj_data.json`` into ``folder`` (loadable by alfworld's ``AlfredTWEnv``)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.tw-pddl").write_text(json.dumps(tw_pddl_game(world)))
    (folder / "traj_data.json").write_text(json.dumps(traj_data(world), indent=1))
    return folder / "game.tw-pddl"
