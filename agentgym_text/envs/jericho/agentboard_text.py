"""AgentBoard's Jericho words and progress rule (``environment/jericho_env.py``, ``tasks/jericho.py``), written here.

AgentBoard's harness cuts every action at its first "," and its first "." and keeps at most 20 words; an action
holding both "check" and "action" is its help action, answered "You can take the following actions: ..." with
jericho's valid actions and "check valid actions"; every game reply is flattened to one line and loses its
"[Your score ...]" notes; a reply is an invalid action only when it holds "[!".

Its progress rule reads the annotation's ``subgoals``: after each game step, the first pattern still open that
occurs in the observation (both stripped of everything but letters, digits and white space; case-sensitive) is
credited and closed; at most one per step, in any order; progress = credited / number of patterns.

>>> clean_action("take lamp, then go north. Quickly")
'take lamp'
>>> flatten("West of House\\n\\nThere is a   mailbox. [Your score has gone up by five points.]")
'West of House There is a mailbox. '
>>> asks_for_actions("Check the valid ACTIONS please")
True
>>> score = SubgoalScore(["the brass lantern", "Taken."])
>>> score.update("Taken. (the brass lantern)"), score.points
(0.5, 1)
>>> score.update("Taken."), score.points
(1.0, 2)
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = [
    "ACTION_LISTING",
    "HELP_ENTRY",
    "MAX_ACTION_WORDS",
    "clean_action",
    "asks_for_actions",
    "help_text",
    "flatten",
    "marked_invalid",
    "normalise",
    "SubgoalScore",
]

ACTION_LISTING = "You can take the following actions: "
HELP_ENTRY = "check valid actions"
MAX_ACTION_WORDS = 20

_NOT_ALPHANUMERIC = re.compile(r"[^a-zA-Z0-9\s]")
_SCORE_NOTE = re.compile(r"\[Your score .*?\]")
_SPACE_RUNS = re.compile(r" {2,}")


def clean_action(action: str) -> str:
    """AgentBoard's ``parse_action``: the text before the first "," and the first ".", at most 20 words."""
    action = action.split(",")[0].split(".")[0]
    return " ".join(action.split(" ")[:MAX_ACTION_WORDS])


def asks_for_actions(action: str) -> bool:
    """AgentBoard's help test: the lower-cased action holds both "check" and "action"."""
    text = action.strip().lower()
    return "check" in text and "action" in text


def help_text(actions: Sequence[str]) -> str:
    return ACTION_LISTING + ", ".join([*actions, HELP_ENTRY])


def flatten(text: str) -> str:
    """AgentBoard's ``clean_up_text``: newlines to spaces, runs of spaces to one, "[Your score ...]" removed."""
    return _SCORE_NOTE.sub("", _SPACE_RUNS.sub(" ", text.replace("\n", " ")))


def marked_invalid(observation: str) -> bool:
    """AgentBoard's validity test: the reply holds "[!"."""
    return "[!" in observation


def normalise(text: str) -> str:
    """AgentBoard's ``match_style`` normal form: letters, digits and white space only."""
    return _NOT_ALPHANUMERIC.sub("", text)


class SubgoalScore:
    """AgentBoard's ``update_reward`` over one list of patterns: one credit per observation at most."""

    def __init__(self, patterns: Sequence[str]):
        self.total = len(patterns)
        self.open = [normalise(pattern) for pattern in patterns]
        self.points = 0
        self.reward = 0.0

    def update(self, observation: str) -> float:
        if self.total:
            text = normalise(observation)
            for index, pattern in enumerate(self.open):
                if pattern in text:
                    self.points += 1
                    self.reward = max(self.reward, self.points / self.total)
                    del self.open[index]
                    break
        return self.reward
