"""Game text as observations: frotz's output, trimmed, with runs of blank lines collapsed.

>>> game_text("  West of House\\n\\n\\n\\nThere is a mailbox.\\n\\n")
'West of House\\n\\nThere is a mailbox.'
"""

from __future__ import annotations

import re

__all__ = ["game_text"]


def game_text(text: str) -> str:
    joined = "\n".join([line.rstrip() for line in text.replace("\r", "").split("\n")])
    if "\n\n\n" in joined:  # rare: skip the regex on every other step
        joined = _BLANK_RUNS.sub("\n\n", joined)
    return joined.strip() or "(no reply)"


_BLANK_RUNS = re.compile(r"\n{3,}")
