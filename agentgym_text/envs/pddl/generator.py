"""Seeded problem generators, one per domain, writing IPC-style problem files (no action literals).

Each generator is sized by its objects and the number of goal literals, and draws everything else from a
``numpy`` generator seeded by the caller, so the same arguments always give the same file.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["blocksworld_problem", "gripper_problem", "barman_problem", "tyreworld_problem", "GENERATORS"]


def _problem_text(
    name: str,
    domain: str,
    objects: Sequence[str],
    init: Sequence[str],
    goal: Sequence[str],
) -> str:
    lines = [f"(define (problem {name})", f"  (:domain {domain})", "  (:objects"]
    lines += [f"    {line}" for line in objects]
    lines += ["  )", "  (:init"]
    lines += [f"    {fact}" for fact in init]
    lines += ["  )", "  (:goal (and"]
    lines += [f"    {fact}" for fact in goal]
    lines += ["  ))", ")"]
    return "\n".join(lines) + "\n"


def _random_towers(blocks: list[str], rng: np.random.Generator) -> list[list[str]]:
    order = [blocks[i] for i in rng.permutation(len(blocks))]
    towers: list[list[str]] = []
    for block in order:
        if towers and rng.random() < 0.6:
            towers[int(rng.integers(len(towers)))].append(block)
        else:
            towers.append([block])
    return towers


def _tower_facts(towers: list[list[str]]) -> list[tuple[str, ...]]:
    facts: list[tuple[str, ...]] = []
    for tower in towers:
        facts.append(("ontable", tower[0]))
        facts += [("on", upper, lower) for lower, upper in zip(tower, tower[1:])]
        facts.append(("clear", tower[-1]))
    return facts


def blocksworld_problem(name: str, blocks: int, goal_literals: int, rng: np.random.Generator) -> str:
    """Random initial towers and a random target arrangement; the goal keeps ``goal_literals`` of its
    on/on-table facts ('on' facts first), chosen so that at least one is false at the start."""
    names = [f"b{i}" for i in range(1, blocks + 1)]
    while True:
        start = _tower_facts(_random_towers(names, rng))
        target = [f for f in _tower_facts(_random_towers(names, rng)) if f[0] != "clear"]
        ons = [f for f in target if f[0] == "on"]
        tables = [f for f in target if f[0] == "ontable"]
        pool = [ons[i] for i in rng.permutation(len(ons))] + [tables[i] for i in rng.permutation(len(tables))]
        goal = sorted(pool[:goal_literals])
        if len(goal) == goal_literals and not set(goal) <= set(start):
            break
    init = [f"({' '.join(f)})" for f in sorted(start)] + ["(handempty)"]
    return _problem_text(name, "blocks", [" ".join(names)], init, [f"({' '.join(f)})" for f in goal])


def gripper_problem(name: str, balls: int, goal_literals: int, rng: np.random.Generator) -> str:
    """IPC gripper with rooms rooma/roomb: balls start in either room, the goal puts ``goal_literals`` of them
    in the room they do not start in (Robby starts in a random room)."""
    rooms = ["rooma", "roomb"]
    names = [f"ball{i}" for i in range(1, balls + 1)]
    starts = {ball: rooms[int(rng.random() < 0.25)] for ball in names}
    chosen = sorted((names[i] for i in rng.permutation(balls)[:goal_literals]), key=lambda b: int(b[4:]))
    robby = rooms[int(rng.integers(2))]
    init = [f"(room {room})" for room in rooms]
    init += [f"(ball {ball})" for ball in names]
    init += ["(gripper left)", "(gripper right)", f"(at-robby {robby})", "(free left)", "(free right)"]
    init += [f"(at {ball} {starts[ball]})" for ball in names]
    goal = [f"(at {ball} {'roomb' if starts[ball] == 'rooma' else 'rooma'})" for ball in chosen]
    return _problem_text(name, "gripper-strips", [*rooms, " ".join(names), "left right"], init, goal)


def barman_problem(name: str, cocktails: int, goal_literals: int, rng: np.random.Generator) -> str:
    """IPC barman: 3 ingredients and dispensers, one shaker, levels l0-l2, ``cocktails`` recipes of two
    distinct ingredients, ``goal_literals`` + 1 shots; the goal fills ``goal_literals`` shots with cocktails."""
    ingredients = [f"ingredient{i}" for i in range(1, 4)]
    drinks = [f"cocktail{i}" for i in range(1, cocktails + 1)]
    shots = [f"shot{i}" for i in range(1, goal_literals + 2)]
    objects = [
        "shaker1 - shaker",
        "left right - hand",
        " ".join(shots) + " - shot",
        " ".join(ingredients) + " - ingredient",
        " ".join(drinks) + " - cocktail",
        "dispenser1 dispenser2 dispenser3 - dispenser",
        "l0 l1 l2 - level",
    ]
    init = ["(ontable shaker1)"] + [f"(ontable {s})" for s in shots]
    init += [f"(dispenses dispenser{i} ingredient{i})" for i in range(1, 4)]
    init += ["(clean shaker1)"] + [f"(clean {s})" for s in shots]
    init += ["(empty shaker1)"] + [f"(empty {s})" for s in shots]
    init += ["(handempty left)", "(handempty right)", "(shaker-empty-level shaker1 l0)", "(shaker-level shaker1 l0)"]
    init += ["(next l0 l1)", "(next l1 l2)"]
    for drink in drinks:
        first, second = (ingredients[i] for i in rng.choice(3, size=2, replace=False))
        init += [f"(cocktail-part1 {drink} {first})", f"(cocktail-part2 {drink} {second})"]
    goal = [f"(contains {shots[i]} {drinks[int(rng.integers(cocktails))]})" for i in range(goal_literals)]
    return _problem_text(name, "barman", objects, init, goal)


def tyreworld_problem(name: str, hubs: int, goal_literals: int, rng: np.random.Generator) -> str:
    """The flat-tyre problem with ``hubs`` hubs; the goal takes ``goal_literals`` of the full goal (each hub's
    new wheel on, inflated, nuts tight, old wheel in the boot; tools in the boot; boot closed), always
    including the wheel-on facts so that the tyres really have to be changed."""
    hub_names = [f"the-hub{i}" for i in range(1, hubs + 1)]
    objects = [
        "wrench jack pump - tool",
        " ".join(hub_names) + " - hub",
        " ".join(f"nuts{i}" for i in range(1, hubs + 1)) + " - nut",
        "boot - container",
        " ".join([f"r{i}" for i in range(1, hubs + 1)] + [f"w{i}" for i in range(1, hubs + 1)]) + " - wheel",
    ]
    init = ["(in jack boot)", "(in pump boot)", "(in wrench boot)", "(unlocked boot)", "(closed boot)"]
    for i in range(1, hubs + 1):
        init += [f"(intact r{i})", f"(in r{i} boot)", f"(not-inflated r{i})", f"(on w{i} the-hub{i})"]
        init += [f"(on-ground the-hub{i})", f"(tight nuts{i} the-hub{i})", f"(fastened the-hub{i})"]
    required = [f"(on r{i} the-hub{i})" for i in range(1, hubs + 1)]
    optional = [f"(inflated r{i})" for i in range(1, hubs + 1)]
    optional += [f"(tight nuts{i} the-hub{i})" for i in range(1, hubs + 1)]
    optional += [f"(in w{i} boot)" for i in range(1, hubs + 1)]
    optional += ["(in wrench boot)", "(in jack boot)", "(in pump boot)", "(closed boot)"]
    if not hubs <= goal_literals <= len(required) + len(optional):
        raise ValueError(f"{hubs} hubs allow {hubs}..{4 * hubs + 4} goal literals, not {goal_literals}")
    extra = [optional[i] for i in sorted(rng.permutation(len(optional))[: goal_literals - hubs])]
    return _problem_text(name, "tyreworld", objects, init, required + extra)


GENERATORS = {
    "blocksworld": blocksworld_problem,
    "gripper": gripper_problem,
    "barman": barman_problem,
    "tyreworld": tyreworld_problem,
}
"""Domain key -> generator(name, size, goal_literals, rng) -> PDDL problem text."""
