"""Rendering facts, states, actions and goals as text, and reading fact sentences back.

A :class:`Template` is a phrase with ``{i}`` slots; it renders arguments into text and matches text back to
arguments (slots match one whitespace-free object name). :class:`DomainRenderer` applies a domain's templates.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from agentgym_text.envs.pddl.domain_texts import DomainText
from agentgym_text.envs.pddl.pddl_reader import Atom, DomainSchema

__all__ = ["Template", "DomainRenderer"]

_SLOT = re.compile(r"\{(\d+)\}")


class Template:
    """A phrase such as ``"stack {0} on {1}"``.

    >>> t = Template("pour {1} from {0} into {2}", optional_the=True)
    >>> t.render(("shot1", "gin", "shaker1"))
    'pour gin from shot1 into shaker1'
    >>> t.match("pour gin from the shot1 into shaker1")
    ('shot1', 'gin', 'shaker1')
    """

    def __init__(self, text: str, optional_the: bool = False):
        self.text = text
        self.slots = tuple(int(index) for index in _SLOT.findall(text))
        self.arity = max(self.slots, default=-1) + 1
        if sorted(self.slots) != list(range(self.arity)):
            raise ValueError(f"template {text!r} must use each slot 0..n-1 exactly once")
        pieces = _SLOT.split(text)
        pattern = ""
        for position, piece in enumerate(pieces):
            if position % 2 == 0:
                literal = re.escape(piece)
                if optional_the:
                    literal = literal.replace(r"\ the\ ", r"\ (?:the\ )?")
                pattern += literal.replace(r"\ ", r"\s+")
            else:
                pattern += ("(?:the\\s+)?" if optional_the else "") + rf"(?P<a{piece}>\S+)"
        self._regex = re.compile(pattern, re.IGNORECASE)
        self.words = tuple(word.lower() for word in _SLOT.sub(" ", text).split())
        self.verb = _SLOT.split(text)[0].strip().lower()

    def render(self, args: Sequence[str]) -> str:
        return self.text.format(*args)

    def match(self, text: str) -> tuple[str, ...] | None:
        found = self._regex.fullmatch(text.strip())
        if found is None:
            return None
        return tuple(found.group(f"a{index}") for index in range(self.arity))


class DomainRenderer:
    """Text for one domain's facts, states, goals and actions."""

    def __init__(self, domain: DomainSchema, text: DomainText):
        self.domain = domain
        self.text = text
        arities = dict(domain.predicates)
        self.facts = {name: Template(text.facts[name]) for name in arities}
        self.actions = {op.name: Template(text.actions[op.name], optional_the=True) for op in domain.operators}
        for name, template in self.facts.items():
            if template.arity != arities[name]:
                raise ValueError(f"fact template of {name} has {template.arity} slots, predicate has {arities[name]}")
        for op in domain.operators:
            if self.actions[op.name].arity != len(op.params):
                raise ValueError(f"action template of {op.name} does not match its {len(op.params)} parameters")
        self._order = domain.predicate_order

    # ---- facts -------------------------------------------------------------------------------------
    def fact(self, atom: Atom) -> str:
        """One fact as a sentence without the final period, e.g. 'b1 is on b2'."""
        return self.facts[atom[0]].render(atom[1:])

    def sort_key(self, atom: Atom) -> tuple:
        return (self._order.get(atom[0], len(self._order)), atom[1:])

    def facts_text(self, atoms: Iterable[Atom]) -> str:
        """Sentences for ``atoms`` in a stable order (predicate order of the domain, then arguments)."""
        return " ".join(self.fact(atom) + "." for atom in sorted(atoms, key=self.sort_key))

    def parse_fact(self, sentence: str) -> Atom | None:
        """The atom a fact sentence renders, or None (the inverse of :meth:`fact`)."""
        sentence = sentence.strip().rstrip(".")
        matches = [(name, t.match(sentence)) for name, t in self.facts.items()]
        found = [(name, args) for name, args in matches if args is not None]
        return (found[0][0], *found[0][1]) if len(found) == 1 else None

    def split_facts(self, text: str) -> list[str]:
        """Cut a :meth:`facts_text` rendering back into sentences."""
        return [part.strip() for part in re.split(r"(?<=\.)\s+", text.strip()) if part.strip()]

    def goal(self, goal: Sequence[Atom]) -> str:
        """AgentBoard's goal wording, with our per-domain sentences."""
        return (
            "The goal is to satisfy the following conditions: "
            + ", ".join(self.fact(atom) for atom in sorted(goal, key=self.sort_key))
            + "."
        )

    # ---- actions -----------------------------------------------------------------------------------
    def action(self, key: Sequence[str]) -> str:
        """The natural-language form of ground action ``(operator, *args)``."""
        return self.actions[key[0]].render(key[1:])

    def operator_style(self, key: Sequence[str]) -> str:
        """The operator form, e.g. 'stack b1 b2'."""
        return " ".join(key)

    def usage(self, operator: str) -> str:
        """The action's template with the parameter types in the slots, e.g. 'stack <block> on <block>'."""
        op = self.domain.operator(operator)
        names = [type_name if type_name != "default" else name.lstrip("?") for name, type_name in op.params]
        return self.actions[operator].render([f"<{name}>" for name in names])
