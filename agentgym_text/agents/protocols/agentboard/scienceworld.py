"""AgentBoard's ScienceWorld runner (``agentboard/tasks/scienceworld.py``): ``reset(the label's goal, reset text +
"\\n" + inventory)`` (this package's env gives both: the goal, and the first text with the inventory), the action
as the model gave it (after the parser) to the env and the memory. The runner skips ``update`` on the final step,
which ends the episode, so no request shows it."""

from __future__ import annotations

from agentgym_text.agents.protocols.agentboard.task import AgentBoardTask

__all__ = ["ScienceWorldTask"]


class ScienceWorldTask(AgentBoardTask):
    name = "scienceworld"
