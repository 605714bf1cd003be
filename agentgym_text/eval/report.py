"""The analytical report: one self-contained HTML file (CSS, plots and data inline; no network).

Views, after AgentBoard's panel: summary table (success/progress/grounding per env, category and overall),
progress-vs-step curves, sub-skill radar, hard/easy bars, grounding table, repetition curves, finish
reasons, and a per-episode trajectory viewer. Several runs are shown side by side. This module gathers each
view's figures and rows; the HTML is in ``templates/`` (Jinja2, every value escaped).
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from agentgym_text.eval import plots
from agentgym_text.eval.compare import LoadedRun, fmt_rate, load_run, run_names, summary_rows
from agentgym_text.eval.metrics import SUBSKILLS
from agentgym_text.eval.paper_tables import paper_tables

__all__ = ["write_report", "render_report", "default_report_path", "MAX_EPISODES_SHOWN", "MAX_TEXT_CHARS"]

MAX_EPISODES_SHOWN = 400
"""Trajectory viewer: at most this many episodes per run (the files hold all of them)."""
MAX_TEXT_CHARS = 2000
"""Trajectory viewer: observations longer than this are cut (with a note)."""


@dataclass
class _Table:
    corner: str
    """The head of the label column."""
    head: list[tuple[str, str]]
    """Each other column's (run name shown above it, or "", label)."""
    rows: list[tuple[str, list[str]]]
    """(row class, cells: the label first)."""


@dataclass
class _Episode:
    label: str
    search: str
    record: dict[str, Any]
    steps: list[dict[str, Any]]


def _escape(value: Any) -> Markup:
    # html.escape's entities (&#x27;, &quot;), not markupsafe's (&#39;, &#34;): the same in a browser, and escaped
    # text reads as it did in earlier reports.
    return value if isinstance(value, Markup) else Markup(html.escape(str(value), quote=True))


def _cut(text: Any) -> str:
    text = "" if text is None else str(text)
    if len(text) > MAX_TEXT_CHARS:
        text = text[:MAX_TEXT_CHARS] + f"\n[... {len(text) - MAX_TEXT_CHARS} more characters]"
    return text


_TEMPLATES = Environment(
    loader=PackageLoader("agentgym_text.eval", "templates"),
    autoescape=True,
    finalize=_escape,
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)
_TEMPLATES.filters.update(cut=_cut, rate=fmt_rate)


def default_report_path(folders: Sequence[str | Path]) -> Path:
    """``<run>/report.html`` for one run; ``<parent>/compare-<a>-vs-<b>.html`` for several."""
    if len(folders) == 1:
        return Path(folders[0]) / "report.html"
    names = "-vs-".join(Path(f).resolve().name for f in folders)
    return Path(folders[0]).resolve().parent / f"compare-{names}.html"


def write_report(folders: Sequence[str | Path], out: str | Path | None = None) -> Path:
    """Render the report of one run, or several side by side, and write it; returns the path."""
    if not folders:
        raise ValueError("give at least one run folder")
    names = run_names(folders)
    runs = [load_run(folder, name) for folder, name in zip(folders, names)]
    path = Path(out) if out else default_report_path(folders)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".html.tmp")
    temporary.write_text(render_report(runs), encoding="utf-8")
    os.replace(temporary, path)
    return path


def render_report(runs: Sequence[LoadedRun]) -> str:
    """The report's HTML text."""
    return _TEMPLATES.get_template("report.html.j2").render(
        title="agentgym-text report: " + ", ".join(run.name for run in runs),
        runs=runs,
        summary=_summary(runs),
        papers=_paper_tables(runs),
        tokens=_tokens(runs),
        progress_uri=plots.curves_figure(_curves(runs, "progress_curve"), "progress rate %"),
        subskills=_subskills(runs),
        difficulty=_difficulty(runs),
        grounding=_grounding(runs),
        repetition_uri=plots.curves_figure(_curves(runs, "repetition_curve"), "repetition rate %"),
        finish=_finish(runs),
        trajectories=[_trajectories(run) for run in runs],
    )


def _run_columns(runs: Sequence[LoadedRun], *labels: str) -> list[tuple[str, str]]:
    """The same columns for every run, the run's name above the first of them."""
    return [(run.name if i == 0 else "", label) for run in runs for i, label in enumerate(labels)]


def _columns(labels: Sequence[str]) -> list[tuple[str, str]]:
    return [("", label) for label in labels]


def _summary(runs: Sequence[LoadedRun]) -> _Table:
    rows = []
    for row in summary_rows(runs):
        cells = [row["label"]]
        for m in row["cells"]:
            if m is None:
                cells += ["—"] * 4
            else:
                cells += [
                    fmt_rate(m["success_rate"]),
                    fmt_rate(m["progress_rate"]),
                    fmt_rate(m["grounding_accuracy"]),
                    str(m["episodes"]),
                ]
        rows.append((row["kind"], cells))
    return _Table("env / category", _run_columns(runs, "SR %", "PR %", "Grounding %", "episodes"), rows)


def _paper_tables(runs: Sequence[LoadedRun]) -> list[tuple[str, str, _Table]]:
    """(title, note, table) for each paper's table each run covers (``eval.paper_tables``), the protocol named."""
    shown = []
    for run in runs:
        tables = paper_tables(run.metrics, run.episodes, run.settings.get("protocol"))
        who = f"{run.name}, protocol {{}}" if len(runs) > 1 else "protocol {}"
        if "agentboard" in tables:
            table = tables["agentboard"]
            rows = [
                (
                    "env",
                    [
                        row["env_id"],
                        *_rates(row, "progress_rate", "success_rate", "grounding_accuracy"),
                        *_rates(row["easy"], "progress_rate", "success_rate"),
                        *_rates(row["hard"], "progress_rate", "success_rate"),
                    ],
                )
                for row in table["rows"]
            ]
            rows += [
                (
                    "category",
                    [
                        name,
                        *_rates(m, "progress_rate", "success_rate", "grounding_accuracy"),
                        *_rates(m["difficulty"]["easy"], "progress_rate", "success_rate"),
                        *_rates(m["difficulty"]["hard"], "progress_rate", "success_rate"),
                    ],
                )
                for name, m in [*table["categories"].items(), ("overall", table["overall"])]
            ]
            head = _columns(["PR %", "SR %", "Grounding %", "easy PR %", "easy SR %", "hard PR %", "hard SR %"])
            shown.append(("AgentBoard", who.format(table["protocol"]), _Table("task", head, rows)))
        if "agentbench" in tables:
            table = tables["agentbench"]
            rows = [
                ("env", [c["environment"], c["metric"], _number(c["score"]), _number(c["weight_inverse"]), c["note"]])
                for c in table["columns"]
            ]
            rows.append(
                (
                    "category",
                    [
                        f"overall ({table['environments_run']} of {table['environments']} environments)",
                        "",
                        _number(table["overall"], 2),
                        "",
                        "",
                    ],
                )
            )
            head = _columns(["metric", "score", "Weight^-1", "note"])
            shown.append(("AgentBench (Table 2)", who.format(table["protocol"]), _Table("environment", head, rows)))
        if "agentquest" in tables:
            table = tables["agentquest"]
            rows = [
                ("env", [row["env_id"], *_rates(row, "progress_rate", "repetition_rate", "success_rate")])
                for row in table["rows"]
            ]
            head = _columns(["PR %", "repetition rate %", "SR %"])
            shown.append(("AgentQuest", who.format(table["protocol"]), _Table("game", head, rows)))
    return shown


def _rates(metrics: dict[str, Any], *keys: str) -> list[str]:
    return [fmt_rate(metrics.get(key)) for key in keys]


def _number(value: float | None, digits: int = 1) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _tokens(runs: Sequence[LoadedRun]) -> _Table | None:
    if not any(m.get("prompt_tokens") for run in runs for m in run.metrics["envs"].values()):
        return None
    rows = [
        ("env", [f"{run.name}: {env_id}", str(m["prompt_tokens"]), str(m["completion_tokens"])])
        for run in runs
        for env_id, m in run.metrics["envs"].items()
    ]
    return _Table("run: env", _columns(["prompt tokens", "completion tokens"]), rows)


def _curves(runs: Sequence[LoadedRun], key: str) -> dict[str, dict[str, list[float]]]:
    curves: dict[str, dict[str, list[float]]] = {}
    for run in runs:
        for env_id, m in run.metrics["envs"].items():
            curves.setdefault(env_id, {})[run.name] = m[key]
    return curves


def _subskills(runs: Sequence[LoadedRun]) -> dict[str, Any] | None:
    """The radar, the scores and the weights used; None when no env of these runs has weights."""
    used_weights = {env_id: entry for run in runs for env_id, entry in run.metrics["subskills"]["weights"].items()}
    if not used_weights:
        return None
    scores = {
        "from success rate (AgentBoard)": {run.name: run.metrics["subskills"]["from_success_rate"] for run in runs},
        "from progress rate (ours)": {run.name: run.metrics["subskills"]["from_progress_rate"] for run in runs},
    }
    rows = []
    for skill in SUBSKILLS:
        cells = [skill]
        for run in runs:
            cells += [
                fmt_rate(run.metrics["subskills"]["from_success_rate"][skill]),
                fmt_rate(run.metrics["subskills"]["from_progress_rate"][skill]),
            ]
        rows.append(("env", cells))
    weight_rows = []
    for env_id in sorted(used_weights):
        entry = used_weights[env_id]
        weights = [str(entry["weights"].get(skill, 0)) for skill in SUBSKILLS]
        weight_rows.append(("env", [f"{env_id} ({entry['source']})", *weights]))
    unweighted = sorted({e for run in runs for e in run.metrics["subskills"]["unweighted_envs"]})
    return {
        "uri": plots.radar_figure(scores, SUBSKILLS),
        "scores": _Table("sub-skill", _run_columns(runs, "from SR", "from PR"), rows),
        "weights": _Table("task", _columns(SUBSKILLS), weight_rows),
        "unweighted": ", ".join(unweighted),
    }


def _difficulty_cells(d: dict[str, Any]) -> list[str]:
    return [
        fmt_rate(d["easy"]["success_rate"]),
        fmt_rate(d["hard"]["success_rate"]),
        fmt_rate(d["easy"]["progress_rate"]),
        fmt_rate(d["hard"]["progress_rate"]),
    ]


def _difficulty(runs: Sequence[LoadedRun]) -> dict[str, Any]:
    values: dict[str, dict[str, dict[str, float | None]]] = {}
    rows = []
    for env_id in sorted({e for run in runs for e in run.metrics["envs"]}):
        cells = [env_id]
        for run in runs:
            m = run.metrics["envs"].get(env_id)
            if m is None:
                cells += ["—"] * 6
                continue
            d = m["difficulty"]
            values.setdefault(env_id, {})[run.name] = {
                "easy SR": d["easy"]["success_rate"],
                "hard SR": d["hard"]["success_rate"],
                "easy PR": d["easy"]["progress_rate"],
                "hard PR": d["hard"]["progress_rate"],
            }
            cells += [*_difficulty_cells(d), str(d["easy"]["episodes"]), str(d["hard"]["episodes"])]
        rows.append(("env", cells))
    groups: list[tuple[str, str, Callable[[LoadedRun], Any]]] = [
        (f"{c} (macro)", "category", lambda run, c=c: run.metrics["categories"].get(c))
        for c in sorted({c for run in runs for c in run.metrics["categories"]})
    ]
    groups.append(("all (macro)", "all", lambda run: run.metrics["overall"]))
    for label, kind, pick in groups:
        cells = [label]
        for run in runs:
            m = pick(run)
            cells += [*_difficulty_cells(m["difficulty"]), "", ""] if m else ["—"] * 6
        rows.append((kind, cells))
    head = _run_columns(runs, "easy SR", "hard SR", "easy PR", "hard PR", "easy n", "hard n")
    return {"uri": plots.difficulty_figure(values), "table": _Table("env", head, rows)}


def _grounding(runs: Sequence[LoadedRun]) -> _Table:
    rows = []
    for env_id in sorted({e for run in runs for e in run.metrics["envs"]}):
        cells = [env_id]
        for run in runs:
            members = [e for e in run.episodes if e.get("env_id") == env_id]
            m = run.metrics["envs"].get(env_id)
            if not members or m is None:
                cells += ["—"] * 4
                continue
            cells += [
                fmt_rate(m["grounding_accuracy"]),
                str(sum(int(e.get("valid_steps", 0)) for e in members)),
                str(sum(int(e.get("steps", 0)) for e in members)),
                str(sum(int(e.get("agent_errors", 0)) for e in members)),
            ]
        rows.append(("env", cells))
    return _Table("env", _run_columns(runs, "grounding %", "valid steps", "steps", "agent errors"), rows)


def _finish(runs: Sequence[LoadedRun]) -> dict[str, Any] | None:
    """The finish-reason bars and shares; None when there are no episodes."""
    shares: dict[str, dict[str, float]] = {}
    for run in runs:
        for env_id, m in run.metrics["envs"].items():
            shares[f"{run.name}: {env_id}" if len(runs) > 1 else env_id] = m["finish_reasons"]
    if not shares:
        return None
    reasons = sorted({r for row in shares.values() for r in row})
    rows = [
        ("env", [label] + [fmt_rate(row.get(r)) if r in row else "0.0" for r in reasons])
        for label, row in shares.items()
    ]
    table = _Table("env", _columns([f"{r} %" for r in reasons]), rows)
    return {"uri": plots.finish_figure(shares), "table": table}


def _trajectories(run: LoadedRun) -> dict[str, Any]:
    steps_by_episode = run.trajectories()
    episodes = []
    for record in run.episodes[:MAX_EPISODES_SHOWN]:
        label = (
            f"{run.name} · {record.get('env_id')} · {record.get('task_id')} ({record.get('difficulty')}) · "
            f"PR {fmt_rate(record.get('progress_rate'))} · {record.get('steps')} steps"
        )
        search = f"{label} {record.get('finish_reason')}".lower()
        episodes.append(_Episode(label, search, record, steps_by_episode.get(str(record.get("key")), [])))
    return {"name": run.name, "total": len(run.episodes), "episodes": episodes}
