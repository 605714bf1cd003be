"""A cache build slow enough for concurrent askers to meet, importable by the worker processes of the cache tests."""

from __future__ import annotations

import time
from pathlib import Path

__all__ = ["slow_build"]


def slow_build(log: Path):
    """A build that logs each run and takes long enough for the others to arrive while it runs."""

    def build(folder: Path) -> None:
        with log.open("a") as handle:
            handle.write("built\n")
        time.sleep(0.3)
        (folder / "data.txt").write_text("data")

    return build
