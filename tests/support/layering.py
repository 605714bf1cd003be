"""The package's layer order, and a checker that finds every import running against it.

Order (DESIGN.md, "Layers"): core <- envs (a family imports core, itself and the families it declares in
``Family.depends_on``) and wrappers <- agents <- eval <- integrations <- cli; ``testing`` uses core only. The
package's own ``__init__.py`` (unit ``agentgym_text``) imports core and the ``envs`` package to register the ids,
so the layers above envs may import it; ``envs/__init__.py`` (unit ``envs``) finds the families and is the only
module below cli that may name any family.

An import is any of: an ``import`` statement (module level or inside a function), a string literal that is a
module path ("agentgym_text.x.y", "agentgym_text.x.y:Name": ``importlib.import_module`` arguments, gymnasium entry
points, ``resources.files`` packages), and an f-string or a string ending in "." that starts such a path
("agentgym_text.envs." + name: some family). Docstrings and other prose are not read.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

__all__ = [
    "LAYERS",
    "ROOT",
    "ANY_FAMILY",
    "imported_modules",
    "unit_of",
    "wrong_way_imports",
    "unit_edges",
    "import_cycles",
]

ROOT = "agentgym_text"
"""The unit of the package's ``__init__.py``."""

ANY_FAMILY = "envs/*"
"""A family named at run time (``f"agentgym_text.envs.{family}"``)."""

LAYERS: dict[str, tuple[str, ...]] = {
    "core": (),
    "envs": ("core", ANY_FAMILY),
    "wrappers": ("core",),
    ROOT: ("core", "envs"),
    "agents": ("core", "envs", "wrappers", ROOT),
    "eval": ("core", "envs", "wrappers", ROOT, "agents"),
    "integrations": ("core", "envs", "wrappers", ROOT, "agents", "eval"),
    "cli": ("core", "envs", ANY_FAMILY, "wrappers", ROOT, "agents", "eval", "integrations"),
    "testing": ("core",),
}
"""Each unit other than a family -> the units it may import besides itself (a family: see ``_allowed``)."""

_MODULE_PATH = re.compile(rf"{ROOT}(?:(?:\.\w+)+(?::[\w.]+)?|:[\w.]+)")
_MODULE_PREFIX = re.compile(rf"{ROOT}(?:\.\w+)*\.")


def _module_name(package_dir: Path, path: Path) -> str:
    parts = path.relative_to(package_dir).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((ROOT, *parts))


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _exists(package_dir: Path, dotted: str) -> bool:
    parts = dotted.split(".")[1:]
    target = package_dir.joinpath(*parts) if parts else package_dir
    return target.is_dir() or target.with_suffix(".py").is_file()


def imported_modules(package_dir: Path, path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) for everything ``path`` imports from the package; a module named at run time ends in ".*"."""
    module = _module_name(package_dir, path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = {
        id(node.body[0].value)
        for node in ast.walk(tree)  # docstrings
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    skip |= {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(node, module, path.name == "__init__.py")
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                yield node.lineno, submodule if _exists(package_dir, submodule) else source
        elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
            head = str(node.values[0].value)
            prefix, named = _MODULE_PREFIX.match(head), _MODULE_PATH.match(head)
            if prefix and len(node.values) > 1 and prefix.end() == len(head):
                yield node.lineno, prefix.group() + "*"
            elif named:
                yield node.lineno, named.group().partition(":")[0]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            if _MODULE_PATH.fullmatch(node.value):
                yield node.lineno, node.value.partition(":")[0]
            elif _MODULE_PREFIX.fullmatch(node.value):
                yield node.lineno, node.value + "*"


def unit_of(package_dir: Path, module: str) -> str | None:
    """The unit ``module`` belongs to ("envs/<family>" for a family; None outside the package).

    >>> unit_of(Path("agentgym_text"), "agentgym_text.envs.*")
    'envs/*'
    >>> unit_of(Path("agentgym_text"), "json") is None
    True
    """
    parts = module.split(".")
    if parts[0] != ROOT:
        return None
    if len(parts) == 1:
        return ROOT
    if parts[1] == "*":
        return "*"
    if parts[1] == "envs" and len(parts) > 2 and (parts[2] == "*" or (package_dir / "envs" / parts[2]).is_dir()):
        return f"envs/{parts[2]}"
    if parts[1] in LAYERS or _exists(package_dir, f"{ROOT}.{parts[1]}"):
        return parts[1]
    return ROOT  # an attribute of the package (``from agentgym_text import list_envs``)


def _source_unit(package_dir: Path, path: Path) -> str:
    parts = path.relative_to(package_dir).parts
    if len(parts) == 1:
        return ROOT if parts[0] == "__init__.py" else parts[0].removesuffix(".py")
    if parts[0] == "envs" and len(parts) > 2:
        return f"envs/{parts[1]}"
    return parts[0]


def _allowed(unit: str, depends_on: Mapping[str, Sequence[str]]) -> set[str]:
    if unit.startswith("envs/"):
        family = unit.removeprefix("envs/")
        return {"core", unit, *(f"envs/{other}" for other in depends_on.get(family, ()))}
    return {unit, *LAYERS.get(unit, ())}


def _declared_dependencies() -> dict[str, tuple[str, ...]]:
    from agentgym_text.core.registry import families

    return {family.name: tuple(family.depends_on) for family in families()}


def _package_files(package_dir: Path) -> list[Path]:
    return sorted(path for path in package_dir.rglob("*.py") if "__pycache__" not in path.parts)


def wrong_way_imports(package_dir: Path, depends_on: Mapping[str, Sequence[str]] | None = None) -> list[str]:
    """Every import in ``package_dir`` (a copy of ``agentgym_text``) that the layer order forbids, as
    "<file>:<line>: <module> (<unit> -> <unit>)"; a file outside every unit is reported too.

    ``depends_on``: family -> the families it may import (default: the declared ``Family.depends_on``).
    """
    if depends_on is None:
        depends_on = _declared_dependencies()
    found = []
    for path in _package_files(package_dir):
        source = _source_unit(package_dir, path)
        where = path.relative_to(package_dir).as_posix()
        if source not in LAYERS and not source.startswith("envs/"):
            found.append(f"{where}: {source} is not a unit of the layer order")
            continue
        allowed = _allowed(source, depends_on)
        for line, module in sorted(set(imported_modules(package_dir, path))):
            target = unit_of(package_dir, module)
            if target is None or target in allowed:
                continue
            found.append(f"{where}:{line}: {module} ({source} -> {target})")
    return found


def unit_edges(package_dir: Path, *, families_as_envs: bool = True) -> set[tuple[str, str]]:
    """Every (importer, imported) pair of distinct units; families count as ``envs`` unless told otherwise."""

    def merge(unit: str) -> str:
        return "envs" if families_as_envs and unit.startswith("envs/") else unit

    edges = set()
    for path in _package_files(package_dir):
        source = merge(_source_unit(package_dir, path))
        for _, module in imported_modules(package_dir, path):
            target = unit_of(package_dir, module)
            if target is not None and merge(target) != source:
                edges.add((source, merge(target)))
    return edges


def import_cycles(edges: set[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected groups of more than one unit (Tarjan), each sorted.

    >>> import_cycles({("a", "b"), ("b", "a"), ("b", "c")})
    [['a', 'b']]
    """
    graph: dict[str, list[str]] = {}
    for source, target in sorted(edges):
        graph.setdefault(source, []).append(target)
        graph.setdefault(target, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for successor in graph[node]:
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return sorted(groups)
