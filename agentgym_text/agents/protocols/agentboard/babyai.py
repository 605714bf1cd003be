"""AgentBoard's BabyAI runner (``agentboard/tasks/babyai.py``): ``reset(env goal, env text)``, the raw action to the
env and the memory. AgentBoard's env reads "then" and "after you" in the mission as "and" (``_get_goal``); this
package's env keeps them unless its fixes are off, so the goal is rewritten here (idempotent)."""

from __future__ import annotations

from agentgym_text.agents.protocols.agentboard.task import AgentBoardTask, Episode, Start

__all__ = ["BabyAITask", "agentboard_goal"]


def agentboard_goal(mission: str) -> str:
    """The mission as AgentBoard's BabyAI env gives it.

    >>> agentboard_goal("open the red door, then go to the ball after you pick up the key")
    'open the red door, and go to the ball and pick up the key'
    """
    return mission.replace("then", "and").replace("after you", "and")


class BabyAITask(AgentBoardTask):
    name = "babyai"

    def start(self, episode: Episode) -> Start:
        opening = episode.opening
        return Start(agentboard_goal(opening.goal), opening.bare_observation)
