"""The candidate ranker: which elements of a page look most like the task, by bag-of-words overlap.

Mind2Web ranks a page's elements with a fine-tuned cross-encoder and shows the top ones beside the target; no model
is downloaded here. An element scores the number of distinct words (two letters or more, stop words dropped) it
shares with the task and the previous actions, divided by ``1 + log(1 + its word count)`` so that a long container
does not win by size; ties go to the element with fewer words, then to page order. The distractors of a step are the best-ranked elements other than the
target, its ancestors and its descendants (those would name the same place on the page), and elements with no
text or attribute to show.

>>> rank_elements("buy red shoes", [("1", "Red shoes on sale"), ("2", "Contact us"), ("3", "Shoes")])
['1', '3', '2']
"""

from __future__ import annotations

import math
import re

__all__ = ["rank_elements", "words"]

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    "the a an of to in on for and or is are be by with at from this that it as your you my me i what which who how "
    "do does did not no yes all any can will click type select".split()
)


def words(text: str) -> set[str]:
    """The distinct lower-case words of ``text`` (two characters or more, stop words dropped)."""
    return {word for word in _WORD.findall(text.lower()) if len(word) > 1 and word not in _STOP}


def rank_elements(query: str, elements: list[tuple[str, str]]) -> list[str]:
    """The ids of ``elements`` ``[(id, text)]`` best first."""
    wanted = words(query)
    scored = []
    for order, (uid, text) in enumerate(elements):
        own = words(text)
        score = len(own & wanted) / (1.0 + math.log1p(len(own)))
        scored.append((-score, len(text.split()), order, uid))
    scored.sort()
    return [uid for *_, uid in scored]
