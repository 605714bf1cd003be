"""An LLM agent for any OpenAI-compatible chat-completions endpoint (vLLM, llama.cpp server, hosted APIs).

All sub-envs of a vector env are asked concurrently each step (a thread pool over the ``openai`` client).
Timeouts, connection errors, 429 and 5xx answers are retried with exponential backoff; a reply that cannot
be read as an action is sent to the env as an empty action, which the env counts as an invalid step
(AgentBench's "invalid format"); a context-length refusal ends the episode with ``context_limit``. Nothing
here raises on a bad server: the run goes on.
"""

from __future__ import annotations

import functools
import os
import random as _random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import gymnasium as gym

from agentgym_text.agents.base import Agent, Decision, Turn
from agentgym_text.agents.parsing import parse_reply
from agentgym_text.agents.prompts import STYLES, build_messages, load_prompt
from agentgym_text.core.info import FinishReason
from agentgym_text.wrappers.history import HistoryWindow, approximate_tokens

__all__ = ["LLMAgent", "is_context_error", "RETRY_STATUS"]

RETRY_STATUS = frozenset({408, 409, 429})
"""HTTP statuses retried besides every 5xx."""

_CONTEXT_PHRASES = (
    "context length",
    "context_length",
    "maximum context",
    "context window",
    "too many tokens",
    "prompt is too long",
    "input is too long",
)


def is_context_error(status: int | None, message: str) -> bool:
    """Whether an HTTP error says the prompt is longer than the model's context.

    >>> is_context_error(400, "This model's maximum context length is 4096 tokens.")
    True
    >>> is_context_error(400, "unknown model")
    False
    """
    text = message.lower()
    return status in (400, 413, 422, None) and any(phrase in text for phrase in _CONTEXT_PHRASES)


class LLMAgent(Agent):
    """Chat-completions agent; ``style`` is "vanilla" (action only) or "react" (thought, then action).

    The prompt (``agents/prompts``) is the family's system prompt, instruction and one example, the goal,
    then the ``HistoryWindow`` of recent turns cut to ``history_tokens``. With ``context_window`` set, a
    prompt that would not fit ends the episode before it is sent.
    """

    name = "openai"

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        style: str = "vanilla",
        temperature: float = 0.0,
        max_tokens: int = 256,
        history_tokens: int = 3000,
        context_window: int | None = None,
        timeout: float = 60.0,
        max_retries: int = 6,
        backoff_s: float = 0.5,
        max_backoff_s: float = 8.0,
        concurrency: int = 32,
        client: Any = None,
        sleep: Callable[[float], None] = time.sleep,
    ):
        if style not in STYLES:
            raise ValueError(f"style must be one of {STYLES}")
        if not model:
            raise ValueError("the LLM agent needs a model name (--model)")
        self.model = model
        self.base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        self.style = style
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.history_tokens = history_tokens
        self.context_window = context_window
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.concurrency = max(1, concurrency)
        self._sleep = sleep
        self._jitter = _random.Random(0)
        if client is None:
            import openai

            client = openai.OpenAI(
                base_url=self.base_url,
                api_key=api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY",
                timeout=timeout,
                max_retries=0,
            )
        self.client = client
        self._pool: ThreadPoolExecutor | None = None

    def env_wrappers(self) -> list[Callable[[gym.Env], gym.Env]]:
        return [functools.partial(HistoryWindow, max_tokens=self.history_tokens)]

    def describe(self) -> dict[str, Any]:
        return {
            "agent": self.name,
            "model": self.model,
            "base_url": self.base_url,
            "style": self.style,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "history_tokens": self.history_tokens,
        }

    def act(self, turns: Sequence[Turn]) -> list[Decision]:
        if len(turns) <= 1:
            return [self.ask(turn) for turn in turns]
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="llm-agent")
        return list(self._pool.map(self.ask, turns))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        close = getattr(self.client, "close", None)
        if callable(close):
            close()

    # ---- one request -----------------------------------------------------------------------------------
    def messages_for(self, turn: Turn) -> list[dict[str, str]]:
        return build_messages(load_prompt(turn.family), turn.goal, turn.observation, self.style)

    def ask(self, turn: Turn) -> Decision:
        """One decision for one turn; never raises."""
        import openai

        messages = self.messages_for(turn)
        started = time.perf_counter()
        if self.context_window is not None:
            needed = sum(approximate_tokens(m["content"]) for m in messages) + self.max_tokens
            if needed > self.context_window:
                return Decision(action="", error="context_limit", finish_reason=FinishReason.CONTEXT_LIMIT.value)
        last_error = "unknown"
        for attempt in range(self.max_retries + 1):
            try:
                response = self.client.chat.completions.create(
                    model=self.model,
                    messages=messages,
                    temperature=self.temperature,
                    max_tokens=self.max_tokens,
                )
            except (openai.APITimeoutError, openai.APIConnectionError) as error:
                last_error = type(error).__name__
            except openai.APIStatusError as error:
                status = getattr(error, "status_code", None)
                if is_context_error(status, str(error)):
                    return Decision(
                        action="", error="context_limit", finish_reason=FinishReason.CONTEXT_LIMIT.value,
                        attempts=attempt + 1, latency_s=time.perf_counter() - started,
                    )
                if status is None or not (status >= 500 or status in RETRY_STATUS):
                    return Decision(action="", error=f"http_{status}", attempts=attempt + 1,
                                    latency_s=time.perf_counter() - started)
                last_error = f"http_{status}"
            except Exception as error:  # a body the client cannot read: a malformed reply
                return Decision(action="", error=f"invalid_format:{type(error).__name__}", attempts=attempt + 1,
                                latency_s=time.perf_counter() - started)
            else:
                return self._decide(response, attempt + 1, time.perf_counter() - started)
            if attempt < self.max_retries:
                delay = min(self.max_backoff_s, self.backoff_s * 2**attempt)
                self._sleep(delay * (0.5 + 0.5 * self._jitter.random()))
        return Decision(action="", error=f"retries_exhausted:{last_error}", attempts=self.max_retries + 1,
                        latency_s=time.perf_counter() - started)

    def _decide(self, response: Any, attempts: int, latency: float) -> Decision:
        usage = getattr(response, "usage", None)
        prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
        try:
            content = response.choices[0].message.content
        except Exception:
            content = None
        parsed = parse_reply(content, react=self.style == "react")
        if parsed.action is None:
            return Decision(
                action="", reply=content if isinstance(content, str) else None, thought=parsed.thought,
                error="invalid_format", prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
                attempts=attempts, latency_s=latency,
            )
        return Decision(
            action=parsed.action, reply=content, thought=parsed.thought, prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens, attempts=attempts, latency_s=latency,
        )
