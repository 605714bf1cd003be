"""The people of the generated tool worlds: distinct names drawn from the shared pools (``core.words``)."""

from __future__ import annotations

from agentgym_text.core.words import FIRST_NAMES as _ALL_FIRST
from agentgym_text.core.words import LAST_NAMES as _ALL_LAST

__all__ = ["FIRST_NAMES", "LAST_NAMES", "person_names"]

FIRST_NAMES = _ALL_FIRST[:36]
LAST_NAMES = _ALL_LAST[:30]


def person_names(count: int, offset: int = 0) -> list[str]:
    """``count`` distinct "First Last" names, walking the pools with co-prime strides (deterministic)."""
    names = []
    index = offset
    while len(names) < count:
        name = (
            f"{FIRST_NAMES[(index * 7) % len(FIRST_NAMES)]} {LAST_NAMES[(index * 11 + index // 30) % len(LAST_NAMES)]}"
        )
        if name not in names:
            names.append(name)
        index += 1
    return names
