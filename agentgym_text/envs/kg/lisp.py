"""S-expressions of AgentBench's KG programs (GrailQA's logical forms): reading, printing, canonical form.

A program is an atom (a Freebase id, a relation, a class, a literal) or a list whose head is ``JOIN``, ``AND``,
``R``, ``COUNT``, ``ARGMAX``, ``ARGMIN``, ``le``/``lt``/``ge``/``gt`` or ``TC``. AgentBench's tools write a reverse
hop as ``relation_inv``; ``resolve_inverses`` turns it into ``(R relation)`` before translation, as AgentBench's
post-processing does.

>>> to_text(resolve_inverses(parse("(JOIN film.film.genre_inv m.0abc)")))
'(JOIN (R film.film.genre) m.0abc)'
>>> canonical(parse("(AND (JOIN b m.2) (JOIN a m.1))")) == canonical(parse("(AND (JOIN a m.1) (JOIN b m.2))"))
True
"""

from __future__ import annotations

import re

__all__ = ["Expr", "LispError", "parse", "to_text", "canonical", "resolve_inverses"]

Expr = str | list["Expr"]
_TOKEN = re.compile(r"\(|\)|[^\s()]+")
_INVERSE = "_inv"


class LispError(ValueError):
    """A program that is not a well-formed s-expression, or one the translator does not handle."""


def parse(text: str) -> Expr:
    """The nested lists of ``text`` (atoms are strings)."""
    stack: list[list[Expr]] = [[]]
    for token in _TOKEN.findall(text):
        if token == "(":
            stack.append([])
        elif token == ")":
            if len(stack) == 1:
                raise LispError(f"unbalanced ')' in {text[:200]!r}")
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token)
    if len(stack) != 1:
        raise LispError(f"unbalanced '(' in {text[:200]!r}")
    if len(stack[0]) != 1:
        raise LispError(f"not one expression: {text[:200]!r}")
    return stack[0][0]


def to_text(expr: Expr) -> str:
    if isinstance(expr, str):
        return expr
    return "(" + " ".join(to_text(part) for part in expr) + ")"


def canonical(expr: Expr) -> str:
    """``expr`` printed with every ``AND``'s operands sorted: the same set whatever the order of intersection."""
    if isinstance(expr, str):
        return expr
    parts = [canonical(part) for part in expr]
    if parts and parts[0] == "AND":
        parts = ["AND", *sorted(parts[1:])]
    return "(" + " ".join(parts) + ")"


def resolve_inverses(expr: Expr) -> Expr:
    """``relation_inv`` atoms as ``(R relation)``."""
    if isinstance(expr, str):
        if len(expr) > len(_INVERSE) and expr.endswith(_INVERSE):
            return ["R", expr[: -len(_INVERSE)]]
        return expr
    return [resolve_inverses(part) for part in expr]
