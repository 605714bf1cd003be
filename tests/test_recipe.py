"""The new-family recipe of CONTRIBUTING.md, followed for real: copy Mastermind into a new family folder of a
copy of the repository, rename it, and run the suite's own structure, registry, prompt and contract checks on it
and ``agentgym-text list``, with no file outside the new folder changed."""

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NEW_ID = "Recipe/Codebreaker-v0"
SKIP = shutil.ignore_patterns(".git", ".venv", "runs", "__pycache__", "*.egg-info", ".pytest_cache", "build")


def _digest(root: Path, outside: Path) -> dict[str, str]:
    """Hash of every file below ``root`` except those under ``outside``."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and outside not in path.parents and "__pycache__" not in path.parts
    }


def _rename(text: str) -> str:
    text = text.replace("AgentQuest/Mastermind-v0", NEW_ID)
    text = re.sub(r"\bmastermind\b", "codebreaker", text)
    return text.replace("mastermind-", "codebreaker-").replace("Mastermind", "Codebreaker")


@pytest.mark.timeout(900)
def test_a_family_copied_from_mastermind_passes_every_check_without_touching_anything_else(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=SKIP)
    folder = repo / "agentgym_text" / "envs" / "codebreaker"
    before = _digest(repo, folder)
    shutil.copytree(repo / "agentgym_text" / "envs" / "mastermind", folder, ignore=SKIP)
    for path in folder.iterdir():
        path.write_text(_rename(path.read_text(encoding="utf-8")), encoding="utf-8")
    assert "AgentQuest/Mastermind-v0" not in (folder / "registration.py").read_text()

    env = dict(os.environ, PYTHONPATH=str(repo), AGENTGYM_TEXT_QUIET="1")
    env.pop("CI", None)  # the copy's skips (other families' extras) are not this test's concern
    listing = subprocess.run(
        [sys.executable, "-m", "agentgym_text.cli", "list"],
        capture_output=True,
        text=True,
        cwd=repo,
        env=env,
        timeout=300,
    )
    assert listing.returncode == 0, listing.stderr
    row = next(line for line in listing.stdout.splitlines() if line.startswith(NEW_ID))
    assert row.split()[1:3] == ["game", "60"] and row.endswith("installed")

    checks = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=",
            "--timeout=600",
            "tests/test_structure.py",
            "tests/test_registry.py",
            "tests/test_prompts.py",
            "tests/test_contract.py",
            "-k",
            "codebreaker or Codebreaker",
            "--deselect",
            "tests/test_registry.py::test_readme_table_lists_every_env_with_its_task_count",
        ],
        capture_output=True,
        text=True,
        cwd=repo,
        env=env,
        timeout=900,
    )
    assert checks.returncode == 0, checks.stdout[-4000:] + checks.stderr[-2000:]
    counts = dict((kind, int(n)) for n, kind in re.findall(r"(\d+) (passed|failed|error|skipped)", checks.stdout))
    assert counts.get("passed", 0) >= 15 and not counts.get("failed") and not counts.get("error"), checks.stdout
    import_check = f"import agentgym_text, sys; assert agentgym_text.__file__.startswith({str(repo)!r})"
    subprocess.run([sys.executable, "-c", import_check], cwd=repo, env=env, check=True, timeout=120)
    assert _digest(repo, folder) == before
