"""The rows a run writes: one per step (the recorder's schema plus run fields) and one per finished episode.

``EpisodeLog`` accumulates what an episode's row needs while it runs; ``step_row`` and ``EpisodeLog.row`` build
the JSON rows. Metrics and the report read only these rows.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from agentgym_text.agents.base import Decision
from agentgym_text.core.info import INFO_KEYS
from agentgym_text.eval.plan import EpisodePlan
from agentgym_text.wrappers.recorder import step_record

__all__ = ["EpisodeLog", "step_row", "final_scores"]


@dataclass
class EpisodeLog:
    """A running episode: its plan, what it has seen, and its counters."""

    plan: EpisodePlan
    goal: str = ""
    initial_observation: str = ""
    initial_progress: float = 0.0
    difficulty: str = ""
    started: float = field(default_factory=time.perf_counter)
    observation: str = ""
    info: dict[str, Any] = field(default_factory=dict)
    steps: int = 0
    valid_steps: int = 0
    progress: list[float] = field(default_factory=list)
    repetition: list[float] = field(default_factory=list)
    score_changes: list[list[float]] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    agent_errors: int = 0
    total_reward: float = 0.0
    scores: dict[str, float] = field(default_factory=dict)
    """Each score the family reported (``final_scores``), at its latest value."""
    trailing_reply: str | None = None
    """The reply to the request the protocol sent after the episode ended (``Agent.trailing_request``), unplayed."""

    @property
    def best(self) -> float:
        return self.progress[-1] if self.progress else self.initial_progress

    def begin(self, observation: str, info: dict[str, Any]) -> None:
        self.goal = str(info.get("goal", ""))
        self.initial_observation = str(info.get("raw_observation", observation))
        self.initial_progress = float(info.get("progress_rate", 0.0))
        self.difficulty = str(info.get("difficulty") or self.plan.difficulty or "easy")
        self.observation = str(observation)
        self.info = info
        self.scores = final_scores(info)
        self.started = time.perf_counter()

    def count_tokens(self, decision: Decision) -> None:
        self.prompt_tokens += decision.prompt_tokens
        self.completion_tokens += decision.completion_tokens
        if decision.error:
            self.agent_errors += 1

    def record_step(
        self,
        decision: Decision,
        action: str,
        observation: str,
        reward: float,
        terminated: bool,
        truncated: bool,
        info: dict[str, Any],
    ) -> dict[str, Any]:
        """Count one step and return its trajectory row."""
        self.steps += 1
        self.total_reward += float(reward)
        self.valid_steps += int(bool(info.get("valid", False)))
        progress = float(info.get("progress_rate", self.best))
        if progress > self.best:
            self.score_changes.append([self.steps - 1, progress])
        self.progress.append(progress)
        self.repetition.append(float(info.get("repetition_rate", 0.0)))
        self.count_tokens(decision)
        self.observation = str(observation)
        self.info = info
        self.scores.update(final_scores(info))
        return step_row(self.plan, self.steps, decision, action, observation, reward, terminated, truncated, info)

    def row(self, agent_name: str, reason: str, success: bool) -> dict[str, Any]:
        """The episode's row in ``episodes.jsonl``."""
        plan = self.plan
        return {
            "key": plan.key,
            "index": plan.index,
            "env_id": plan.env_id,
            "family": plan.family,
            "category": plan.category,
            "task_id": plan.task_id,
            "repeat": plan.repeat,
            "seed": plan.seed,
            "difficulty": self.difficulty or plan.difficulty,
            "agent": agent_name,
            "goal": self.goal,
            "initial_observation": self.initial_observation,
            "success": bool(success),
            "progress_rate": 1.0 if success else self.best,
            "initial_progress": self.initial_progress,
            "steps": self.steps,
            "budget": plan.budget,
            "valid_steps": self.valid_steps,
            "grounding_accuracy": self.valid_steps / self.steps if self.steps else None,
            "finish_reason": reason,
            "score_change_record": self.score_changes,
            "progress": self.progress,
            "repetition": self.repetition,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "agent_errors": self.agent_errors,
            "return": self.total_reward,
            "scores": dict(self.scores),
            "wall_s": round(time.perf_counter() - self.started, 4),
        } | ({} if self.trailing_reply is None else {"trailing_reply": self.trailing_reply})


def final_scores(info: dict[str, Any]) -> dict[str, float]:
    """The scores a family reports in an info beside the schema's keys (KG's ``f1``, WebBrowsing's
    ``step_success_rate``, the card game's ``dcg_score``, ...): every float-valued key outside ``INFO_KEYS``. An
    episode's row keeps each at its latest value (a refused last step, whose info the family does not fill, keeps
    the value before it)."""
    return {
        key: float(value)
        for key, value in info.items()
        if key not in INFO_KEYS and isinstance(value, float) and not isinstance(value, bool)
    }


def step_row(
    plan: EpisodePlan,
    step: int,
    decision: Decision,
    action: str,
    observation: str,
    reward: float,
    terminated: bool,
    truncated: bool,
    info: dict[str, Any],
) -> dict[str, Any]:
    """A trajectory row: the episode's key and ids, the recorder's step fields, and the agent's side."""
    row = {
        "episode": plan.key,
        "env_id": plan.env_id,
        "task_id": plan.task_id,
        **step_record(step, action, observation, reward, terminated, truncated, info),
    }
    if decision.reply is not None or decision.error or decision.prompt_tokens:
        row.update(
            reply=decision.reply,
            thought=decision.thought,
            agent_error=decision.error,
            prompt_tokens=decision.prompt_tokens,
            completion_tokens=decision.completion_tokens,
            attempts=decision.attempts,
        )
    return row
