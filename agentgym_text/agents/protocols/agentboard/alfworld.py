"""AgentBoard's ALFWorld runner (``agentboard/tasks/alfworld.py``): the goal is the reset text's "Your task is to:"
line stripped and the first observation its room line; every ``run()`` gets ``alfworld_base.json`` with its
``examples`` replaced by the game type's examples joined into one string; ``parseAction`` rewrites "put" actions'
" in "/" on " to " in/on " and drops a trailing "." for both the env and the memory."""

from __future__ import annotations

from agentgym_text.agents.protocols.agentboard.agent import PromptFile
from agentgym_text.agents.protocols.agentboard.task import AgentBoardTask, Episode, Move, Start
from agentgym_text.agents.protocols.base import CheckoutError

__all__ = ["AlfWorldTask", "PREFIXES", "parse_action", "example_key"]

PREFIXES = {
    "pick_and_place": "put",
    "pick_clean_then_place": "clean",
    "pick_heat_then_place": "heat",
    "pick_cool_then_place": "cool",
    "look_at_obj": "examine",
    "pick_two_obj": "puttwo",
}
"""The runner's ``prefixes``: a game's task type prefix -> its key in the prompt file's ``examples``."""


def parse_action(action: str) -> str:
    """The runner's ``parseAction``.

    >>> parse_action(" put apple 1 in fridge 1."), parse_action("go to shelf 1")
    ('put apple 1 in/on fridge 1', 'go to shelf 1')
    """
    action = action.strip()
    if "put" in action:
        if " in " in action:
            action = action.replace(" in ", " in/on ")
        elif " on " in action:
            action = action.replace(" on ", " in/on ")
    if action.endswith("."):
        action = action[:-1].strip()
    return action


def example_key(task_type: str) -> str | None:
    """The examples' key for a game of ALFWorld's ``task_type`` (the first prefix it starts with)."""
    for prefix, key in PREFIXES.items():
        if task_type.startswith(prefix):
            return key
    return None


class AlfWorldTask(AgentBoardTask):
    name = "alfworld"

    def start(self, episode: Episode) -> Start:
        opening = episode.opening
        return Start(opening.goal.strip(), opening.bare_observation.split("\n")[0])

    def prompt(self, episode: Episode) -> PromptFile:
        assert self._prompt is not None and self.settings.init_prompt_path is not None
        task_type = str(episode.opening.info.get("task_type", ""))
        key = example_key(task_type)
        examples = self._prompt.get("examples")
        if key is None or not isinstance(examples, dict) or key not in examples:
            raise CheckoutError(
                f"{self.checkout.root / self.settings.init_prompt_path} has no examples for the task type "
                f"{task_type!r} (AgentBoard skips such games)"
            )
        return PromptFile(self._prompt["instruction"], "".join(examples[key]), self._prompt["system_msg"])

    def move(self, episode: Episode, reply: str, action: str) -> Move:
        action = parse_action(action)
        return Move(action, action)
