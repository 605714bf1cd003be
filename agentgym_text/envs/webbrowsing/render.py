"""One step's question: the page cut down to its candidates, the task, the previous actions, and the choices.

The candidates are the gold element and the best-ranked distractors (``ranker.py``), none inside or around
another, ``count`` in all when the page has enough elements; the choices are lettered B, C, ... in page order after "A. None of the above", as in
Mind2Web's multiple-choice format. The previous actions are the gold ones (Mind2Web's offline evaluation), the
last five.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from agentgym_text.envs.webbrowsing.dataset import Annotation, Step
from agentgym_text.envs.webbrowsing.html_tree import Node, node_text, parse_html, render_page
from agentgym_text.envs.webbrowsing.ranker import rank_elements

__all__ = ["Question", "ask", "PREVIOUS_SHOWN"]

PREVIOUS_SHOWN = 5
_NOT_CANDIDATES = {"html", "body", "#document"}


@dataclass(frozen=True)
class Question:
    text: str
    choices: tuple[tuple[str, str], ...]
    """``(backend_node_id, choice text)`` for the letters B, C, ..."""
    page: str = ""
    task: str = ""
    previous: tuple[str, ...] = ()
    """The previous actions shown (the last ``PREVIOUS_SHOWN``)."""

    def parts(self) -> dict[str, object]:
        """The question's parts without this package's words (the ``question`` info field: ``page``, ``task``,
        ``previous`` and ``choices``, the choice texts in letter order), for a protocol that words them itself."""
        return {
            "page": self.page,
            "task": self.task,
            "previous": list(self.previous),
            "choices": [text for _, text in self.choices],
        }

    def element_of(self, letter: str) -> str | None:
        """The element id a letter names (None for A, None of the above)."""
        index = ord(letter) - ord("B")
        return self.choices[index][0] if 0 <= index < len(self.choices) else None

    def letter_of(self, uid: str) -> str:
        for index, (choice, _) in enumerate(self.choices):
            if choice == uid:
                return chr(ord("B") + index)
        return "A"


def _distractors(top: Node, step: Step, query: str, count: int) -> list[str]:
    gold_nodes = [node for node in top.walk() if node.uid in step.gold]
    near = set()
    for node in gold_nodes:
        near.update(id(item) for item in node.walk())
        near.update(id(item) for item in node.ancestors())
    allowed = None if step.allowed is None else set(step.allowed)
    pool = [
        (node.uid, text)
        for node in top.walk()
        if node.uid
        and id(node) not in near
        and node.tag not in _NOT_CANDIDATES
        and (allowed is None or node.uid in allowed)
        and (text := node_text(node))
    ]
    by_uid = {node.uid: node for node in top.walk() if node.uid}
    chosen: list[str] = []
    taken: set[int] = set()
    for uid in rank_elements(query, pool):
        if len(chosen) >= count:
            break
        node = by_uid[uid]
        if id(node) in taken:
            continue  # inside or around a distractor already chosen: the same place on the page
        chosen.append(uid)
        taken.update(id(item) for item in node.walk())
        taken.update(id(item) for item in node.ancestors())
    return chosen


@lru_cache(maxsize=512)
def ask(annotation: Annotation, index: int, count: int) -> Question:
    """The question of step ``index`` with ``count`` element choices (fewer when the page has fewer elements);
    kept for the next episode of the same task."""
    step = annotation.steps[index]
    top = parse_html(step.html)
    previous = [earlier.repr for earlier in annotation.steps[:index]][-PREVIOUS_SHOWN:]
    query = " ".join([annotation.task, *previous])
    present = [uid for uid in step.gold if any(node.uid == uid for node in top.walk())][:1]
    candidates = present + _distractors(top, step, query, count - len(present))
    page, choices = render_page(top, candidates)
    lines = [
        "Page (cleaned HTML, cut down around the choices):",
        "'''",
        page,
        "'''",
        "",
        f"Task: {annotation.task}",
        "Previous actions:",
        *(previous or ["None"]),
        f"Step {index + 1} of {len(annotation.steps)}. Which element do you act on next, and how? Pick one of the "
        "choices below (A if the element you need is not among them):",
        "",
        "A. None of the above",
        *(f"{chr(ord('B') + number)}. {text}" for number, (_, text) in enumerate(choices)),
    ]
    return Question("\n".join(lines), tuple(choices), page, annotation.task, tuple(previous))
