"""Under ``CI=true`` a skipped test fails the run, unless its reason names something CI cannot have.

``make test`` installs every extra, program and setting the suite uses, so a skip in CI means a broken install;
on a laptop the same skips are fine. Loaded by ``tests/conftest.py``.
"""

from __future__ import annotations

import os

import pytest

CI_MAY_SKIP = (
    "ALFWorld's downloaded games",  # the user's copy of ALFWorld's data: not ours to ship
    "AGENTGYM_TEXT_AGENTBOARD_PDDL",  # the user's copy of AgentBoard's problem files
    "make test-rl",  # the RL stack's tests run in their own target
    "make test-integrations",  # so do SkyRL's, Inspect AI's and verifiers' (their own venv)
    "a user's WebArena deployment",
    "a Freebase endpoint",
    "pddlgym is not installed",  # a test's reference PDDL parser: no extra installs it (gym 0.26 has no wheel)
)
"""Substrings of the skip reasons CI may show: outside data and services that no clean machine has, and a
reference package that installs from wheels on no supported Python."""


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def _reason(report: pytest.CollectReport | pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


def _fail_unexpected_skip(report: pytest.CollectReport | pytest.TestReport) -> None:
    # pytest reports an expected failure (xfail) as skipped too; it ran, so it is no broken install
    if not report.skipped or not in_ci() or hasattr(report, "wasxfail"):
        return
    reason = _reason(report)
    if any(allowed in reason for allowed in CI_MAY_SKIP):
        return
    report.outcome = "failed"
    report.longrepr = (
        f"skipped under CI=true: {reason}\nCI installs everything the suite needs, so this is a "
        "broken install; only what CI cannot have may be skipped (CI_MAY_SKIP in "
        "tests/support/ci_skip_guard.py)"
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    _fail_unexpected_skip(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    outcome = yield
    _fail_unexpected_skip(outcome.get_result())
