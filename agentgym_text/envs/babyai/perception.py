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

    def __len__(self) -> int:
        return len(self._obj_by_name)


def _name_key(name: str) -> tuple[str, int]:
    base, _, number = name.rpartition(" ")
    return base, int(number)


class Perception:
    """The agent's knowledge for one episode: seen cells and named objects, updated from each view."""

    def __init__(self, width: int, height: int):
        self.width = width
        self.height = height
        self.seen = np.zeros((width, height), dtype=bool)
        self.seen_cells: list[bool] = [False] * (width * height)
        """``seen`` as a flat row-major list (index ``y * width + x``, like ``grid.grid``)."""
        self.seen_version = 0  # bumped when a cell is seen for the first time
        self.names = ObjectNames()
        self.version = 0
        self.visible: list[VisibleObject] = []
        self._mask: list[bool] = [False] * (VIEW_SIZE * VIEW_SIZE)
        self._cells: list = [None] * (VIEW_SIZE * VIEW_SIZE)

    def update(self, env) -> list[VisibleObject]:
        """Mark the cells the agent sees now as seen and name the objects among them.

        Visibility follows minigrid's rule for its 7x7 view (light spreads from the agent's cell and stops
        at walls and closed doors), computed straight from the grid so no observation image is needed.
        """
        self.version += 1
        width, height = self.width, self.height
        x0, y0 = int(env.agent_pos[0]), int(env.agent_pos[1])
        direction = int(env.agent_dir)
        flat = env.grid.grid
        xs, ys = _DX_FLAT[direction], _DY_FLAT[direction]
        cells: list = [None] * _CELLS
        inside = [False] * _CELLS
        for k in range(_CELLS):
            x, y = xs[k] + x0, ys[k] + y0
            if 0 <= x < width and 0 <= y < height:
                inside[k] = True
                cells[k] = flat[y * width + x]
            else:
                cells[k] = _OUTSIDE
        mask = _visibility(cells)
        seen, seen_cells = self.seen, self.seen_cells
        found = []
        for k in _SCAN:  # the agent's own cell is the scan's last
            if not (mask[k] and inside[k]):
                continue
            x, y = xs[k] + x0, ys[k] + y0
            index = y * width + x
            if not seen_cells[index]:
                seen_cells[index] = True
                seen[x, y] = True
                self.seen_version += 1
            obj = cells[k]
            if obj is not None and obj.type in NAMED_TYPES and k != _AGENT_K:
                found.append(VisibleObject(self.names.name(obj), obj, (x, y), _FORWARD_FLAT[k], _RIGHT_FLAT[k]))
        self.visible = found
        self._mask = mask
        self._cells = cells
        return found

    def wall_ahead(self) -> int | None:
        """Steps to the first wall straight ahead, if one is in view with nothing before it."""
        column = VIEW_SIZE // 2
        for steps in range(1, VIEW_SIZE):
            k = column * VIEW_SIZE + (VIEW_SIZE - 1 - steps)
            if not self._mask[k]:
                return None
            obj = self._cells[k]
            if obj is None or obj.type == "floor":
                continue
            return steps if obj.type == "wall" else None
        return None

    def visible_mask(self) -> np.ndarray:
        """The current view's visibility as a (7, 7) array indexed [i, j] like minigrid's view."""
        return np.array(self._mask, dtype=bool).reshape(VIEW_SIZE, VIEW_SIZE)


class _Outside:
    """Stands for cells beyond the grid edge (minigrid pads its view with walls)."""

    type = "wall"

    @staticmethod
    def see_behind() -> bool:
        return False


_OUTSIDE = _Outside()
_CELLS = VIEW_SIZE * VIEW_SIZE
_AGENT_K = _AGENT_CELL[0] * VIEW_SIZE + _AGENT_CELL[1]
_DX_FLAT = [[int(v) for v in _DX[d].ravel()] for d in range(4)]
_DY_FLAT = [[int(v) for v in _DY[d].ravel()] for d in range(4)]
_FORWARD_FLAT = [int(v) for v in _FORWARD.ravel()]
_RIGHT_FLAT = [int(v) for v in _RIGHT.ravel()]
_SCAN = [i * VIEW_SIZE + j for i, j in _ORDER] + [_AGENT_K]


def _visibility(cells: list) -> list[bool]:
    """minigrid's visibility spread over the view, on flat [i * 7 + j] cells (j = 0 is the far row)."""
    size = VIEW_SIZE
    mask = [False] * (size * size)
    mask[_AGENT_K] = True
    for j in range(size - 1, -1, -1):
        for i in range(0, size - 1):
            k = i * size + j
            if not mask[k]:
                continue
            cell = cells[k]
            if cell is not None and not cell.see_behind():
                continue
            mask[k + size] = True
            if j > 0:
                mask[k + size - 1] = True
                mask[k - 1] = True
        for i in range(size - 1, 0, -1):
            k = i * size + j
            if not mask[k]:
                continue
            cell = cells[k]
            if cell is not None and not cell.see_behind():
                continue
            mask[k - size] = True
            if j > 0:
                mask[k - size - 1] = True
                mask[k - 1] = True
    return mask
