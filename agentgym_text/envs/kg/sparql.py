"""GrailQA's lisp-to-SPARQL rules (the translation AgentBench's KG task runs on a program), written here.

The program is cut into sub-programs bottom-up (post-order; every nested list but ``(R r)`` becomes ``#k``), each
sub-program ``k`` binds the variable ``?xk``, and:

- ``(JOIN (R r) e)`` gives ``e r ?xk`` (``e`` an id ``m.``/``g.``, a variable ``#j`` or a literal), ``(JOIN r e)``
  gives ``?xk r e`` (a plain literal there is compared as ``str(?obj) = "..."``, WebQSP's constraints);
- ``(AND a b)`` makes ``?xk`` the same variable as both operands (a class operand adds ``?xk type.object.type c``);
- ``(le|lt|ge|gt r v)`` gives ``?xk r ?yk`` and a filter on ``?yk``;
- ``(ARGMAX|ARGMIN p r1 ... rn)`` (a relation chain, nested ``JOIN``s flattened) orders by the value reached over
  the chain and keeps every entity with the best value (a sub-query with ``LIMIT 1``);
- ``(COUNT p)`` counts the distinct answers of ``p``.

Variables made the same are merged (the smallest number stands for all), the answer variable is ``?x``, the ids met
in joins are kept out of the answers, and only untagged or English literals are answers. Typed literals
``v^^type``: numbers and ``dateTime`` as written, other types (``date``, ``gYear``, ...) with Freebase's ``-08:00``
zone appended. ``TC`` (time constraints) is not translated: AgentBench's tools never make it. The query is
standard SPARQL 1.1, which Virtuoso reads too: GrailQA writes Virtuoso's ``SELECT COUNT DISTINCT ?x`` and ``OR``
(here ``(COUNT(DISTINCT ?x) AS ?count)`` and ``||``) and prefixed names (here full IRIs, as pyoxigraph 0.5 misreads
a prefixed name with two dots).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agentgym_text.envs.kg.lisp import Expr, LispError, resolve_inverses

__all__ = ["FREEBASE", "PREFIX", "to_sparql", "relations_query", "is_entity"]

FREEBASE = "http://rdf.freebase.com/ns/"
PREFIX = f"PREFIX ns: <{FREEBASE}>"
_COMPARISONS = {"le": "<=", "lt": "<", "ge": ">=", "gt": ">"}
_PLAIN_TYPES = ("integer", "float", "dateTime", "double")
_ENTITY_PREFIXES = ("m.", "g.", "f.")


def _iri(name: object) -> str:
    """A Freebase name as a full IRI (prefixed names with two dots, ``ns:a.b.c``, are misread by some parsers)."""
    return f"<{FREEBASE}{name}>"


_TYPE = _iri("type.object.type")


def is_entity(atom: str) -> bool:
    """A Freebase id as GrailQA's rules read one (``m.``, ``g.``; and ``f.``, which AgentBench's tools accept)."""
    return atom[:2] in _ENTITY_PREFIXES


def _literal(atom: str) -> str:
    value, _, datatype = atom.partition("^^")
    kind = datatype.rpartition("#")[2]
    if kind not in _PLAIN_TYPES:
        value += "-08:00"
    return f'"{value}"^^<{datatype}>'


def _relation_chain(expr: Expr) -> list[Expr]:
    if isinstance(expr, str) or expr[0] == "R":
        return [expr]
    if expr[0] != "JOIN":
        raise LispError(f"an ARGMAX/ARGMIN relation chain holds relations and JOINs, not {expr[0]!r}")
    return [relation for part in expr[1:] for relation in _relation_chain(part)]


def _linearize(expr: list[Expr], out: list[list[Expr]]) -> str:
    flat: list[Expr] = []
    for part in expr:
        if isinstance(part, list) and part and part[0] != "R":
            flat.append(_linearize(part, out))
        else:
            flat.append(part)
    out.append(flat)
    return f"#{len(out) - 1}"


@dataclass
class _Query:
    parent: dict[int, int] = field(default_factory=dict)
    clauses: list[tuple] = field(default_factory=list)  # (text parts and ints: variables)
    entities: set[str] = field(default_factory=set)
    order: str = ""
    superlative: bool = False
    count: bool = False

    def root(self, var: int) -> int:
        while var in self.parent:
            var = self.parent[var]
        return var

    def merge(self, first: int, second: int) -> None:
        a, b = self.root(first), self.root(second)
        if a != b:
            self.parent[max(a, b)] = min(a, b)

    def add(self, *parts: object) -> None:
        self.clauses.append(parts)


def _variable(token: Expr) -> int | None:
    if isinstance(token, str) and token.startswith("#") and token[1:].isdigit():
        return int(token[1:])
    return None


def _join(query: _Query, i: int, sub: list[Expr]) -> None:
    if len(sub) != 3:
        raise LispError("JOIN takes a relation and an argument")
    relation, argument = sub[1], sub[2]
    if not isinstance(argument, str):
        raise LispError("a JOIN argument is an id, a variable or a literal")
    var = _variable(argument)
    if isinstance(relation, list):  # (R r): the argument is the subject
        if len(relation) != 2 or not isinstance(relation[1], str):
            raise LispError("R takes one relation")
        name = relation[1]
        if var is not None:
            query.add(var, f" {_iri(name)} ", i, " .")
        elif is_entity(argument):
            query.entities.add(argument)
            query.add(f"{_iri(argument)} {_iri(name)} ", i, " .")
        else:
            subject = _literal(argument) if "^^" in argument else argument
            query.add(f"{subject} {_iri(name)} ", i, " .")
        return
    if var is not None:
        query.add(i, f" {_iri(relation)} ", var, " .")
    elif is_entity(argument):
        query.entities.add(argument)
        query.add(i, f" {_iri(relation)} {_iri(argument)} .")
    elif "^^" in argument:
        query.add(i, f" {_iri(relation)} {_literal(argument)} .")
    else:
        escaped = argument.replace("\\", "\\\\").replace('"', '\\"')
        query.add(i, f" {_iri(relation)} ?obj .")
        query.add(f'FILTER (str(?obj) = "{escaped}") .')


def _superlative(query: _Query, i: int, sub: list[Expr]) -> None:
    if len(sub) < 3:
        raise LispError(f"{sub[0]} takes a program and an attribute")
    query.superlative = True
    var = _variable(sub[1])
    if var is not None:
        query.merge(i, var)
    elif isinstance(sub[1], str):
        query.add(i, f" {_TYPE} {_iri(sub[1])} .")
    chain = sub[2:]
    if len(chain) == 1:
        query.add(i, f" {_iri(chain[0])} ?sk0 .")
    else:
        previous: object = i
        for j, relation in enumerate(chain[:-1]):
            following = f"?c{j}"
            if isinstance(relation, list):
                query.add(f"{following} {_iri(relation[1])} ", previous, " .")
            else:
                query.add(previous, f" {_iri(relation)} {following} .")
            previous = following
        query.add(previous, f" {_iri(chain[-1])} ?sk0 .")
    query.order = "ORDER BY ?sk0" if sub[0] == "ARGMIN" else "ORDER BY DESC(?sk0)"


def _build(expr: Expr) -> tuple[_Query, int]:
    if isinstance(expr, str):
        raise LispError(f"a program is a list, not the atom {expr!r}")
    expr = resolve_inverses(expr)
    assert isinstance(expr, list)
    if expr and expr[0] in ("ARGMAX", "ARGMIN") and len(expr) >= 3:
        expr = [expr[0], expr[1], *[r for part in expr[2:] for r in _relation_chain(part)]]
    subs: list[list[Expr]] = []
    _linearize(expr, subs)
    query = _Query()
    for i, sub in enumerate(subs):
        head = sub[0] if sub else None
        if head == "JOIN":
            _join(query, i, sub)
        elif head == "AND":
            if len(sub) != 3:
                raise LispError("AND takes two arguments")
            second = _variable(sub[2])
            if second is None:
                raise LispError("AND's second argument is a program")
            query.merge(i, second)
            first = _variable(sub[1])
            if first is not None:
                query.merge(i, first)
            elif isinstance(sub[1], str):
                query.add(i, f" {_TYPE} {_iri(sub[1])} .")
        elif head in _COMPARISONS:
            if len(sub) != 3 or not isinstance(sub[2], str):
                raise LispError(f"{head} takes a relation and a value")
            value = _literal(sub[2]) if "^^" in sub[2] else sub[2]
            query.add(i, f" {_iri(sub[1])} ?y{i} .")
            query.add(f"FILTER (?y{i} {_COMPARISONS[str(head)]} {value})")
        elif head in ("ARGMAX", "ARGMIN"):
            _superlative(query, i, sub)
        elif head == "COUNT":
            var = _variable(sub[1]) if len(sub) == 2 else None
            if var is None or i != len(subs) - 1:
                raise LispError("COUNT takes one program and is outermost")
            query.merge(i, var)
            query.count = True
        else:
            raise LispError(f"no SPARQL rule for {head!r}")
    return query, query.root(len(subs) - 1)


def _render(query: _Query, answer: int, clause: tuple) -> str:
    parts = []
    for part in clause:
        if isinstance(part, int):
            root = query.root(part)
            parts.append("?x" if root == answer else f"?x{root}")
        else:
            parts.append(str(part))
    return "".join(parts)


def _body(query: _Query, answer: int) -> tuple[list[str], list[str]]:
    """(the triple patterns, the where block: language filter, patterns, entity filters)."""
    patterns = [_render(query, answer, clause) for clause in query.clauses]
    where = ["FILTER (!isLiteral(?x) || lang(?x) = '' || langMatches(lang(?x), 'en'))", *patterns]
    where += [f"FILTER (?x != {_iri(entity)})" for entity in sorted(query.entities)]
    return patterns, where


def to_sparql(expr: Expr) -> str:
    """The SELECT query of a program: one column of answers (``?x``), or ``?count`` for ``COUNT``."""
    query, answer = _build(expr)
    patterns, where = _body(query, answer)
    if query.superlative:
        lines = [PREFIX, "SELECT DISTINCT ?x", "WHERE {", *patterns, "{SELECT ?sk0", "WHERE {", *where, "}"]
        lines += [query.order, "LIMIT 1", "}", "}"]
        return "\n".join(lines)
    head = "SELECT (COUNT(DISTINCT ?x) AS ?count)" if query.count else "SELECT DISTINCT ?x"
    return "\n".join([PREFIX, head, "WHERE {", *where, "}"])


def relations_query(expr: Expr) -> str:
    """The outgoing relations of a program's answers: its query as a sub-query under ``?x ?rel ?obj``."""
    query = to_sparql(expr)
    inner = query.split("\n", 1)[1]
    return "\n".join([PREFIX, "SELECT DISTINCT ?rel", "WHERE {", "?x ?rel ?obj .", "{", inner, "}", "}"])
