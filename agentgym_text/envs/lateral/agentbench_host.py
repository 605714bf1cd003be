"""AgentBench v0.2's host protocol for lateral-thinking puzzles (``host_protocol="agentbench"``), with a chat model.

The protocol is AgentBench's; the prompts' wording is written here (AgentBench's own sentences are not copied), so
a host model answers from the same information in the same order:

- the player's move is the first line of its reply; a move that asks for a new game, story, question or round (or
  says "Great job" or "further question") costs 2 abort points instead of a host answer, and 5 points end the game;
- a move whose character-level BLEU-1 against one of the story's key points exceeds 0.85 is answered "already in
  the story" without the host (nltk's ``sentence_bleu`` on the two strings, as AgentBench calls it);
- otherwise the host gets a set-up dialogue (the puzzle's story, truth and rules, the story's and the truth's key
  points as its own summaries, the rules restated, then the story told), then the statements established so far
  (answered "Yes."), then the move;
- on an answer starting "yes" or "no" the move is restated as a statement (its opposite after "no"), added to what
  is known, and merged with the statements since the last key point was hit; each key point still open whose
  length does not exceed the move's (question marks removed) is checked in order ("does the merged statement hold
  all of this key point?"), and the first "yes" hits it: at most one key point per move;
- progress is AgentBench's GP, key points hit / hints (every line of the key cell, blank ones included).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agentgym_text.envs.lateral.host import HOST_RULES, LLMHost
from agentgym_text.envs.lateral.puzzles import Puzzle

__all__ = [
    "AgentBenchHost",
    "AgentBenchGame",
    "ABORT_PHRASES",
    "ABORT_LIMIT",
    "STORY_BLEU_LIMIT",
    "repeats_story_key",
    "bleu_1",
]

ABORT_PHRASES = (
    "new story",
    "other story",
    "new game",
    "other game",
    "new question",
    "other question",
    "other round",
    "new round",
    "Great job",
    "further question",
)
"""Substrings (case-sensitive, as AgentBench checks them) of a move that leaves the game: 2 abort points each."""
ABORT_LIMIT = 5
STORY_BLEU_LIMIT = 0.85


def repeats_story_key(move: str, story_keys: tuple[str, ...]) -> bool:
    """AgentBench's filter: the move's BLEU-1 against a story key point exceeds 0.85 (computed on characters, since
    AgentBench passes strings to ``sentence_bleu``; "?" read as ".")."""
    hypothesis = move.replace("?", ".")
    return any(bleu_1(key, hypothesis) > STORY_BLEU_LIMIT for key in story_keys if key)


def bleu_1(reference: str, hypothesis: str) -> float:
    """nltk's ``sentence_bleu([reference], hypothesis, weights=(1, 0, 0, 0))`` (the brevity penalty times the
    unigram precision), from nltk's own parts so that the zero higher-order counts raise no warnings."""
    from nltk.translate.bleu_score import brevity_penalty, closest_ref_length, modified_precision

    precision = modified_precision([reference], hypothesis, 1)
    if precision.numerator == 0:
        return 0.0
    length = len(hypothesis)
    return brevity_penalty(closest_ref_length([reference], length), length) * float(precision)


def _answer_prompt(text: str) -> str:
    return f'{text}\nAnswer with "yes", "no" or "irrelevant".'


def _setup(puzzle: Puzzle, story_keys_cell: str, truth_keys_cell: str) -> list[dict[str, str]]:
    return [
        {
            "role": "user",
            "content": "You will host a game of Lateral Thinking Puzzle: a story and the truth behind it.\n\n"
            f"The story: '{puzzle.story}'\nThe truth: '{puzzle.truth}'\n\nThe rules:\n{HOST_RULES}\n\nKeep to the "
            'rules, the story and the truth in every reply. The player asks; you answer with "yes", "no" or '
            '"irrelevant" to help them find the truth.',
        },
        {
            "role": "assistant",
            "content": "Understood. I am the host: I know the story and the truth, I have read the rules, and I will "
            "answer the player's questions by them.",
        },
        {"role": "user", "content": "Summarise the key points of the story, to show you have understood it."},
        {"role": "assistant", "content": story_keys_cell},
        {"role": "user", "content": "Summarise the key points of the truth, to show you have understood it."},
        {"role": "assistant", "content": truth_keys_cell},
        {"role": "user", "content": "Restate the rules, to show you have understood them."},
        {"role": "assistant", "content": HOST_RULES},
        {
            "role": "user",
            "content": "Let us begin. Before each reply, go over the key points of the story and of the truth and "
            'the rules. Answer with "yes", "no" or "irrelevant".',
        },
        {
            "role": "assistant",
            "content": f"As the host I will keep to the rules and the truth. Here is the story:\n{puzzle.story}\n\n"
            'Ask about the truth; I answer with "yes", "no" or "irrelevant".',
        },
    ]


def _starts_yes(text: str) -> bool:
    return text.strip().startswith(("Yes", "yes"))


def _starts_no(text: str) -> bool:
    return text.strip().startswith(("No", "no"))


@dataclass
class AgentBenchGame:
    """One episode of the protocol: what is known, the statements since the last hit, the key points still open."""

    llm: LLMHost
    puzzle: Puzzle
    known: list[str] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)
    open_keys: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.open_keys = list(range(len(self.puzzle.key_points)))
        keys = "\n".join(f"{i + 1}. {point}" for i, point in enumerate(self.puzzle.story_keys))
        truths = "\n".join(f"{i + 1}. {point}" for i, point in enumerate(self.puzzle.key_points))
        self._setup = _setup(self.puzzle, keys, truths)

    def _say(self, messages: list[dict[str, str]], max_tokens: int) -> str:
        return self.llm.complete(messages, lambda text: text.strip(), max_tokens=max_tokens)

    def ask(self, move: str) -> tuple[str, tuple[int, ...]]:
        """The host's reply to ``move`` and the key point it hits (at most one)."""
        messages = list(self._setup)
        if self.known:
            messages += [
                {"role": "user", "content": _answer_prompt(" ".join(self.known))},
                {"role": "assistant", "content": "Yes."},
            ]
        messages.append({"role": "user", "content": _answer_prompt(move)})
        reply = self._say(messages, 64)
        if _starts_yes(reply):
            request = f"Restate the following as one simple declarative sentence:\n{move}"
        elif _starts_no(reply):
            request = f"Restate the following as one simple declarative sentence that says its opposite:\n{move}"
        else:
            return reply, ()
        summary = self._say([{"role": "user", "content": request}], 128)
        self.known.append(summary)
        self.reasoning.append(summary)
        merged = summary
        if len(self.reasoning) >= 2:
            merged = self._say(
                [{"role": "user", "content": "Simplify the following into one sentence:\n" + " ".join(self.reasoning)}],
                256,
            )
        length = len(move.replace("?", ""))
        for index in list(self.open_keys):
            key = self.puzzle.key_points[index]
            if length < len(key):
                continue
            verdict = self._say(
                [
                    {
                        "role": "user",
                        "content": "Does Sentence 2 contain all the information of Sentence 1, its key details and "
                        f'descriptions included? Answer with "yes" or "no".\nSentence 1: {key}\nSentence 2: {merged}',
                    }
                ],
                16,
            )
            if _starts_yes(verdict):
                self.open_keys.remove(index)
                self.reasoning = []
                return reply, (index,)
        return reply, ()


class AgentBenchHost:
    """A chat model hosting by AgentBench's protocol (see the module docstring); ``new_game`` per episode."""

    name = "llm-agentbench"

    def __init__(self, llm: LLMHost):
        self.llm = llm

    def new_game(self, puzzle: Puzzle) -> AgentBenchGame:
        return AgentBenchGame(self.llm, puzzle)
