"""AgentBoard's pddl runner (``agentboard/tasks/pddl.py``)."""

from __future__ import annotations

from agentgym_text.agents.protocols.agentboard.task import AgentBoardTask

__all__ = ["PddlTask"]


class PddlTask(AgentBoardTask):
    name = "pddl"
