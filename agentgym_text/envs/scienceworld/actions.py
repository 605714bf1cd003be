"""ScienceWorld's command language: reading an action before it reaches the JVM, and reading the reply.

Text that is not a ScienceWorld command (no known verb, characters no object name uses) is rejected here, in
Python, with format help; only plausible commands are sent to the simulator, whose reply then says whether it
understood the objects (``No known action matches that input.``) and whether the action was possible.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentgym_text.core.info import InvalidReason

__all__ = [
    "ALLOWED_CHARACTERS",
    "ACTION_EXAMPLE",
    "ACTION_FORMAT",
    "COMMANDS",
    "COMMAND_HELP",
    "normalise",
    "ParsedCommand",
    "parse_command",
    "is_ambiguity_prompt",
    "refusal_kind",
]

# Commands that take no object, as the simulator spells them.
_BARE_COMMANDS = frozenset({"look around", "look", "inventory", "task", "wait", "wait1"})
# Verb phrases followed by one or more object words; aliases the simulator's parser accepts are included.
_OBJECT_VERBS = (
    "open",
    "close",
    "activate",
    "deactivate",
    "turn on",
    "turn off",
    "look at",
    "look in",
    "examine",
    "read",
    "pick up",
    "take",
    "get",
    "put down",
    "drop",
    "go to",
    "go",
    "focus on",
    "eat",
    "consume",
    "flush",
    "mix",
    "disconnect",
    "connect",
    "move",
    "put",
    "pour",
    "dunk",
    "use",
    "wait",
)
_VERB_PATTERN = re.compile(r"^(" + "|".join(sorted(map(re.escape, _OBJECT_VERBS), key=len, reverse=True)) + r") (.+)$")
ALLOWED_CHARACTERS = re.compile(r"^[a-zA-Z0-9 ,'()\-]+$")
_DISALLOWED_CHAR = re.compile(r"[^a-zA-Z0-9 ,'()\-]")
MAX_COMMAND_CHARS = 300
"""No ScienceWorld command (verb plus up to two qualified object names) comes near this length."""
_FORBIDDEN = {"reset task": "`reset task` is disabled in this benchmark.", "teleport to": "Teleporting is disabled."}

COMMANDS = (
    "look around, look at OBJ, look in OBJ, read OBJ, open OBJ, close OBJ, "
    "activate OBJ, deactivate OBJ, pick up OBJ, put down OBJ, move OBJ to OBJ, pour OBJ into OBJ, "
    "dunk OBJ into OBJ, mix OBJ, use OBJ on OBJ, connect OBJ to OBJ, disconnect OBJ, go to LOC, eat OBJ, "
    "flush OBJ, focus on OBJ, wait, wait1, inventory, task"
)
"""Every command form, OBJ/LOC standing for an object or location named as the simulator names it."""
ACTION_FORMAT = f"one ScienceWorld command per step ({COMMANDS})"
"""The action format stated in the first observation."""
ACTION_EXAMPLE = "go to kitchen"
COMMAND_HELP = f"ScienceWorld commands: {COMMANDS}. Type 'check valid actions' to list the actions possible here."


@dataclass(frozen=True)
class ParsedCommand:
    """A command fit to send to the simulator (``text``), or why it is not (``error``, ``reason``)."""

    text: str = ""
    error: str = ""
    reason: InvalidReason | None = None

    @property
    def ok(self) -> bool:
        return not self.error


def normalise(action: str) -> str:
    """Single spaces, no trailing full stop, no wrapping quotes or "Action:" prefix, the verb in lower case.

    Object names keep their case: some are capitalised ("unknown substance B") and the simulator matches them
    as written.

    >>> normalise("  Action: Focus on unknown substance B. ")
    'focus on unknown substance B'
    """
    text = " ".join(action.split()).strip().strip('`"')
    text = re.sub(r"^(action|command)\s*:\s*", "", text, flags=re.IGNORECASE)
    text = text.rstrip(".!").strip()
    match = _VERB_PATTERN.match(text.lower())
    if match:
        return match.group(1) + text[len(match.group(1)) :]
    return text.lower() if text.lower() in _BARE_COMMANDS else text


def parse_command(action: str, choice_count: int = 0) -> ParsedCommand:
    """Read ``action`` as a ScienceWorld command. ``choice_count`` > 0 while the simulator awaits a number.

    >>> parse_command("Go to kitchen.").text
    'go to kitchen'
    >>> parse_command("fly to the moon").reason.value
    'unknown_action'
    >>> parse_command("0").reason.value, parse_command("0", choice_count=2).text
    ('unparsable', '0')
    """
    if len(action) > MAX_COMMAND_CHARS:
        return ParsedCommand(
            error=f"The action is {len(action)} characters long; a ScienceWorld command is one short line. "
            + COMMAND_HELP,
            reason=InvalidReason.UNPARSABLE,
        )
    text = normalise(action)
    if not text:
        return ParsedCommand(
            error="The action is empty after removing punctuation. " + COMMAND_HELP, reason=InvalidReason.UNPARSABLE
        )
    if text.isdigit():
        if choice_count and int(text) < choice_count:
            return ParsedCommand(text=text)
        if choice_count:
            return ParsedCommand(
                error=f"Choose one of the numbers 0 to {choice_count - 1} listed above.",
                reason=InvalidReason.BAD_ARGUMENT,
            )
        return ParsedCommand(
            error="A bare number only answers an 'Ambiguous request' question. " + COMMAND_HELP,
            reason=InvalidReason.UNPARSABLE,
        )
    if not ALLOWED_CHARACTERS.match(text):
        bad = "".join(sorted(set(_DISALLOWED_CHAR.findall(text))))[:12]
        return ParsedCommand(
            error=f"The action contains characters no ScienceWorld command uses ({bad!r}). " + COMMAND_HELP,
            reason=InvalidReason.UNPARSABLE,
        )
    for prefix, message in _FORBIDDEN.items():
        if text.lower().startswith(prefix):
            return ParsedCommand(error=message + " " + COMMAND_HELP, reason=InvalidReason.UNKNOWN_ACTION)
    if text in _BARE_COMMANDS or _VERB_PATTERN.match(text):
        return ParsedCommand(text=text)
    verb = text.split(" ", 1)[0].lower()
    return ParsedCommand(
        error=f"'{verb[:30]}' is not a ScienceWorld command. " + COMMAND_HELP, reason=InvalidReason.UNKNOWN_ACTION
    )


_AMBIGUITY = re.compile(r"^Ambiguous request", re.IGNORECASE)
_CHOICE_LINE = re.compile(r"^(\d+):", re.MULTILINE)


def is_ambiguity_prompt(observation: str) -> int:
    """The number of options when the simulator asks which of several objects was meant, else 0."""
    if not _AMBIGUITY.match(observation):
        return 0
    return len(_CHOICE_LINE.findall(observation))


_NO_MATCH = re.compile(r"^No known action matches that input", re.IGNORECASE)
_REFUSALS = re.compile(
    r"(not clear how|can't|cannot|\balready\b|not moveable|doesn't appear|is not flammable|"
    r"is not in a container|not in container|there is nothing in the|isn't (?:open|possible)|not possible|"
    r"must disconnect entire objects)",
    re.IGNORECASE,
)


def refusal_kind(observation: str) -> InvalidReason | None:
    """``unknown_object`` when the simulator matched no object, ``precondition_failed`` when it understood the
    command but refused it in the current state, else None (the action was carried out)."""
    first = observation.strip().split("\n", 1)[0]
    if _NO_MATCH.match(first):
        return InvalidReason.UNKNOWN_OBJECT
    if first.startswith("Unknown action"):
        return InvalidReason.UNKNOWN_ACTION
    if len(first) <= 200 and "\n" not in observation.strip() and _REFUSALS.search(first):
        return InvalidReason.PRECONDITION
    return None
