"""What every AgentBoard reference recorder shares: a venv with AgentBoard's pinned packages, AgentBoard's files
read from a git mirror (never copied into this repository), importing one of its env modules on its own, and the
two-stage command line (``--setup`` here, ``--record`` inside the reference venv).

The git mirror of hkust-nlp/AgentBoard (a bare clone or any ``.git`` folder; ``git clone --mirror
https://github.com/hkust-nlp/AgentBoard``) is named by ``--git-dir`` or else by ``$AGENTBOARD_GIT_DIR``; only
``--setup`` reads it (it writes the commit it copied to the source folder's ``COMMIT``, which ``--record`` reads).

The recorders import this module as a sibling (``python tests/reference/record_<family>.py`` puts this folder first
on ``sys.path``), in our venv and in the reference venvs alike, so it imports nothing outside the standard library.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import types
from collections.abc import Callable, Iterable
from pathlib import Path

__all__ = ["GIT_DIR_VARIABLE", "make_venv", "git", "copy_files", "import_env_module", "main"]

GIT_DIR_VARIABLE = "AGENTBOARD_GIT_DIR"
"""The environment variable naming the AgentBoard git mirror when ``--git-dir`` is not given."""


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
    parser.add_argument("--setup", action="store_true", help="create the reference venv and copy AgentBoard's files")
    parser.add_argument("--record", action="store_true", help="record (run with the reference venv's python)")
    parser.add_argument("--git-dir", default=None,
                        help=f"the git mirror of hkust-nlp/AgentBoard that --setup reads (else ${GIT_DIR_VARIABLE})")
    if options is not None:
        options(parser)
    args = parser.parse_args()
    if args.setup:
        args.git_dir = args.git_dir or os.environ.get(GIT_DIR_VARIABLE)
        if not args.git_dir:
            parser.error(f"--setup needs the git mirror of hkust-nlp/AgentBoard: pass --git-dir PATH or set "
                         f"${GIT_DIR_VARIABLE} (e.g. after git clone --mirror https://github.com/hkust-nlp/AgentBoard)")
        if not Path(args.git_dir).is_dir():
            parser.error(f"the AgentBoard git mirror {args.git_dir} (from --git-dir or ${GIT_DIR_VARIABLE}) "
                         "is not a folder")
        setup(args.git_dir)
    if args.record:
        record(args)
    return args
