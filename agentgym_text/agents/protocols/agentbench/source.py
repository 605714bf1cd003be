"""Reading AgentBench's texts out of its task modules without importing them (they import Docker, MySQL, pandas).

A task module is parsed with ``ast``; a text is found by where it stands (a named constant, the content of a
``session.inject`` call in a method, an operand next to a named value), never by its wording, so a checkout with
other words in the same places reads the same way. ``Located`` keeps the node, so a recorder can put other texts in
the same places.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentgym_text.agents.protocols.agentbench import CHECKOUT, SETTING
from agentgym_text.agents.protocols.agentbench.interpret import ClassReader, evaluate
from agentgym_text.agents.protocols.base import CheckoutError, checkout_file

__all__ = ["TaskSource", "Located", "render_fstring"]


@dataclass(frozen=True)
class Located:
    """A text and the node it was read from."""

    value: Any
    node: ast.AST


class TaskSource:
    """One task module of the checkout (``relative``: its path in the checkout), parsed."""

    def __init__(self, checkout: Path | str, relative: str):
        self.relative = relative
        self.root = Path(checkout).expanduser()
        self.path = checkout_file(checkout, relative, CHECKOUT, SETTING)
        self.text = self.path.read_text(encoding="utf-8")
        try:
            self.tree = ast.parse(self.text, filename=str(self.path))
        except SyntaxError as error:
            raise CheckoutError(f"{self.path} is not {CHECKOUT}: it does not parse ({error})") from None

    def missing(self, what: str) -> CheckoutError:
        return CheckoutError(f"{self.root} is not {CHECKOUT}: {self.relative} has no {what}")

    def constant(self, name: str) -> Located:
        """The literal value of the module-level assignment ``name = ...`` (or ``name: <type> = ...``)."""
        for node in self.tree.body:
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AnnAssign)
                else []
            )
            if node_value(node) is not None and any(isinstance(t, ast.Name) and t.id == name for t in targets):
                try:
                    return Located(ast.literal_eval(node.value), node.value)  # type: ignore[arg-type]
                except ValueError:
                    break
        raise self.missing(f"literal constant {name}")

    def klass(self, name: str) -> ast.ClassDef:
        for node in self.tree.body:
            if isinstance(node, ast.ClassDef) and node.name == name:
                return node
        raise self.missing(f"class {name}")

    def method(self, cls: str, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef:
        for node in self.klass(cls).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                return node
        raise self.missing(f"method {cls}.{name}")

    def injected(self, function: ast.AST) -> list[tuple[str, Located]]:
        """The ``{"role": <str>, "content": <expr>}`` dicts in ``function``, in source order: (role, content node)."""
        found = []
        for node in _walk_in_order(function):
            if not isinstance(node, ast.Dict):
                continue
            keys = [k.value if isinstance(k, ast.Constant) else None for k in node.keys]
            if keys[:2] != ["role", "content"] or not isinstance(node.values[0], ast.Constant):
                continue
            content = node.values[1]
            value = content.value if isinstance(content, ast.Constant) else None
            found.append((str(node.values[0].value), Located(value, content)))
        return found

    def instance(self, cls: str, bases: tuple[str, ...] = ()) -> ClassReader:
        """The module's class ``cls`` (and its ``bases``) read from their definitions: methods returning texts are
        interpreted from the ``ast`` (``interpret``), nothing of the checkout runs, nothing is imported."""
        return ClassReader([self.klass(name) for name in (cls, *bases)])


def render_fstring(node: ast.AST, path: str, **names: Any) -> str:
    """The f-string (or string) ``node`` with ``names`` as its variables (interpreted, not run)."""
    try:
        return str(evaluate(node, names))
    except ValueError as error:
        raise CheckoutError(f"{path}: {error}") from None


def node_value(node: ast.AST) -> ast.AST | None:
    """The value of an assignment (``x = v`` or ``x: T = v``), None for anything else."""
    return node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None


def _walk_in_order(node: ast.AST) -> Iterator[ast.AST]:
    yield node
    for child in ast.iter_child_nodes(node):
        yield from _walk_in_order(child)
