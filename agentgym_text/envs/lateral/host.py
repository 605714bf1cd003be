"""The puzzle host: who answers "yes", "no" or "irrelevant" and judges which key points a question uncovers.

``FactHost`` (the default) needs no model: it matches the question against the puzzle's stored facts with
synonyms. It is an approximation of a human or LLM host: a question outside the stored facts is answered
"irrelevant", negations are not understood, and word order is ignored. ``LLMHost`` asks an OpenAI-compatible
chat model, with a host prompt built like AgentBench's (rules, story, truth and its key points, then the
question), retrying timeouts, connection and server errors and unreadable replies; when every attempt fails
it raises ``HostError`` and the env ends the episode with finish reason ``host_error`` (never a silent "no").
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agentgym_text.envs.lateral.puzzles import Puzzle, best_fact, fact_matches, normalise

__all__ = ["HostReply", "HostError", "FactHost", "LLMHost", "make_host", "HOST_RULES"]

ANSWERS = ("yes", "no", "irrelevant")


@dataclass(frozen=True)
class HostReply:
    answer: str
    """"yes", "no" or "irrelevant" (for a final answer: "yes" when it is accepted)."""
    key_points: tuple[int, ...] = ()
    """Key points (indices) this question or answer uncovers."""


class HostError(RuntimeError):
    """The host could not give a readable answer after all retries."""


class FactHost:
    """Answers from the stored facts (deterministic, no model); see the module docstring for its limits."""

    name = "facts"

    def ask(
        self, puzzle: Puzzle, question: str, history: Sequence[tuple[str, str]] = (), uncovered: Sequence[int] = ()
    ) -> HostReply:
        fact = best_fact(puzzle.facts, normalise(question), uncovered)
        if fact is None:
            return HostReply("irrelevant")
        key = (fact.key_point,) if fact.answer == "yes" and fact.key_point is not None else ()
        return HostReply(fact.answer, key)

    def judge_answer(self, puzzle: Puzzle, text: str, uncovered: Sequence[int] = ()) -> HostReply:
        words = normalise(text)
        found = sorted(
            {
                f.key_point
                for f in puzzle.facts
                if f.answer == "yes" and f.key_point is not None and fact_matches(f, words)
            }
        )
        complete = set(found) | set(uncovered) >= set(range(len(puzzle.key_points)))
        return HostReply("yes" if complete else "no", tuple(found))


HOST_RULES = (
    '1. You know the "story" and the "truth"; the player knows only the story.\n'
    '2. The player asks questions that can be answered "yes", "no" or "irrelevant" to work out the truth. '
    "Answer each one from the truth.\n"
    '3. If the player asks "why" directly, tell them they have to guess.\n'
    "4. Read the truth carefully; a question need not use its words, but your answer must agree with it.\n"
    '5. Answer "irrelevant" only when the truth gives no direct or indirect answer; otherwise "yes" or "no".\n'
    "6. Never tell the player the truth itself, even when asked.\n"
    "7. Judge the question as a whole by its overall meaning, not by one word in it."
)


def _setup_messages(puzzle: Puzzle) -> list[dict[str, str]]:
    keys = "\n".join(f"{i + 1}. {point}" for i, point in enumerate(puzzle.key_points))
    return [
        {
            "role": "user",
            "content": "Please host a lateral thinking puzzle (a situation puzzle).\n\n"
            f"The story: '{puzzle.story}'\nThe truth: '{puzzle.truth}'\n\nRules:\n{HOST_RULES}\n\n"
            'Keep to these rules, the story and the truth in every reply, and answer only "yes", "no" or '
            '"irrelevant".',
        },
        {
            "role": "assistant",
            "content": "Understood: I host the puzzle and answer the player's questions with "
            '"yes", "no" or "irrelevant", following the rules, the story and the truth.',
        },
        {"role": "user", "content": "Summarise the key points of the truth."},
        {"role": "assistant", "content": keys},
        {"role": "user", "content": "Restate the rules."},
        {"role": "assistant", "content": HOST_RULES},
        {
            "role": "user",
            "content": "Let us start. Before each reply, recall the key points and the rules. "
            'Answer with "yes", "no" or "irrelevant".',
        },
        {
            "role": "assistant",
            "content": f"Here is the story:\n{puzzle.story}\n\nAsk your questions; I will "
            'answer "yes", "no" or "irrelevant".',
        },
    ]


def _credit_prompt(puzzle: Puzzle, statement: str, remaining: Sequence[int]) -> str:
    keys = "\n".join(f"{i + 1}. {puzzle.key_points[i]}" for i in remaining)
    return (
        f"Key points of the truth of a lateral thinking puzzle:\n{keys}\n\nThe player's statement, which is "
        f"true: {statement}\n\nWhich of these key points does the statement establish completely, with "
        "their key details? Reply with their numbers separated by commas, or 'none'."
    )


class LLMHost:
    """A chat model as host, through the ``openai`` client (``host_model``, ``host_base_url``)."""

    name = "llm"

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        max_retries: int = 3,
        backoff_s: float = 0.5,
        history_turns: int = 20,
        client: Any = None,
    ):
        self.model = model
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.history_turns = history_turns
        self.calls = 0
        if client is None:
            import openai

            client = openai.OpenAI(
                base_url=base_url or os.environ.get("OPENAI_BASE_URL") or None,
                api_key=api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY",
                timeout=timeout,
                max_retries=0,
            )
        self.client = client

    def complete(self, messages: list[dict[str, str]], read, max_tokens: int = 32) -> Any:
        """Call the model until ``read(text)`` gives a value; HostError when every attempt fails."""
        last = "no attempt"
        for attempt in range(self.max_retries + 1):
            if attempt:
                time.sleep(self.backoff_s * 2 ** (attempt - 1))
            self.calls += 1
            try:
                response = self.client.chat.completions.create(
                    model=self.model, messages=messages, temperature=0.0, max_tokens=max_tokens
                )
                text = response.choices[0].message.content or ""
            except Exception as error:  # timeouts, refused connections, 4xx/5xx, unreadable bodies
                last = type(error).__name__
                continue
            value = read(text)
            if value is not None:
                return value
            last = f"unreadable reply {text[:60]!r}"
        raise HostError(f"the host model gave no usable reply after {self.max_retries + 1} attempts ({last})")

    @staticmethod
    def _read_answer(text: str) -> str | None:
        words = normalise(text)
        return words[0] if words and words[0] in ANSWERS else None

    @staticmethod
    def _read_numbers(text: str, remaining: Sequence[int]) -> tuple[int, ...] | None:
        if normalise(text)[:1] == ("none",):
            return ()
        numbers = [int(n) - 1 for n in re.findall(r"\d+", text)]
        if not numbers:
            return None
        return tuple(sorted({n for n in numbers if n in remaining}))

    def _credit(self, puzzle: Puzzle, statement: str, uncovered: Sequence[int]) -> tuple[int, ...]:
        remaining = [i for i in range(len(puzzle.key_points)) if i not in uncovered]
        if not remaining:
            return ()
        prompt = [{"role": "user", "content": _credit_prompt(puzzle, statement, remaining)}]
        return self.complete(prompt, lambda text: self._read_numbers(text, remaining))

    def ask(
        self, puzzle: Puzzle, question: str, history: Sequence[tuple[str, str]] = (), uncovered: Sequence[int] = ()
    ) -> HostReply:
        messages = _setup_messages(puzzle)
        for asked, answered in list(history)[-self.history_turns :]:
            messages.append({"role": "user", "content": f'{asked}\nAnswer "yes", "no" or "irrelevant".'})
            messages.append({"role": "assistant", "content": answered.capitalize() + "."})
        messages.append({"role": "user", "content": f'{question}\nAnswer "yes", "no" or "irrelevant".'})
        answer = self.complete(messages, self._read_answer)
        keys = self._credit(puzzle, question, uncovered) if answer == "yes" else ()
        return HostReply(answer, keys)

    def judge_answer(self, puzzle: Puzzle, text: str, uncovered: Sequence[int] = ()) -> HostReply:
        found = self._credit(puzzle, text, uncovered)
        complete = set(found) | set(uncovered) >= set(range(len(puzzle.key_points)))
        return HostReply("yes" if complete else "no", found)


def make_host(host_model: str | None = None, host_base_url: str | None = None, **options: Any):
    """``FactHost()`` without a model name, else an ``LLMHost``."""
    if not host_model:
        return FactHost()
    return LLMHost(host_model, host_base_url, **options)
