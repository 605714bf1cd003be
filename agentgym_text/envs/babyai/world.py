"""The engine adapter: one minigrid BabyAI level driven by parsed commands, with the agent's knowledge.

``BabyAIWorld`` owns the minigrid env, runs low-level actions (updating what the agent has seen after each),
checks a command against the current state (a ``Plan`` or a ``Refusal`` with the reason), executes it into an
:class:`~agentgym_text.envs.babyai.events.Event`, reports the agent's :class:`~agentgym_text.envs.babyai.events.View`,
and lists exactly the commands that would be accepted now. Text is :mod:`agentgym_text.envs.babyai.render`'s job.
"""

from __future__ import annotations

from dataclasses import dataclass

from agentgym_text.core.info import InvalidReason
from agentgym_text.envs.babyai.actions import Command
from agentgym_text.envs.babyai.engine_fixes import fix_strict_sequences
from agentgym_text.envs.babyai.events import Event, View
from agentgym_text.envs.babyai.levels import make_engine
from agentgym_text.envs.babyai.navigation import (
    DIR_VECS,
    DROP,
    FORWARD,
    LEFT,
    PICKUP,
    RIGHT,
    TOGGLE,
    Plan,
    Reachability,
    agent_cell,
    crossing_neighbours,
    face_plan,
    is_passable,
    path_actions,
    reachability,
)  # fmt: skip
from agentgym_text.envs.babyai.perception import Perception
from agentgym_text.envs.babyai.render import door_state, object_label

__all__ = ["BabyAIWorld", "Refusal", "ENGINE_STEP_CAP"]

ENGINE_STEP_CAP = 10**9
"""minigrid's own time limit is switched off: the text env's step budget is the only one."""

_LOW_LEVEL_ACTIONS = {"left": LEFT, "right": RIGHT, "forward": FORWARD, "pickup": PICKUP, "drop": DROP,
                      "toggle": TOGGLE}  # fmt: skip
_PICKABLE = ("key", "ball", "box")


def _no_observation() -> None:
    return None


@dataclass(frozen=True)
class Refusal:
    """Why a command cannot be carried out now."""

    message: str
    reason: InvalidReason


class BabyAIWorld:
    """One BabyAI level instance plus what the agent has seen of it."""

    def __init__(self, level: str):
        self.level = level
        self.env = make_engine(level)
        self.perception = Perception(1, 1)
        self.terminated = False
        self.success = False
        self.low_level_steps = 0
        self._reach: tuple[Perception, int, tuple, Reachability] | None = None
        self._grid_version = 0  # bumped by every action that can change the grid (pickup, drop, toggle)
        self._build = True  # False while only listing: feasibility without building action lists
        self._admissible: tuple[int, list[str]] | None = None
        self._candidates: tuple[Perception, int, list[tuple[Command, str, tuple[str, object] | None]]] | None = None

    # ---- lifecycle -------------------------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        self.env.reset(seed=int(seed))
        self.env.max_steps = ENGINE_STEP_CAP
        self._fix_positions()
        fix_strict_sequences(self.env)
        self.perception = Perception(self.env.width, self.env.height)
        self.perception.update(self.env)
        self.terminated = False
        self.success = False
        self.low_level_steps = 0
        self._reach = None
        self._grid_version += 1
        self._admissible = None
        self._candidates = None

    @property
    def mission(self) -> str:
        return str(self.env.mission)

    def step_low_level(self, action: int) -> None:
        """One minigrid step; records termination (success or a Debug level's failure)."""
        env = self.env
        env.gen_obs = _no_observation  # the text layer computes its own view; skip minigrid's image
        try:
            _, reward, terminated, _truncated, _ = env.step(action)
        finally:
            del env.gen_obs
        self.low_level_steps += 1
        if action in (PICKUP, DROP, TOGGLE):  # in BabyAI only these change the grid (turns and moves do not)
            self._grid_version += 1
        if action == TOGGLE:  # an opened box leaves its content, placed without a position
            self._fix_positions()
        self.perception.update(env)
        if terminated:
            self.terminated = True
            self.success = reward > 0
        return None

    def _fix_positions(self) -> None:
        """Give every object its grid position (some levels place objects without setting ``cur_pos``)."""
        grid = self.env.grid
        width = grid.width
        for index, obj in enumerate(grid.grid):
            if obj is not None and obj.type != "wall":
                obj.cur_pos = (index % width, index // width)

    # ---- queries -----------------------------------------------------------------------------------------
    def view(self) -> View:
        """What the agent perceives now."""
        carrying = self.env.carrying
        label = None
        if carrying is not None:
            label = self.perception.names.known(carrying) or f"{carrying.color} {carrying.type}"
        return View(tuple(self.perception.visible), self.perception.wall_ahead(), label)

    def label(self, obj) -> str:
        name = self.perception.names.known(obj) or f"{obj.color} {obj.type}"
        return object_label(name, obj)

    def front_cell(self) -> tuple[int, int]:
        """The cell in front of the agent (minigrid's ``front_pos`` as ints, without its numpy arithmetic)."""
        env = self.env
        dx, dy = DIR_VECS[env.agent_dir]
        return int(env.agent_pos[0]) + dx, int(env.agent_pos[1]) + dy

    def front(self):
        return self.env.grid.get(*self.front_cell())

    def position_of(self, obj) -> tuple[int, int] | None:
        """Where ``obj`` lies in the grid, or None if it is carried or gone (an opened box)."""
        pos = obj.cur_pos
        if pos is None or self.env.carrying is obj:
            return None
        x, y = int(pos[0]), int(pos[1])
        if x < 0 or y < 0 or self.env.grid.get(x, y) is not obj:
            return None
        return (x, y)

    def reach(self) -> Reachability:
        perception = self.perception
        cached = self._reach
        if cached is not None and cached[0] is perception and cached[1] == perception.version:
            return cached[3]  # nothing has happened since (every low-level step updates the perception)
        # what the search reads: the agent's cell, the seen cells and the grid (a turn changes none of them)
        key = (perception.seen_version, self._grid_version, agent_cell(self.env))
        if cached is not None and cached[0] is perception and cached[2] == key:
            reach = cached[3]
        else:
            reach = reachability(self.env, perception.seen_cells)
        self._reach = (perception, perception.version, key, reach)
        return reach

    # ---- checking commands ---------------------------------------------------------------------------
    def check(self, command: Command) -> Plan | Refusal:
        """The plan for ``command`` in the current state, or why it cannot be done."""
        if command.target is None:
            return self._check_low_level(command.kind)
        resolved = self.resolve(command)
        if isinstance(resolved, Refusal):
            return resolved
        return self._check_named(command.kind, *resolved)

    def _check_named(self, kind: str, name: str, obj) -> Plan | Refusal:
        pos = self.position_of(obj)
        if pos is None:
            if self.env.carrying is obj:
                return Refusal(f"You are carrying the {name}.", InvalidReason.PRECONDITION)
            return Refusal(f"The {name} is no longer there.", InvalidReason.PRECONDITION)
        handler = {
            "goto": self._check_goto,
            "pickup": self._check_pickup,
            "go_through": self._check_go_through,
            "toggle_through": self._check_toggle_through,
        }[kind]
        return handler(name, obj, pos)

    def resolve(self, command: Command) -> tuple[str, object] | Refusal:
        """The (name, object) a high-level command names, or why it names none (unknown, or ambiguous)."""
        names = self.perception.names
        base = command.target or ""
        index = command.index
        if index is None:
            count = names.count(base)
            if count == 1:
                index = 1
            elif count > 1:
                options = ", ".join(f"{base} {k}" for k in range(1, count + 1))
                return Refusal(f"Which {base}? Name one of: {options}.", InvalidReason.BAD_ARGUMENT)
        name = f"{base} {index}" if index is not None else base
        obj = names.get(name)
        if obj is None:
            known = ", ".join(names.names()) or "nothing yet"
            return Refusal(f"You have not seen a {name}. Objects you have seen: {known}.", InvalidReason.UNKNOWN_OBJECT)
        return name, obj

    def _check_low_level(self, kind: str) -> Plan | Refusal:
        action = _LOW_LEVEL_ACTIONS[kind]
        if action in (LEFT, RIGHT):
            return Plan([action])
        front = self.front()
        carrying = self.env.carrying
        if action == FORWARD:
            if is_passable(front):
                return Plan([FORWARD])
            what = "a wall" if front.type == "wall" else f"the {self.label(front)}"
            return Refusal(f"You can't move forward: there is {what} in front of you.", InvalidReason.PRECONDITION)
        if action == PICKUP:
            if carrying is not None:
                return Refusal(
                    f"You are already carrying the {self.label(carrying)}; drop it first.", InvalidReason.PRECONDITION
                )
            if front is None or front.type not in _PICKABLE:
                return Refusal("There is nothing you can pick up in front of you.", InvalidReason.PRECONDITION)
            return Plan([PICKUP])
        if action == DROP:
            if carrying is None:
                return Refusal("You are not carrying anything to drop.", InvalidReason.PRECONDITION)
            if front is not None:
                what = "a wall" if front.type == "wall" else f"the {self.label(front)}"
                return Refusal(f"You can't drop here: {what} is in front of you.", InvalidReason.PRECONDITION)
            return Plan([DROP])
        # toggle
        if front is None or front.type not in ("door", "box"):
            return Refusal(
                "There is nothing to toggle in front of you (only doors and boxes can be toggled).",
                InvalidReason.PRECONDITION,
            )
        if front.type == "door" and front.is_locked and not self.has_key_for(front):
            return Refusal(
                f"The {self.label(front)} is locked and you are not carrying a {front.color} key.",
                InvalidReason.PRECONDITION,
            )
        return Plan([TOGGLE])

    def has_key_for(self, door) -> bool:
        """Whether the agent carries the key that unlocks ``door``."""
        carrying = self.env.carrying
        return carrying is not None and carrying.type == "key" and carrying.color == door.color

    def _no_path(self, name: str) -> Refusal:
        return Refusal(
            f"There is no known path to the {name}: paths can only use cells you have seen, and closed doors "
            "and objects block the way.",
            InvalidReason.PRECONDITION,
        )

    def _facing(self, pos: tuple[int, int]) -> bool:
        return self.front_cell() == pos

    def _check_goto(self, name: str, obj, pos: tuple[int, int]) -> Plan | Refusal:
        if self._facing(pos):
            return Refusal(f"You are already next to and facing the {name}.", InvalidReason.PRECONDITION)
        actions = face_plan(self.reach(), int(self.env.agent_dir), pos, build=self._build)
        return self._no_path(name) if actions is None else Plan(actions)

    def _check_pickup(self, name: str, obj, pos: tuple[int, int]) -> Plan | Refusal:
        if obj.type not in _PICKABLE:
            return Refusal(f"The {name} cannot be picked up.", InvalidReason.BAD_ARGUMENT)
        if self.env.carrying is not None:
            return Refusal(
                f"You are already carrying the {self.label(self.env.carrying)}; drop it first.",
                InvalidReason.PRECONDITION,
            )
        actions = face_plan(self.reach(), int(self.env.agent_dir), pos, build=self._build)
        return self._no_path(name) if actions is None else Plan(actions + [PICKUP])

    def _check_go_through(self, name: str, door, pos: tuple[int, int]) -> Plan | Refusal:
        if door.type != "door":
            return Refusal(f"The {name} is not a door.", InvalidReason.BAD_ARGUMENT)
        if not door.is_open:
            return Refusal(
                f"The {name} is {door_state(door)}: toggle it first, or use 'toggle and go through {name}'.",
                InvalidReason.PRECONDITION,
            )
        agent = (int(self.env.agent_pos[0]), int(self.env.agent_pos[1]))
        if agent == pos:
            ahead = self.front()
            if self.front_cell() in crossing_neighbours(self.env.grid, pos) and ahead is None:
                return Plan([FORWARD])
            return Refusal(
                f"You are standing in the {name}; face the room you want to enter and move forward.",
                InvalidReason.PRECONDITION,
            )
        reach = self.reach()
        if reach.distance(pos) is None:
            return self._no_path(name)
        if not self._build:
            return Plan([], cross=True)
        actions, _ = path_actions(reach.path(pos), int(self.env.agent_dir))
        return Plan(actions, cross=True)

    def _check_toggle_through(self, name: str, door, pos: tuple[int, int]) -> Plan | Refusal:
        if door.type != "door":
            return Refusal(f"The {name} is not a door.", InvalidReason.BAD_ARGUMENT)
        if door.is_open:
            return Refusal(f"The {name} is already open: use 'go through {name}'.", InvalidReason.PRECONDITION)
        if door.is_locked and not self.has_key_for(door):
            return Refusal(
                f"The {name} is locked and you are not carrying a {door.color} key.", InvalidReason.PRECONDITION
            )
        stands = list(crossing_neighbours(self.env.grid, pos))
        actions = face_plan(self.reach(), int(self.env.agent_dir), pos, stands, build=self._build)
        return self._no_path(name) if actions is None else Plan(actions + [TOGGLE, FORWARD], cross=True)

    # ---- running commands ------------------------------------------------------------------------------
    def execute(self, command: Command) -> Event | Refusal:
        """Check and run ``command``: what it did, or why it cannot be done (then nothing changed)."""
        plan = self.check(command)
        if isinstance(plan, Refusal):
            return plan
        thing = None
        if command.target is None:
            carrying, front = self.env.carrying, self.front()
            if command.kind == "drop" and carrying is not None:
                thing = self.label(carrying)
            elif command.kind == "toggle" and front is not None and front.type != "wall":
                thing = self.label(front)  # as it was: "red door 1 (closed)"
        crossed = self.run(plan)
        if command.target is None and command.kind == "pickup" and self.env.carrying is not None:
            thing = self.label(self.env.carrying)
        name = None
        if command.target is not None:
            name = f"{command.target} {command.index}" if command.index is not None else command.target
        return Event(command.kind, name, thing, crossed, self.terminated, self.success)

    def run(self, plan: Plan) -> bool:
        """Execute a plan (stopping when the episode ends); True if it crossed on through a door."""
        for action in plan.actions:
            self.step_low_level(action)
            if self.terminated:
                return False
        if plan.cross and self.front() is None:
            self.step_low_level(FORWARD)
            return True
        return False

    def candidate_commands(self) -> list[Command]:
        """Every command worth checking now: the six low-level ones and high-level ones on known objects."""
        return [command for command, _, _ in self._candidate_list()]

    def _candidate_list(self) -> list[tuple[Command, str, tuple[str, object] | None]]:
        """(command, its text, the (name, object) it targets) for each candidate; rebuilt only when a new object
        has been named (names are never taken back within an episode)."""
        perception = self.perception
        count = len(perception.names)
        if self._candidates is not None and self._candidates[0] is perception and self._candidates[1] == count:
            return self._candidates[2]
        candidates: list[tuple[Command, str, tuple[str, object] | None]] = []
        for kind in ("left", "right", "forward", "pickup", "drop", "toggle"):
            command = Command(kind)
            candidates.append((command, command.text(), None))
        for name in perception.names.names():
            obj = perception.names.get(name)
            base, _, number = name.rpartition(" ")
            index = int(number)
            if obj.type == "door":
                kinds = ("goto", "go_through", "toggle_through")
            elif obj.type in _PICKABLE:
                kinds = ("goto", "pickup")
            else:
                kinds = ("goto",)
            for kind in kinds:
                command = Command(kind, target=base, index=index)
                candidates.append((command, command.text(), (name, obj)))
        self._candidates = (perception, count, candidates)
        return candidates

    def admissible(self) -> list[str]:
        """Exactly the commands ``check`` accepts now, in their canonical spelling."""
        version = self.perception.version
        if self._admissible is not None and self._admissible[0] == version:
            return list(self._admissible[1])
        self._build = False
        try:
            # a candidate names its object exactly as ``resolve`` would find it, so the check starts after resolving
            listed = [
                text
                for command, text, named in self._candidate_list()
                if isinstance(
                    self._check_low_level(command.kind) if named is None else self._check_named(command.kind, *named),
                    Plan,
                )
            ]
        finally:
            self._build = True
        self._admissible = (version, listed)
        return list(listed)
