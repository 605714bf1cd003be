"""Reading the player's text: a yes/no question, or a final ``answer: ...`` that states the whole truth.

Cheap checks keep garbage out before the host sees it: a question must read as an English question (ends
with "?" or opens with a verb such as "is", "did", "was") of at least three words, mostly letters; "why"/"what"/...
questions and requests for a new game are refused, as AgentBench's rules for the player say.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import InvalidReason

__all__ = ["Move", "parse_move", "repeats_story", "QUESTION_OPENERS"]

QUESTION_OPENERS = frozenset(
    "is was are were am do does did has have had can could will would should shall may might must "
    "isnt wasnt arent werent doesnt didnt hasnt havent hadnt cant couldnt wont wouldnt shouldnt".split()
)
_WH_WORDS = frozenset("why what how who whom whose where when which".split())
_STOP_WORDS = frozenset(
    "a an the is was are were am do does did has have had can could will would should he she it they him her "
    "his its their them of to in on at for with by from and or but not no yes that this there be been any some "
    "someone something i you we me my your our".split()
)
_ANSWER = re.compile(r"^\s*(?:final\s+)?(?:answer|solution|truth)\s*[:\-]\s*", re.IGNORECASE)
_FORBIDDEN = (
    "new story",
    "other story",
    "new game",
    "other game",
    "new puzzle",
    "another puzzle",
    "another game",
    "give up",
    "new round",
)
_WORD = re.compile(r"[A-Za-z']+")


@dataclass(frozen=True)
class Move:
    kind: str
    """"question" or "answer"."""
    text: str


def _looks_like_text(text: str) -> bool:
    words = _WORD.findall(text)
    letters = sum(ch.isascii() and ch.isalpha() for ch in text)
    return len([w for w in words if len(w) > 1]) >= 3 and letters >= 0.6 * len(text.replace(" ", ""))


def parse_move(text: str) -> Move:
    """A ``Move`` from the player's text, or ``ActionError`` with the rule it breaks."""
    first_line = text.strip().splitlines()[0].strip() if text.strip() else ""
    lowered = first_line.lower()
    if any(phrase in lowered for phrase in _FORBIDDEN):
        raise ActionError(
            "You are the player of this puzzle: ask about this story; you cannot ask for a new game or give up.",
            InvalidReason.PRECONDITION,
        )
    answer = _ANSWER.match(first_line)
    if answer:
        body = first_line[answer.end() :].strip()
        if not _looks_like_text(body):
            raise ActionError(
                "A final answer is 'answer: <the whole truth in a sentence or two>'.", InvalidReason.BAD_ARGUMENT
            )
        return Move("answer", body)
    if len(first_line) > 400:
        raise ActionError("Ask one short question at a time (under 400 characters).", InvalidReason.BAD_ARGUMENT)
    words = [w.lower().replace("'", "") for w in _WORD.findall(first_line)]
    if words and words[0] in _WH_WORDS:
        raise ActionError(
            f"'{words[0].capitalize()}' questions cannot be answered with yes or no: make a guess and "
            "ask whether it is true (e.g. 'Was he afraid of something?').",
            InvalidReason.UNPARSABLE,
        )
    is_question = first_line.endswith("?") or (words and words[0] in QUESTION_OPENERS)
    if not is_question or not _looks_like_text(first_line):
        raise ActionError(
            "Ask one yes/no question about the story (e.g. 'Did he know the caller?'), or give your final "
            "answer as 'answer: <the whole truth>'.",
            InvalidReason.UNPARSABLE,
        )
    return Move("question", first_line)


def repeats_story(question: str, story: str, share: float = 0.85) -> bool:
    """True when the question's content words (three or more) nearly all come from the story: it asks what
    the story already says (AgentBench refuses such questions; it compares them with a unigram BLEU > 0.85)."""
    content = [w for w in _WORD.findall(question.lower()) if w not in _STOP_WORDS and len(w) > 1]
    if len(content) < 3:
        return False
    story_words = {w for w in _WORD.findall(story.lower())}
    return sum(w in story_words for w in content) >= share * len(content)
