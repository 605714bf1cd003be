"""The expert: an oracle planner (it reads the true grid) that acts only through the text actions.

Each call looks at the first unfinished mission clause and picks one action: a high-level command when the
target (or the next door on the way) is known and reachable over seen cells, otherwise one low-level step
along the true shortest route, which reveals the way. Locked doors send it for the matching key first;
objects blocking the only route are picked up and put down out of the way.
"""

from __future__ import annotations

import threading

from minigrid.envs.babyai.core.verifier import GoToInstr, OpenInstr, PickupInstr, PutNextInstr, pos_next_to

from agentgym_text.envs.babyai.actions import Command
from agentgym_text.envs.babyai.instructions import clause_done, clauses
from agentgym_text.envs.babyai.navigation import DIR_VECS, Plan, agent_cell, true_reachability

__all__ = ["expert_action"]

_MAX_DEPTH = 4
_CALL = threading.local()
"""Per-call scratch (thread-local): ``keep_clear`` = cells on the ways to the remaining targets, where nothing
is dropped; ``sealed`` = colours of locked doors a key hunt must not route through (their key is the one
it looks for)."""


def expert_action(world) -> str:
    """The expert's next text action in the current state."""
    todo = [c for c in clauses(world.env.instrs) if not clause_done(c, world)]
    active = [c for c in todo if all(clause_done(p, world) for p in c.after)] or todo
    if not active:
        return "turn left"
    instr = active[0].instr
    _CALL.keep_clear = set()
    _CALL.sealed = set()
    for clause in todo:  # keep the way to every remaining target clear, not just the current one
        _CALL.keep_clear.update(_route_cells_ignoring_objects(world, _clause_targets(world, clause.instr)))
        if isinstance(clause.instr, PutNextInstr):
            fixed = [obj for obj in clause.instr.desc_fixed.obj_set if world.position_of(obj) is not None]
            _CALL.keep_clear.update(_route_cells_ignoring_objects(world, fixed))
    if isinstance(instr, PutNextInstr):
        return _put_next(world, instr)
    objs = [obj for obj in instr.desc.obj_set if world.position_of(obj) is not None]
    if isinstance(instr, PickupInstr):
        return _reach(world, objs, "pickup")
    if isinstance(instr, OpenInstr):
        return _reach(world, objs, "open")
    assert isinstance(instr, GoToInstr)
    return _reach(world, objs, "goto")


def _clause_targets(world, instr) -> list:
    if isinstance(instr, PutNextInstr):
        carried = world.env.carrying is not None and world.env.carrying in instr.desc_move.obj_set
        desc = instr.desc_fixed if carried else instr.desc_move
    else:
        desc = instr.desc
    return [obj for obj in desc.obj_set if world.position_of(obj) is not None]


def _name(world, obj) -> str | None:
    return world.perception.names.known(obj)


def _command_for(world, obj, final: str) -> Command | None:
    name = _name(world, obj)
    if name is None:
        return None
    base, _, number = name.rpartition(" ")
    if final == "pickup":
        return Command("pickup", base, int(number))
    if final == "open":
        return Command("toggle_through", base, int(number))
    return Command("goto", base, int(number))


def _facing(world, pos) -> bool:
    front = world.env.front_pos
    return int(front[0]) == pos[0] and int(front[1]) == pos[1]


def _reach(world, objs, final: str, depth: int = 0) -> str:
    """Act towards facing one of ``objs`` and then doing ``final`` (goto / pickup / open)."""
    carrying = world.env.carrying
    if final == "pickup" and carrying is not None:
        route = _route(world, [world.position_of(obj) for obj in objs])
        if route is None:
            return _clear_blocker(world, [world.position_of(obj) for obj in objs], depth)
        if not _has_closed_door(world, route[0]):
            # hands must be free; a key is kept until the doors on the way are open
            return _drop_somewhere(world, set(route[0]))
    if final == "open":
        usable = [obj for obj in objs if not obj.is_locked or world.has_key_for(obj)]
        if usable:
            objs = usable
    if final == "open" and depth < _MAX_DEPTH:
        locked = [obj for obj in objs if obj.is_locked and not world.has_key_for(obj)]
        if locked and len(locked) == len(objs):
            door_pos = world.position_of(locked[0])
            if _route(world, [door_pos]) is None:
                return _clear_blocker(world, [door_pos], depth)
            return _fetch_key(world, locked[0].color, depth)
    for obj in objs:
        if _facing(world, world.position_of(obj)):
            if final == "pickup":
                return "pick up"
            if final == "open":
                if obj.is_locked and not world.has_key_for(obj):
                    break
                return "toggle"
            if final == "toggle":
                return "toggle"
            return "turn left"  # already facing a go-to target only happens at the start
    best = None
    for obj in objs:
        command = _command_for(world, obj, final)
        if command is None:
            continue
        plan = world.check(command)
        if isinstance(plan, Plan) and (best is None or len(plan.actions) < best[0]):
            best = (len(plan.actions), command)
    if best is not None:
        return best[1].text()
    targets = [world.position_of(obj) for obj in objs]
    return _walk_towards(world, [pos for pos in targets if pos is not None], depth)


def _route(world, targets, stands=None):
    """The true shortest route (cells) to stand facing one of ``targets``, objects blocking; or None."""
    reach = true_reachability(world.env, objects_block=True, sealed_colors=frozenset(getattr(_CALL, "sealed", ())))
    pairs = stands if stands is not None else _stand_cells(targets)
    best = None
    for stand, target in pairs:
        distance = reach.distance(stand)
        if distance is not None and (best is None or distance < best[0]):
            best = (distance, stand, target)
    return None if best is None else (reach.path(best[1]), best[2])


def _has_closed_door(world, path) -> bool:
    return any(
        (cell := world.env.grid.get(x, y)) is not None and cell.type == "door" and not cell.is_open for x, y in path
    )


def _stand_cells(targets) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    return [((x - dx, y - dy), (x, y)) for x, y in targets for dx, dy in DIR_VECS]


def _walk_towards(world, targets, depth: int, stands=None) -> str:
    """One action along the true shortest route to stand facing one of ``targets``."""
    env = world.env
    route = _route(world, targets, stands)
    if route is None:
        return _clear_blocker(world, targets, depth)
    path, target = route
    doors = [
        (i, env.grid.get(x, y))
        for i, (x, y) in enumerate(path)
        if (c := env.grid.get(x, y)) is not None and c.type == "door"
    ]
    closed = [door for _, door in doors if not door.is_open]
    if closed and closed[0].is_locked and not world.has_key_for(closed[0]) and depth < _MAX_DEPTH:
        return _fetch_key(world, closed[0].color, depth)
    # The first door on the route: open it and go through, or just go through.
    for index, (x, y) in enumerate(path):
        cell = env.grid.get(x, y)
        if cell is not None and cell.type == "door" and not cell.is_open:
            command = _command_for(world, cell, "open")
            if command is not None and isinstance(world.check(command), Plan):
                return command.text()
            if _facing(world, (x, y)):
                return "toggle"
            return _step_along(world, path)
        if cell is not None and cell.type == "door" and cell.is_open and index > 0:
            command = Command("go_through", *_split(_name(world, cell)))
            if _name(world, cell) is not None and isinstance(world.check(command), Plan):
                return command.text()
            break
    if len(path) == 1:
        return _turn_to(world, target)
    return _step_along(world, path)


def _split(name: str | None) -> tuple[str | None, int | None]:
    if name is None:
        return None, None
    base, _, number = name.rpartition(" ")
    return base, int(number)


def _turn_to(world, target) -> str:
    ax, ay = agent_cell(world.env)
    wanted = DIR_VECS.index((target[0] - ax, target[1] - ay))
    diff = (wanted - int(world.env.agent_dir)) % 4
    if diff == 0:
        return "turn left"
    return "turn left" if diff == 3 else "turn right"


def _step_along(world, path) -> str:
    nxt = path[1]
    ax, ay = path[0]
    wanted = DIR_VECS.index((nxt[0] - ax, nxt[1] - ay))
    diff = (wanted - int(world.env.agent_dir)) % 4
    if diff == 0:
        cell = world.env.grid.get(*nxt)
        if cell is not None and cell.type == "door" and not cell.is_open:
            return "toggle"
        return "move forward"
    return "turn left" if diff == 3 else "turn right"


def _keys(world, color: str) -> list:
    return [obj for obj in world.env.grid.grid if obj is not None and obj.type == "key" and obj.color == color]


def _fetch_key(world, color: str, depth: int) -> str:
    _CALL.sealed.add(color)
    keys = _keys(world, color)
    if keys:
        return _reach(world, keys, "pickup", depth + 1)
    boxes = [
        obj for obj in world.env.grid.grid
        if obj is not None and obj.type == "box" and obj.contains is not None
        and obj.contains.type == "key" and obj.contains.color == color
    ]  # fmt: skip
    carrying = world.env.carrying
    if carrying is not None and carrying.type == "box" and carrying.contains is not None:
        if carrying.contains.type == "key" and carrying.contains.color == color:
            return _drop_somewhere(world)  # put the box down to open it
    if world.env.carrying is not None and boxes:
        route = _route(world, [world.position_of(box) for box in boxes])
        if route is not None and not _has_closed_door(world, route[0]):
            return _drop_somewhere(world, set(route[0]))
    return _reach(world, boxes, "toggle", depth + 1)  # the key is in a box: open the box


def _route_cells_ignoring_objects(world, objs) -> set[tuple[int, int]]:
    """Cells of the way to ``objs``: the route around objects and the one as if objects were moved."""
    targets = [world.position_of(obj) for obj in objs if world.position_of(obj) is not None]
    cells = set(_loose_path(world, targets) or [])
    route = _route(world, targets)
    if route is not None:
        cells.update(route[0])
    return cells


def _loose_path(world, targets) -> list[tuple[int, int]] | None:
    """The shortest route to stand next to a target when objects could be moved out of the way."""
    reach = true_reachability(world.env, objects_block=False)
    best = None
    for stand, _target in _stand_cells(targets):
        distance = reach.distance(stand)
        if distance is not None and (best is None or distance < best[0]):
            best = (distance, stand)
    return None if best is None else reach.path(best[1])


def _clear_blocker(world, targets, depth: int) -> str:
    """No route without moving an object: pick up the first object on the route ignoring objects."""
    env = world.env
    path = _loose_path(world, targets)
    if path is None or depth > 2 * _MAX_DEPTH:
        return "turn left"
    for x, y in path[1:]:
        cell = env.grid.get(x, y)
        if cell is None:
            continue
        if cell.type == "door" and not cell.is_open and depth < _MAX_DEPTH:
            # a closed door before the blocking object: open it first (with its key)
            if cell.is_locked and not world.has_key_for(cell):
                return _fetch_key(world, cell.color, depth + 1)
            return _reach(world, [cell], "open", depth + 1)
        if cell.type in ("key", "ball", "box"):
            if env.carrying is not None:
                return _drop_somewhere(world, set(path))
            return _reach(world, [cell], "pickup", depth + 1)
    return "turn left"


def _drop_somewhere(world, avoid: set[tuple[int, int]] = frozenset(), depth: int = 0) -> str:
    """Put down what is carried, preferring a free cell off ``avoid`` that blocks no door."""
    env = world.env
    ax, ay = agent_cell(env)
    direction = int(env.agent_dir)
    avoid = set(avoid) | _CALL.keep_clear
    in_doorway = _cell_type(env, (ax, ay)) == "door"
    ideal = off_route = any_free = None
    for turn, action in ((0, "drop"), (3, "turn left"), (1, "turn right"), (2, "turn right")):
        dx, dy = DIR_VECS[(direction + turn) % 4]
        cell = (ax + dx, ay + dy)
        if env.grid.get(*cell) is not None:
            continue
        any_free = any_free or action
        if cell not in avoid:
            off_route = off_route or action
            if not _next_to_door(env, cell) and not in_doorway:
                ideal = ideal or action
    if ideal is not None:
        return ideal
    walk = _walk_to_drop_cell(world, avoid, depth)
    if walk is not None:
        return walk
    if off_route is not None:
        return off_route
    if isinstance(world.check(Command("forward")), Plan):
        return "move forward"  # the only free cells are on the way: move on to free one behind
    return any_free or "turn left"


def _walk_to_drop_cell(world, avoid, depth: int) -> str | None:
    """A step towards the nearest free cell (off ``avoid``, next to no door) to drop things on."""
    env = world.env
    grid = env.grid
    width = grid.width
    pairs = []
    for index, obj in enumerate(grid.grid):
        cell = (index % width, index // width)
        if obj is not None or cell in avoid or _next_to_door(env, cell):
            continue
        for dx, dy in DIR_VECS:
            stand = (cell[0] - dx, cell[1] - dy)
            if 0 <= stand[0] < width and 0 <= stand[1] < grid.height:
                if grid.get(*stand) is None:  # not a doorway (the agent's own cell is None in the grid too)
                    pairs.append((stand, cell))
    route = _route(world, [], pairs)
    if route is None or len(route[0]) > 12 or depth > _MAX_DEPTH:
        return None
    return _walk_towards(world, [route[1]], depth + 1, stands=[(route[0][-1], route[1])])


def _cell_type(env, cell) -> str | None:
    obj = env.grid.get(*cell)
    return None if obj is None else obj.type


def _next_to_door(env, cell) -> bool:
    x, y = cell
    for dx, dy in DIR_VECS:
        other = env.grid.get(x + dx, y + dy)
        if other is not None and other.type == "door":
            return True
    return False


def _put_next(world, instr) -> str:
    env = world.env
    carrying = env.carrying
    fixed = [world.position_of(obj) for obj in instr.desc_fixed.obj_set]
    fixed = [pos for pos in fixed if pos is not None]
    if carrying is None or carrying not in instr.desc_move.obj_set:
        moving = [obj for obj in instr.desc_move.obj_set if world.position_of(obj) is not None]
        if _route(world, fixed) is None and _loose_path(world, fixed) is not None:
            # the way to the destination is blocked: clear it before fetching the object to move
            path = _loose_path(world, fixed)
            blockers = [world.env.grid.get(*cell) for cell in path[1:]]
            if not any(obj is not None and obj in instr.desc_move.obj_set for obj in blockers):
                return _clear_blocker(world, fixed, 0)
        return _reach(world, moving, "pickup")
    free_cells = sorted(
        {(x + dx, y + dy) for x, y in fixed for dx, dy in DIR_VECS if env.grid.get(x + dx, y + dy) is None}
    )
    front = (int(env.front_pos[0]), int(env.front_pos[1]))
    if front in free_cells and front != agent_cell(env) and any(pos_next_to(front, pos) for pos in fixed):
        return "drop"

    def standable(cell) -> bool:
        obj = env.grid.get(*cell)
        return obj is None or (obj.type == "door" and obj.is_open)

    def stands_for(cells):
        return [((x - dx, y - dy), (x, y)) for x, y in cells for dx, dy in DIR_VECS if standable((x - dx, y - dy))]

    # prefer cells that block no door; else any free cell next to the target (even the agent's own)
    stands = stands_for([cell for cell in free_cells if not _next_to_door(env, cell) and cell != agent_cell(env)])
    if _route(world, fixed, stands) is None:
        stands = stands_for(free_cells)
    # Far away: a high-level "go to" the fixed object first.
    reach = true_reachability(env, objects_block=True)
    nearest = min((reach.distance(stand) for stand, _ in stands if reach.distance(stand) is not None), default=None)
    ax, ay = agent_cell(env)
    next_to_fixed = any(abs(ax - x) + abs(ay - y) <= 1 for x, y in fixed)
    if nearest is not None and nearest > 3 and not next_to_fixed:
        for obj in instr.desc_fixed.obj_set:
            command = _command_for(world, obj, "goto")
            if command is not None and isinstance(world.check(command), Plan):
                return command.text()
    if nearest is not None and nearest == 0:
        for stand, target in stands:
            if stand == agent_cell(env):
                return _turn_to(world, target)
    return _walk_towards(world, fixed, 0, stands=stands)
