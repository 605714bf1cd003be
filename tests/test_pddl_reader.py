"""The PDDL reader (pyperplan's parser) reads every shipped and AgentBoard file as pddlgym's parser did, and
refuses malformed files with a PDDLError naming the file and the fault."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from agentgym_text.core.registry import MissingDependency
from agentgym_text.envs.pddl import pddl_reader
from agentgym_text.envs.pddl.pddl_reader import PDDLError, load_domain, load_problem
from agentgym_text.envs.pddl.problem_files import DOMAIN_DIR
from tests.support import pddlgym_reader as reference

NO_PDDLGYM = (
    "pddlgym is not installed (no extra installs it: its gym 0.26 has no wheel; "
    "pip install pddlgym==0.0.7 on Python 3.10 or 3.11 for this check)"
)


@pytest.fixture(scope="module")
def agentboard_dir(tmp_path_factory) -> Path:
    return reference.agentboard_problem_dir(tmp_path_factory.mktemp("pddl-reader"))


def _ours(domain_file: Path, problem_file: Path | None = None):
    return reference.reading(load_domain, load_problem, domain_file, problem_file)


def test_every_file_reads_as_pddlgym_read_it_recorded(agentboard_dir):
    recorded = json.loads(reference.RECORDING.read_text())["files"]
    ours = reference.entries(load_domain, load_problem, agentboard_dir)
    stale = [name for name in recorded if name in ours and ours[name]["texts"] != recorded[name]["texts"]]
    assert not stale, f"files changed since the recording: {stale[:3]}; python -m tests.support.pddlgym_reader --record"
    assert ours.keys() == recorded.keys()
    differ = [name for name in ours if ours[name]["reading"] != recorded[name]["reading"]]
    assert differ == [], differ[:5]
    refused = sum(1 for name in ours if ours[name]["reading"] == reference.digest("refused"))
    assert (len(ours), refused) == (6 + 160, 21)  # refused: a problem with a spelling it does not use


@pytest.mark.skipif(importlib.util.find_spec("pddlgym") is None, reason=NO_PDDLGYM)
def test_every_file_reads_as_pddlgym_reads_it(agentboard_dir):
    pairs = [(d, None) for d in reference.domain_files()] + list(reference.file_pairs(agentboard_dir))
    for domain_file, problem_file in pairs:
        theirs = reference.reading(reference.load_domain, reference.load_problem, domain_file, problem_file)
        assert reference.canonical(_ours(domain_file, problem_file)) == reference.canonical(theirs), problem_file


BLOCKS = "(define (problem x) (:domain blocks) (:objects a) (:init (clear a)) (:goal {goal}))"


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "the file is empty"),
        ("(define (problem x) (:domain blocks) (:objects a) (:init (on a", "missing closing parenthesis"),
        (BLOCKS.replace("blocks", "barman"), "the problem is of domain barman, not blocks"),
        (BLOCKS.format(goal="(tower a)"), "goal: predicate tower is not declared"),
        (BLOCKS.format(goal="(on a)"), "goal: (on a) does not have the 2 arguments of on"),
        (BLOCKS.format(goal="(clear b)"), "goal: (clear b) names b, which is not declared"),
        (BLOCKS.format(goal="(not (clear a))"), "only conjunctions of positive atoms are supported"),
        (BLOCKS.format(goal="(or (clear a) (handempty))"), "only conjunctions of positive atoms are supported"),
        (BLOCKS.replace("(clear a))", "(clear b))", 1).format(goal="(clear a)"), "init: (clear b) names b"),
        (BLOCKS.replace("(clear a))", "(stacked a))", 1).format(goal="(clear a)"), "init: predicate stacked"),
        (BLOCKS.replace("(:objects a)", "(:objects a - block)").format(goal="(clear a)"), "undeclared type block"),
    ],
)
def test_a_malformed_problem_is_a_pddl_error_naming_the_file_and_the_fault(tmp_path, text, message):
    path = tmp_path / "p.pddl"
    path.write_text(text)
    with pytest.raises(PDDLError, match="cannot parse problem") as caught:
        load_problem(load_domain(str(DOMAIN_DIR / "blocksworld.pddl")), path)
    assert str(path) in str(caught.value) and message in str(caught.value)


@pytest.mark.parametrize(
    "file, old, new, message",
    [
        ("blocksworld", "(clear ?x) (ontable ?x)", "(not (clear ?x)) (ontable ?x)", "pick-up's precondition"),
        ("blocksworld", "(:action put-down", "(:action pick-up", "action declared more than once: pick-up"),
        ("blocksworld", "(not (holding ?x))", "(not (holding ?z))", "(holding ?z) names ?z, which is not declared"),
        ("barman", "?h - hand ?c - container)\n", "?h - (either hand level) ?c - container)\n", "(either)"),
        ("barman", "(holding ?h - hand", "(holding ?h - hands", "?h has the undeclared type hands"),
    ],
)
def test_a_malformed_domain_is_a_pddl_error(tmp_path, file, old, new, message):
    text = (DOMAIN_DIR / f"{file}.pddl").read_text()
    assert old in text
    path = tmp_path / "domain.pddl"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(PDDLError, match="cannot parse domain") as caught:
        load_domain(str(path))
    assert message in str(caught.value)


def test_problem_sections_a_strips_game_ignores_are_read_past(tmp_path):
    path = tmp_path / "p.pddl"
    path.write_text(
        "(define (problem x) (:domain blocks) (:requirements :strips) (:objects a) (:init (clear a) (ontable a)"
        " (handempty)) (:goal (holding a)) (:metric minimize (total-time)))"
    )
    spec = load_problem(load_domain(str(DOMAIN_DIR / "blocksworld.pddl")), path)
    assert spec.objects == (("a", "default"),) and spec.goal == (("holding", "a"),)


def test_without_pyperplan_reading_names_the_extra(tmp_path, monkeypatch):
    for name in [name for name in sys.modules if name.startswith("pyperplan.")] + ["pyperplan"]:
        monkeypatch.setitem(sys.modules, name, None)
    pddl_reader._syntax.cache_clear()
    path = tmp_path / "domain.pddl"
    path.write_text((DOMAIN_DIR / "gripper.pddl").read_text())
    with pytest.raises(MissingDependency, match=r"pip install 'agentgym-text\[pddl\]' \(missing module 'pyperplan'\)"):
        load_domain(str(path))
