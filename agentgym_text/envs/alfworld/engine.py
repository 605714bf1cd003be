"""A grounded engine for ALFWorld's PDDL domain (``alfred.pddl``), specialised to the actions ALFWorld 0.4.2 uses.

It keeps the facts textworld's ``PddlEnv`` keeps (including the ``not_inreceptacle`` facts that a deleted
``inReceptacle`` leaves behind, which the grammar's "Next to it, you see ..." reads), lists the admissible
commands Fast Downward's grounding would give (``go to`` only for other locations, ``help`` always), and
renders feedback with ``render.py``. ``tests/test_alfworld_fidelity.py`` checks it step by step against
textworld's ``PddlEnv`` + ``AlfredDemangler`` on generated games.

>>> from agentgym_text.envs.alfworld.generator import generate_world
>>> world = World(generate_world(1, "pick", 0))
>>> world.admissible()[-3:]
['help', 'inventory', 'look']
>>> world.step("go to fridge 1")
'You arrive at fridge 1. The fridge 1 is closed.'
"""

from __future__ import annotations

from typing import Any

from agentgym_text.envs.alfworld import render
from agentgym_text.envs.alfworld.gamefile import mangle
from agentgym_text.envs.alfworld.generator import APPLIANCES, RECEPTACLE_OBJECTS

__all__ = ["World", "Action"]

Action = tuple[str, ...]
"""("goto", r), ("open", r), ("close", r), ("take", o, r), ("move", o, r), ("heat"|"cool"|"clean", o, r),
("use", o), ("slice", o, knife), ("examine_r", r), ("examine_o", o), ("look",), ("inventory",), ("help",)."""

_KNIVES = {"Knife", "ButterKnife"}


def _action_objects() -> dict[str, frozenset[str]]:
    import alfworld.gen.constants as constants

    return {key: frozenset(value) for key, value in constants.VAL_ACTION_OBJECTS.items()}


def _can_contain() -> dict[str, frozenset[str]]:
    import alfworld.gen.constants as constants

    return {key: frozenset(value) for key, value in constants.VAL_RECEPTACLE_OBJECTS.items()}


class World:
    """The state of one generated game; ``step(command)`` returns ALFWorld's feedback text."""

    def __init__(self, world: dict[str, Any]):
        self.spec = world
        goal = world["goal"]
        self.task_type: str = goal["task_type"]
        self.goal_object, self.goal_receptacle, self.goal_toggle = goal["object"], goal["receptacle"], goal["toggle"]
        self.goal_sentence: str = goal["sentence"]
        self.receptacle_ids = sorted(mangle(r["id"]) for r in world["receptacles"])
        self.object_ids = sorted(mangle(o["id"]) for o in world["objects"])
        self.rtype = {mangle(r["id"]): r["type"] for r in world["receptacles"]}
        self.otype = {mangle(o["id"]): o["type"] for o in world["objects"]}
        self.location = {mangle(r["id"]): mangle(r["location"]) for r in world["receptacles"]}
        self.openable = frozenset(mangle(r["id"]) for r in world["receptacles"] if r["openable"])
        self.receptacles_at: dict[str, list[str]] = {}
        for r in self.receptacle_ids:
            self.receptacles_at.setdefault(self.location[r], []).append(r)
        locations = set(self.location.values()) | {mangle(world["agent_location"])}
        locations |= {mangle(o["location"]) for o in world["objects"] if o.get("location")}
        self.names = render.demangled_names(self.receptacle_ids + self.object_ids + sorted(locations))
        self.by_name = {self.names[i]: i for i in self.receptacle_ids + self.object_ids}
        groups = _action_objects()
        kinds = self.otype
        self.toggleable = frozenset(o for o in self.object_ids if kinds[o] in groups["Toggleable"])
        self.pickupable = frozenset(o for o in self.object_ids if o not in self.toggleable)
        self.capable = {
            verb: frozenset(o for o in self.object_ids if kinds[o] in groups[group])
            for verb, group in (
                ("heat", "Heatable"),
                ("cool", "Coolable"),
                ("clean", "Cleanable"),
                ("slice", "Sliceable"),
            )
        }
        self.sliceable = self.capable["slice"]
        self.receptacle_objects = frozenset(o for o in self.object_ids if kinds[o] in RECEPTACLE_OBJECTS)
        self.knives = frozenset(o for o in self.object_ids if kinds[o] in _KNIVES)
        contain = _can_contain()
        self.fits = {r: contain.get(self.rtype[r], frozenset()) for r in self.receptacle_ids}
        # an object outside every receptacle (possible in downloaded games) keeps its own location
        self._start = {
            mangle(o["id"]): mangle(o["receptacle"]) if o.get("receptacle") else None for o in world["objects"]
        }
        self._start_object_location = {
            o: self.location[r] if r is not None else mangle(spec["location"])
            for (o, r), spec in zip(self._start.items(), world["objects"])
        }
        self._start_location = mangle(world["agent_location"])
        self.reset()

    # ---- state ------------------------------------------------------------------------------------------
    def reset(self) -> str:
        self.agent_location = self._start_location
        self.held: str | None = None
        self.inside: dict[str, str | None] = dict(self._start)
        self.contents: dict[str, set[str]] = {r: set() for r in self.receptacle_ids}
        for o, r in self._start.items():
            if r is not None:
                self.contents[r].add(o)
        self.object_location: dict[str, str | None] = dict(self._start_object_location)
        self.not_in: set[tuple[str, str]] = set()
        self.opened: set[str] = set()
        self.clean: set[str] = set()
        self.hot: set[str] = set()
        self.cool: set[str] = set()
        self.toggled: set[str] = set()
        self.sliced: set[str] = set()
        self.flag_sets = {"clean": self.clean, "hot": self.hot, "cool": self.cool, "sliced": self.sliced}
        self._commands: dict[str, Action] | None = None
        return render.intro(self)

    def objects_at(self, location: str) -> list[str]:
        return [o for o, loc in self.object_location.items() if loc == location]

    def visible(self, receptacle: str) -> bool:
        return receptacle not in self.openable or receptacle in self.opened

    # ---- admissible commands ----------------------------------------------------------------------------
    def commands(self) -> dict[str, Action]:
        """Admissible command text -> action, for the current state."""
        if self._commands is not None:
            return self._commands
        names, here, held = self.names, self.agent_location, self.held
        found: dict[str, Action] = {"look": ("look",), "inventory": ("inventory",), "help": ("help",)}
        for r in self.receptacle_ids:
            if self.location[r] != here:
                found.setdefault(f"go to {names[r]}", ("goto", r))
        for r in self.receptacles_at.get(here, ()):
            rname = names[r]
            found[f"examine {rname}"] = ("examine_r", r)
            if r in self.openable:
                found[f"close {rname}" if r in self.opened else f"open {rname}"] = (
                    ("close", r) if r in self.opened else ("open", r)
                )
            visible = self.visible(r)
            for o in self.contents[r]:
                # examineObject's first disjunct (object in a visible receptacle here) never grounds in Fast
                # Downward's translation, so only the held object can be examined, as in the official stack
                if visible and held is None and o in self.pickupable:
                    found[f"take {names[o]} from {rname}"] = ("take", o, r)
                if o in self.toggleable:
                    found.setdefault(f"use {names[o]}", ("use", o))
            if held is not None:
                if visible and self.otype[held] in self.fits[r]:
                    found[f"move {names[held]} to {rname}"] = ("move", held, r)
                for verb, appliance in APPLIANCES.items():
                    if self.rtype[r] == appliance and held in self.capable[verb]:
                        found[f"{verb} {names[held]} with {rname}"] = (verb, held, r)
        if held is not None:
            found.setdefault(f"examine {names[held]}", ("examine_o", held))
            if held in self.knives:
                for o, loc in self.object_location.items():
                    if loc == here and o in self.sliceable:
                        found[f"slice {names[o]} with {names[held]}"] = ("slice", o, held)
        self._commands = found
        return found

    def admissible(self) -> list[str]:
        """The admissible commands, sorted as textworld sorts them."""
        return sorted(self.commands())

    # ---- acting -----------------------------------------------------------------------------------------
    def step(self, command: str) -> str:
        """Apply an exact command; anything not admissible gives "Nothing happens." and changes nothing."""
        action = self.commands().get(command.strip())
        if action is None:
            return render.NOTHING_HAPPENS
        return self.apply(action)

    def apply(self, action: Action) -> str:
        verb, names = action[0], self.names
        if verb in ("look", "inventory", "help", "examine_r", "examine_o"):
            return {
                "look": lambda: render.look(self),
                "inventory": lambda: render.inventory(self),
                "help": lambda: render.HELP_TEXT,
                "examine_r": lambda: render.examine_receptacle(self, action[1]),
                "examine_o": lambda: render.examine_object(self, action[1]),
            }[verb]()
        self._commands = None
        if verb == "goto":
            self.agent_location = self.location[action[1]]
            return f"You arrive at {names[action[1]]}. {render.examine_receptacle(self, action[1])}"
        if verb == "open":
            self.opened.add(action[1])
            return f"You open the {names[action[1]]}. {render.examine_receptacle(self, action[1])}"
        if verb == "close":
            self.opened.discard(action[1])
            return f"You close the {names[action[1]]}."
        if verb == "take":
            o, r = action[1], action[2]
            self.contents[r].discard(o)
            self.inside[o] = None
            self.not_in.add((o, r))
            self.object_location[o] = None
            self.held = o
            return f"You pick up the {names[o]} from the {names[r]}."
        if verb == "move":
            o, r = action[1], action[2]
            self.contents[r].add(o)
            self.inside[o] = r
            self.not_in.discard((o, r))
            self.object_location[o] = self.agent_location
            self.held = None
            return f"You move the {names[o]} to the {names[r]}."
        if verb in APPLIANCES:
            o, r = action[1], action[2]
            if verb == "clean":
                self.clean.add(o)
            elif verb == "heat":
                self.hot.add(o)
                self.cool.discard(o)
            else:
                self.cool.add(o)
                self.hot.discard(o)
            return f"You {verb} the {names[o]} using the {names[r]}."
        if verb == "use":
            self.toggled.add(action[1])
            return f"You turn on the {names[action[1]]}."
        if verb == "slice":
            self.sliced.add(action[1])
            return f"You sliced the {names[action[1]]} with the {names[action[2]]}."
        raise ValueError(f"unknown action {action!r}")

    # ---- goal -------------------------------------------------------------------------------------------
    def instances_in_goal_receptacles(self) -> dict[str, list[str]]:
        """Goal receptacle -> the goal-type objects in it (the state changes not required)."""
        return {
            r: sorted(o for o in self.contents[r] if self.otype[o] == self.goal_object)
            for r in self.receptacle_ids
            if self.rtype[r] == self.goal_receptacle
        }

    def state_done(self, obj: str) -> bool:
        """Whether ``obj`` has the state change the task type asks for (always true for pick and pick-two)."""
        flag = {
            "pick_clean_then_place_in_recep": self.clean,
            "pick_heat_then_place_in_recep": self.hot,
            "pick_cool_then_place_in_recep": self.cool,
        }.get(self.task_type)
        return flag is None or obj in flag

    def won(self) -> bool:
        if self.task_type == "look_at_obj_in_light":
            lamp_here = any(
                self.otype[o] == self.goal_toggle
                and o in self.toggled
                and self.location[self.inside[o]] == self.agent_location
                for o in self.toggleable
                if self.inside[o] is not None
            )
            return lamp_here and self.held is not None and self.otype[self.held] == self.goal_object
        placed = self.instances_in_goal_receptacles()
        if self.task_type == "pick_two_obj_and_place":
            return any(len(objs) >= 2 for objs in placed.values())
        return any(self.state_done(o) for objs in placed.values() for o in objs)
