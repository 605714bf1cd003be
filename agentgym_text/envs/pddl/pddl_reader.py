"""Reading PDDL with pddlgym's parser into plain, engine-free schemas (tuples of strings).

pddlgym is imported lazily (it imports the old ``gym``, matplotlib and scipy); everything downstream of this
module works on :class:`DomainSchema` and :class:`ProblemSpec` only. Only the STRIPS fragment these domains
use is accepted: conjunctions of positive atoms in preconditions and goals, add/delete effects.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = ["Atom", "OperatorSchema", "DomainSchema", "ProblemSpec", "load_domain", "load_problem", "PDDLError"]

Atom = tuple[str, ...]
"""A ground or lifted atom: (predicate, arg1, arg2, ...). Lifted arguments start with '?'."""


class PDDLError(ValueError):
    """A PDDL file that cannot be read, or that uses features outside the supported STRIPS fragment."""


@dataclass(frozen=True)
class OperatorSchema:
    """One lifted action: typed parameters, positive preconditions (in file order), add and delete effects."""

    name: str
    params: tuple[tuple[str, str], ...]
    preconditions: tuple[Atom, ...]
    add_effects: tuple[Atom, ...]
    del_effects: tuple[Atom, ...]


@dataclass(frozen=True)
class DomainSchema:
    """A parsed domain. ``supertypes[t]`` is every type ``t`` belongs to, itself included."""

    name: str
    predicates: tuple[tuple[str, int], ...]
    operators: tuple[OperatorSchema, ...]
    supertypes: dict[str, frozenset[str]]
    constants: tuple[tuple[str, str], ...]
    path: str

    def operator(self, name: str) -> OperatorSchema:
        for op in self.operators:
            if op.name == name:
                return op
        raise KeyError(name)

    @property
    def predicate_order(self) -> dict[str, int]:
        return {name: index for index, (name, _) in enumerate(self.predicates)}

    @property
    def static_predicates(self) -> frozenset[str]:
        """Predicates no action changes (type predicates, dispenser facts, level order, ...)."""
        changed = {atom[0] for op in self.operators for atom in op.add_effects + op.del_effects}
        return frozenset(name for name, _ in self.predicates if name not in changed)


@dataclass(frozen=True)
class ProblemSpec:
    """A parsed problem: objects with their types (sorted by name), initial atoms and goal atoms."""

    name: str
    objects: tuple[tuple[str, str], ...]
    init: frozenset[Atom]
    goal: tuple[Atom, ...]
    path: str


logger = logging.getLogger(__name__)


def _parser_warning(*args: object, sep: str | None = " ", **_print_options: object) -> None:
    logger.warning("pddlgym: %s", (" " if sep is None else sep).join(map(str, args)))


def _drop_gym_banner() -> None:
    # `import gym` prints gym_notices' entry for its version to stderr (the "Gym has been unmaintained" banner);
    # removing that entry before the first import silences it without touching sys.stderr.
    try:
        from importlib import metadata

        from gym_notices import notices
    except ImportError:
        return
    try:
        notices.notices.pop(metadata.version("gym"), None)
    except metadata.PackageNotFoundError:
        pass


@lru_cache(maxsize=1)
def _pddlgym_parser():
    _drop_gym_banner()
    from pddlgym import parser, structs

    # The parser's one print (an object of an undeclared type) goes to stdout; send it to our logger instead.
    parser.print = _parser_warning
    return parser, structs


def _atom(literal, structs) -> Atom:
    if isinstance(literal, structs.LiteralConjunction):
        raise PDDLError("nested conjunctions are not supported")
    if not isinstance(literal, structs.Literal):
        raise PDDLError(f"only positive atoms are supported, not {literal}")
    predicate = literal.predicate
    if predicate.is_negative or predicate.is_anti:
        raise PDDLError(f"negative literal {literal} is not supported here")
    return (predicate.name, *(str(v).split(":")[0] for v in literal.variables))


def _conjunction(formula, structs) -> list:
    if isinstance(formula, structs.LiteralConjunction):
        return list(formula.literals)
    return [formula]


def _split_effects(effects, structs) -> tuple[tuple[Atom, ...], tuple[Atom, ...]]:
    adds, dels = [], []
    for literal in _conjunction(effects, structs):
        if not isinstance(literal, structs.Literal):
            raise PDDLError(f"effect {literal} is outside the STRIPS fragment")
        if literal.predicate.is_anti:
            dels.append(_atom(literal.inverted_anti, structs))
        else:
            adds.append(_atom(literal, structs))
    return tuple(adds), tuple(dels)


def _type_closure(types, hierarchy) -> dict[str, frozenset[str]]:
    parents: dict[str, set[str]] = {str(t): set() for t in types}
    for parent, children in hierarchy.items():
        for child in children:
            parents.setdefault(str(child), set()).add(str(parent))
    closure: dict[str, frozenset[str]] = {}

    def up(name: str, seen: frozenset[str]) -> set[str]:
        result = {name}
        for parent in parents.get(name, ()):
            if parent not in seen:
                result |= up(parent, seen | {name})
        return result

    for name in parents:
        closure[name] = frozenset(up(name, frozenset()) | {"object"})
    return closure


@lru_cache(maxsize=32)
def load_domain(path: str) -> DomainSchema:
    """Parse a domain file (cached by path)."""
    _, structs = _pddlgym_parser()
    parsed = _domain_parser(str(path))
    operators = []
    for name, op in parsed.operators.items():
        params = tuple((str(p).split(":")[0], str(p.var_type)) for p in op.params)
        preconditions = tuple(_atom(lit, structs) for lit in _conjunction(op.preconds, structs))
        adds, dels = _split_effects(op.effects, structs)
        operators.append(OperatorSchema(name, params, preconditions, adds, dels))
    predicates = tuple((name, predicate.arity) for name, predicate in parsed.predicates.items() if name != "=")
    constants = tuple(sorted((str(c).split(":")[0], str(c.var_type)) for c in parsed.constants))
    return DomainSchema(
        name=parsed.domain_name,
        predicates=predicates,
        operators=tuple(operators),
        supertypes=_type_closure(parsed.types.values(), parsed.type_hierarchy),
        constants=constants,
        path=str(path),
    )


def load_problem(domain: DomainSchema, path: str | Path) -> ProblemSpec:
    """Parse a problem file of ``domain`` (IPC style: no action literals needed in ``:init``)."""
    parser, structs = _pddlgym_parser()
    domain_parser = _domain_parser(domain.path)
    try:
        parsed = parser.PDDLProblemParser(
            str(path),
            domain_parser.domain_name,
            domain_parser.types,
            domain_parser.predicates,
            set(),
            domain_parser.constants,
        )
    except FileNotFoundError:
        raise
    except Exception as error:
        raise PDDLError(f"cannot parse problem {path}: {type(error).__name__}: {error}") from error
    objects = dict(domain.constants)
    for entity in parsed.objects:
        objects[str(entity).split(":")[0]] = str(entity.var_type)
    init = frozenset(_atom(lit, structs) for lit in parsed.initial_state)
    goal = tuple(sorted({_atom(lit, structs) for lit in _conjunction(parsed.goal, structs)}))
    return ProblemSpec(
        name=parsed.problem_name,
        objects=tuple(sorted(objects.items())),
        init=init,
        goal=goal,
        path=str(path),
    )


@lru_cache(maxsize=32)
def _domain_parser(path: str):
    parser, _ = _pddlgym_parser()
    try:
        return parser.PDDLDomainParser(path, expect_action_preds=False, operators_as_actions=False)
    except Exception as error:  # pddlgym raises AssertionError/IndexError/AttributeError on malformed input
        raise PDDLError(f"cannot parse domain {path}: {type(error).__name__}: {error}") from error
