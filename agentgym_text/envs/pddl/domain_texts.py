"""Per-domain natural-language templates: one sentence per predicate, one phrase per operator.

Each domain (and each variant of a domain's PDDL spelling, e.g. AgentBoard's ``blocksworld-4ops`` Blocksworld
and its Tyreworld with ``isopen``) has its own table (AgentBoard used one global name->template map, so
``clear``, ``holding``, ``free`` and ``move`` of different domains overwrote each other). ``{i}`` is the i-th PDDL
argument. Within a domain every fact template and every action template is distinct, so texts can be parsed back
exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

__all__ = [
    "DomainText",
    "DOMAIN_TEXTS",
    "VARIANT_TEXTS",
    "DOMAIN_VARIANTS",
    "DOMAIN_ALIASES",
    "canonical_domain",
    "variant_key",
    "generic_text",
]


@dataclass(frozen=True)
class DomainText:
    """How one domain reads: its title, an introduction, and the fact and action templates."""

    key: str
    title: str
    intro: str
    facts: dict[str, str]
    actions: dict[str, str]
    extra_words: tuple[str, ...] = field(default=())
    """Words an agent may add around object names in an action (e.g. 'arm'), besides the templates' own."""


BLOCKSWORLD = DomainText(
    key="blocksworld",
    title="Blocksworld",
    intro="You control a robot arm that can pick up and stack blocks on a table. The arm holds one block at "
    "a time; a block can be picked up only when nothing is on it.",
    facts={
        "on": "{0} is on {1}",
        "ontable": "{0} is on the table",
        "clear": "{0} is clear",
        "handempty": "The arm is empty",
        "holding": "The arm is holding {0}",
    },
    actions={
        "pick-up": "pick up {0}",
        "put-down": "put down {0}",
        "stack": "stack {0} on {1}",
        "unstack": "unstack {0} from {1}",
    },
    extra_words=("block", "top", "of", "onto", "table"),
)

GRIPPER = DomainText(
    key="gripper",
    title="Gripper",
    intro="You control Robby, a robot with two grippers that carries balls between rooms. Each gripper holds one ball.",
    facts={
        "room": "{0} is a room",
        "ball": "{0} is a ball",
        "gripper": "{0} is a gripper",
        "at-robby": "Robby is at {0}",
        "at": "{0} is in {1}",
        "free": "Gripper {0} is free",
        "carry": "Gripper {1} is carrying {0}",
    },
    actions={
        "move": "move from {0} to {1}",
        "pick": "pick up {0} in {1} with gripper {2}",
        "drop": "drop {0} in {1} from gripper {2}",
    },
    extra_words=("at", "arm", "with", "using", "room", "ball"),
)

BARMAN = DomainText(
    key="barman",
    title="Barman",
    intro="You are a robot barman with two hands (left and right). Dispensers fill shot glasses with "
    "ingredients; a cocktail is made by pouring its two ingredients into the shaker and shaking it, then it "
    "is poured into a shot glass. Containers must be clean to receive something new; filling and pouring "
    "need one hand holding the container and, for filling and cleaning, the other hand empty.",
    facts={
        "ontable": "{0} is on the table",
        "holding": "Hand {0} is holding {1}",
        "handempty": "Hand {0} is empty",
        "empty": "{0} is empty",
        "contains": "{0} contains {1}",
        "clean": "{0} is clean",
        "used": "{0} has been used for {1}",
        "dispenses": "{0} dispenses {1}",
        "shaker-empty-level": "The empty level of {0} is {1}",
        "shaker-level": "{0} is at level {1}",
        "next": "Level {1} comes after level {0}",
        "unshaked": "{0} has not been shaken",
        "shaked": "{0} has been shaken",
        "cocktail-part1": "The first ingredient of {0} is {1}",
        "cocktail-part2": "The second ingredient of {0} is {1}",
    },
    actions={
        "grasp": "grasp {1} with hand {0}",
        "leave": "leave {1} from hand {0}",
        "fill-shot": "fill {0} with {1} from {4} using hands {2} and {3}",
        "refill-shot": "refill {0} with {1} from {4} using hands {2} and {3}",
        "empty-shot": "empty {2} from {1} with hand {0}",
        "clean-shot": "clean {0} of {1} using hands {2} and {3}",
        "pour-shot-to-clean-shaker": "pour {1} from {0} into clean {2} with hand {3} from level {4} to level {5}",
        "pour-shot-to-used-shaker": "pour {1} from {0} into used {2} with hand {3} from level {4} to level {5}",
        "empty-shaker": "empty {2} from {1} with hand {0} from level {3} to level {4}",
        "clean-shaker": "clean {2} using hands {0} and {1}",
        "shake": "shake {0} from {1} and {2} in {3} using hands {4} and {5}",
        "pour-shaker-to-shot": "pour {0} from {3} into {1} with hand {2} from level {4} to level {5}",
    },
    extra_words=("glass", "shot", "shaker", "the", "hand", "hands", "levels"),
)

TYREWORLD = DomainText(
    key="tyreworld",
    title="Tyreworld",
    intro="You have to change flat tyres. The tools (wrench, jack, pump) and the spare wheels are in the boot. "
    "Nuts are loosened and tightened with the wrench while the hub is on the ground, undone and done up while "
    "it is jacked up; a wheel can be swapped only on a jacked-up hub whose nuts are undone.",
    facts={
        "open": "{0} is open",
        "closed": "{0} is closed",
        "have": "You have {0}",
        "in": "{0} is in {1}",
        "loose": "{0} on {1} is loose",
        "tight": "{0} on {1} is tight",
        "unlocked": "{0} is unlocked",
        "on-ground": "{0} is on the ground",
        "not-on-ground": "{0} is not on the ground",
        "inflated": "{0} is inflated",
        "not-inflated": "{0} is not inflated",
        "fastened": "{0} is fastened",
        "unfastened": "{0} is unfastened",
        "free": "{0} has no wheel on it",
        "on": "{0} is on {1}",
        "intact": "{0} is intact",
    },
    actions={
        "open": "open {0}",
        "close": "close {0}",
        "fetch": "fetch {0} from {1}",
        "put-away": "put away {0} in {1}",
        "loosen": "loosen {0} on {1}",
        "tighten": "tighten {0} on {1}",
        "jack-up": "jack up {0}",
        "jack-down": "jack down {0}",
        "undo": "undo {0} from {1}",
        "do-up": "do up {0} on {1}",
        "remove-wheel": "remove {0} from {1}",
        "put-on-wheel": "put {0} on {1}",
        "inflate": "inflate {0}",
    },
    extra_words=("nut", "hub", "wheel", "the", "into", "at", "with", "wrench", "jack", "pump", "boot"),
)

BLOCKSWORLD_4OPS = replace(
    BLOCKSWORLD,
    key="blocksworld-4ops",
    facts={
        "on": "{0} is on {1}",
        "on-table": "{0} is on the table",
        "clear": "{0} is clear",
        "arm-empty": "The arm is empty",
        "holding": "The arm is holding {0}",
    },
    actions={
        "pickup": "pick up {0}",
        "putdown": "put down {0}",
        "stack": "stack {0} on {1}",
        "unstack": "unstack {0} from {1}",
    },
)
"""AgentBoard's Blocksworld spelling (domain ``blocksworld-4ops``: ``on-table``, ``arm-empty``, ``pickup``)."""

TYREWORLD_ISOPEN = replace(
    TYREWORLD,
    key="tyreworld-isopen",
    facts={("isopen" if name == "open" else name): text for name, text in TYREWORLD.facts.items()},
)
"""AgentBoard's Tyreworld spelling: the predicate ``isopen`` instead of ``open``."""

DOMAIN_TEXTS: dict[str, DomainText] = {d.key: d for d in (BLOCKSWORLD, GRIPPER, BARMAN, TYREWORLD)}
"""The four domains' texts, by domain key."""

VARIANT_TEXTS: dict[str, DomainText] = {
    **DOMAIN_TEXTS,
    BLOCKSWORLD_4OPS.key: BLOCKSWORLD_4OPS,
    TYREWORLD_ISOPEN.key: TYREWORLD_ISOPEN,
}
"""Texts by variant key (a domain key is the variant key of its own spelling)."""

DOMAIN_VARIANTS: dict[str, tuple[str, ...]] = {
    "blocksworld": ("blocksworld", "blocksworld-4ops"),
    "gripper": ("gripper",),
    "barman": ("barman",),
    "tyreworld": ("tyreworld", "tyreworld-isopen"),
}
"""Per domain, the PDDL spellings a problem file may use, tried in this order; each is ``domains/<variant>.pddl``."""

DOMAIN_ALIASES: dict[str, str] = {
    "blocksworld": "blocksworld",
    "blockworld": "blocksworld",
    "blocks": "blocksworld",
    "blocksworld-4ops": "blocksworld",
    "gripper": "gripper",
    "gripper-strips": "gripper",
    "barman": "barman",
    "tyreworld": "tyreworld",
    "tyreworld-isopen": "tyreworld",
}


def canonical_domain(name: str) -> str:
    """The domain key for a user's spelling ("Blockworld", "blocks", ...); ValueError if unsupported."""
    key = DOMAIN_ALIASES.get(str(name).strip().lower().replace(" ", ""))
    if key is None:
        raise ValueError(f"unsupported PDDL domain {name!r}; supported: {', '.join(sorted(DOMAIN_TEXTS))}")
    return key


def variant_key(name: str) -> str | None:
    """The variant a user's domain name pins (``"blocksworld-4ops"``), or None for a plain domain name."""
    key = str(name).strip().lower().replace(" ", "")
    return key if key in VARIANT_TEXTS and key not in DOMAIN_TEXTS else None


def generic_text(base: DomainText, predicates: dict[str, int], operators: dict[str, int]) -> DomainText:
    """``base`` completed for a user's domain file: names ``base`` lacks (or with another arity) read as the
    PDDL name followed by the arguments, e.g. ``isopen boot``."""

    def slots(count: int) -> str:
        return "".join(f" {{{index}}}" for index in range(count))

    def arity(template: str) -> int:
        return template.count("{")

    facts = {
        name: base.facts[name] if name in base.facts and arity(base.facts[name]) == count else name + slots(count)
        for name, count in predicates.items()
    }
    actions = {
        name: base.actions[name] if name in base.actions and arity(base.actions[name]) == count else name + slots(count)
        for name, count in operators.items()
    }
    return replace(base, key=base.key + "-custom", facts=facts, actions=actions)
