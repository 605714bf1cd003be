"""What the agent has seen: the 7x7 egocentric view mapped to the grid, a seen-cells map, and per-episode names.

Names are "<colour> <type> <k>" (e.g. "red ball 1"): k counts objects of that colour and type in the order
the agent first saw them, and an object keeps its name for the whole episode (carried, dropped, a door
opened). The names in descriptions are exactly the names actions accept.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["VIEW_SIZE", "VisibleObject", "ObjectNames", "Perception", "NAMED_TYPES"]

VIEW_SIZE = 7
NAMED_TYPES = frozenset({"door", "key", "ball", "box", "goal", "lava"})
"""Object types the agent is told about (walls, floor and empty cells are not named)."""

_UNSEEN = 0
_WALL = 2
_AGENT_CELL = (VIEW_SIZE // 2, VIEW_SIZE - 1)
_DIR_VECS = ((1, 0), (0, 1), (-1, 0), (0, -1))


def _view_offsets() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per facing direction, the grid offset (dx, dy) of every view cell; plus forward/right steps per cell."""
    i, j = np.meshgrid(np.arange(VIEW_SIZE), np.arange(VIEW_SIZE), indexing="ij")
    forward = (VIEW_SIZE - 1) - j
    right = i - VIEW_SIZE // 2
    dx = np.empty((4, VIEW_SIZE, VIEW_SIZE), dtype=np.int64)
    dy = np.empty((4, VIEW_SIZE, VIEW_SIZE), dtype=np.int64)
    for direction, (fx, fy) in enumerate(_DIR_VECS):
        rx, ry = -fy, fx
        dx[direction] = forward * fx + right * rx
        dy[direction] = forward * fy + right * ry
    return dx, dy, forward, right


_DX, _DY, _FORWARD, _RIGHT = _view_offsets()
# Scan order of view cells for naming/sorting: by distance, then far row first, then left to right.
_ORDER = sorted(
    ((i, j) for i in range(VIEW_SIZE) for j in range(VIEW_SIZE) if (i, j) != _AGENT_CELL),
    key=lambda cell: (int(_FORWARD[cell] + abs(_RIGHT[cell])), cell[1], cell[0]),
)
_ORDER_RANK = np.zeros((VIEW_SIZE, VIEW_SIZE), dtype=np.int64)
for _rank, _cell in enumerate(_ORDER):
    _ORDER_RANK[_cell] = _rank


@dataclass(frozen=True)
class VisibleObject:
    """One named object in view: its name, grid position and offset from the agent."""

    name: str
    obj: object
    pos: tuple[int, int]
    forward: int
    right: int


class ObjectNames:
    """Stable per-episode names, assigned on first sight."""

    def __init__(self) -> None:
        self._name_by_key: dict[int, str] = {}
        self._obj_by_name: dict[str, object] = {}
        self._counts: dict[str, int] = {}

    def name(self, obj) -> str:
        key = id(obj)
        name = self._name_by_key.get(key)
        if name is None:
            base = f"{obj.color} {obj.type}"
            self._counts[base] = self._counts.get(base, 0) + 1
            name = f"{base} {self._counts[base]}"
            self._name_by_key[key] = name
            self._obj_by_name[name] = obj  # also keeps obj alive, so id() stays unique this episode
        return name

    def known(self, obj) -> str | None:
        return self._name_by_key.get(id(obj))

    def get(self, name: str):
        return self._obj_by_name.get(name)

    def names(self) -> list[str]:
        """Every name given so far, sorted by (base name, number)."""
        return sorted(self._obj_by_name, key=_name_key)

    def count(self, base: str) -> int:
        return self._counts.get(base, 0)


def _name_key(name: str) -> tuple[str, int]:
    base, _, number = name.rpartition(" ")
    return base, int(number)


class Perception:
    """The agent's knowledge for one episode: seen cells and named objects, updated from each view."""

    def __init__(self, width: int, height: int):
        self.width = width
        self.height = height
        self.seen = np.zeros((width, height), dtype=bool)
        self.names = ObjectNames()
        self.version = 0
        self.visible: list[VisibleObject] = []

    def update(self, env, image: np.ndarray) -> list[VisibleObject]:
        """Mark the cells of ``image`` (minigrid's encoded view) as seen and name the objects in it."""
        self.version += 1
        x0, y0 = int(env.agent_pos[0]), int(env.agent_pos[1])
        direction = int(env.agent_dir)
        xs = _DX[direction] + x0
        ys = _DY[direction] + y0
        visible = image[:, :, 0] != _UNSEEN
        inside = visible & (xs >= 0) & (xs < self.width) & (ys >= 0) & (ys < self.height)
        self.seen[xs[inside], ys[inside]] = True
        kinds = image[:, :, 0]
        candidates = np.argwhere(inside & (kinds > _WALL) & (kinds != 3))  # not unseen/empty/wall/floor
        cells = sorted(
            (int(i), int(j)) for i, j in candidates if (int(i), int(j)) != _AGENT_CELL
        )
        cells.sort(key=lambda cell: _ORDER_RANK[cell])
        grid = env.grid
        found = []
        for i, j in cells:
            x, y = int(xs[i, j]), int(ys[i, j])
            obj = grid.get(x, y)
            if obj is None or obj.type not in NAMED_TYPES:
                continue
            found.append(VisibleObject(self.names.name(obj), obj, (x, y), int(_FORWARD[i, j]), int(_RIGHT[i, j])))
        self.visible = found
        return found

    def wall_ahead(self, image: np.ndarray) -> int | None:
        """Steps to the first wall straight ahead, if one is in view with nothing before it."""
        column = VIEW_SIZE // 2
        for steps in range(1, VIEW_SIZE):
            kind = int(image[column, VIEW_SIZE - 1 - steps, 0])
            if kind == _WALL:
                return steps
            if kind != 1 and kind != 3:
                return None
        return None
