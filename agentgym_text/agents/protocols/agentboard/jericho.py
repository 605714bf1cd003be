"""AgentBoard's jericho runner (``agentboard/tasks/jericho.py``)."""

from __future__ import annotations

from agentgym_text.agents.protocols.agentboard.task import AgentBoardTask

__all__ = ["JerichoTask"]


class JerichoTask(AgentBoardTask):
    name = "jericho"
