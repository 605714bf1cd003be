"""Where domains and shipped problems live, and a cache of loaded (parsed, grounded) problems."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from agentgym_text.envs.pddl.engine import load_domain, load_problem
from agentgym_text.envs.pddl.grounding import GroundProblem
from agentgym_text.envs.pddl.parsing import ActionParser
from agentgym_text.envs.pddl.templates import DOMAIN_TEXTS, canonical_domain
from agentgym_text.envs.pddl.text import DomainRenderer

__all__ = ["PACKAGE_DIR", "DOMAIN_DIR", "PROBLEM_DIR", "domain_path", "LoadedProblem", "load"]

PACKAGE_DIR = Path(__file__).resolve().parent
DOMAIN_DIR = PACKAGE_DIR / "domains"
PROBLEM_DIR = PACKAGE_DIR / "problems"


def domain_path(domain: str) -> Path:
    """The packaged domain file of a supported domain."""
    return DOMAIN_DIR / f"{canonical_domain(domain)}.pddl"


@dataclass
class LoadedProblem:
    """Everything the env needs about one problem; the planner is built on first use."""

    domain_key: str
    ground: GroundProblem
    renderer: DomainRenderer
    parser: ActionParser
    _planner: object | None = field(default=None, repr=False)

    @property
    def planner(self):
        if self._planner is None:
            from agentgym_text.envs.pddl.planner import Planner

            self._planner = Planner(self.ground)
        return self._planner


def load(domain: str, problem_file: str | Path) -> LoadedProblem:
    """Parse and ground ``problem_file`` of ``domain`` (cached by resolved path and modification time)."""
    path = Path(problem_file).expanduser().resolve()
    if not path.is_file():
        raise FileNotFoundError(f"PDDL problem file not found: {path}")
    return _load(canonical_domain(domain), str(path), path.stat().st_mtime_ns)


@lru_cache(maxsize=256)
def _load(domain_key: str, path: str, _mtime: int) -> LoadedProblem:
    schema = load_domain(str(domain_path(domain_key)))
    ground = GroundProblem(schema, load_problem(schema, path))
    renderer = DomainRenderer(schema, DOMAIN_TEXTS[domain_key])
    return LoadedProblem(domain_key, ground, renderer, ActionParser(ground, renderer))
