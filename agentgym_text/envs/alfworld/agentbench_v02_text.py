"""AgentBench v0.2's ALFWorld protocol (the "HH" task, ``src/server/tasks/alfworld`` at THUDM/AgentBench 41e6807).

``AgentBench/ALFWorld-v0`` speaks it (``AgentBenchV02AlfWorld``, each episode an ``AgentBenchEpisode``); the facts,
restated here:

- The first observation is the game's intro without its banner, the paragraphs joined by one newline, and every
  observation ends with `` AVAILABLE ACTIONS: `` and the admissible commands, one per line, then a newline.
- A reply's action is the text after its first ``ACTION:`` (case-sensitive, up to the end of that line), stripped
  and lower-cased. A reply without the marker, or with nothing after it, ends AgentBench's sample
  (``strict=True`` here; the default reads such a reply's first line as the command instead).
- A command that is not admissible is replaced by the admissible one whose BLEU score against it (nltk's
  ``sentence_bleu``, the admissible command's words as the one reference, smoothing method 4) is highest, the
  first of equals, when that score is above 0.01; otherwise it goes to the game as it is.
- From the fourth reply on, three identical replies in a row (the raw text) fail the sample, after their step.
- 35 steps; the score is ALFWorld's ``won``.
"""

from __future__ import annotations

import dataclasses
import re
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from agentgym_text.core.actions import unwrap_action
from agentgym_text.core.info import FinishReason, InvalidReason
from agentgym_text.core.text_env import Outcome
from agentgym_text.core.text_mode import TextMode
from agentgym_text.envs.alfworld import render
from agentgym_text.envs.alfworld.actions import why_invalid

if TYPE_CHECKING:
    from agentgym_text.envs.alfworld.engine import World

__all__ = [
    "AgentBenchV02AlfWorld",
    "AgentBenchEpisode",
    "AGENTBENCH",
    "MAX_STEPS",
    "BLEU_FLOOR",
    "NO_MARKER",
    "first_observation",
    "with_actions",
    "strip_arrival",
    "marked_action",
    "bleu",
    "closest_command",
    "RepeatRule",
]

AGENTBENCH = "agentbench_v02"
"""The text format's name."""
MAX_STEPS = 35
"""AgentBench v0.2's ``max_step`` for ALFWorld (``configs/tasks/alfworld.yaml``)."""
BLEU_FLOOR = 0.01
"""A command is mapped only to an admissible one scoring above this."""
NO_MARKER = "The reply has no 'ACTION:' line with a command; the episode ends (AgentBench ends the sample)."
_MARKER = re.compile("ACTION:(.*)")
_ARRIVAL = "You arrive at loc "


def first_observation(intro: str) -> str:
    """The game's intro without its banner: the paragraphs after the first, joined by one newline."""
    return "\n".join(intro.split("\n\n")[1:])


def with_actions(observation: str, admissible: Sequence[str]) -> str:
    """An observation as AgentBench shows it: `` AVAILABLE ACTIONS: `` and the commands, one per line."""
    return observation + " AVAILABLE ACTIONS: " + "\n".join(admissible) + "\n"


def strip_arrival(observation: str) -> str:
    """Older alfworld's "You arrive at loc N. " prefix removed (AgentBench's ``process_ob``; 0.4.2 has none)."""
    if observation.startswith(_ARRIVAL):
        observation = observation[observation.find(". ") + 2 :]
    return observation


def marked_action(reply: str) -> str | None:
    """The command a reply marks with ``ACTION:`` (lower-cased), or None when there is no marker.

    >>> marked_action("THOUGHT: the cup is on the table.\\n ACTION: Go to DiningTable 1\\n")
    'go to diningtable 1'
    >>> marked_action("Action: go to desk 1") is None
    True
    """
    match = _MARKER.search(reply)
    if match is None:
        return None
    return match.group(1).strip().lower().split("\n")[0]


def bleu(reference: str, candidate: str) -> float:
    """nltk's sentence BLEU of ``candidate`` against ``reference`` (whitespace tokens, smoothing method 4)."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(
            sentence_bleu([reference.split()], candidate.split(), smoothing_function=SmoothingFunction().method4)
        )


def closest_command(command: str, admissible: Sequence[str]) -> str:
    """``command`` if admissible (or nothing is), else the admissible command of highest BLEU above the floor
    (the first of equals), else ``command`` unchanged.

    >>> closest_command("go to the desk 1", ["go to desk 1", "go to bed 1", "look"])
    'go to desk 1'
    >>> closest_command("fly away", ["go to desk 1", "look"])
    'fly away'
    """
    if not admissible or command in admissible:
        return command
    try:
        scores = [bleu(choice, command) for choice in admissible]
    except Exception:  # AgentBench keeps the command when scoring fails
        return command
    best = max(range(len(scores)), key=lambda i: (scores[i], -i))
    return admissible[best] if scores[best] > BLEU_FLOOR else command


class RepeatRule:
    """AgentBench's failure test: after more than three replies, the last three identical fail the sample."""

    def __init__(self) -> None:
        self._replies: list[str] = []

    def failed_after(self, reply: str) -> bool:
        """Record one reply; True when the sample fails with it."""
        self._replies.append(reply)
        last = self._replies[-3:]
        return len(self._replies) > 3 and len(set(last)) == 1


class AgentBenchV02AlfWorld(TextMode):
    """AgentBench v0.2's protocol (``AgentBench/ALFWorld-v0``)."""

    name = AGENTBENCH

    def open(self, world: World, intro: str, read: Callable[[str], bool], strict: bool) -> AgentBenchEpisode:
        """One episode on ``world`` (just reset, ``intro`` its text); ``read`` searches a text for subgoals;
        ``strict``: a reply without ``ACTION:`` ends it."""
        return AgentBenchEpisode(world, intro, read, strict)


class AgentBenchEpisode:
    """How one episode reads replies and answers them."""

    def __init__(self, world: World, intro: str, read: Callable[[str], bool], strict: bool):
        self.world = world
        self.intro = intro
        self.read = read
        self.strict = strict
        self.repeats = RepeatRule()

    def first_observation(self) -> str:
        return with_actions(first_observation(self.intro), self.world.admissible())

    def act(self, reply: str) -> Outcome:
        world = self.world
        command = marked_action(reply)
        if not command:
            if self.strict:  # AgentBench ends the sample
                refused = Outcome.invalid(NO_MARKER, InvalidReason.UNPARSABLE)
                return dataclasses.replace(refused, terminated=True, finish_reason=FinishReason.INVALID_FORMAT.value)
            if command is None:  # not strict: the reply's first line is the command
                command = unwrap_action(reply).split("\n")[0].strip().lower()
            if not command:
                return Outcome.invalid("The reply names no command after 'ACTION:'.", InvalidReason.EMPTY)
        played = closest_command(command, world.admissible())
        known = world.commands().get(played)
        feedback = render.NOTHING_HAPPENS if known is None else strip_arrival(world.apply(known))
        newly = self.read(feedback)
        observation = with_actions(feedback, world.admissible())
        valid = known is not None
        reason = None if valid else why_invalid(played, set(world.by_name)).value
        if self.repeats.failed_after(reply):
            return Outcome(
                observation=observation,
                valid=valid,
                invalid_reason=reason,
                terminated=True,
                finish_reason=FinishReason.REPETITION.value,
            )
        if world.won():
            return Outcome(observation=observation, terminated=True, success=True)
        return Outcome(observation=observation, valid=valid, invalid_reason=reason, changed=valid or newly)

    def help_text(self) -> str:
        return "AVAILABLE ACTIONS: " + "\n".join(self.world.admissible())

    def help_read(self, text: str) -> bool:
        """AgentBench's rule reads no listing."""
        return False
