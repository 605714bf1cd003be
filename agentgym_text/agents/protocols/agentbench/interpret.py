"""AgentBench's text-building code read without running it: the few expression forms its prompt methods and
f-strings use (string constants, f-strings, concatenation, a parameter, a call of another method of the same class,
``in`` tests, ``not``/``and``/``or``, an item by a constant key, ``chr``/``str``, a string's ``join`` over a list or a plain list comprehension), interpreted from the ``ast``. Anything else is a ``ValueError``: a checkout whose
texts need more than that is not v0.2's."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

__all__ = ["evaluate", "ClassReader"]

_BUILTINS = {"chr": chr, "str": str}
"""The built-in functions a text expression may call (Mind2Web numbers its choices with ``chr``)."""


def evaluate(node: ast.AST, names: Mapping[str, Any], methods: ClassReader | None = None) -> Any:
    """The value of the expression ``node`` with ``names`` as its variables (``self.m(...)`` calls ``methods``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float, bool, type(None))):
        return node.value
    if isinstance(node, ast.Name) and node.id in names:
        return names[node.id]
    if isinstance(node, ast.JoinedStr):
        return "".join(str(evaluate(part, names, methods)) for part in node.values)
    if isinstance(node, ast.FormattedValue) and node.format_spec is None and node.conversion in (-1, 115):
        return str(evaluate(node.value, names, methods))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return evaluate(node.left, names, methods) + evaluate(node.right, names, methods)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return not evaluate(node.operand, names, methods)
    if isinstance(node, ast.BoolOp):
        values = (evaluate(value, names, methods) for value in node.values)
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
        found = evaluate(node.left, names, methods) in evaluate(node.comparators[0], names, methods)
        return found if isinstance(node.ops[0], ast.In) else not found
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "join"
        and isinstance(node.func.value, ast.Constant)
        and isinstance(node.func.value.value, str)
        and len(node.args) == 1
        and not node.keywords
    ):
        return node.func.value.value.join(str(item) for item in evaluate(node.args[0], names, methods))
    if (
        isinstance(node, ast.ListComp)
        and len(node.generators) == 1
        and isinstance(node.generators[0].target, ast.Name)
        and not node.generators[0].ifs
        and not node.generators[0].is_async
    ):
        loop = node.generators[0]
        items = evaluate(loop.iter, names, methods)
        return [evaluate(node.elt, {**names, loop.target.id: item}, methods) for item in items]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _BUILTINS
        and node.func.id not in names
        and len(node.args) == 1
        and not node.keywords
    ):
        return _BUILTINS[node.func.id](evaluate(node.args[0], names, methods))
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return evaluate(node.value, names, methods)[node.slice.value]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [evaluate(item, names, methods) for item in node.elts]
    if (
        methods is not None
        and isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "self"
        and not node.keywords
    ):
        return methods.call(node.func.attr, *(evaluate(arg, names, methods) for arg in node.args))
    raise ValueError(f"line {getattr(node, 'lineno', '?')}: {ast.unparse(node)!r} is more than a text expression")


class ClassReader:
    """A class's methods whose body is one ``return <text expression>``, called by name (its bases' too, the class's
    own first): ``ClassReader([cls, base]).call("solver_instruction", story)``."""

    def __init__(self, classes: list[ast.ClassDef]):
        self._methods: dict[str, ast.FunctionDef] = {}
        for cls in reversed(classes):  # the subclass's own methods win
            for item in cls.body:
                if isinstance(item, ast.FunctionDef):
                    self._methods[item.name] = item

    def call(self, name: str, *args: Any) -> Any:
        method = self._methods.get(name)
        if method is None:
            raise ValueError(f"no method {name!r}")
        body = [s for s in method.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
            raise ValueError(f"{name}: its body is more than one return of a text")
        parameters = [a.arg for a in method.args.args][1:]  # without self
        if len(parameters) != len(args):
            raise ValueError(f"{name} takes {len(parameters)} arguments, not {len(args)}")
        return evaluate(body[0].value, dict(zip(parameters, args)), self)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda *args: self.call(name, *args)
