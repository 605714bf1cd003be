"""AgentBoard's BabyAI text: the view description, the action table and the error messages, as AgentBoard words them.

A re-implementation (no AgentBoard code) of what AgentBoard's ``babyai_env.py`` computes from minigrid's 7x7
egocentric image after every high-level action: objects sorted by Manhattan distance and numbered per name
("There is a red ball 1 right in front of you 3 steps away."), the nearest wall or box straight ahead, what the
agent carries; and a table from action names ("pickup green box 1", "go to red ball 1", "toggle and go through
blue locked door 1", ...) to minigrid action lists found by breadth-first search over (cell, direction) inside the
view rectangle, with a specific error message for each action that exists but cannot be done now.

``fixes=True`` (the default) corrects AgentBoard's bugs, wording kept (listed in the family README);
``fixes=False`` reproduces them too, for the reference replay.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np
from minigrid.core.constants import IDX_TO_COLOR, IDX_TO_OBJECT

__all__ = ["AgentBoardView", "agentboard_view", "CHECK_ACTION", "UNKNOWN", "COMPLETED", "agentboard_goal"]

CHECK_ACTION = "check available actions"
UNKNOWN = "The action is not recognized. Please check valid actions."
COMPLETED = "\n The task is completed."

_STATES = {0: "open", 1: "closed", 2: "locked"}
_DIR_VECS = ((1, 0), (0, 1), (-1, 0), (0, -1))
_NAMED = ("door", "key", "ball", "box", "goal", "lava", "wall")
_BLOCKING = ("wall", "box", "lava", "ball", "key")
_LEFT, _RIGHT, _FORWARD, _PICKUP, _DROP, _TOGGLE = 0, 1, 2, 3, 4, 5


def agentboard_goal(mission: str) -> str:
    """AgentBoard's goal text: the mission with "then" and "after you" read as "and"."""
    return mission.replace("then", "and").replace("after you", "and")


@dataclass
class _Seen:
    name: str
    pos: tuple[int, int]
    dis: int
    k: int = 0  # number in the description (per name, in sorted order); 0 for walls


@dataclass
class AgentBoardView:
    """One state's text, action table (name -> minigrid actions, in AgentBoard's order) and error messages."""

    description: str
    actions: dict[str, list[int]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    targets: dict[str, tuple[int, int]] = field(default_factory=dict)
    """The grid cell each object action is about (for the expert)."""


def _blocked(name: str, fixes: bool) -> bool:
    if any(word in name for word in _BLOCKING):
        return True
    return fixes and ("closed door" in name or "locked door" in name)


def _find_path(start, start_dir, goal, blocked, xs, ys, arrive: bool) -> list[int] | None:
    """Breadth-first search over (cell, direction) with AgentBoard's expansion order and parent bookkeeping."""
    parent: dict = {}
    queue = deque([(start, start_dir)])
    done: set = set()
    while queue:
        pos, d = queue.popleft()
        done.add((pos, d))
        if (pos == goal) if arrive else (goal[0] - pos[0], goal[1] - pos[1]) == _DIR_VECS[d]:
            path = []
            while (pos, d) != (start, start_dir):
                (pos, d), action = parent[(pos, d)]
                path.append(action)
            return path[::-1]
        for action in (_FORWARD, _LEFT, _RIGHT):
            new_pos, new_dir = pos, d
            if action == _LEFT:
                new_dir = (d - 1) % 4
            elif action == _RIGHT:
                new_dir = (d + 1) % 4
            else:
                new_pos = (pos[0] + _DIR_VECS[d][0], pos[1] + _DIR_VECS[d][1])
            if new_pos[0] not in xs or new_pos[1] not in ys or (new_pos, new_dir) in done or new_pos in blocked:
                continue
            queue.append((new_pos, new_dir))
            parent[(new_pos, new_dir)] = ((pos, d), action)
    return None


def _view_ranges(pos, f_vec, r_vec, size: int) -> tuple[range, range]:
    """AgentBoard's search rectangle (one cell wider than the view on one side, as it computes it)."""
    top_left = pos + f_vec * (size - 1) - r_vec * (size // 2)
    border = top_left + size * (r_vec - f_vec)
    ranges = []
    for axis in (0, 1):
        if border[axis] < top_left[axis]:
            ranges.append(range(int(border[axis]), int(top_left[axis]) + 1))
        else:
            ranges.append(range(int(top_left[axis]), int(border[axis])))
    return ranges[0], ranges[1]


def _scan(image, pos, f_vec, r_vec, size: int, d: int):
    """Named cells (walls included) sorted by distance, and the walls/boxes straight ahead (nearest first)."""
    top_left = pos + f_vec * (size - 1) - r_vec * (size // 2)
    seen: list[_Seen] = []
    ahead: list[tuple[int, str]] = []
    fx, fy = _DIR_VECS[d]
    for vis_j in range(size):
        for vis_i in range(size):
            x, y = (int(v) for v in top_left - f_vec * vis_j + r_vec * vis_i)
            distance = abs(int(pos[0]) - x) + abs(int(pos[1]) - y)
            if x < 0 or y < 0 or distance == 0:
                continue
            kind = IDX_TO_OBJECT[int(image[vis_i, vis_j, 0])]
            if kind in _NAMED:
                color = IDX_TO_COLOR[int(image[vis_i, vis_j, 1])]
                state = _STATES.get(int(image[vis_i, vis_j, 2]), "open")
                name = f"{color} {state} {kind}" if kind == "door" else f"{color} {kind}"
                seen.append(_Seen(name, (x, y), distance))
            if kind in ("box", "wall"):
                rx, ry = x - int(pos[0]), y - int(pos[1])
                if fx * ry - fy * rx == 0:
                    ahead.append((fx * rx + fy * ry, kind))
    seen.sort(key=lambda s: s.dis)
    ahead.sort(key=lambda item: item[0])
    counts: dict[str, int] = {}
    for obj in seen:
        if "wall" not in obj.name:
            counts[obj.name] = counts.get(obj.name, 0) + 1
            obj.k = counts[obj.name]
    return seen, ahead


def _relative(obj: _Seen, pos, d: int) -> str:
    rx, ry = obj.pos[0] - int(pos[0]), obj.pos[1] - int(pos[1])
    fx, fy = _DIR_VECS[d]
    front, right = fx * rx + fy * ry, -fy * rx + fx * ry
    if right == 0:
        return f"right in front of you {front} steps away. "
    side = "right" if right > 0 else "left"
    return f"{front} steps in front of you and {abs(right)} steps to your {side}. "


def _describe(seen: list[_Seen], ahead, carrying, pos, d: int) -> str:
    if seen:
        text = "In front of you in this room, you can see several objects: "
        for obj in seen:
            if "wall" not in obj.name:
                text += f"There is a {obj.name} {obj.k} {_relative(obj, pos, d)} "
    else:
        text = "You cannot see any objects within sight."
    text += "The room has walls around you. "
    if ahead:
        text += f"You are facing a {ahead[0][1]} {ahead[0][0]} steps away. "
    if carrying is not None:
        text += f"You are carrying a {carrying.color} {carrying.type}."
    else:
        text += "You are not carrying anything."
    return text


class _Numbering:
    """Action numbers per name: the description's (fixed) or AgentBoard's count of reachable objects only."""

    def __init__(self, prefix: str, fixes: bool):
        self.prefix, self.fixes, self.count = prefix, fixes, {}

    def name(self, obj: _Seen, reachable: bool, actions: dict) -> str:
        if self.fixes:
            return f"{self.prefix}{obj.name} {obj.k}"
        first = f"{self.prefix}{obj.name} 1"
        if first not in actions:
            if reachable:
                self.count[obj.name] = 1
            return first
        if reachable:
            self.count[obj.name] += 1
            return f"{self.prefix}{obj.name} {self.count[obj.name]}"
        return f"{self.prefix}{obj.name} {self.count[obj.name] + 1}"


def agentboard_view(env, fixes: bool = True) -> AgentBoardView:
    """AgentBoard's text and action table for the minigrid env's current state."""
    image = env.gen_obs()["image"]
    size = env.agent_view_size
    pos = np.array(env.agent_pos)
    d = int(env.agent_dir)
    f_vec, r_vec = np.array(env.dir_vec), np.array(env.right_vec)
    xs, ys = _view_ranges(pos, f_vec, r_vec, size)
    seen, ahead = _scan(image, pos, f_vec, r_vec, size, d)
    carrying = env.carrying
    view = AgentBoardView(_describe(seen, ahead, carrying, pos, d), {"turn left": [_LEFT], "turn right": [_RIGHT]})
    actions, errors = view.actions, view.errors
    start = (int(pos[0]), int(pos[1]))
    blocked = {obj.pos for obj in seen if _blocked(obj.name, fixes)}

    def path(obj: _Seen, arrive: bool) -> list[int] | None:
        return _find_path(start, d, obj.pos, blocked, xs, ys, arrive)

    if not ahead or ahead[0][0] > 1:
        actions["move forward"] = [_FORWARD]
    else:
        errors["move forward"] = "There is a barrier in front of you, you can't move forward."

    if carrying is None:
        numbering = _Numbering("pickup ", fixes)
        for obj in seen:
            if any(word in obj.name for word in ("wall", "door", "goal")) or (fixes and "lava" in obj.name):
                continue
            route = path(obj, arrive=False)
            name = numbering.name(obj, route is not None, actions)
            if route is not None:
                actions[name] = route + [_PICKUP]
                view.targets[name] = obj.pos
            else:
                errors[name] = f"You cannot {name}, as there is no path leading to it."
        errors["drop"] = "You cannot drop the object, as you are not carrying anything."
    else:
        front = (start[0] + _DIR_VECS[d][0], start[1] + _DIR_VECS[d][1])
        if any(obj.pos == front and any(word in obj.name for word in _BLOCKING) for obj in seen):
            errors["drop"] = "You cannot drop the object, as there is already an object in front of you."
        else:
            actions["drop"] = [_DROP]

    _doors(view, seen, carrying, path, fixes)

    for obj in seen:
        if "goal" in obj.name:
            route = path(obj, arrive=True)
            if route is not None:
                actions["go to goal"] = route
            else:
                errors["go to goal"] = "You cannot go to the goal, as there is no path leading to it."

    numbering = _Numbering("go to ", fixes)
    for obj in seen:
        if "wall" in obj.name or "goal" in obj.name:
            continue
        route = path(obj, arrive=False)
        name = numbering.name(obj, route is not None, actions)
        if route is not None:
            actions[name] = route
            view.targets[name] = obj.pos
        else:
            errors[name] = f"You cannot {name}, as there is no path leading to it."
    actions[CHECK_ACTION] = []
    return view


def _doors(view: AgentBoardView, seen: list[_Seen], carrying, path, fixes: bool) -> None:
    actions, errors = view.actions, view.errors
    counts: dict[str, int] = {}
    for obj in seen:
        if "door" not in obj.name:
            continue
        counts[obj.name] = counts.get(obj.name, 0) + 1
        named = f"{obj.name} {counts[obj.name]}"
        # AgentBoard prints its whole door-count dict in this message; the fix prints the door's number
        unreachable_number = named if fixes else f"{obj.name} {counts}"
        if "open door" in obj.name:
            route = path(obj, arrive=True)
            if route is not None:
                actions[f"go through {named}"] = route
                view.targets[f"go through {named}"] = obj.pos
            else:
                errors[f"go through {named}"] = f"You cannot go through {named}, as there is no path leading to it."
            continue
        if "locked door" in obj.name:
            if carrying is None or carrying.type != "key":
                errors[f"toggle and go through {named}"] = (
                    f"You cannot toggle and go through {named}, as you are not carrying a key."
                )
                continue
            if carrying.color != obj.name.split(" ")[0]:
                errors[f"toggle and go through {named}"] = (
                    f"You cannot toggle and go through {named}, as the color of the key you are carrying does "
                    "not match the color of door."
                )
                continue
        route = path(obj, arrive=False)
        if route is not None:
            actions[f"toggle and go through {named}"] = route + [_TOGGLE, _FORWARD]
            view.targets[f"toggle and go through {named}"] = obj.pos
        else:
            errors[f"toggle and go through {named}"] = (
                f"You cannot toggle and go through {unreachable_number}, as there is no path leading to it."
            )
        if route == []:
            actions["toggle"] = [_TOGGLE]
        if "closed door" in obj.name:
            errors[f"go through {named}"] = (
                f"You cannot go through {named}, as it is closed. You should toggle it first."
            )
