"""AgentBoard's words where its ALFWorld env (``environment/alfworld/alfworld_env.py``) and harness
(``tasks/alfworld.py``) change ALFWorld's text; ``agentboard_fixes=False`` speaks them, the default keeps ALFWorld's.

- FIX (look): AgentBoard answers ``look`` with the text of the last successful action whose words hold "go to" or
  "open" (the room description before any), so it can show objects already taken; the fix answers with the
  engine's own ``look``.
- FIX (listing): the harness appends "check valid actions" to the engine's admissible list in place before each
  step, so ``check valid actions`` lists itself last; the fix lists the engine's commands only.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["LISTING_PREFIX", "updates_look", "listing"]

LISTING_PREFIX = "Choose an action from these valid actions: "


def updates_look(action: str, feedback: str) -> bool:
    """Whether AgentBoard keeps ``feedback`` as its answer to later ``look`` actions (its substring test)."""
    return ("go to" in action or "open" in action) and "Nothing happens" not in feedback


def listing(admissible: Sequence[str], *, fixes: bool) -> str:
    """The answer to ``check valid actions``."""
    commands = list(admissible)
    if not fixes and "check valid actions" not in commands:
        commands.append("check valid actions")
    return LISTING_PREFIX + ", ".join(commands)
