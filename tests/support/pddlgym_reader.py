"""The reference the PDDL reader is checked against: the same schemas read with pddlgym 0.0.7's parser.

``agentgym_text.envs.pddl.pddl_reader`` reads with pyperplan; this module is the reading the package did with
pddlgym, kept for ``tests/test_pddl_reader.py``. No extra installs pddlgym (its gym 0.26 has no wheel, its
Pillow<10 none for Python 3.12+): ``pip install pddlgym==0.0.7`` on Python 3.10 or 3.11 to run the live check.

``python -m tests.support.pddlgym_reader --record`` (pddlgym installed) writes ``tests/reference/pddl_reader_pddlgym.json``:
per file pair, a hash of the file's text and of pddlgym's reading (or that it refused the file), which the test
compares with the package's reading where pddlgym is not installed.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import warnings
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

from agentgym_text.envs.pddl.domain_texts import DOMAIN_VARIANTS, canonical_domain
from agentgym_text.envs.pddl.pddl_reader import Atom, DomainSchema, OperatorSchema, PDDLError, ProblemSpec
from agentgym_text.envs.pddl.problem_files import DOMAIN_DIR, PROBLEM_DIR
from agentgym_text.envs.pddl.tasks import shipped_tasks

REFERENCE = Path(__file__).resolve().parents[1] / "reference"
RECORDING = REFERENCE / "pddl_reader_pddlgym.json"
AGENTBOARD_EPISODES = REFERENCE / "pddl_agentboard.json"


# ---- reading with pddlgym -------------------------------------------------------------------------------------


@cache
def _pddlgym():
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        from pddlgym import parser, structs
    return parser, structs


def _atom(literal) -> Atom:
    _, structs = _pddlgym()
    if not isinstance(literal, structs.Literal) or isinstance(literal, structs.LiteralConjunction):
        raise PDDLError(f"only positive atoms are supported, not {literal}")
    if literal.predicate.is_negative or literal.predicate.is_anti:
        raise PDDLError(f"negative literal {literal} is not supported here")
    return (literal.predicate.name, *(str(v).split(":")[0] for v in literal.variables))


def _conjunction(formula) -> list:
    _, structs = _pddlgym()
    return list(formula.literals) if isinstance(formula, structs.LiteralConjunction) else [formula]


def _operator(name: str, op) -> OperatorSchema:
    adds, dels = [], []
    for literal in _conjunction(op.effects):
        if getattr(literal, "predicate", None) is not None and literal.predicate.is_anti:
            dels.append(_atom(literal.inverted_anti))
        else:
            adds.append(_atom(literal))
    params = tuple((str(p).split(":")[0], str(p.var_type)) for p in op.params)
    preconditions = tuple(_atom(literal) for literal in _conjunction(op.preconds))
    return OperatorSchema(name, params, preconditions, tuple(adds), tuple(dels))


def _type_closure(types, hierarchy) -> dict[str, frozenset[str]]:
    parents: dict[str, set[str]] = {str(t): set() for t in types}
    for parent, children in hierarchy.items():
        for child in children:
            parents.setdefault(str(child), set()).add(str(parent))

    def up(name: str, seen: frozenset[str]) -> set[str]:
        return {name}.union(*(up(parent, seen | {name}) for parent in parents.get(name, set()) - seen))

    return {name: frozenset(up(name, frozenset()) | {"object"}) for name in parents}


def _quietly(what: str, path: str, parse: Callable):
    """pddlgym prints warnings and raises assorted errors on malformed files: silence one, name the other."""
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            return parse()
    except Exception as error:
        raise PDDLError(f"cannot parse {what} {path}: {type(error).__name__}: {error}") from error


def _domain_parser(path: str):
    parser, _ = _pddlgym()
    return _quietly("domain", path, lambda: parser.PDDLDomainParser(path, expect_action_preds=False))


def load_domain(path: str | Path) -> DomainSchema:
    parsed = _domain_parser(str(path))
    operators = _quietly("domain", str(path), lambda: tuple(_operator(n, op) for n, op in parsed.operators.items()))
    return DomainSchema(
        name=parsed.domain_name,
        predicates=tuple((name, p.arity) for name, p in parsed.predicates.items() if name != "="),
        operators=operators,
        supertypes=_type_closure(parsed.types.values(), parsed.type_hierarchy),
        constants=tuple(sorted((str(c).split(":")[0], str(c.var_type)) for c in parsed.constants)),
        path=str(path),
    )


def load_problem(domain: DomainSchema, path: str | Path) -> ProblemSpec:
    parser, _ = _pddlgym()
    dp = _domain_parser(domain.path)
    parsed = _quietly(
        "problem",
        str(path),
        lambda: parser.PDDLProblemParser(str(path), dp.domain_name, dp.types, dp.predicates, set(), dp.constants),
    )
    objects = dict(domain.constants) | {str(e).split(":")[0]: str(e.var_type) for e in parsed.objects}
    init = _quietly("problem", str(path), lambda: frozenset(map(_atom, parsed.initial_state)))
    goal = _quietly("problem", str(path), lambda: tuple(sorted(set(map(_atom, _conjunction(parsed.goal))))))
    return ProblemSpec(parsed.problem_name, tuple(sorted(objects.items())), init, goal, str(path))


# ---- the files compared ---------------------------------------------------------------------------------------


@cache
def agentboard_problem_dir(root: Path) -> Path:
    """AgentBoard's 60 problem files (their texts are in the replay recording), written under ``root``."""
    for episode in json.loads(AGENTBOARD_EPISODES.read_text())["episodes"]:
        path = root / "agentboard" / episode["game"] / episode["file"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(episode["problem_text"])
    return root / "agentboard"


def file_pairs(agentboard_dir: Path) -> Iterator[tuple[Path, Path]]:
    """(domain file, problem file): every shipped problem and every AgentBoard problem with each packaged
    spelling of its domain (most pairs of a wrong spelling are refused, by both readers)."""
    problems = [(t.params["domain"], PROBLEM_DIR / t.params["problem"]) for t in shipped_tasks()]
    problems += [(path.parent.name, path) for path in sorted(agentboard_dir.glob("*/*.pddl"))]
    for domain, problem in problems:
        for variant in DOMAIN_VARIANTS[canonical_domain(domain)]:
            yield DOMAIN_DIR / f"{variant}.pddl", problem


def domain_files() -> list[Path]:
    return sorted(DOMAIN_DIR.glob("*.pddl"))


def reading(load_domain, load_problem, domain_file: Path, problem_file: Path | None = None):
    """A reader's schema (or problem spec), or the PDDLError it raised."""
    try:
        domain = load_domain(str(domain_file))
        return domain if problem_file is None else load_problem(domain, problem_file)
    except PDDLError as error:
        return error


def canonical(read: DomainSchema | ProblemSpec | PDDLError) -> object:
    """A reading as JSON-able data, independent of set order and of where the files are ("refused" for an error)."""
    if isinstance(read, PDDLError):
        return "refused"
    if isinstance(read, ProblemSpec):
        return [read.name, read.objects, sorted(read.init), read.goal]
    operators = [[op.name, op.params, op.preconditions, op.add_effects, op.del_effects] for op in read.operators]
    supertypes = {name: sorted(types) for name, types in read.supertypes.items()}
    return [read.name, read.predicates, operators, supertypes, read.constants]


def digest(data: object) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def key(domain_file: Path, problem_file: Path | None, agentboard_dir: Path) -> str:
    def short(path: Path) -> str:
        for root, name in ((agentboard_dir, "agentboard"), (PROBLEM_DIR, "problems"), (DOMAIN_DIR, "domains")):
            if path.is_relative_to(root):
                return f"{name}/{path.relative_to(root)}"
        raise ValueError(path)

    return short(domain_file) + ("" if problem_file is None else " " + short(problem_file))


def entries(load_domain, load_problem, agentboard_dir: Path) -> dict[str, dict[str, str]]:
    """Per domain file and per (domain, problem) pair: the hash of the texts read and of the reading."""
    pairs = [(d, None) for d in domain_files()] + list(file_pairs(agentboard_dir))
    return {
        key(d, p, agentboard_dir): {
            "texts": digest([d.read_text()] + ([] if p is None else [p.read_text()])),
            "reading": digest(canonical(reading(load_domain, load_problem, d, p))),
        }
        for d, p in pairs
    }


def main() -> None:
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help=f"write {RECORDING.relative_to(REFERENCE.parents[1])}")
    if not parser.parse_args().record:
        parser.print_help()
        return
    with tempfile.TemporaryDirectory() as tmp:
        recorded = entries(load_domain, load_problem, agentboard_problem_dir(Path(tmp)))
    about = "pddlgym 0.0.7's reading (tests/support/pddlgym_reader.py) of each file or (domain, problem) pair: hashes."
    RECORDING.write_text(json.dumps({"about": about, "files": recorded}, indent=1) + "\n")
    print(f"{len(recorded)} readings written to {RECORDING}")


if __name__ == "__main__":
    main()
