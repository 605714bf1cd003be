"""Loading runs and laying their metrics side by side (one column group per run)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentgym_text.eval.metrics import summarize
from agentgym_text.eval.store import EPISODES, SETTINGS, TRAJECTORIES, read_jsonl

__all__ = ["LoadedRun", "load_run", "run_names", "summary_rows", "fmt_rate"]


@dataclass
class LoadedRun:
    """One run folder read back: its settings, episode rows and metrics."""

    name: str
    folder: Path
    settings: dict[str, Any]
    episodes: list[dict[str, Any]]
    metrics: dict[str, Any]

    def trajectories(self) -> dict[str, list[dict[str, Any]]]:
        """Step rows grouped by episode key, in step order."""
        grouped: dict[str, list[dict[str, Any]]] = {}
        for row in read_jsonl(self.folder / TRAJECTORIES):
            grouped.setdefault(str(row.get("episode")), []).append(row)
        for rows in grouped.values():
            rows.sort(key=lambda row: int(row.get("step", 0)))
        return grouped


def load_run(folder: str | Path, name: str | None = None) -> LoadedRun:
    """Read a run folder written by the runner (episodes.jsonl is required)."""
    folder = Path(folder)
    if not (folder / EPISODES).exists():
        raise FileNotFoundError(f"{folder} has no {EPISODES}: not a run folder (run `agentgym-text eval` first)")
    settings_path = folder / SETTINGS
    settings = json.loads(settings_path.read_text(encoding="utf-8")) if settings_path.exists() else {}
    episodes = sorted(read_jsonl(folder / EPISODES), key=lambda e: int(e.get("index", 0)))
    return LoadedRun(name or folder.name, folder, settings, episodes, summarize(episodes))


def run_names(folders: Sequence[str | Path]) -> list[str]:
    """Short distinct names for run folders (the folder name, made unique with the parent where needed)."""
    paths = [Path(f).resolve() for f in folders]
    names = [p.name for p in paths]
    for i, name in enumerate(names):
        if names.count(name) > 1:
            names[i] = f"{paths[i].parent.name}/{name}"
    return names


def fmt_rate(value: float | None) -> str:
    """A fraction as a percentage with one decimal; an em dash for None.

    >>> fmt_rate(0.4567), fmt_rate(None)
    ('45.7', '—')
    """
    return "—" if value is None else f"{100.0 * value:.1f}"


def summary_rows(runs: Sequence[LoadedRun]) -> list[dict[str, Any]]:
    """Rows for the summary table: every env, then every category, then "all", with each run's numbers."""
    env_ids = sorted({env_id for run in runs for env_id in run.metrics["envs"]})
    categories = sorted({c for run in runs for c in run.metrics["categories"]})
    rows = []
    for env_id in env_ids:
        rows.append({"label": env_id, "kind": "env", "cells": [run.metrics["envs"].get(env_id) for run in runs]})
    for category in categories:
        rows.append(
            {
                "label": f"{category} (macro)",
                "kind": "category",
                "cells": [run.metrics["categories"].get(category) for run in runs],
            }
        )
    rows.append({"label": "all (macro)", "kind": "all", "cells": [run.metrics["overall"] for run in runs]})
    return rows
