"""The report's figures (matplotlib, headless), each returned as an embeddable ``data:image/png`` URI."""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["figure_uri", "curves_figure", "radar_figure", "difficulty_figure", "finish_figure"]

_REASON_COLORS = {
    "success": "#2e7d32",
    "failure": "#c62828",
    "step_limit": "#f9a825",
    "invalid_format": "#6a1b9a",
    "invalid_action": "#ad1457",
    "repetition": "#00838f",
    "context_limit": "#4e342e",
    "agent_error": "#455a64",
    "host_error": "#546e7a",
    "engine_error": "#37474f",
}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def figure_uri(figure: Any) -> str:
    """PNG bytes of ``figure`` as a data URI (the figure is closed)."""
    plt = _pyplot()
    buffer = io.BytesIO()
    try:
        figure.tight_layout()
    except Exception:  # layout is cosmetic; never fail a report over it
        pass
    figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    plt.close(figure)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _grid(count: int, columns: int = 3, size: tuple[float, float] = (4.2, 3.0)):
    plt = _pyplot()
    columns = max(1, min(columns, count))
    rows = math.ceil(count / columns)
    figure, axes = plt.subplots(rows, columns, figsize=(size[0] * columns, size[1] * rows), squeeze=False)
    flat = [ax for row in axes for ax in row]
    for ax in flat[count:]:
        ax.set_visible(False)
    return figure, flat[:count]


def curves_figure(curves: Mapping[str, Mapping[str, Sequence[float]]], ylabel: str, percent: bool = True) -> str:
    """One panel per env id; one line per run. ``curves[env_id][run_name] = [value at step 0, 1, ...]``."""
    envs = sorted(curves)
    figure, axes = _grid(max(1, len(envs)))
    for ax, env_id in zip(axes, envs):
        for run_name, values in curves[env_id].items():
            scale = 100.0 if percent else 1.0
            ax.plot(range(len(values)), [v * scale for v in values], label=run_name, linewidth=1.6)
        ax.set_title(env_id, fontsize=9)
        ax.set_xlabel("step")
        ax.set_ylabel(ylabel)
        ax.set_ylim(0, 100 if percent else 1.0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    return figure_uri(figure)


def radar_figure(scores: Mapping[str, Mapping[str, Mapping[str, float | None]]], skills: Sequence[str]) -> str:
    """Sub-skill radar: one panel per basis ("from success rate", ...), one polygon per run (0-100)."""
    plt = _pyplot()
    bases = list(scores)
    figure = plt.figure(figsize=(5.2 * max(1, len(bases)), 4.6))
    angles = [2 * math.pi * i / len(skills) for i in range(len(skills))] + [0.0]
    for index, basis in enumerate(bases):
        ax = figure.add_subplot(1, max(1, len(bases)), index + 1, projection="polar")
        for run_name, values in scores[basis].items():
            points = [100.0 * (values.get(skill) or 0.0) for skill in skills]
            ax.plot(angles, points + points[:1], linewidth=1.6, label=run_name)
            ax.fill(angles, points + points[:1], alpha=0.12)
        ax.set_xticks(angles[:-1])
        ax.set_xticklabels(skills, fontsize=8)
        ax.set_ylim(0, 100)
        ax.set_title(basis, fontsize=10, pad=18)
        ax.legend(fontsize=7, loc="lower right", bbox_to_anchor=(1.3, -0.1))
    return figure_uri(figure)


def difficulty_figure(values: Mapping[str, Mapping[str, Mapping[str, float | None]]]) -> str:
    """Hard/easy bars: one panel per env; bars easy/hard SR and PR per run.

    ``values[env_id][run_name] = {"easy SR": .., "hard SR": .., "easy PR": .., "hard PR": ..}``.
    """
    envs = sorted(values)
    figure, axes = _grid(max(1, len(envs)))
    labels = ("easy SR", "hard SR", "easy PR", "hard PR")
    for ax, env_id in zip(axes, envs):
        runs = list(values[env_id])
        width = 0.8 / max(1, len(runs))
        for r, run_name in enumerate(runs):
            heights = [100.0 * (values[env_id][run_name].get(label) or 0.0) for label in labels]
            ax.bar([i + r * width for i in range(len(labels))], heights, width=width, label=run_name)
        ax.set_xticks([i + width * (len(runs) - 1) / 2 for i in range(len(labels))])
        ax.set_xticklabels(labels, fontsize=8)
        ax.set_ylim(0, 100)
        ax.set_title(env_id, fontsize=9)
        ax.legend(fontsize=7)
        ax.grid(axis="y", alpha=0.3)
    return figure_uri(figure)


def finish_figure(shares: Mapping[str, Mapping[str, float]]) -> str:
    """Stacked horizontal bars of finish-reason shares; ``shares[row label][reason] = fraction``."""
    plt = _pyplot()
    rows = list(shares)
    reasons = sorted({reason for row in shares.values() for reason in row})
    figure, ax = plt.subplots(figsize=(9, 0.45 * len(rows) + 1.4))
    left = [0.0] * len(rows)
    for reason in reasons:
        widths = [100.0 * shares[row].get(reason, 0.0) for row in rows]
        ax.barh(rows, widths, left=left, label=reason, color=_REASON_COLORS.get(reason))
        left = [a + b for a, b in zip(left, widths)]
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of episodes")
    ax.invert_yaxis()
    ax.tick_params(axis="y", labelsize=8)
    ax.legend(fontsize=8, ncol=min(4, max(1, len(reasons))), loc="upper center", bbox_to_anchor=(0.5, -0.25))
    return figure_uri(figure)
