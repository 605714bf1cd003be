"""AgentBoard's WebShop runner (``agentboard/tasks/webshop.py``): iteration 0 executes ``reset[]`` and calls
``agent.reset(goal, page, init_act="reset[]")``, so the history starts with ``Action: reset[]``; every reply is cut to
the text from its first ``click[``/``search[`` (``clean_action``), which the env and the memory both get.

AgentBoard's loop asks the model 30 times but executes only 29 replies: after the 29th step it asks once more and drops
the reply. So here the episode has 29 steps, and when it ends on that budget the evaluation runner sends the 30th
request too (its tokens count; its reply is recorded, not played); a training loop (``ChatEnv``) has no use for it."""

from __future__ import annotations

import re

from agentgym_text.agents.protocols.agentboard.task import AgentBoardTask, Episode, Move, Start

__all__ = ["WebShopTask", "clean_action", "RESET_ACTION"]

RESET_ACTION = "reset[]"
_ACTION = re.compile(r"(click\[|search\[).*")


def clean_action(message: str) -> str:
    """The reply from its first ``click[``/``search[`` on (the whole reply when it has neither).

    >>> clean_action("I will search now: search[red shoes]")
    'search[red shoes]'
    >>> clean_action("buy it")
    'buy it'
    """
    match = _ACTION.search(message)
    return message[match.start() :] if match else message


class WebShopTask(AgentBoardTask):
    name = "webshop"
    max_steps = 29
    asks_after_last_step = True

    def start(self, episode: Episode) -> Start:
        opening = episode.opening
        return Start(opening.goal, opening.bare_observation, RESET_ACTION)

    def move(self, episode: Episode, reply: str, action: str) -> Move:
        action = clean_action(action)
        return Move(action, action)
