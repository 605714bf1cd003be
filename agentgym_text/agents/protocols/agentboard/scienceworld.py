"""AgentBoard's scienceworld runner (``agentboard/tasks/scienceworld.py``)."""

from __future__ import annotations

from agentgym_text.agents.protocols.agentboard.task import AgentBoardTask

__all__ = ["ScienceWorldTask"]


class ScienceWorldTask(AgentBoardTask):
    name = "scienceworld"
