"""The papers' metrics over episode rows (``episodes.jsonl``): pure functions, hand-checkable.

AgentBoard §5 / agentboard-behaviour.md §0: success rate, progress rate (mean final r_t), grounding accuracy
(valid actions / steps per episode, averaged over episodes), hard/easy splits, the progress-vs-step curve
(each episode's ``score_change_record`` forward-filled over the step budget, averaged, with a leading step 0)
and the six sub-skill scores (each env's registered weights: Table 7 for AgentBoard's tasks; from success rate
as the paper does and from progress rate as our addition). AgentQuest §3.2: the repetition-rate curve. AgentBench §4: finish-reason shares.

Rates are fractions in [0, 1]; the report shows them as percentages. A rate over no episodes is ``None``
(AgentBoard writes 0 there, which reads like a result).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from agentgym_text.core.info import SUBSKILLS, FinishReason
from agentgym_text.core.registry import CATEGORIES, list_envs

__all__ = [
    "SUBSKILLS",
    "registered_weights",
    "mean",
    "success_rate",
    "progress_rate",
    "grounding_accuracy",
    "difficulty_split",
    "progress_curve",
    "repetition_curve",
    "finish_reason_shares",
    "subskill_scores",
    "env_metrics",
    "group_metrics",
    "summarize",
]

Episode = Mapping[str, Any]
UNPLAYED = frozenset({FinishReason.AGENT_ERROR.value, FinishReason.ENGINE_ERROR.value})
"""Episodes that ended because the agent's endpoint or the env's engine failed: counted apart, never rated."""

Weights = Mapping[str, Mapping[str, float]]
"""env id -> sub-skill -> weight."""


def registered_weights() -> dict[str, dict[str, Any]]:
    """The sub-skill weights every registered env declares: env id -> {"source", "weights"}."""
    return {
        entry.env_id: {"source": entry.subskill_source, "weights": dict(entry.subskill_weights)}
        for entry in list_envs()
        if entry.subskill_weights
    }


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


def subskill_scores(rates: Mapping[str, float | None], weights: Weights) -> dict[str, float | None]:
    """Σ_e w_e·rate_e / Σ_e w_e per sub-skill over the envs in ``rates`` (env id -> rate); envs with no
    weights are ignored, a skill with zero total weight is None.

    >>> weights = {"a": {"Memory": 1, "Planning": 0}, "b": {"Memory": 3, "Planning": 2}}
    >>> scores = subskill_scores({"a": 1.0, "b": 0.0, "c": 1.0}, weights)
    >>> scores["Memory"], scores["Planning"], scores["Grounding"]
    (0.25, 0.0, None)
    """
    scores: dict[str, float | None] = {}
    for skill in SUBSKILLS:
        numerator = denominator = 0.0
        for env_id, rate in rates.items():
            weight = weights.get(env_id, {}).get(skill)
            if rate is None or weight is None:
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
            group: {
                "success_rate": pick(("difficulty", group, "success_rate")),
                "progress_rate": pick(("difficulty", group, "progress_rate")),
            }
            for group in ("easy", "hard")
        },
    }


def summarize(episodes: Iterable[Episode], weights: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """Per env, per category, overall and sub-skill metrics of one run's episodes.

    ``weights`` (env id -> {"source", "weights"}) defaults to what the registered envs declare; the summary
    keeps the ones it used, so a report shows them without the registry. Episodes that could not be played
    (``agent_error``: the model endpoint failed; ``engine_error``: the engine died) are counted apart and left
    out of every rate.
    """
    weights = registered_weights() if weights is None else weights
    episodes = list(episodes)
    unplayed = [e for e in episodes if e.get("finish_reason") in UNPLAYED]
    rows = sorted(
        (e for e in episodes if e.get("finish_reason") not in UNPLAYED),
        key=lambda e: (str(e.get("env_id")), int(e.get("index", 0))),
    )
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
            **env_metrics(members),
        }
    categories = {}
    for category in CATEGORIES:
        members_m = {k: v for k, v in per_env.items() if v["category"] == category}
        if members_m:
            categories[category] = group_metrics(members_m)
    used = {env_id: weights[env_id] for env_id in per_env if env_id in weights}
    table = {env_id: entry["weights"] for env_id, entry in used.items()}
    sr = {env_id: per_env[env_id]["success_rate"] for env_id in used}
    pr = {env_id: per_env[env_id]["progress_rate"] for env_id in used}
    return {
        "agent_errors": sum(e.get("finish_reason") == FinishReason.AGENT_ERROR.value for e in unplayed),
        "engine_errors": sum(e.get("finish_reason") == FinishReason.ENGINE_ERROR.value for e in unplayed),
        "envs": per_env,
        "categories": categories,
        "overall": group_metrics(per_env) if per_env else None,
        "subskills": {
            "from_success_rate": subskill_scores(sr, table),
            "from_progress_rate": subskill_scores(pr, table),
            "weights": used,
            "unweighted_envs": sorted(e for e in per_env if e not in used),
        },
    }
