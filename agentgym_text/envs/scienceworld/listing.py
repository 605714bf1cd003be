"""Naming a command's objects the way the simulator's current action-object listing names them.

The simulator gives every visible object a unique name in each listing of its action-object combinations, and
the names change from one listing to the next ("orange seed in seed jar containing orange seed", then "seed
orange seed on cup" for the same seed; "round green pea seed" for a seed a gold path calls "pea seed in seed
jar"). A gold action names objects as one listing did when the gold path was generated. In AgentBoard's text an
action is valid when it is listed, so the expert finds the objects the gold action means, as the simulator's
parser would read its words (an object by one of its referents; "R in C" or "R on C": an object called R inside
an object called C), and proposes the listed combination of the same verb on those objects. While it waits for a
fruit, it looks in the listing for a move that pollinates a flower by hand.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Combination", "ObjectIndex", "hand_pollination", "listed_equivalent", "readings"]

VERB_ALIASES = {
    "drop": "put down",
    "take": "pick up",
    "get": "pick up",
    "examine": "look at",
    "turn on": "activate",
    "turn off": "deactivate",
    "consume": "eat",
    "put": "move",
}
"""Verbs the simulator's parser accepts, spelled as its listing spells them."""
_LISTED_VERBS = (
    "look at",
    "look in",
    "pick up",
    "put down",
    "focus on",
    "go to",
    "open",
    "close",
    "activate",
    "deactivate",
    "connect",
    "disconnect",
    "move",
    "pour",
    "dunk",
    "use",
    "read",
    "eat",
    "flush",
    "mix",
)
_VERBS = sorted((*_LISTED_VERBS, *VERB_ALIASES), key=len, reverse=True)
_CONNECTORS = {
    "move": (" to ",),
    "connect": (" to ",),
    "pour": (" into ", " in "),
    "dunk": (" into ", " in "),
    "use": (" on ",),
}
"""Two-object verbs and the words between their objects (the listing says "into"; the parser also takes "in")."""
_INSIDE = re.compile(r" (?:in|on) ")

Reading = tuple[str, tuple[str, ...]]
Combination = Mapping[str, Any]
"""One entry of the listing: ``action`` (its text) and ``obj_ids`` (the objects, in the action's order)."""


def readings(action: str) -> list[Reading]:
    """The ways to read ``action`` as (listing verb, object phrases); several where a name holds the connector.

    >>> readings("drop sodium chloride")
    [('put down', ('sodium chloride',))]
    >>> readings("move door to kitchen to hallway")
    [('move', ('door', 'kitchen to hallway')), ('move', ('door to kitchen', 'hallway'))]
    """
    verb = next((v for v in _VERBS if action.startswith(v + " ")), None)
    if verb is None:
        return []
    rest = action[len(verb) + 1 :]
    verb = VERB_ALIASES.get(verb, verb)
    if verb not in _CONNECTORS:
        return [(verb, (rest,))]
    splits = []
    for connector in _CONNECTORS[verb]:
        for match in re.finditer(re.escape(connector), rest):
            first, second = rest[: match.start()], rest[match.end() :]
            if first and second:
                splits.append((verb, (first, second)))
    return splits


@dataclass(frozen=True)
class ObjectIndex:
    """Every object's referents (the names the parser takes for it, lower case) and the object it is in, by
    object id, in the order the simulator walks its object tree (the order of an "Ambiguous request"'s options).

    >>> index = ObjectIndex({1: ("seed jar",), 2: ("orange seed", "seed"), 3: ("orange seed",)}, {2: 1})
    >>> index.named("orange seed"), index.named("seed in seed jar"), index.named("Orange seed on seed jar")
    ([2, 3], [2], [2])
    """

    referents: Mapping[int, tuple[str, ...]]
    parents: Mapping[int, int]

    def named(self, phrase: str) -> list[int]:
        """The objects the parser takes ``phrase`` for: one of their referents, or "R in C" ("R on C") with R
        theirs and C a referent of the object they are in (ScienceWorld's ``getReferentsWithContainers``)."""
        phrase = phrase.lower()
        return [uid for uid in self.referents if self._called(uid, phrase)]

    def _called(self, uid: int, phrase: str) -> bool:
        names = self.referents[uid]
        if phrase in names:
            return True
        container = self.referents.get(self.parents.get(uid, -1), ())
        return any(
            phrase[: match.start()] in names and phrase[match.end() :] in container
            for match in _INSIDE.finditer(phrase)
        )

    def move_target(self, verb: str) -> int | None:
        """Where "put down" (the agent's room) and "pick up" (the inventory) move their object; else None."""
        if verb == "pick up":
            return next(iter(self.named("inventory")), None)
        agent = next(iter(self.named("agent")), None) if verb == "put down" else None
        return None if agent is None else self.parents.get(agent)


def listed_equivalent(
    action: str, combinations: Sequence[Combination], objects: ObjectIndex, answer: int | None = None
) -> Combination | None:
    """The listed combination that does what ``action`` does, or None.

    The objects are those the parser takes the action's words for among the objects the listing shows (those the
    agent can see); where it would ask which ones were meant, ``answer`` picks them as the parser numbers its
    options (None: the first option that is listed).

    >>> index = ObjectIndex({1: ("seed jar",), 2: ("pea seed",), 3: ("pea seed",), 4: ("pot",)}, {2: 1, 3: 1})
    >>> listing = [{"action": "move round pea seed to pot", "obj_ids": [3, 4]},
    ...            {"action": "move wrinkly pea seed to pot", "obj_ids": [2, 4]}]
    >>> listed_equivalent("move pea seed in seed jar to pot", listing, index)["action"]  # option 0: object 2
    'move wrinkly pea seed to pot'
    >>> listed_equivalent("move pea seed in seed jar to pot", listing, index, answer=1)["action"]
    'move round pea seed to pot'
    """
    visible = {int(uid) for combination in combinations for uid in combination["obj_ids"]}
    for verb, phrases in readings(action):
        named = ([uid for uid in objects.named(phrase) if uid in visible] for phrase in phrases)
        options = list(itertools.product(*named))
        if answer is not None:
            options = options[answer : answer + 1]
        for meant in options:
            listed = _listed(verb, meant, combinations) or _listed_as_move(verb, meant, combinations, objects)
            if listed is not None:
                return listed
    return None


def _listed(verb: str, meant: Sequence[int], combinations: Sequence[Combination]) -> Combination | None:
    return next(
        (
            combination
            for combination in combinations
            if str(combination["action"]).startswith(verb + " ")
            and [int(uid) for uid in combination["obj_ids"]] == list(meant)
        ),
        None,
    )


def _listed_as_move(
    verb: str, meant: Sequence[int], combinations: Sequence[Combination], objects: ObjectIndex
) -> Combination | None:
    """The listed move that does what put down or pick up does (the listing has put down only for what the
    agent holds, but the simulator puts down an object in the room too, moving it to the room)."""
    target = objects.move_target(verb) if len(meant) == 1 else None
    return None if target is None else _listed("move", (*meant, target), combinations)


def hand_pollination(combinations: Sequence[Combination], objects: ObjectIndex) -> Combination | None:
    """A listed move of one plant's pollen, from its flower, into a flower of another plant not yet pollinated.

    A flower that holds pollen of another plant of its kind is pollinated at the next time step and later turns
    into a fruit (ScienceWorld's ``Flower.tick``); bees usually carry the pollen.

    >>> index = ObjectIndex({1: ("tree",), 2: ("flower",), 3: ("pollen",), 4: ("tree",), 5: ("flower",)},
    ...                     {2: 1, 3: 2, 5: 4})
    >>> hand_pollination([{"action": "move pollen to flower in tree", "obj_ids": [3, 2]},
    ...                   {"action": "move pollen to flower on tree", "obj_ids": [3, 5]}], index)["action"]
    'move pollen to flower on tree'
    """
    for combination in combinations:
        ids = [int(uid) for uid in combination["obj_ids"]]
        if str(combination["action"]).startswith("move ") and len(ids) == 2 and _pollinates(objects, *ids):
            return combination
    return None


def _pollinates(objects: ObjectIndex, pollen: int, flower: int) -> bool:
    source = objects.parents.get(pollen, -1)
    if "pollen" not in objects.referents.get(pollen, ()) or "flower" not in objects.referents.get(source, ()):
        return False
    names = objects.referents.get(flower, ())
    plant = objects.parents.get(flower, -1)
    return "flower" in names and "wilting flower" not in names and plant not in (-1, objects.parents.get(source))
