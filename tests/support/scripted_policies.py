"""Scripted chat policies for ``agentgym_text.testing.chat_server.ScriptedChatServer``: the messages of a request ->
the reply text. They live with the tests because they know one family's game (the chat server knows none)."""

from __future__ import annotations

import re
from typing import Any

from agentgym_text.envs.mastermind.expert import consistent_guess
from agentgym_text.envs.mastermind.game import CodeRules
from agentgym_text.testing.chat_server import Policy

__all__ = ["mastermind_policy"]


_FEEDBACK = re.compile(
    r"Action: guess (\d+)\s*\nObservation: \1: (\d+) in the right place, (\d+) right but in the wrong place"
)


_PAST_ACTION = re.compile(r"^Action: (?!<)", re.MULTILINE)


def mastermind_policy(invalid_first: bool = False) -> Policy:
    """A policy for ``AgentQuest/Mastermind-v0`` that plays the expert's consistent-guess strategy.

    It reads the (guess, feedback) pairs of the current episode from the prompt, so it makes exactly the
    expert's guesses: every task is solved in ``task.params["expert_guesses"]`` steps. With
    ``invalid_first`` the first reply of each episode is prose that is no valid guess (one invalid step).
    """
    rules = CodeRules()

    def policy(messages: list[dict[str, Any]]) -> str:
        prompt = str(messages[-1].get("content", ""))
        episode = prompt.split("Now it is your turn.", 1)[-1]
        if invalid_first and not _PAST_ACTION.search(episode):
            return "I am not sure yet."
        history = [(guess, (int(exact), int(near))) for guess, exact, near in _FEEDBACK.findall(episode)]
        return f"Thought: stay consistent with the feedback.\nAction: guess {consistent_guess(rules, history)}"

    return policy
