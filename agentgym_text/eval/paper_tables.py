"""The three papers' result tables, from a run's summary and episode rows: pure functions, hand-checkable.

- AgentBoard (its main table): progress and success rate per task, easy/hard, grounding accuracy, each category's
  average and the overall average, over the run's ``AgentBoard/`` ids.
- AgentBench (Table 2): each environment's own metric (OS, DB, HH: success rate; KG: F1; card game: reward; LTP:
  game progress; WS: reward; WB: step success rate), in percent as the paper prints them, and the overall score: the
  mean over the environments run of score / "Weight^-1" (Table 2's average score of the paper's models).
- AgentQuest: progress and final repetition rate per game.

A table is there only when the run has an id of that benchmark; each names the protocol the model was asked in
(``run.json``'s agent settings; "ours" when they name none).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from agentgym_text.core.registry import CATEGORIES, get_entry
from agentgym_text.eval.metrics import UNPLAYED, group_metrics, mean

__all__ = ["AgentBenchColumn", "AGENTBENCH_TABLE_2", "paper_tables", "agentboard_table", "agentbench_table"]


@dataclass(frozen=True)
class AgentBenchColumn:
    task: str
    """AgentBench's task server (``EnvId.agentbench_task``)."""
    name: str
    metric: str
    weight_inverse: float
    note: str = ""
    """Where this package's value stands in for the paper's."""


AGENTBENCH_TABLE_2 = (
    AgentBenchColumn("os_interaction", "OS", "success rate", 10.8),
    AgentBenchColumn("dbbench", "DB", "success rate", 13.0),
    AgentBenchColumn("knowledgegraph", "KG", "F1", 13.9),
    AgentBenchColumn("card_game", "DCG", "reward", 12.0),
    AgentBenchColumn("ltp", "LTP", "game progress", 3.5),
    AgentBenchColumn("alfworld", "HH", "success rate", 13.0),
    AgentBenchColumn("webshop", "WS", "reward", 30.7),
    AgentBenchColumn("mind2web", "WB", "step success rate", 11.6),
)
"""Table 2's environments in its order, each with its metric and its "Weight^-1"."""

Episode = Mapping[str, Any]


def _score(column: AgentBenchColumn, metrics: Mapping[str, Any], episodes: list[Episode]) -> float | None:
    """The column's metric for one id, as a fraction."""
    if column.metric == "success rate":
        return metrics.get("success_rate")
    if column.metric == "F1":
        return mean(float((e.get("scores") or {}).get("f1", 0.0)) for e in episodes)
    if column.metric == "step success rate":
        return mean(float((e.get("scores") or {}).get("step_success_rate", 0.0)) for e in episodes)
    if column.task == "webshop":
        return mean(float((e.get("scores") or {}).get("purchase_reward", 0.0)) for e in episodes)
    if column.task == "card_game":
        return mean(float((e.get("scores") or {}).get("dcg_score", 0.0)) for e in episodes)
    return metrics.get("progress_rate")  # LTP's game progress


def agentbench_table(summary: Mapping[str, Any], episodes: Iterable[Episode]) -> dict[str, Any] | None:
    """Table 2's row for this run (scores in percent) and the overall score; None without AgentBench ids.

    >>> rows = [{"env_id": "AgentBench/OS-v0", "success": True, "finish_reason": "success"}]
    >>> table = agentbench_table({"envs": {"AgentBench/OS-v0": {"success_rate": 0.5}}}, rows)
    >>> table["columns"][0]["score"], round(table["overall"], 4)
    (50.0, 4.6296)
    """
    played = [e for e in episodes if e.get("finish_reason") not in UNPLAYED]
    columns = []
    for column in AGENTBENCH_TABLE_2:
        ids = [env_id for env_id in summary.get("envs", {}) if _agentbench_task(env_id) == column.task]
        if not ids:
            continue
        scores = [
            _score(column, summary["envs"][env_id], [e for e in played if e.get("env_id") == env_id]) for env_id in ids
        ]
        score = mean(scores)
        columns.append(
            {
                "environment": column.name,
                "env_ids": ids,
                "metric": column.metric,
                "score": None if score is None else 100.0 * score,
                "weight_inverse": column.weight_inverse,
                "note": column.note,
            }
        )
    if not columns:
        return None
    weighted = [c["score"] / c["weight_inverse"] for c in columns if c["score"] is not None]
    return {
        "columns": columns,
        "overall": mean(weighted),
        "environments_run": len(columns),
        "environments": len(AGENTBENCH_TABLE_2),
    }


def agentboard_table(summary: Mapping[str, Any]) -> dict[str, Any] | None:
    """AgentBoard's main table over this run's ``AgentBoard/`` ids; None without them."""
    per_env = {env_id: m for env_id, m in summary.get("envs", {}).items() if env_id.startswith("AgentBoard/")}
    if not per_env:
        return None
    rows = [
        {
            "env_id": env_id,
            "category": metrics.get("category", ""),
            "progress_rate": metrics.get("progress_rate"),
            "success_rate": metrics.get("success_rate"),
            "grounding_accuracy": metrics.get("grounding_accuracy"),
            "easy": metrics.get("difficulty", {}).get("easy", {}),
            "hard": metrics.get("difficulty", {}).get("hard", {}),
        }
        for env_id, metrics in per_env.items()
    ]
    categories = {
        category: group_metrics({k: v for k, v in per_env.items() if v.get("category") == category})
        for category in CATEGORIES
        if any(v.get("category") == category for v in per_env.values())
    }
    return {"rows": rows, "categories": categories, "overall": group_metrics(per_env)}


def agentquest_table(summary: Mapping[str, Any]) -> dict[str, Any] | None:
    """AgentQuest's progress and repetition rates over this run's ``AgentQuest/`` ids; None without them."""
    rows = [
        {
            "env_id": env_id,
            "progress_rate": metrics.get("progress_rate"),
            "repetition_rate": metrics.get("final_repetition_rate"),
            "success_rate": metrics.get("success_rate"),
        }
        for env_id, metrics in summary.get("envs", {}).items()
        if env_id.startswith("AgentQuest/")
    ]
    return {"rows": rows} if rows else None


def paper_tables(summary: Mapping[str, Any], episodes: Iterable[Episode], protocol: str | None) -> dict[str, Any]:
    """Every paper's table this run covers, keyed "agentboard", "agentbench", "agentquest", each with its protocol."""
    tables = {
        "agentboard": agentboard_table(summary),
        "agentbench": agentbench_table(summary, episodes),
        "agentquest": agentquest_table(summary),
    }
    return {name: {**table, "protocol": protocol or "ours"} for name, table in tables.items() if table is not None}


def _agentbench_task(env_id: str) -> str | None:
    try:
        return get_entry(env_id).agentbench_task
    except (KeyError, ValueError):
        return None
