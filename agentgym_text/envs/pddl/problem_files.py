"""Where domain and problem files live, which domain spelling a problem file uses, and loaded problems (cached).

A problem file of a supported domain may use any of the domain's PDDL spellings (``DOMAIN_VARIANTS``: ours,
and AgentBoard's ``blocksworld-4ops`` Blocksworld and Tyreworld with ``isopen``); the first spelling whose
domain file reads the problem is used. A user's own ``domain_file`` is read as given, with the domain's
sentences where its predicate and operator names match and the PDDL names elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from agentgym_text.envs.pddl.actions import ActionParser
from agentgym_text.envs.pddl.domain_texts import (
    DOMAIN_VARIANTS,
    VARIANT_TEXTS,
    canonical_domain,
    generic_text,
    variant_key,
)  # fmt: skip
from agentgym_text.envs.pddl.model import GroundProblem
from agentgym_text.envs.pddl.pddl_reader import PDDLError, load_domain, load_problem
from agentgym_text.envs.pddl.render import DomainRenderer

__all__ = [
    "PACKAGE_DIR",
    "DOMAIN_DIR",
    "PROBLEM_DIR",
    "domain_path",
    "LoadedProblem",
    "load",
]

PACKAGE_DIR = Path(__file__).resolve().parent
DOMAIN_DIR = PACKAGE_DIR / "domains"
PROBLEM_DIR = PACKAGE_DIR / "problems"


def domain_path(domain: str) -> Path:
    """The packaged domain file of a supported domain or of one of its variants (``"tyreworld-isopen"``)."""
    return DOMAIN_DIR / f"{variant_key(domain) or canonical_domain(domain)}.pddl"


@dataclass
class LoadedProblem:
    """Everything the env needs about one problem; the planner is built on first use.

    ``domain_key`` is the domain ("tyreworld"), ``variant`` the spelling its file uses ("tyreworld-isopen",
    or "custom" for a user's domain file).
    """

    domain_key: str
    ground: GroundProblem
    renderer: DomainRenderer
    parser: ActionParser
    variant: str = ""
    _planner: object | None = field(default=None, repr=False)

    @property
    def planner(self):
        if self._planner is None:
            from agentgym_text.envs.pddl.planner import Planner

            self._planner = Planner(self.ground)
        return self._planner


def _resolved(path: str | Path, what: str) -> Path:
    resolved = Path(path).expanduser().resolve()
    if not resolved.is_file():
        raise FileNotFoundError(f"PDDL {what} file not found: {resolved}")
    return resolved


def load(domain: str, problem_file: str | Path, domain_file: str | Path | None = None) -> LoadedProblem:
    """Parse and ground ``problem_file`` of ``domain`` (cached by resolved paths and modification times).

    Without ``domain_file`` the domain's spellings are tried in order (or only the one ``domain`` names, e.g.
    ``"blocksworld-4ops"``); PDDLError names each spelling tried when none reads the file.
    """
    path = _resolved(problem_file, "problem")
    key = canonical_domain(domain)
    if domain_file is not None:
        own = _resolved(domain_file, "domain")
        return _load(key, "custom", str(own), own.stat().st_mtime_ns, str(path), path.stat().st_mtime_ns)
    pinned = variant_key(domain)
    errors = []
    for variant in (pinned,) if pinned else DOMAIN_VARIANTS[key]:
        file = DOMAIN_DIR / f"{variant}.pddl"
        try:
            return _load(key, variant, str(file), file.stat().st_mtime_ns, str(path), path.stat().st_mtime_ns)
        except PDDLError as error:
            errors.append(f"as {variant}: {error}")
    if len(errors) == 1:
        raise PDDLError(errors[0].split(": ", 1)[1])
    raise PDDLError(
        f"cannot parse problem {path} with any {key} domain spelling ({'; '.join(errors)}); pass domain_file= "
        "to use your own domain file"
    )


@lru_cache(maxsize=256)
def _load(domain_key: str, variant: str, domain_file: str, _dmtime: int, path: str, _mtime: int) -> LoadedProblem:
    schema = load_domain(domain_file)
    ground = GroundProblem(schema, load_problem(schema, path))
    if variant == "custom":
        text = generic_text(
            VARIANT_TEXTS[_closest_variant(domain_key, schema)],
            dict(schema.predicates),
            {op.name: len(op.params) for op in schema.operators},
        )
    else:
        text = VARIANT_TEXTS[variant]
    renderer = DomainRenderer(schema, text)
    return LoadedProblem(domain_key, ground, renderer, ActionParser(ground, renderer), variant=variant)


def _closest_variant(domain_key: str, schema) -> str:
    """The packaged spelling sharing the most predicate and operator names with a user's domain file."""
    names = {name for name, _ in schema.predicates} | {op.name for op in schema.operators}

    def shared(variant: str) -> int:
        text = VARIANT_TEXTS[variant]
        return len(names & (set(text.facts) | set(text.actions)))

    return max(DOMAIN_VARIANTS[domain_key], key=shared)
