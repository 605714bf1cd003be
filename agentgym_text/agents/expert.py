"""The expert agent: plays ``env.unwrapped.expert_action()`` (each family's planner, bot or gold path)."""

from __future__ import annotations

from collections.abc import Sequence

from agentgym_text.agents.base import Agent, Decision, Turn
from agentgym_text.core.info import HELP_ACTION

__all__ = ["ExpertAgent"]


class ExpertAgent(Agent):
    """Sends the family expert's next action (the help action if the expert has none)."""

    name = "expert"
    needs = frozenset({"expert_action"})

    def act(self, turns: Sequence[Turn]) -> list[Decision]:
        return [Decision(action=turn.expert_action or HELP_ACTION) for turn in turns]
