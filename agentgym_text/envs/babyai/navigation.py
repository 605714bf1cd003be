"""Path planning over the cells the agent has seen, and the low-level action lists of high-level commands.

Passable cells are seen cells that are empty or hold an open door; closed and locked doors, walls and
objects block. Paths are breadth-first over grid cells (fewest moves), then turned into turn/forward actions.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

__all__ = [
    "LEFT", "RIGHT", "FORWARD", "PICKUP", "DROP", "TOGGLE", "DIR_VECS",
    "Plan", "Reachability", "reachability", "turns", "path_actions", "crossing_neighbours",
    "face_plan", "is_passable", "bfs", "agent_cell", "true_reachability",
]  # fmt: skip

LEFT, RIGHT, FORWARD, PICKUP, DROP, TOGGLE = 0, 1, 2, 3, 4, 5
DIR_VECS = ((1, 0), (0, 1), (-1, 0), (0, -1))
_NEIGHBOUR_DIRS = (0, 1, 2, 3)


def is_passable(obj) -> bool:
    """Whether the agent can stand on a cell holding ``obj`` (None = empty)."""
    if obj is None:
        return True
    if obj.type == "door":
        return bool(obj.is_open)
    return obj.type in ("goal", "floor")


@dataclass
class Plan:
    """Low-level actions for one high-level command; ``cross`` = step on through a door if the way is free."""

    actions: list[int] = field(default_factory=list)
    cross: bool = False


class Reachability:
    """Breadth-first distances from the agent over known passable cells."""

    def __init__(self, width: int, height: int, start: tuple[int, int], parent: list[int], dist: list[int]):
        self.width = width
        self.height = height
        self.start = start
        self._parent = parent
        self._dist = dist

    def distance(self, pos: tuple[int, int]) -> int | None:
        x, y = pos
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        value = self._dist[y * self.width + x]
        return None if value < 0 else value

    def path(self, goal: tuple[int, int]) -> list[tuple[int, int]]:
        """Cells from the start to ``goal`` (both included); ``goal`` must be reachable."""
        width = self.width
        index = goal[1] * width + goal[0]
        cells = []
        while index >= 0:
            cells.append((index % width, index // width))
            index = self._parent[index]
        cells.reverse()
        return cells


def bfs(width: int, height: int, start: tuple[int, int], open_cells: list[bool]) -> Reachability:
    """Breadth-first search over ``open_cells`` (row-major, like ``grid.grid``) from ``start``."""
    dist = [-1] * (width * height)
    parent = [-1] * (width * height)
    start_index = start[1] * width + start[0]
    dist[start_index] = 0
    queue = deque([start_index])
    while queue:
        index = queue.popleft()
        x, y = index % width, index // width
        next_dist = dist[index] + 1
        for dx, dy in DIR_VECS:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < width and 0 <= ny < height):
                continue
            n_index = ny * width + nx
            if dist[n_index] >= 0 or not open_cells[n_index]:
                continue
            dist[n_index] = next_dist
            parent[n_index] = index
            queue.append(n_index)
    return Reachability(width, height, start, parent, dist)


def agent_cell(env) -> tuple[int, int]:
    return int(env.agent_pos[0]), int(env.agent_pos[1])


def reachability(env, seen_cells: list[bool]) -> Reachability:
    """BFS from the agent's cell over seen, passable cells (what high-level commands may use); ``seen_cells`` is
    row-major like ``grid.grid``."""
    grid = env.grid
    open_cells = [known and is_passable(obj) for known, obj in zip(seen_cells, grid.grid)]
    return bfs(grid.width, grid.height, agent_cell(env), open_cells)


def true_reachability(env, objects_block: bool = True, sealed_colors: frozenset = frozenset()) -> Reachability:
    """BFS over the true grid (the expert's view): doors are passable (except locked ones of
    ``sealed_colors``), walls block, objects block if ``objects_block``."""
    grid = env.grid
    open_cells = [
        obj is None
        or (obj.type == "door" and not (obj.is_locked and obj.color in sealed_colors))
        or obj.type in ("goal", "floor")
        or (not objects_block and obj.type not in ("wall", "door"))
        for obj in grid.grid
    ]
    return bfs(grid.width, grid.height, agent_cell(env), open_cells)


def turns(current: int, wanted: int) -> list[int]:
    """The fewest turn actions from one facing direction to another."""
    diff = (wanted - current) % 4
    return {0: [], 1: [RIGHT], 2: [RIGHT, RIGHT], 3: [LEFT]}[diff]


def _direction(a: tuple[int, int], b: tuple[int, int]) -> int:
    return DIR_VECS.index((b[0] - a[0], b[1] - a[1]))


def path_actions(cells: list[tuple[int, int]], direction: int) -> tuple[list[int], int]:
    """Actions walking ``cells`` (the first is the agent's) starting facing ``direction``; and the end direction."""
    actions: list[int] = []
    for a, b in zip(cells, cells[1:]):
        wanted = _direction(a, b)
        actions += turns(direction, wanted)
        actions.append(FORWARD)
        direction = wanted
    return actions, direction


def crossing_neighbours(grid, pos: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two cells a door connects (along the axis that is not wall)."""
    x, y = pos
    left, right = grid.get(x - 1, y) if x > 0 else None, grid.get(x + 1, y) if x + 1 < grid.width else None
    horizontal_blocked = (left is not None and left.type == "wall") or (right is not None and right.type == "wall")
    if horizontal_blocked:
        return (x, y - 1), (x, y + 1)
    return (x - 1, y), (x + 1, y)


def face_plan(
    reach: Reachability,
    direction: int,
    target: tuple[int, int],
    stand_cells: list[tuple[int, int]] | None = None,
    build: bool = True,
) -> list[int] | None:
    """Actions to stand next to ``target`` facing it (from the nearest reachable ``stand_cells``), or None.

    With ``build=False`` only feasibility is decided (an empty list when feasible).
    """
    tx, ty = target
    candidates = stand_cells if stand_cells is not None else [(tx - dx, ty - dy) for dx, dy in DIR_VECS]
    best = None
    for cell in candidates:
        distance = reach.distance(cell)
        if distance is not None and (best is None or distance < best[0]):
            best = (distance, cell)
    if best is None:
        return None
    if not build:
        return []
    cells = reach.path(best[1])
    actions, end_direction = path_actions(cells, direction)
    actions += turns(end_direction, _direction(best[1], target))
    return actions
