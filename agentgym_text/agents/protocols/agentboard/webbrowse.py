"""AgentBoard's WebArena runner (``agentboard/tasks/webbrowse.py``, its own loop around VanillaAgent):
``agent.reset(env.goal, state)`` with the state string ``"WINDOWED PAGE:{\\n" + page + "\\n}\\nURL: " + url``, which
this package's env already gives as its text; later ``agent.update(run()'s action, state)``. The env takes the
action between the first two ``@`` itself, and shows a parse error in place of the page as AgentBoard does."""

from __future__ import annotations

from agentgym_text.agents.protocols.agentboard.task import AgentBoardTask

__all__ = ["WebArenaTask"]


class WebArenaTask(AgentBoardTask):
    name = "webarena"
