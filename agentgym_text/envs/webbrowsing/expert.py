"""The expert: the gold answer of the current step (its element's letter, operation and value).

Mind2Web's offline evaluation moves to the gold step's next page whatever the answer, so the expert has no detour
to recover from. A step whose gold element is not on its page (possible in Mind2Web's own files) is answered A.
"""

from __future__ import annotations

from agentgym_text.envs.webbrowsing.actions import format_answer
from agentgym_text.envs.webbrowsing.dataset import Step
from agentgym_text.envs.webbrowsing.render import Question

__all__ = ["gold_answer"]


def gold_answer(step: Step, question: Question) -> str:
    letters = [question.letter_of(uid) for uid in step.gold]
    letter = next((letter for letter in letters if letter != "A"), "A")
    if letter == "A":
        return format_answer("A")
    return format_answer(letter, step.op, step.value)
