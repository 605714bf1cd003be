"""AgentBoard's PDDL runner (``agentboard/tasks/pddl.py``): the agent's own prompt path is nulled and every
``run()`` gets the game's entry of ``pddl_vanilla_prompt.json`` (keyed blockworld, barman, gripper, tyreworld);
``reset(env goal, env text)``, the action as given to the env and the memory."""

from __future__ import annotations

from dataclasses import replace

from agentgym_text.agents.protocols.agentboard.agent import PromptFile
from agentgym_text.agents.protocols.agentboard.checkout import Checkout
from agentgym_text.agents.protocols.agentboard.task import AgentBoardTask, Episode
from agentgym_text.agents.protocols.base import CheckoutError

__all__ = ["PddlTask", "game_of"]


_GAME_OF_DOMAIN = {"blocksworld": "blockworld"}
"""This package's domain names that AgentBoard spells otherwise (``envs/pddl/agentboard_data.GAMES``)."""


def game_of(task_id: str) -> str:
    """AgentBoard's game of a task id ("pddl-<our domain>-<problem>").

    >>> game_of("pddl-tyreworld-p02"), game_of("pddl-blocksworld-p01")
    ('tyreworld', 'blockworld')
    """
    domain = task_id.split("-")[1] if task_id.count("-") >= 2 else ""
    return _GAME_OF_DOMAIN.get(domain, domain)


class PddlTask(AgentBoardTask):
    name = "pddl"

    def __init__(self, checkout: Checkout, model: str = ""):
        super().__init__(checkout, model)
        self.prompt_path = self.settings.init_prompt_path
        self.settings = replace(self.settings, init_prompt_path=None)

    def prompt(self, episode: Episode) -> PromptFile:
        assert self._prompt is not None
        game = game_of(str(episode.opening.info.get("task_id", "")))
        entry = self._prompt.get(game)
        if not isinstance(entry, dict):
            raise CheckoutError(f"{self.checkout.root / str(self.prompt_path)} has no entry for the game {game!r}")
        return PromptFile.of(entry)
