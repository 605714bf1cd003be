"""AgentBoard's alfworld runner (``agentboard/tasks/alfworld.py``)."""

from __future__ import annotations

from agentgym_text.agents.protocols.agentboard.task import AgentBoardTask

__all__ = ["AlfWorldTask"]


class AlfWorldTask(AgentBoardTask):
    name = "alfworld"
