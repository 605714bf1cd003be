"""Reading PDDL with pyperplan's parser into plain, engine-free schemas (tuples of strings).

pyperplan's syntax layer (``pyperplan.pddl.parser``: tokens, then a syntax tree in file order) reads the files;
this module checks names and arities and builds :class:`DomainSchema` and :class:`ProblemSpec`, which is all
that downstream code sees. pyperplan is imported lazily. Only the STRIPS fragment these domains use is accepted:
conjunctions of positive atoms in preconditions and goals, add/delete effects. A domain without ``:types`` is
untyped: its objects and parameters have the type ``default``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from agentgym_text.core.registry import MissingDependency, install_hint
from agentgym_text.envs.pddl.registration import FAMILY

__all__ = ["Atom", "OperatorSchema", "DomainSchema", "ProblemSpec", "load_domain", "load_problem", "PDDLError"]

Atom = tuple[str, ...]
"""A ground or lifted atom: (predicate, arg1, arg2, ...). Lifted arguments start with '?'."""

UNTYPED = "default"
"""The type of every object and parameter of a domain without ``:types``."""

ROOT_TYPE = "object"


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


IGNORED_PROBLEM_SECTIONS = frozenset({":requirements", ":metric"})
"""Problem sections that pyperplan's grammar has no place for and a STRIPS game has no use for."""


@lru_cache(maxsize=1)
def _syntax():
    """pyperplan's PDDL syntax module."""
    try:
        from pyperplan.pddl import parser
    except ImportError as error:
        hint = install_hint(FAMILY.ids[0].env_id, FAMILY.requires)
        raise MissingDependency(f"{hint} (missing module 'pyperplan')") from error
    return parser


def _tokens(path: str, ignored: frozenset[str] = frozenset()):
    """The file as pyperplan's nested token lists (lower case, comments dropped), without ``ignored`` sections."""
    with open(path, encoding="utf-8") as handle:
        tokens = _syntax().parse_lisp_iterator(handle)
    tokens.contents = [
        part for part in tokens.contents if not (isinstance(part, list) and part[:1] and part[0] in ignored)
    ]
    return tokens


def _read(path: str, what: str, build):
    """``build(path)``, any error of a malformed file raised as a PDDLError naming the file."""
    _syntax()  # a missing pyperplan is not a malformed file
    try:
        return build(path)
    except FileNotFoundError:
        raise
    except PDDLError as error:
        raise PDDLError(f"cannot parse {what} {path}: {error}") from None
    except Exception as error:  # pyperplan's syntax layer raises ParseError, ValueError, AttributeError, ...
        raise PDDLError(f"cannot parse {what} {path}: {_syntax_message(error)}") from error


def _syntax_message(error: Exception) -> str:
    if isinstance(error, StopIteration):
        return "the file is empty"
    if len(error.args) == 2 and hasattr(error.args[1], "contents"):  # pyperplan's ParseError(message, position)
        return f"{error.args[0]} at {_lisp(error.args[1].contents)[:100]}"
    return f"{type(error).__name__}: {error}"


def _lisp(tree) -> str:
    return tree if isinstance(tree, str) else "(" + " ".join(map(_lisp, tree)) + ")"


# ---- types ---------------------------------------------------------------------------------------------------


def _type_closure(types: list | None) -> dict[str, frozenset[str]]:
    """Each declared type (parents named in ``:types`` included) with its ancestors, itself and ``object``."""
    if types is None:
        return {UNTYPED: frozenset({UNTYPED, ROOT_TYPE})}
    parents: dict[str, set[str]] = {}
    for node in types:
        if isinstance(node.parent, list):
            raise PDDLError(f"type {node.name} has several parents (either), which is not supported")
        parents.setdefault(node.name, set())
        if node.parent is not None:
            parents[node.name].add(node.parent)
            parents.setdefault(node.parent, set())

    def up(name: str, seen: frozenset[str]) -> set[str]:
        result = {name}
        for parent in parents[name] - seen:
            result |= up(parent, seen | {name})
        return result

    return {name: frozenset(up(name, frozenset()) | {ROOT_TYPE}) for name in parents}


def _type_name(declared: list[str] | str | None, supertypes: dict[str, frozenset[str]], owner: str) -> str:
    """The one type of an object or parameter (a list: a parameter's ``either``), checked against the domain's."""
    if isinstance(declared, list):
        if len(declared) != 1:
            raise PDDLError(f"{owner} has several types (either), which is not supported")
        declared = declared[0]
    if declared is None:
        return UNTYPED if UNTYPED in supertypes else ROOT_TYPE
    if declared != ROOT_TYPE and declared not in supertypes:
        raise PDDLError(f"{owner} has the undeclared type {declared}")
    return declared


def _typed_names(nodes: Iterable, supertypes: dict[str, frozenset[str]], what: str) -> list[tuple[str, str]]:
    return [(node.name, _type_name(node.typeName, supertypes, f"{what} {node.name}")) for node in nodes]


# ---- formulas ------------------------------------------------------------------------------------------------


def _conjuncts(formula) -> list:
    return list(formula.children) if formula.key == "and" else [formula]


def _is_list(formula) -> bool:
    return formula.type == _syntax().TypeFormula


def _word(formula) -> str:
    return formula.key if isinstance(formula.key, str) else formula.key.name  # a variable's key is a node


def _text(formula) -> str:
    """A formula of pyperplan's syntax tree written back as PDDL, for messages."""
    return (
        "(" + " ".join([_word(formula), *map(_text, formula.children)]) + ")" if _is_list(formula) else _word(formula)
    )


def _atom(formula, arity: dict[str, int], names: frozenset[str], where: str) -> Atom:
    """A positive atom of a precondition, effect or goal (see :func:`_checked`)."""
    if _is_list(formula) and formula.key in ("and", "not", "or", "imply", "forall", "exists", "when"):
        raise PDDLError(f"{where}: only conjunctions of positive atoms are supported, not {_text(formula)}")
    if not _is_list(formula) or any(map(_is_list, formula.children)):
        raise PDDLError(f"{where}: expected an atom, found {_text(formula)}")
    return _checked((formula.key, *map(_word, formula.children)), arity, names, where)


def _checked(atom: Atom, arity: dict[str, int], names: frozenset[str], where: str) -> Atom:
    """``atom``, whose predicate is declared with its arity and whose arguments are all in ``names``."""
    predicate, args = atom[0], atom[1:]
    written = f"({' '.join(atom)})"
    if predicate not in arity:
        raise PDDLError(f"{where}: predicate {predicate} is not declared")
    if len(args) != arity[predicate]:
        raise PDDLError(f"{where}: {written} does not have the {arity[predicate]} arguments of {predicate}")
    unknown = [arg for arg in args if arg not in names]
    if unknown:
        raise PDDLError(f"{where}: {written} names {', '.join(unknown)}, which is not declared")
    return atom


def _effects(formula, arity: dict[str, int], names: frozenset[str], where: str) -> tuple[list[Atom], list[Atom]]:
    adds: list[Atom] = []
    dels: list[Atom] = []
    for part in _conjuncts(formula):
        if part.key == "not" and len(part.children) == 1:
            dels.append(_atom(part.children[0], arity, names, where))
        else:
            adds.append(_atom(part, arity, names, where))
    return adds, dels


# ---- domains and problems ------------------------------------------------------------------------------------


def _operator(node, arity: dict[str, int], supertypes: dict[str, frozenset[str]], constants) -> OperatorSchema:
    where = f"action {node.name}"
    params = tuple((v.name, _type_name(v.types, supertypes, f"{where}'s parameter {v.name}")) for v in node.parameters)
    names = frozenset(name for name, _ in params) | frozenset(name for name, _ in constants)
    preconditions = tuple(
        _atom(part, arity, names, f"{where}'s precondition") for part in _conjuncts(node.precond.formula)
    )
    adds, dels = _effects(node.effect.formula, arity, names, f"{where}'s effect")
    return OperatorSchema(node.name, params, preconditions, tuple(adds), tuple(dels))


def _unique(names: list[str], what: str) -> None:
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise PDDLError(f"{what} declared more than once: {', '.join(repeated)}")


def _predicates(tree, supertypes: dict[str, frozenset[str]]) -> tuple[tuple[str, int], ...]:
    nodes = tree.predicates.predicates if tree.predicates else []
    _unique([node.name for node in nodes], "predicate")
    for node in nodes:
        for variable in node.parameters:
            _type_name(variable.types, supertypes, f"predicate {node.name}'s parameter {variable.name}")
    return tuple((node.name, len(node.parameters)) for node in nodes)


def _domain(path: str) -> DomainSchema:
    tree = _syntax().parse_domain_def(_tokens(path))
    supertypes = _type_closure(tree.types)
    predicates = _predicates(tree, supertypes)
    constants = tuple(sorted(_typed_names(tree.constants or [], supertypes, "constant")))
    _unique([node.name for node in tree.actions], "action")
    arity = dict(predicates)
    operators = tuple(_operator(node, arity, supertypes, constants) for node in tree.actions)
    return DomainSchema(tree.name, predicates, operators, supertypes, constants, path)


@lru_cache(maxsize=32)
def load_domain(path: str) -> DomainSchema:
    """Parse a domain file (cached by path)."""
    return _read(str(path), "domain", _domain)


def _problem(domain: DomainSchema, path: str) -> ProblemSpec:
    tree = _syntax().parse_problem_def(_tokens(path, IGNORED_PROBLEM_SECTIONS))
    if tree.domainName != domain.name:
        raise PDDLError(f"the problem is of domain {tree.domainName}, not {domain.name}")
    objects = dict(domain.constants)
    objects.update(_typed_names(tree.objects, domain.supertypes, "object"))
    arity = dict(domain.predicates)
    names = frozenset(objects)
    init = frozenset(_checked((fact.name, *fact.parameters), arity, names, "init") for fact in tree.init.predicates)
    goal = tuple(sorted({_atom(part, arity, names, "goal") for part in _conjuncts(tree.goal.formula)}))
    return ProblemSpec(tree.name, tuple(sorted(objects.items())), init, goal, path)


def load_problem(domain: DomainSchema, path: str | Path) -> ProblemSpec:
    """Parse a problem file of ``domain`` (IPC style; ``:requirements`` and ``:metric`` sections are ignored)."""
    return _read(str(path), "problem", lambda file: _problem(domain, file))
