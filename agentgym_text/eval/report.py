"""The analytical report: one self-contained HTML file (CSS, plots and data inline; no network).

Views, after AgentBoard's panel: summary table (success/progress/grounding per env, category and overall),
progress-vs-step curves, sub-skill radar, hard/easy bars, grounding table, repetition curves, finish
reasons, and a per-episode trajectory viewer. Several runs are shown side by side.
"""

from __future__ import annotations

import html
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agentgym_text.eval import plots
from agentgym_text.eval.compare import LoadedRun, fmt_rate, load_run, run_names, summary_rows
from agentgym_text.eval.metrics import SUBSKILLS

__all__ = ["write_report", "render_report", "default_report_path", "MAX_EPISODES_SHOWN", "MAX_TEXT_CHARS"]

MAX_EPISODES_SHOWN = 400
"""Trajectory viewer: at most this many episodes per run (the files hold all of them)."""
MAX_TEXT_CHARS = 2000
"""Trajectory viewer: observations longer than this are cut (with a note)."""

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px auto;max-width:1320px;color:#1b1b1b;
padding:0 16px;line-height:1.4}
h1{font-size:1.6em;margin-bottom:4px}h2{border-bottom:2px solid #e0e0e0;padding-bottom:4px;margin-top:36px}
table{border-collapse:collapse;margin:8px 0;font-size:13px}th,td{border:1px solid #ddd;padding:4px 8px;text-align:right}
th{background:#f4f6f8}td.label,th.label{text-align:left}tr.category td{background:#fafafa;font-style:italic}
tr.all td{background:#eef3fb;font-weight:600}img{max-width:100%}.meta{color:#555;font-size:13px}
details{border:1px solid #e3e3e3;border-radius:6px;margin:4px 0;padding:4px 8px}summary{cursor:pointer;font-size:13px}
.ok{color:#2e7d32}.bad{color:#c62828}pre{white-space:pre-wrap;margin:0;font-size:12px}
table.steps td{text-align:left;vertical-align:top}table.steps td.num{text-align:right}
#filter{padding:4px 8px;width:340px;margin:6px 0}.note{color:#666;font-size:12px}
"""

_SCRIPT = """
(function(){
  window.addEventListener('error', function(e){
    document.body.setAttribute('data-js-error', String(e.message || 'error'));
  });
  var box = document.getElementById('filter');
  function apply(){
    var q = box.value.toLowerCase();
    var items = document.querySelectorAll('details.episode');
    var shown = 0;
    for (var i = 0; i < items.length; i++) {
      var hit = !q || items[i].getAttribute('data-search').indexOf(q) >= 0;
      items[i].style.display = hit ? '' : 'none';
      if (hit) shown++;
    }
    document.getElementById('filter-count').textContent = shown + ' episodes shown';
  }
  if (box) { box.addEventListener('input', apply); apply(); }
  document.body.setAttribute('data-report-ready', '1');
})();
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


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
    sections = [
        _header(runs),
        _summary_section(runs),
        _progress_section(runs),
        _subskill_section(runs),
        _difficulty_section(runs),
        _grounding_section(runs),
        _repetition_section(runs),
        _finish_section(runs),
        _trajectory_section(runs),
    ]
    title = "agentgym-text report: " + ", ".join(run.name for run in runs)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{_e(title)}</title>'
        f"<style>{_CSS}</style></head><body>\n"
        + "\n".join(sections)
        + f"\n<script>{_SCRIPT}</script>\n</body></html>\n"
    )


def _header(runs: Sequence[LoadedRun]) -> str:
    items = []
    for run in runs:
        s = run.settings
        model = f", model {_e(s['model'])}" if s.get("model") else ""
        unplayed = run.metrics.get("agent_errors", 0)
        warning = (
            (
                f" <span class=bad>{unplayed} episodes ended with agent_error (the model endpoint failed) and are "
                "left out of every rate; rerun the same command to play them</span>"
            )
            if unplayed
            else ""
        )
        items.append(
            f"<li><b>{_e(run.name)}</b>: agent {_e(s.get('agent', '?'))}{model}, {len(run.episodes)} episodes{warning}, "
            f"tasks {_e(s.get('tasks', '?'))}, max steps {_e(s.get('max_steps') or 'per task')}, "
            f"<span class=note>{_e(run.folder)}</span></li>"
        )
    return f"<h1>Agent evaluation report</h1><ul class=meta>{''.join(items)}</ul>"


def _table(head: list[str], rows: list[tuple[str, list[str]]], first_header: str = "") -> str:
    out = [
        "<table><tr>" + f"<th class=label>{_e(first_header)}</th>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"
    ]
    for row_class, cells in rows:
        out.append(
            f"<tr class='{row_class}'>"
            + f"<td class=label>{cells[0]}</td>"
            + "".join(f"<td>{c}</td>" for c in cells[1:])
            + "</tr>"
        )
    return "".join(out) + "</table>"


def _summary_section(runs: Sequence[LoadedRun]) -> str:
    head = []
    for run in runs:
        head += [f"{_e(run.name)}<br>SR %", "PR %", "Grounding %", "episodes"]
    rows = []
    for row in summary_rows(runs):
        cells = [_e(row["label"])]
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
    tokens = ""
    if any(m.get("prompt_tokens") for run in runs for m in run.metrics["envs"].values()):
        token_rows = []
        for run in runs:
            for env_id, m in run.metrics["envs"].items():
                token_rows.append(
                    ("env", [_e(f"{run.name}: {env_id}"), str(m["prompt_tokens"]), str(m["completion_tokens"])])
                )
        tokens = "<h3>Token usage</h3>" + _table(["prompt tokens", "completion tokens"], token_rows, "run: env")
    return (
        "<h2>Summary</h2><p class=note>SR = success rate, PR = progress rate (mean final r_t), grounding = "
        "valid actions / steps; category and overall rows are macro-averages over envs (AgentBoard).</p>"
        + _table(head, rows, "env / category")
        + tokens
    )


def _curves(runs: Sequence[LoadedRun], key: str) -> dict[str, dict[str, list[float]]]:
    curves: dict[str, dict[str, list[float]]] = {}
    for run in runs:
        for env_id, m in run.metrics["envs"].items():
            curves.setdefault(env_id, {})[run.name] = m[key]
    return curves


def _progress_section(runs: Sequence[LoadedRun]) -> str:
    uri = plots.curves_figure(_curves(runs, "progress_curve"), "progress rate %")
    return (
        "<h2>Progress rate vs step</h2><p class=note>Mean progress rate after each step, each episode's "
        "progress forward-filled to the step budget (AgentBoard Fig. 3).</p>"
        f"<img alt='progress curves' src='{uri}'>"
    )


def _subskill_section(runs: Sequence[LoadedRun]) -> str:
    scores = {
        "from success rate (AgentBoard)": {run.name: run.metrics["subskills"]["from_success_rate"] for run in runs},
        "from progress rate (ours)": {run.name: run.metrics["subskills"]["from_progress_rate"] for run in runs},
    }
    used_weights = {env_id: entry for run in runs for env_id, entry in run.metrics["subskills"]["weights"].items()}
    used = sorted(used_weights)
    if not used:
        return "<h2>Sub-skill scores</h2><p>No env in these runs has sub-skill weights.</p>"
    uri = plots.radar_figure(scores, SUBSKILLS)
    head, rows = [], []
    for run in runs:
        head += [f"{_e(run.name)}<br>from SR", "from PR"]
    for skill in SUBSKILLS:
        cells = [_e(skill)]
        for run in runs:
            cells += [
                fmt_rate(run.metrics["subskills"]["from_success_rate"][skill]),
                fmt_rate(run.metrics["subskills"]["from_progress_rate"][skill]),
            ]
        rows.append(("env", cells))
    weight_rows = []
    for env_id in used:
        entry = used_weights[env_id]
        weights = [entry["weights"].get(skill, 0) for skill in SUBSKILLS]
        weight_rows.append(("env", [_e(f"{env_id} ({entry['source']})")] + [str(w) for w in weights]))
    unweighted = sorted({e for run in runs for e in run.metrics["subskills"]["unweighted_envs"]})
    note = f"<p class=note>Left out (no weights): {_e(', '.join(unweighted))}</p>" if unweighted else ""
    return (
        "<h2>Sub-skill scores</h2><p class=note>Score = Σ w·rate / Σ w over the tasks present, with "
        "each env's registered weights: AgentBoard's Table 7 for its tasks, ours by the same criteria elsewhere.</p>"
        f"<img alt='sub-skill radar' src='{uri}'>"
        + _table(head, rows, "sub-skill")
        + "<h3>Weights used</h3>"
        + _table([_e(s) for s in SUBSKILLS], weight_rows, "task")
        + note
    )


def _difficulty_section(runs: Sequence[LoadedRun]) -> str:
    values: dict[str, dict[str, dict[str, float | None]]] = {}
    head, rows = [], []
    for run in runs:
        head += [f"{_e(run.name)}<br>easy SR", "hard SR", "easy PR", "hard PR", "easy n", "hard n"]
    env_ids = sorted({e for run in runs for e in run.metrics["envs"]})
    for env_id in env_ids:
        cells = [_e(env_id)]
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
            cells += [
                fmt_rate(d["easy"]["success_rate"]),
                fmt_rate(d["hard"]["success_rate"]),
                fmt_rate(d["easy"]["progress_rate"]),
                fmt_rate(d["hard"]["progress_rate"]),
                str(d["easy"]["episodes"]),
                str(d["hard"]["episodes"]),
            ]
        rows.append(("env", cells))
    groups = [
        (f"{c} (macro)", "category", lambda run, c=c: run.metrics["categories"].get(c))
        for c in sorted({c for run in runs for c in run.metrics["categories"]})
    ]
    groups.append(("all (macro)", "all", lambda run: run.metrics["overall"]))
    for label, kind, pick in groups:
        cells = [_e(label)]
        for run in runs:
            m = pick(run)
            if not m:
                cells += ["—"] * 6
                continue
            d = m["difficulty"]
            cells += [
                fmt_rate(d["easy"]["success_rate"]),
                fmt_rate(d["hard"]["success_rate"]),
                fmt_rate(d["easy"]["progress_rate"]),
                fmt_rate(d["hard"]["progress_rate"]),
                "",
                "",
            ]
        rows.append((kind, cells))
    uri = plots.difficulty_figure(values)
    return (
        "<h2>Hard vs easy</h2><p class=note>Difficulty from the task's subgoal/condition count (AgentBoard "
        "Table 10 cutoffs).</p>" + f"<img alt='hard and easy' src='{uri}'>" + _table(head, rows, "env")
    )


def _grounding_section(runs: Sequence[LoadedRun]) -> str:
    head, rows = [], []
    for run in runs:
        head += [f"{_e(run.name)}<br>grounding %", "valid steps", "steps", "agent errors"]
    env_ids = sorted({e for run in runs for e in run.metrics["envs"]})
    for env_id in env_ids:
        cells = [_e(env_id)]
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
    return (
        "<h2>Grounding accuracy</h2><p class=note>Per episode: valid actions / steps (help actions count as "
        "valid); averaged over episodes. Agent errors: unreadable replies and failed requests, each sent as an "
        "invalid step.</p>" + _table(head, rows, "env")
    )


def _repetition_section(runs: Sequence[LoadedRun]) -> str:
    uri = plots.curves_figure(_curves(runs, "repetition_curve"), "repetition rate %")
    return (
        "<h2>Repetition rate vs step</h2><p class=note>AgentQuest's RR_t = repeated actions / (t − 1), exact "
        "match; an episode keeps its last value after it ends.</p>" + f"<img alt='repetition curves' src='{uri}'>"
    )


def _finish_section(runs: Sequence[LoadedRun]) -> str:
    shares: dict[str, dict[str, float]] = {}
    for run in runs:
        for env_id, m in run.metrics["envs"].items():
            shares[f"{run.name}: {env_id}" if len(runs) > 1 else env_id] = m["finish_reasons"]
    if not shares:
        return "<h2>Finish reasons</h2><p>No episodes.</p>"
    uri = plots.finish_figure(shares)
    reasons = sorted({r for row in shares.values() for r in row})
    rows = [
        ("env", [_e(label)] + [fmt_rate(row.get(r)) if r in row else "0.0" for r in reasons])
        for label, row in shares.items()
    ]
    return (
        "<h2>Finish reasons</h2><p class=note>Share of episodes per reason (AgentBench's taxonomy: success, "
        "failure, step_limit, invalid_format, invalid_action, repetition, context_limit; agent_error, host_error "
        "and engine_error when a model endpoint or an engine failed).</p>"
        + f"<img alt='finish reasons' src='{uri}'>"
        + _table([_e(r) + " %" for r in reasons], rows, "env")
    )


def _cut(text: Any) -> str:
    text = "" if text is None else str(text)
    if len(text) > MAX_TEXT_CHARS:
        text = text[:MAX_TEXT_CHARS] + f"\n[... {len(text) - MAX_TEXT_CHARS} more characters]"
    return _e(text)


def _trajectory_section(runs: Sequence[LoadedRun]) -> str:
    parts = [
        "<h2>Trajectories</h2><input id=filter placeholder='filter by run, env, task, finish reason'> "
        "<span id=filter-count class=note></span>"
    ]
    for run in runs:
        steps_by_episode = run.trajectories()
        shown = run.episodes[:MAX_EPISODES_SHOWN]
        if len(run.episodes) > len(shown):
            parts.append(f"<p class=note>{_e(run.name)}: showing {len(shown)} of {len(run.episodes)} episodes.</p>")
        for episode in shown:
            parts.append(_episode_html(run.name, episode, steps_by_episode.get(str(episode.get("key")), [])))
    return "\n".join(parts)


def _episode_html(run_name: str, episode: dict[str, Any], steps: list[dict[str, Any]]) -> str:
    ok = episode.get("success")
    badge = "<span class=ok>success</span>" if ok else f"<span class=bad>{_e(episode.get('finish_reason'))}</span>"
    label = (
        f"{run_name} · {episode.get('env_id')} · {episode.get('task_id')} ({episode.get('difficulty')}) · "
        f"PR {fmt_rate(episode.get('progress_rate'))} · {episode.get('steps')} steps"
    )
    search = f"{label} {episode.get('finish_reason')}".lower()
    rows = [
        f"<tr><td class=num>0</td><td></td><td><pre>{_cut(episode.get('initial_observation'))}</pre></td>"
        f"<td></td><td class=num>{fmt_rate(episode.get('initial_progress', 0.0))}</td></tr>"
    ]
    for step in steps:
        valid = "✓" if step.get("valid") else f"✗ {_e(step.get('invalid_reason') or '')}"
        thought = f"<div class=note>thought: {_cut(step.get('thought'))}</div>" if step.get("thought") else ""
        error = f"<div class=bad>agent: {_e(step.get('agent_error'))}</div>" if step.get("agent_error") else ""
        rows.append(
            f"<tr><td class=num>{_e(step.get('step'))}</td><td><pre>{_cut(step.get('action'))}</pre>{thought}{error}</td>"
            f"<td><pre>{_cut(step.get('observation'))}</pre></td><td>{valid}</td>"
            f"<td class=num>{fmt_rate(step.get('progress_rate'))}</td></tr>"
        )
    return (
        f'<details class=episode data-search="{_e(search)}"><summary>{_e(label)} · {badge}</summary>'
        f"<p><b>Goal:</b> {_e(episode.get('goal'))}</p>"
        "<table class=steps><tr><th>#</th><th>action</th><th>observation</th><th>valid</th><th>PR %</th></tr>"
        + "".join(rows)
        + "</table></details>"
    )
