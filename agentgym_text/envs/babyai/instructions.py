"""Subgoals from the level's instruction tree (go-to / pick-up / open / put-next, joined by before/after/and).

Each instruction clause ("leaf") contributes the navigation it needs — see a matching object, enter its
room, fetch the key for and open each closed door on the way — and then the clause itself, read from
minigrid's verifier. A navigation subgoal only counts while its clause is the one to work on (earlier
clauses done) and counts as met once the clause is done, so all subgoals are met exactly at success.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from minigrid.envs.babyai.core.verifier import (
    ActionInstr,
    AndInstr,
    BeforeInstr,
    GoToInstr,
    PickupInstr,
    PutNextInstr,
)  # fmt: skip

from agentgym_text.core.progress import Subgoal
from agentgym_text.envs.babyai.navigation import true_reachability

__all__ = ["Clause", "clauses", "clause_done", "build_subgoals"]


@dataclass
class Clause:
    """One action instruction of the mission, with the clauses that must be done before it."""

    instr: ActionInstr
    parent: object | None
    side: str  # "a" or "b": which child of ``parent`` this clause (or its And group) is
    after: list[Clause] = field(default_factory=list)


def clauses(root) -> list[Clause]:
    """The mission's clauses in the order they should be done."""

    def collect(node, parent, side) -> list[Clause]:
        if isinstance(node, ActionInstr):
            return [Clause(node, parent, side)]
        if isinstance(node, AndInstr):
            found = collect(node.instr_a, node, "a") + collect(node.instr_b, node, "b")
            return found
        first, second = (node.instr_a, node.instr_b) if isinstance(node, BeforeInstr) else (node.instr_b, node.instr_a)
        first_side, second_side = ("a", "b") if isinstance(node, BeforeInstr) else ("b", "a")
        early = collect(first, node, first_side)
        late = collect(second, node, second_side)
        for clause in late:
            clause.after.extend(early)
        return early + late

    return collect(root, None, "")


def clause_done(clause: Clause, world) -> bool:
    """Whether minigrid's verifier has credited this clause."""
    if world.success:
        return True
    parent = clause.parent
    if parent is None:
        return False
    flag = parent.a_done if clause.side == "a" else parent.b_done
    return flag == "success"


def _describe(desc) -> str:
    text = desc.type or "object"
    if desc.color:
        text = f"{desc.color} {text}"
    return text


def _visible_now(world, objs) -> bool:
    return any(world.perception.names.known(obj) is not None for obj in objs)


def _in_room_with(world, objs) -> bool:
    env = world.env
    room = env.room_from_pos(*env.agent_pos)
    for obj in objs:
        pos = world.position_of(obj)
        if pos is not None and room.pos_inside(*pos):
            return True
    return False


def _doors_on_route(world, objs) -> list:
    """Closed or locked doors on the shortest true-map route to the nearest of ``objs``."""
    env = world.env
    reach = true_reachability(env, objects_block=True)
    best = None
    for obj in objs:
        pos = world.position_of(obj)
        if pos is None:
            continue
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            cell = (pos[0] + dx, pos[1] + dy)
            distance = reach.distance(cell)
            if distance is not None and (best is None or distance < best[0]):
                best = (distance, cell)
    if best is None:
        return []
    doors = []
    for x, y in reach.path(best[1]):
        cell = env.grid.get(x, y)
        if cell is not None and cell.type == "door" and not cell.is_open:
            doors.append(cell)
    return doors


def _navigation(world, objs, what: str) -> list[tuple[str, Callable]]:
    """Navigation milestones towards one of ``objs`` that are not already met at the start."""
    steps: list[tuple[str, Callable]] = []
    for door in _doors_on_route(world, objs):
        if door.is_locked:
            steps.append(
                (
                    f"get a {door.color} key for the door on the way",
                    lambda w, d=door: d.is_open or _carrying_key(w, d.color),
                )
            )
        steps.append((f"open the {door.color} door on the way", lambda w, d=door: bool(d.is_open)))
    targets_are_doors = all(obj.type == "door" for obj in objs)
    if not targets_are_doors and not _in_room_with(world, objs):
        steps.append((f"enter the room with the {what}", lambda w, o=objs: _in_room_with(w, o)))
    if not _visible_now(world, objs):
        steps.append((f"see the {what}", lambda w, o=objs: _visible_now(w, o)))
    return steps


def _carrying_key(world, color: str) -> bool:
    carrying = world.env.carrying
    return carrying is not None and carrying.type == "key" and carrying.color == color


def _carrying_one_of(world, objs) -> bool:
    return any(world.env.carrying is obj for obj in objs)


def build_subgoals(world) -> list[Subgoal]:
    """The episode's subgoals (call right after reset, before any step)."""
    result: list[Subgoal] = []
    all_clauses = clauses(world.env.instrs)
    for clause in all_clauses:
        instr = clause.instr

        def done(w, c=clause) -> bool:
            return clause_done(c, w)

        def active(w, c=clause) -> bool:
            return all(clause_done(previous, w) for previous in c.after)

        milestones: list[tuple[str, Callable]] = []
        if isinstance(instr, PutNextInstr):
            moving, fixed = list(instr.desc_move.obj_set), list(instr.desc_fixed.obj_set)
            what_move, what_fixed = _describe(instr.desc_move), _describe(instr.desc_fixed)
            milestones += _navigation(world, moving, what_move)
            milestones.append((f"pick up the {what_move} to move it", lambda w, o=moving: _carrying_one_of(w, o)))
            if not _visible_now(world, fixed):
                milestones.append((f"see the {what_fixed}", lambda w, o=fixed: _visible_now(w, o)))
            final = f"put the {what_move} next to the {what_fixed}"
        else:
            objs = list(instr.desc.obj_set)
            what = _describe(instr.desc)
            milestones += _navigation(world, objs, what)
            verb = "go to" if isinstance(instr, GoToInstr) else "pick up" if isinstance(instr, PickupInstr) else "open"
            final = f"{verb} the {what}"
        for name, condition in milestones:
            result.append(
                Subgoal(name, predicate=lambda w, cond=condition, d=done, a=active: d(w) or (a(w) and cond(w)))
            )
        result.append(Subgoal(final, predicate=done))
    return result
