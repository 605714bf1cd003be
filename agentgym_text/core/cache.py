"""Generated data in the cache dir: built once at first use, checksummed, rebuilt when its generator changes.

A family that generates data (games, catalogues, worlds) calls ``build_cached(name, key, build)``. The entry
lives in ``cache_root() / name / key``; ``key`` should come from ``source_key(...)`` over the generator's
modules and its parameters, so that editing the generator gives a new key and a fresh build. ``build``
writes files into an empty staging folder; when it returns, a ``MANIFEST.json`` with every file's SHA-256 is
written and the folder is moved into place atomically, under a file lock so that parallel processes (vector
env workers) build it once. A later use checks the manifest (sizes always, hashes once per process) and
rebuilds an entry that does not match.

>>> import tempfile, os
>>> os.environ["AGENTGYM_TEXT_CACHE"] = tempfile.mkdtemp()
>>> path = build_cached("demo", "v1", lambda folder: (folder / "x.txt").write_text("hi"), quiet=True)
>>> (path / "x.txt").read_text()
'hi'
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import TypeVar

from filelock import FileLock

__all__ = ["cache_root", "source_key", "build_cached", "progress_bar", "CacheError"]

T = TypeVar("T")
_MANIFEST = "MANIFEST.json"
_VERIFIED: set[Path] = set()


class CacheError(RuntimeError):
    """A cache entry could not be built or read."""


def cache_root() -> Path:
    """``$AGENTGYM_TEXT_CACHE``, else ``$XDG_CACHE_HOME/agentgym-text``, else ``~/.cache/agentgym-text``."""
    explicit = os.environ.get("AGENTGYM_TEXT_CACHE")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "agentgym-text"


def source_key(*parts: ModuleType | Path | str | int | float | bool | None, length: int = 16) -> str:
    """A short hex digest of modules' source files, files' bytes and plain values, in the order given."""
    digest = hashlib.sha256()
    for part in parts:
        if isinstance(part, ModuleType):
            digest.update(Path(part.__file__ or "").read_bytes())
        elif isinstance(part, Path):
            digest.update(part.read_bytes())
        else:
            digest.update(repr(part).encode())
        digest.update(b"\0")
    return digest.hexdigest()[:length]


def progress_bar(
    iterable: Iterable[T], *, total: int | None = None, desc: str = "", quiet: bool = False
) -> Iterator[T]:
    """A tqdm bar on stderr for first-use builds (silent with ``quiet`` or ``AGENTGYM_TEXT_QUIET=1``)."""
    from tqdm.auto import tqdm

    disable = quiet or os.environ.get("AGENTGYM_TEXT_QUIET") == "1"
    yield from tqdm(iterable, total=total, desc=desc, disable=disable, file=sys.stderr, leave=False)


def _file_hashes(folder: Path) -> dict[str, dict[str, int | str]]:
    files = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.name != _MANIFEST):
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        files[path.relative_to(folder).as_posix()] = {"size": path.stat().st_size, "sha256": digest.hexdigest()}
    return files


def _intact(entry: Path, *, deep: bool) -> bool:
    manifest_path = entry / _MANIFEST
    if not manifest_path.is_file():
        return False
    try:
        recorded = json.loads(manifest_path.read_text())["files"]
    except (ValueError, KeyError):
        return False
    for name, meta in recorded.items():
        path = entry / name
        if not path.is_file() or path.stat().st_size != meta["size"]:
            return False
    if deep:
        return _file_hashes(entry) == recorded
    return True


def build_cached(
    name: str,
    key: str,
    build: Callable[[Path], None],
    *,
    verify: str = "sha256",
    quiet: bool = False,
) -> Path:
    """The folder of cache entry ``name/key``, built by ``build(folder)`` if absent or damaged.

    ``verify="sha256"`` re-hashes the files once per process; ``"size"`` only compares sizes (for entries of
    hundreds of MB). ``quiet`` hides the one-line notice of a build.
    """
    if verify not in ("sha256", "size"):
        raise ValueError("verify must be 'sha256' or 'size'")
    family_dir = cache_root() / name
    entry = family_dir / key
    deep = verify == "sha256" and entry not in _VERIFIED
    if _intact(entry, deep=deep):
        _VERIFIED.add(entry)
        return entry
    family_dir.mkdir(parents=True, exist_ok=True)
    with FileLock(family_dir / f".{key}.lock"):
        if _intact(entry, deep=verify == "sha256"):
            _VERIFIED.add(entry)
            return entry
        if not quiet and os.environ.get("AGENTGYM_TEXT_QUIET") != "1":
            print(f"agentgym-text: building {name} data into {entry} (first use only)", file=sys.stderr)
        staging = Path(tempfile.mkdtemp(prefix=f".{key}.", dir=family_dir))
        try:
            build(staging)
            manifest = {"name": name, "key": key, "files": _file_hashes(staging)}
            (staging / _MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True))
            if entry.exists():
                shutil.rmtree(entry)
            os.replace(staging, entry)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    _VERIFIED.add(entry)
    return entry
