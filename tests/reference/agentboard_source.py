"""What every AgentBoard reference recorder shares: a venv with AgentBoard's pinned packages, AgentBoard's files
read from a git mirror (never copied into this repository), importing one of its env modules on its own, and the
two-stage command line (``--setup`` here, ``--record`` inside the reference venv).

The recorders import this module as a sibling (``python tests/reference/record_<family>.py`` puts this folder first
on ``sys.path``), in our venv and in the reference venvs alike, so it imports nothing outside the standard library.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import types
from collections.abc import Callable, Iterable
from pathlib import Path

__all__ = ["GIT_DIR", "make_venv", "git", "copy_files", "import_env_module", "main"]

GIT_DIR = "/work/.mirror/hkust-nlp+AgentBoard/repo"
"""Where ``fetch`` puts the snapshot of hkust-nlp/AgentBoard (``--git-dir`` overrides it)."""


def make_venv(venv: Path, pins: Iterable[str]) -> None:
    """A venv at ``venv`` (kept when it exists) with ``pins`` installed."""
    if not (venv / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", *pins], check=True)


def git(git_dir: str, *args: str) -> bytes:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True).stdout


def copy_files(git_dir: str, names: Iterable[str], target: Path) -> str:
    """Write AgentBoard's files ``names`` (at the mirror's HEAD) under ``target``, and the commit to COMMIT."""
    commit = git(git_dir, "rev-parse", "HEAD").decode().strip()
    for name in names:
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(git(git_dir, "show", f"HEAD:{name}"))
    (target / "COMMIT").write_text(commit + "\n")
    return commit


def import_env_module(src: Path, module: str) -> types.ModuleType:
    """Import ``environment.<module>`` from AgentBoard's files under ``src`` without running
    ``environment/__init__.py`` (which imports every other AgentBoard env and their engines)."""
    import importlib

    root = src / "agentboard"
    for package in ("environment", "common"):
        stub = types.ModuleType(package)
        stub.__path__ = [str(root / package)]
        sys.modules[package] = stub
    return importlib.import_module(f"environment.{module}")


def main(doc: str, setup: Callable[[str], None], record: Callable[[argparse.Namespace], None],
         options: Callable[[argparse.ArgumentParser], None] | None = None) -> argparse.Namespace:
    """``--setup`` (the venv and AgentBoard's files) and ``--record`` (inside the venv), with the recorder's own
    ``options``; returns the parsed arguments for any other step of the recorder's."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--setup", action="store_true")
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--git-dir", default=GIT_DIR)
    if options is not None:
        options(parser)
    args = parser.parse_args()
    if args.setup:
        setup(args.git_dir)
    if args.record:
        record(args)
    return args
