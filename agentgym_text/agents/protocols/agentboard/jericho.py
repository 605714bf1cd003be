"""AgentBoard's Jericho runner (``agentboard/tasks/jericho.py``): the goal and first observation are the hand-written
``game_goals``/``game_init_obs`` of the checkout's ``environment/jericho_env.py`` ("Not written yet." for a game
missing there), read with ``ast``; ``parse_action`` (cut at the first "," and "." , at most 20 words) gives the env
and the memory the same text."""

from __future__ import annotations

import ast

from agentgym_text.agents.protocols.agentboard.checkout import WHAT, Checkout
from agentgym_text.agents.protocols.agentboard.task import AgentBoardTask, Episode, Move, Start
from agentgym_text.agents.protocols.base import CheckoutError

__all__ = ["JerichoTask", "ENV_FILE", "UNWRITTEN", "parse_action", "game_texts"]

ENV_FILE = "agentboard/environment/jericho_env.py"
UNWRITTEN = "Not written yet."
"""What AgentBoard's env loader gives a game missing from its dicts."""
MAX_WORDS = 20


def parse_action(action: str) -> str:
    """The runner's ``parse_action``.

    >>> parse_action("take lamp, then go north. Quickly")
    'take lamp'
    """
    action = action.split(",")[0]
    action = action.split(".")[0]
    return " ".join(action.split(" ")[:MAX_WORDS])


def game_texts(checkout: Checkout) -> tuple[dict[str, str], dict[str, str]]:
    """``game_goals`` and ``game_init_obs`` from the checkout's Jericho env."""
    found: dict[str, dict[str, str]] = {}
    for node in ast.parse(checkout.text(ENV_FILE)).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name in ("game_goals", "game_init_obs"):
                try:
                    found[name] = {str(k): str(v) for k, v in ast.literal_eval(node.value).items()}
                except (ValueError, AttributeError):
                    pass
    missing = [name for name in ("game_goals", "game_init_obs") if name not in found]
    if missing:
        raise CheckoutError(f"{checkout.root / ENV_FILE} has no {' or '.join(missing)} dict: expected {WHAT}")
    return found["game_goals"], found["game_init_obs"]


class JerichoTask(AgentBoardTask):
    name = "jericho"

    def __init__(self, checkout: Checkout, model: str = ""):
        super().__init__(checkout, model)
        self.goals, self.first_observations = game_texts(checkout)

    def start(self, episode: Episode) -> Start:
        info = episode.opening.info
        game = str(info.get("task_id", "")).removeprefix("jericho-")
        return Start(self.goals.get(game, UNWRITTEN), self.first_observations.get(game, UNWRITTEN))

    def move(self, episode: Episode, reply: str, action: str) -> Move:
        action = parse_action(action)
        return Move(action, action)
