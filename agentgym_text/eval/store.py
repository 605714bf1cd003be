"""A run folder: ``run.json`` (settings), ``episodes.jsonl`` (one row per finished episode) and
``trajectories.jsonl`` (one row per step), appended and flushed as the run goes.

A rerun resumes: finished episodes are read back and skipped; step rows of episodes that never finished
(the run was killed mid-episode) are dropped, so no episode appears twice in either file. Episodes the rerun
plays again (by default those ended by ``agent_error``: the model could not be reached) are dropped too.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from agentgym_text.eval.metrics import summarize
from agentgym_text.eval.paper_tables import paper_tables
from agentgym_text.wrappers.recorder import to_jsonable

__all__ = ["RunStore", "read_jsonl", "RunMismatch"]

EPISODES = "episodes.jsonl"
TRAJECTORIES = "trajectories.jsonl"
SETTINGS = "run.json"


def _jsonable(value: Any) -> Any:
    """``json.dumps``'s fallback for what it cannot write itself (numpy values, anything else as its str)."""
    converted = to_jsonable(value)
    return str(converted) if converted is value else converted


class RunMismatch(ValueError):
    """The folder holds a run with other settings than the one being resumed into it."""


def read_jsonl(path: str | Path) -> Iterator[dict[str, Any]]:
    """The rows of a JSON-lines file; a line cut short by a crash (the last one) is skipped."""
    path = Path(path)
    if not path.exists():
        return
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if not line.endswith("\n"):
                break
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(row, dict):
                yield row


def _rewrite(path: Path, rows: list[dict[str, Any]]) -> None:
    temporary = path.with_suffix(path.suffix + ".tmp")
    with temporary.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    os.replace(temporary, path)


class RunStore:
    """Reads and appends the files of one run folder; the appends may come from several threads."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.episodes_path = self.folder / EPISODES
        self.trajectories_path = self.folder / TRAJECTORIES
        self.settings_path = self.folder / SETTINGS
        self._episodes: TextIO | None = None
        self._trajectories: TextIO | None = None
        self.dropped = 0
        """Episode rows removed by ``open`` to be played again."""
        self.keys: set[str] = set()
        """The keys of the episodes with a row in the folder (read back by ``open``, then appended)."""
        self._lock = threading.Lock()

    def open(
        self,
        settings: dict[str, Any],
        resume: dict[str, Any],
        replay: Callable[[dict[str, Any]], bool] = lambda row: False,
    ) -> dict[str, dict[str, Any]]:
        """Check or write the settings, repair the files after a crash, return finished episodes by key.

        ``resume`` holds the settings a rerun must match to continue this run; episodes for which ``replay(row)``
        is true are removed (with their steps) so that they are played again.
        """
        self.folder.mkdir(parents=True, exist_ok=True)
        settings, resume = to_jsonable(settings), to_jsonable(resume)
        if self.settings_path.exists():
            previous = json.loads(self.settings_path.read_text(encoding="utf-8"))
            before = previous.get("resume", {})
            for key in sorted(set(before) | set(resume)):
                if before.get(key) != resume.get(key):
                    raise RunMismatch(
                        f"{self.folder} holds a run with {key}={before.get(key)!r}, not {resume.get(key)!r}; "
                        "use another --out folder, or --rerun to start it over"
                    )
            settings = {
                **previous,
                **settings,
                "env_ids": sorted(set(previous.get("env_ids", [])) | set(settings.get("env_ids", []))),
            }
        settings["resume"] = resume
        self.settings_path.write_text(json.dumps(settings, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        finished: dict[str, dict[str, Any]] = {}
        rows = list(read_jsonl(self.episodes_path))
        for row in rows:
            if replay(row):
                self.dropped += 1
                continue
            finished.setdefault(str(row.get("key")), row)
        if self.episodes_path.exists() and len(finished) != self._line_count(self.episodes_path):
            _rewrite(self.episodes_path, list(finished.values()))
        if self.trajectories_path.exists():
            steps = list(read_jsonl(self.trajectories_path))
            seen: set[tuple[str, int]] = set()
            kept = []
            for row in steps:
                mark = (str(row.get("episode")), int(row.get("step", -1)))
                if mark[0] in finished and mark not in seen:
                    seen.add(mark)
                    kept.append(row)
            if len(kept) != self._line_count(self.trajectories_path):
                _rewrite(self.trajectories_path, kept)
        self._episodes = self.episodes_path.open("a", encoding="utf-8")
        self._trajectories = self.trajectories_path.open("a", encoding="utf-8")
        self.keys = set(finished)
        return finished

    def record_unplayed(self, unplayed: list[dict[str, Any]]) -> None:
        """Write into ``run.json`` the planned episodes the last run did not play (``[]`` when none)."""
        self._record("unplayed", unplayed)

    def record_tables(self, protocol: str | None) -> None:
        """Write into ``run.json`` the papers' tables over every episode in the folder (``eval.paper_tables``)."""
        self._episodes.flush()
        episodes = list(read_jsonl(self.episodes_path))
        self._record("tables", paper_tables(summarize(episodes), episodes, protocol))

    def _record(self, key: str, value: Any) -> None:
        settings = json.loads(self.settings_path.read_text(encoding="utf-8"))
        settings[key] = to_jsonable(value)
        self.settings_path.write_text(json.dumps(settings, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    def clear(self) -> None:
        """Forget every episode and step of this folder (``--rerun``)."""
        for path in (self.episodes_path, self.trajectories_path, self.settings_path):
            path.unlink(missing_ok=True)

    @staticmethod
    def _line_count(path: Path) -> int:
        with path.open("rb") as handle:
            return sum(1 for _ in handle)

    def append_step(self, row: dict[str, Any]) -> None:
        self._write("_trajectories", row)

    def append_episode(self, row: dict[str, Any]) -> None:
        self._write("_episodes", row, key=str(row.get("key")))

    def _write(self, handle_name: str, row: dict[str, Any], key: str | None = None) -> None:
        line = json.dumps(row, ensure_ascii=False, default=_jsonable) + "\n"  # serialised outside the lock
        with self._lock:
            handle: TextIO | None = getattr(self, handle_name)
            if handle is None:
                raise RuntimeError("RunStore.open() first")
            handle.write(line)
            handle.flush()
            if key is not None:
                self.keys.add(key)

    def close(self) -> None:
        for handle in (self._episodes, self._trajectories):
            if handle is not None and not handle.closed:
                handle.close()
        self._episodes = self._trajectories = None
