"""AgentBoard's babyai runner (``agentboard/tasks/babyai.py``)."""

from __future__ import annotations

from agentgym_text.agents.protocols.agentboard.task import AgentBoardTask

__all__ = ["BabyAITask"]


class BabyAITask(AgentBoardTask):
    name = "babyai"
