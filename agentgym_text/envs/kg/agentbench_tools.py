"""AgentBench v0.2's KG tools: variables are programs (s-expressions) typed by the ontology, run on the endpoint
only when a tool needs their members.

- ``get_relations(x)``: the outgoing relations of an entity (``x`` must look like ``m.…``/``f.…``; ``g.…`` too with
  the fix) or of a variable's answers (its program as a sub-query), kept when ``vocab.json`` lists them; the list is
  remembered for ``x``. ``get_attributes(#k)``: the same over a variable, kept when listed as attributes.
- ``get_neighbors(x, r)``: ``r`` must be among the relations listed for ``x``; the new variable is
  ``(JOIN r_inv x)``, typed by ``r``'s range in ``fb_roles``.
- ``intersection(#a, #b)``: two variables of one type; ``(AND a b)``. ``count(#a)``: ``(COUNT a)``, a number.
- ``argmax/argmin(#a, attr)``: ``attr`` must be among the attributes listed for ``#a``; ``(ARGMAX a attr)``.

Lists are sorted here (AgentBench prints a Python set's order, which changes from run to run) and remembered per
episode (AgentBench keeps them in module-level caches shared by every episode of a worker). A number variable (from
``count``) is refused as a tool argument: AgentBench builds a program from it that its translator cannot read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentgym_text.core.info import InvalidReason
from agentgym_text.envs.kg.agentbench_actions import ARITY
from agentgym_text.envs.kg.endpoint import SparqlEndpoint
from agentgym_text.envs.kg.lisp import parse
from agentgym_text.envs.kg.ontology import Ontology
from agentgym_text.envs.kg.sparql import FREEBASE, PREFIX, relations_query

__all__ = ["ProgramVariable", "ToolFailure", "ProgramSession", "NUMBER_TYPE", "entity_pattern"]

NUMBER_TYPE = "type.int"
_VARIABLE_WORDS = ("variable ", "Variable ")


def entity_pattern(accept_g_ids: bool) -> re.Pattern[str]:
    """AgentBench's entity check (``^(m|f)\\.[\\w_]+$``), with ``g.`` ids when the fix is on."""
    return re.compile(r"^(m|f|g)\.[\w_]+$" if accept_g_ids else r"^(m|f)\.[\w_]+$")


@dataclass(frozen=True)
class ProgramVariable:
    type: str
    program: str


class ToolFailure(Exception):
    """A call that cannot be executed (the message says why)."""

    def __init__(self, message: str, reason: InvalidReason = InvalidReason.BAD_ARGUMENT):
        super().__init__(message)
        self.message = message
        self.reason = reason


Argument = ProgramVariable | str


class ProgramSession:
    """The variables of one episode and AgentBench's tools over them. ``endpoint`` None: a symbolic replay (the
    programs a gold action list makes, without a query): ``get_relations``/``get_attributes`` list nothing and
    every relation or attribute is then taken as listed."""

    def __init__(
        self,
        ontology: Ontology,
        endpoint: SparqlEndpoint | None,
        entities: dict[str, str],
        accept_g_ids: bool = False,
    ):
        self.ontology = ontology
        self.endpoint = endpoint
        self.entities = dict(entities)
        self.entity_check = entity_pattern(accept_g_ids)
        self.variables: list[ProgramVariable] = []
        self.relations: dict[str, list[str]] = {}
        self.attributes: dict[str, list[str]] = {}

    # ---- arguments -------------------------------------------------------------------------------
    def argument(self, raw: str) -> Argument:
        """``#k`` as the k-th variable, a question entity's name as its id, anything else as written."""
        for word in _VARIABLE_WORDS:
            raw = raw.replace(word, "")
        if raw.startswith("#"):
            if not raw[1:].isdigit():
                raise ToolFailure(
                    f"{raw[:40]!r} is no variable: variables are #0, #1, ...", InvalidReason.UNKNOWN_OBJECT
                )
            index = int(raw[1:])
            if index >= len(self.variables):
                known = f"#0 to #{len(self.variables) - 1}" if self.variables else "none yet"
                raise ToolFailure(
                    f"Variable #{index} does not exist (variables so far: {known}).", InvalidReason.UNKNOWN_OBJECT
                )
            return self.variables[index]
        return self.entities.get(raw, raw)

    def _entity_or_variable(self, value: Argument, tool: str) -> str:
        """The cache key of ``value`` (an entity id or a program); checks the entity pattern and refuses numbers."""
        if isinstance(value, ProgramVariable):
            if value.type == NUMBER_TYPE:
                raise ToolFailure(f"{tool} needs entities; this variable is a number (from count).")
            return value.program
        if not self.entity_check.match(value):
            raise ToolFailure(
                f"{tool} needs a variable (#k), an entity of the question by name, or a Freebase id matching "
                f"{self.entity_check.pattern}; {value[:60]!r} is none of them.",
                InvalidReason.UNKNOWN_OBJECT,
            )
        return value

    def _variable(self, value: Argument, tool: str) -> ProgramVariable:
        if not isinstance(value, ProgramVariable):
            raise ToolFailure(f"{tool} takes variables (#k), not {value[:60]!r}.", InvalidReason.UNKNOWN_OBJECT)
        if value.type == NUMBER_TYPE:
            raise ToolFailure(f"{tool} needs entities; this variable is a number (from count).")
        return value

    # ---- the endpoint ------------------------------------------------------------------------------
    def _outgoing(self, key: str, value: Argument) -> list[str]:
        if self.endpoint is None:
            return []  # a symbolic replay
        if isinstance(value, ProgramVariable):
            return self.endpoint.select(relations_query(parse(value.program)))
        query = (
            f"{PREFIX}\nSELECT DISTINCT ?rel\nWHERE {{\n<{FREEBASE}{key}> ?rel ?obj .\n"
            f'FILTER (STRSTARTS(STR(?rel), "{FREEBASE}"))\n}}'
        )
        return self.endpoint.select(query)

    # ---- the tools ------------------------------------------------------------------------------
    def _new(self, variable: ProgramVariable) -> str:
        self.variables.append(variable)
        index = len(self.variables) - 1
        if variable.type == NUMBER_TYPE:
            return f"variable #{index}, which is a number"
        return f"variable #{index}, which are instances of {variable.type}"

    def call(self, tool: str, raw_args: tuple[str, ...]) -> str:
        """Run one call; returns the observation, raises ``ToolFailure`` (or the endpoint's ``EndpointError``)."""
        if tool not in ARITY:
            raise ToolFailure(f"{tool} is not a tool; the tools are {', '.join(ARITY)}.", InvalidReason.UNKNOWN_ACTION)
        if len(raw_args) != ARITY[tool]:
            raise ToolFailure(f"{tool} takes {ARITY[tool]} argument(s), not {len(raw_args)}.")
        values = [self.argument(raw) for raw in raw_args]
        if tool == "get_relations":
            key = self._entity_or_variable(values[0], tool)
            found = sorted(set(self._outgoing(key, values[0])) & self.ontology.relations)
            self.relations[key] = found
            return "[" + ", ".join(found) + "]"
        if tool == "get_attributes":
            variable = self._variable(values[0], tool)
            found = sorted(set(self._outgoing(variable.program, variable)) & self.ontology.attributes)
            self.attributes[variable.program] = found
            return "[" + ", ".join(found) + "]"
        if tool == "get_neighbors":
            key = self._entity_or_variable(values[0], tool)
            relation = raw_args[1]
            if key not in self.relations:
                raise ToolFailure(
                    f"get_neighbors needs the relations of {raw_args[0]} first: call get_relations({raw_args[0]}).",
                    InvalidReason.PRECONDITION,
                )
            if self.endpoint is not None and relation not in self.relations[key]:
                raise ToolFailure(f"{relation[:80]} is not among the relations get_relations({raw_args[0]}) listed.")
            if relation not in self.ontology.ranges:
                raise ToolFailure(f"{relation[:80]} has no range in the ontology (fb_roles), so it cannot be followed.")
            return self._new(ProgramVariable(self.ontology.ranges[relation], f"(JOIN {relation}_inv {key})"))
        if tool == "intersection":
            first, second = values
            if not isinstance(first, ProgramVariable) or not isinstance(second, ProgramVariable):
                raise ToolFailure("intersection takes two variables (#a, #b).", InvalidReason.UNKNOWN_OBJECT)
            if first.type != second.type:
                raise ToolFailure(
                    f"intersection needs two variables of the same type, not {first.type} and {second.type}."
                )
            self._variable(first, tool)
            return self._new(ProgramVariable(first.type, f"(AND {first.program} {second.program})"))
        if tool == "count":
            variable = self._variable(values[0], tool)
            return self._new(ProgramVariable(NUMBER_TYPE, f"(COUNT {variable.program})"))
        variable = self._variable(values[0], tool)  # argmax, argmin
        attribute = raw_args[1]
        if variable.program not in self.attributes:
            raise ToolFailure(
                f"{tool} needs the attributes of {raw_args[0]} first: call get_attributes({raw_args[0]}).",
                InvalidReason.PRECONDITION,
            )
        if self.endpoint is not None and attribute not in self.attributes[variable.program]:
            raise ToolFailure(f"{attribute[:80]} is not among the attributes get_attributes({raw_args[0]}) listed.")
        return self._new(ProgramVariable(variable.type, f"({tool.upper()} {variable.program} {attribute})"))
