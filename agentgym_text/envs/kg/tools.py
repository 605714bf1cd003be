"""AgentBench's seven KG tools over variables ``#0, #1, ...``, on a ``KnowledgeGraph``.

A variable is a set of entities of one type (or, from ``count``, a number). An argument is a variable or one of
the question's entities, by name. As in AgentBench: ``get_neighbors`` takes a relation of the variable (see
``get_relations``), ``argmax``/``argmin`` an attribute of it (see ``get_attributes``), ``intersection`` two
variables of the same type; the new variable is announced by number and type, its members are not shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import InvalidReason
from agentgym_text.envs.kg.actions import Call
from agentgym_text.envs.kg.graph import KnowledgeGraph

__all__ = ["Variable", "ToolSession", "NUMBER"]

NUMBER = "number"
_VARIABLE = re.compile(r"#\s*(\d+)$")


@dataclass(frozen=True)
class Variable:
    ids: frozenset[int]
    type: str
    number: int | None = None

    def same_as(self, other: Variable) -> bool:
        """Set-equal (for numbers: counts of the same set)."""
        return self.type == other.type and self.ids == other.ids and self.number == other.number


class ToolSession:
    """The variables of one episode and the tools that make them."""

    def __init__(self, graph: KnowledgeGraph, entities: list[str]):
        self.graph = graph
        self.entities: dict[str, Variable] = {}
        for name in entities:
            found = graph.entity(name)
            if found is None:
                raise ValueError(f"entity {name!r} is not in the graph")
            self.entities[found[1].casefold()] = Variable(frozenset({found[0]}), found[2])
        self.entity_names = list(entities)
        self.variables: list[Variable] = []
        self._relations: dict[frozenset[int], list[str]] = {}
        self._attributes: dict[frozenset[int], list[str]] = {}

    def resolve(self, arg: str) -> Variable:
        match = _VARIABLE.match(arg.strip())
        if match:
            index = int(match.group(1))
            if index >= len(self.variables):
                known = f"#0 to #{len(self.variables) - 1}" if self.variables else "none yet"
                raise ActionError(
                    f"Variable #{index} does not exist (variables so far: {known}).", InvalidReason.UNKNOWN_OBJECT
                )
            return self.variables[index]
        found = self.entities.get(arg.strip().casefold())
        if found is None:
            raise ActionError(
                f"'{arg[:60]}' is neither a variable nor an entity of the question ({', '.join(self.entity_names)}).",
                InvalidReason.UNKNOWN_OBJECT,
            )
        return found

    def relations_of(self, variable: Variable) -> list[str]:
        if variable.ids not in self._relations:
            self._relations[variable.ids] = self.graph.relations(variable.ids)
        return self._relations[variable.ids]

    def attributes_of(self, variable: Variable) -> list[str]:
        if variable.ids not in self._attributes:
            self._attributes[variable.ids] = self.graph.attributes(variable.ids)
        return self._attributes[variable.ids]

    def _entities(self, arg: str, tool: str) -> Variable:
        variable = self.resolve(arg)
        if variable.number is not None:
            raise ActionError(f"{tool} needs a set of entities; {arg} is a number.", InvalidReason.BAD_ARGUMENT)
        return variable

    def _new(self, variable: Variable) -> str:
        self.variables.append(variable)
        index = len(self.variables) - 1
        if variable.number is not None:
            return f"variable #{index}, which is a number"
        return f"variable #{index}, which are instances of {variable.type}"

    def run(self, call: Call) -> str:
        """Run one call; returns the observation or raises ``ActionError``."""
        tool, args = call.tool, call.args
        if tool == "get_relations":
            return "[" + ", ".join(self.relations_of(self._entities(args[0], tool))) + "]"
        if tool == "get_attributes":
            return "[" + ", ".join(self.attributes_of(self._entities(args[0], tool))) + "]"
        if tool == "count":
            variable = self._entities(args[0], tool)
            return self._new(Variable(variable.ids, NUMBER, len(variable.ids)))
        if tool == "intersection":
            first, second = self._entities(args[0], tool), self._entities(args[1], tool)
            if first.type != second.type:
                raise ActionError(
                    f"intersection needs two variables of the same type, not {first.type} and {second.type}.",
                    InvalidReason.BAD_ARGUMENT,
                )
            return self._new(Variable(first.ids & second.ids, first.type))
        variable = self._entities(args[0], tool)
        if tool == "get_neighbors":
            relation = args[1]
            if relation not in self.relations_of(variable):
                raise ActionError(
                    f"{relation[:80]} is not a relation of {args[0]}; get_relations({args[0]}) lists them.",
                    InvalidReason.BAD_ARGUMENT,
                )
            return self._new(Variable(self.graph.neighbors(variable.ids, relation), self.graph.ranges[relation]))
        attribute = args[1]
        if attribute not in self.attributes_of(variable):
            raise ActionError(
                f"{attribute[:80]} is not an attribute of {args[0]}; get_attributes({args[0]}) lists them.",
                InvalidReason.BAD_ARGUMENT,
            )
        return self._new(Variable(self.graph.extreme(variable.ids, attribute, tool == "argmax"), variable.type))
