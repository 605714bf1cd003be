"""The papers' metrics over episode rows (``episodes.jsonl``): pure functions, hand-checkable.

AgentBoard §5 / agentboard-behaviour.md §0: success rate, progress rate (mean final r_t), grounding accuracy
(valid actions / steps per episode, averaged over episodes), hard/easy splits, the progress-vs-step curve
(each episode's ``score_change_record`` forward-filled over the step budget, averaged, with a leading step 0)
and the six sub-skill scores (Table 7 weights, from success rate as the paper does and from progress rate as
our addition). AgentQuest §3.2: the repetition-rate curve. AgentBench §4: finish-reason shares.

Rates are fractions in [0, 1]; the report shows them as percentages. A rate over no episodes is ``None``
(AgentBoard writes 0 there, which reads like a result).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from agentgym_text.core.registry import CATEGORIES

__all__ = [
    "SUBSKILLS",
    "AGENTBOARD_TASKS",
    "TABLE7_WEIGHTS",
    "AGENTBOARD_CODE_SPATIAL",
    "EXTENSION_WEIGHTS",
    "mean",
    "success_rate",
    "progress_rate",
    "grounding_accuracy",
    "difficulty_split",
    "progress_curve",
    "repetition_curve",
    "finish_reason_shares",
    "weight_key",
    "subskill_scores",
    "env_metrics",
    "group_metrics",
    "summarize",
]

Episode = Mapping[str, Any]

SUBSKILLS = ("Memory", "Planning", "World Modeling", "Self-Reflection", "Grounding", "Spatial Navigation")
AGENTBOARD_TASKS = (
    "alfworld", "scienceworld", "babyai", "jericho", "pddl", "webshop", "webarena", "tool-query", "tool-operation",
)

# AgentBoard Table 7 (appendix C), one weight per task in AGENTBOARD_TASKS order.
_TABLE7_ROWS = {
    "Memory": (1, 2, 1, 1, 2, 1, 3, 2, 3),
    "Planning": (1, 2, 2, 3, 3, 2, 3, 2, 2),
    "World Modeling": (3, 3, 2, 3, 1, 1, 3, 1, 1),
    "Self-Reflection": (3, 2, 2, 1, 3, 2, 2, 1, 1),
    "Grounding": (2, 3, 2, 1, 3, 3, 3, 3, 3),
    "Spatial Navigation": (1, 1, 1, 1, 0, 0, 1, 0, 0),
}
TABLE7_WEIGHTS: dict[str, dict[str, int]] = {
    skill: dict(zip(AGENTBOARD_TASKS, row)) for skill, row in _TABLE7_ROWS.items()
}
"""skill -> AgentBoard task -> weight, as printed in the paper's Table 7."""

AGENTBOARD_CODE_SPATIAL = dict(zip(AGENTBOARD_TASKS, (2, 2, 2, 2, 1, 1, 2, 1, 1)))
"""AgentBoard's code uses these Spatial Navigation weights (the paper's + 1); pass ``weights`` to use them."""

EXTENSION_WEIGHTS: dict[str, dict[str, int]] = {
    # Ours, by Table 7's criteria (not in the paper): AgentQuest's puzzles need no commonsense, give detailed
    # feedback, require a fixed action format and no navigation; Mastermind's history is the memory load.
    "mastermind": {"Memory": 2, "Planning": 2, "World Modeling": 1, "Self-Reflection": 1, "Grounding": 2,
                   "Spatial Navigation": 0},
    "sudoku": {"Memory": 1, "Planning": 3, "World Modeling": 1, "Self-Reflection": 1, "Grounding": 2,
               "Spatial Navigation": 0},
}
"""family -> skill -> weight for our envs that Table 7 does not cover (marked as ours in the report)."""


def mean(values: Iterable[float | None]) -> float | None:
    """Mean of the non-None values; None when there are none.

    >>> mean([1.0, None, 0.0]), mean([])
    (0.5, None)
    """
    kept = [float(v) for v in values if v is not None]
    return sum(kept) / len(kept) if kept else None


def success_rate(episodes: Sequence[Episode]) -> float | None:
    return mean(1.0 if e.get("success") else 0.0 for e in episodes)


def progress_rate(episodes: Sequence[Episode]) -> float | None:
    return mean(float(e.get("progress_rate", 0.0)) for e in episodes)


def grounding_accuracy(episodes: Sequence[Episode]) -> float | None:
    """Mean over episodes of valid steps / steps (episodes with no step are left out)."""
    return mean(e["valid_steps"] / e["steps"] if e.get("steps") else None for e in episodes)


def difficulty_split(episodes: Sequence[Episode]) -> dict[str, dict[str, Any]]:
    """Success and progress rate and count for the "easy" and "hard" episodes."""
    split: dict[str, dict[str, Any]] = {}
    for group in ("easy", "hard"):
        members = [e for e in episodes if (e.get("difficulty") or "easy") == group]
        split[group] = {
            "episodes": len(members),
            "success_rate": success_rate(members),
            "progress_rate": progress_rate(members),
        }
    return split


def _curve_length(episodes: Sequence[Episode], length: int | None) -> int:
    if length is not None:
        return length
    return max([int(e.get("budget") or 0) for e in episodes] + [int(e.get("steps") or 0) for e in episodes] + [0])


def progress_curve(episodes: Sequence[Episode], length: int | None = None) -> list[float]:
    """Mean progress rate after 0, 1, ..., ``length`` steps (AgentBoard's curve, as a fraction).

    Each episode's ``score_change_record`` [(step index, new r_t)] is forward-filled over steps
    0..length-1 from its initial progress (0 in practice), averaged over episodes, and step 0 is prepended.

    >>> eps = [{"score_change_record": [[1, 0.5], [2, 1.0]], "budget": 4},
    ...        {"score_change_record": [[0, 0.25]], "budget": 4}]
    >>> progress_curve(eps)
    [0.0, 0.125, 0.375, 0.625, 0.625]
    """
    size = _curve_length(episodes, length)
    if not episodes:
        return []
    totals = [0.0] * (size + 1)
    for episode in episodes:
        value = float(episode.get("initial_progress", 0.0) or 0.0)
        totals[0] += value
        changes = sorted((int(step), float(rate)) for step, rate in episode.get("score_change_record") or [])
        cursor = 0
        for step in range(size):
            while cursor < len(changes) and changes[cursor][0] <= step:
                value = max(value, changes[cursor][1])
                cursor += 1
            totals[step + 1] += value
    return [total / len(episodes) for total in totals]


def repetition_curve(episodes: Sequence[Episode], length: int | None = None) -> list[float]:
    """Mean repetition rate RR_t after 0..``length`` steps; an episode keeps its last RR after it ends.

    >>> repetition_curve([{"repetition": [0.0, 1.0, 0.5], "budget": 4}, {"repetition": [0.0], "budget": 4}])
    [0.0, 0.0, 0.5, 0.25, 0.25]
    """
    size = _curve_length(episodes, length)
    if not episodes:
        return []
    totals = [0.0] * (size + 1)
    for episode in episodes:
        rates = [float(r) for r in episode.get("repetition") or []]
        for step in range(1, size + 1):
            totals[step] += rates[min(step, len(rates)) - 1] if rates else 0.0
    return [total / len(episodes) for total in totals]


def finish_reason_shares(episodes: Sequence[Episode]) -> dict[str, float]:
    """Share of episodes per finish reason, sorted by reason.

    >>> finish_reason_shares([{"finish_reason": "success"}, {"finish_reason": "step_limit"},
    ...                       {"finish_reason": "success"}, {"finish_reason": "success"}])
    {'step_limit': 0.25, 'success': 0.75}
    """
    counts = Counter(str(e.get("finish_reason") or "unknown") for e in episodes)
    total = sum(counts.values())
    return {reason: counts[reason] / total for reason in sorted(counts)}


def weight_key(env_id: str, family: str = "") -> str | None:
    """The AgentBoard task (or our extension family) whose weights an env takes, if any.

    >>> weight_key("AgentBoard/BabyAI-v0", "babyai"), weight_key("AgentBoard/ToolQuery-v0", "tools")
    ('babyai', 'tool-query')
    >>> weight_key("AgentQuest/Mastermind-v0", "mastermind"), weight_key("Other/Thing-v0", "thing")
    ('mastermind', None)
    """
    names = {task.replace("-", ""): task for task in AGENTBOARD_TASKS}
    for candidate in (env_id.split("/")[-1].rsplit("-v", 1)[0], family):
        squashed = candidate.lower().replace("-", "").replace("_", "").replace(" ", "")
        if squashed in names:
            return names[squashed]
        if squashed in EXTENSION_WEIGHTS:
            return squashed
    return None


def subskill_scores(
    rates: Mapping[str, float | None],
    weights: Mapping[str, Mapping[str, float]] | None = None,
    extensions: Mapping[str, Mapping[str, float]] | None = None,
) -> dict[str, float | None]:
    """Σ_t w_t·rate_t / Σ_t w_t per sub-skill over the tasks in ``rates`` (AgentBoard task or extension
    family -> rate); tasks with no weight are ignored, a skill with zero total weight is None.

    >>> scores = subskill_scores({"alfworld": 1.0, "pddl": 0.0})
    >>> scores["Memory"], scores["Planning"], scores["Spatial Navigation"]
    (0.3333333333333333, 0.25, 1.0)
    """
    weights = TABLE7_WEIGHTS if weights is None else weights
    extensions = EXTENSION_WEIGHTS if extensions is None else extensions
    scores: dict[str, float | None] = {}
    for skill in SUBSKILLS:
        numerator = denominator = 0.0
        for task, rate in rates.items():
            if rate is None:
                continue
            weight = weights.get(skill, {}).get(task)
            if weight is None:
                weight = extensions.get(task, {}).get(skill)
            if weight is None:
                continue
            numerator += weight * rate
            denominator += weight
        scores[skill] = numerator / denominator if denominator else None
    return scores


def env_metrics(episodes: Sequence[Episode]) -> dict[str, Any]:
    """Every metric of one group of episodes (usually one env id)."""
    length = _curve_length(episodes, None)
    return {
        "episodes": len(episodes),
        "success_rate": success_rate(episodes),
        "progress_rate": progress_rate(episodes),
        "grounding_accuracy": grounding_accuracy(episodes),
        "difficulty": difficulty_split(episodes),
        "mean_steps": mean(float(e.get("steps", 0)) for e in episodes),
        "progress_curve": progress_curve(episodes, length),
        "repetition_curve": repetition_curve(episodes, length),
        "final_repetition_rate": mean((e.get("repetition") or [0.0])[-1] for e in episodes),
        "finish_reasons": finish_reason_shares(episodes),
        "prompt_tokens": sum(int(e.get("prompt_tokens") or 0) for e in episodes),
        "completion_tokens": sum(int(e.get("completion_tokens") or 0) for e in episodes),
    }


def group_metrics(per_env: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Macro-average over envs (AgentBoard's category and overall summaries): every env counts once."""
    def pick(path: tuple[str, ...]) -> float | None:
        values = []
        for metrics in per_env.values():
            value: Any = metrics
            for key in path:
                value = value.get(key) if isinstance(value, Mapping) else None
            values.append(value)
        return mean(values)

    return {
        "envs": len(per_env),
        "episodes": sum(int(m["episodes"]) for m in per_env.values()),
        "success_rate": pick(("success_rate",)),
        "progress_rate": pick(("progress_rate",)),
        "grounding_accuracy": pick(("grounding_accuracy",)),
        "difficulty": {
            group: {"success_rate": pick(("difficulty", group, "success_rate")),
                    "progress_rate": pick(("difficulty", group, "progress_rate"))}
            for group in ("easy", "hard")
        },
    }


def summarize(episodes: Iterable[Episode]) -> dict[str, Any]:
    """Per env, per category, overall and sub-skill metrics of one run's episodes."""
    rows = sorted(episodes, key=lambda e: (str(e.get("env_id")), int(e.get("index", 0))))
    by_env: dict[str, list[Episode]] = defaultdict(list)
    for row in rows:
        by_env[str(row.get("env_id"))].append(row)
    per_env = {}
    for env_id, members in sorted(by_env.items()):
        first = members[0]
        per_env[env_id] = {
            "env_id": env_id,
            "family": first.get("family", ""),
            "category": first.get("category", ""),
            "weight_key": weight_key(env_id, str(first.get("family", ""))),
            **env_metrics(members),
        }
    categories = {}
    for category in CATEGORIES:
        members_m = {k: v for k, v in per_env.items() if v["category"] == category}
        if members_m:
            categories[category] = group_metrics(members_m)
    by_task: dict[str, list[str]] = defaultdict(list)
    for env_id, metrics in per_env.items():
        if metrics["weight_key"]:
            by_task[metrics["weight_key"]].append(env_id)
    sr = {task: mean(per_env[e]["success_rate"] for e in envs) for task, envs in by_task.items()}
    pr = {task: mean(per_env[e]["progress_rate"] for e in envs) for task, envs in by_task.items()}
    return {
        "envs": per_env,
        "categories": categories,
        "overall": group_metrics(per_env) if per_env else None,
        "subskills": {
            "from_success_rate": subskill_scores(sr),
            "from_progress_rate": subskill_scores(pr),
            "tasks": {task: sorted(envs) for task, envs in sorted(by_task.items())},
            "extension_tasks": sorted(task for task in by_task if task in EXTENSION_WEIGHTS),
            "unweighted_envs": sorted(e for e, m in per_env.items() if not m["weight_key"]),
        },
    }
