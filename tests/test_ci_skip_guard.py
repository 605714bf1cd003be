"""The CI skip guard: an allowed skip passes, a skip for a missing extra fails the run under CI=true."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_TESTS = """
import pytest

def test_needs_a_missing_extra():
    pytest.importorskip("a_module_nobody_has")

def test_needs_outside_data():
    pytest.skip("needs ALFWorld's downloaded games under $ALFWORLD_DATA")
"""

_MODULE_LEVEL = """
import pytest
pytest.importorskip("another_module_nobody_has")

def test_never_collected():
    pass
"""


def _pytest(folder: Path, ci: str | None) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    if ci is not None:
        env["CI"] = ci
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "tests.support.ci_skip_guard",
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=",
            "-rfs",
            str(folder),
        ],
        capture_output=True,
        text=True,
        cwd=folder,
        env=env,
        timeout=120,
    )


def test_under_ci_a_missing_extra_fails_and_an_allowed_skip_passes(tmp_path):
    (tmp_path / "test_guarded.py").write_text(_TESTS)
    result = _pytest(tmp_path, "true")
    assert result.returncode == 1, result.stdout
    assert "1 failed" in result.stdout and "1 skipped" in result.stdout
    assert "skipped under CI=true" in result.stdout and "a_module_nobody_has" in result.stdout


def test_a_module_level_skip_fails_under_ci_too(tmp_path):
    (tmp_path / "test_module.py").write_text(_MODULE_LEVEL)
    result = _pytest(tmp_path, "true")
    assert result.returncode != 0 and "skipped under CI=true" in result.stdout, result.stdout


def test_outside_ci_skips_stay_skips(tmp_path):
    (tmp_path / "test_guarded.py").write_text(_TESTS)
    (tmp_path / "test_module.py").write_text(_MODULE_LEVEL)
    result = _pytest(tmp_path, None)
    assert result.returncode == 0 and "3 skipped" in result.stdout, result.stdout


_XFAIL = """
import pytest

@pytest.mark.xfail(reason="known not thread-safe", strict=False)
def test_expected_to_fail():
    assert False
"""


def test_under_ci_an_expected_failure_is_no_skip(tmp_path):
    (tmp_path / "test_xfail.py").write_text(_XFAIL)
    result = _pytest(tmp_path, "true")
    assert result.returncode == 0 and "1 xfailed" in result.stdout, result.stdout
