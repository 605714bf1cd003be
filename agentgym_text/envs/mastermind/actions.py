"""Reading a Mastermind guess out of action text."""

from __future__ import annotations

import re

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import InvalidReason
from agentgym_text.envs.mastermind.game import CodeRules, example_code

__all__ = ["parse_guess"]

_PROSE = re.compile(r"[^\W\d_]{2,}\s+[^\W\d_]")
_PREFIX = re.compile(r"^(guess|code|answer|try)\s*[:=]?\s*", re.IGNORECASE)


def parse_guess(text: str, rules: CodeRules) -> str:
    """Read a guess such as "1234", "guess 1234", "guess: 1 2 3 4" or "1,2,3,4"; raise ``ActionError`` if not."""
    body = _PREFIX.sub("", text.strip()).strip().strip("'\"`.")
    symbols = re.sub(r"[\s,]+", "", body)
    if not symbols:
        raise ActionError(
            f"No code found. Send {rules.describe()}, e.g. 'guess {example_code(rules)}'.", InvalidReason.UNPARSABLE
        )
    unknown = sorted({ch for ch in symbols if ch not in rules.alphabet})
    if len(symbols) > 2 * rules.length or _PROSE.search(body):
        raise ActionError(
            f"That is not a guess. A guess is 'guess <code>' with {rules.describe()}, e.g. 'guess {example_code(rules)}'.",
            InvalidReason.UNPARSABLE,
        )
    if unknown:
        raise ActionError(
            f"'{''.join(unknown)[:20]}' is not in the alphabet '{rules.alphabet}'. Send {rules.describe()}.",
            InvalidReason.BAD_ARGUMENT if len(symbols) == rules.length else InvalidReason.UNPARSABLE,
        )
    if len(symbols) != rules.length:
        raise ActionError(
            f"The guess has {len(symbols)} symbols; the code has {rules.length}.", InvalidReason.BAD_ARGUMENT
        )
    if not rules.repeats and len(set(symbols)) != len(symbols):
        raise ActionError("Symbols may not repeat in this game.", InvalidReason.BAD_ARGUMENT)
    return symbols
