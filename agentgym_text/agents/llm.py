"""An LLM agent for any OpenAI-compatible chat-completions endpoint (vLLM, llama.cpp server, hosted APIs).

All sub-envs of a vector env are asked concurrently each step (a thread pool over the ``openai`` client).
Timeouts, connection errors, 408, 409, 429 and 5xx answers are retried (tenacity) with exponential backoff; a
reply that cannot be read as an action is sent to the env as an empty action, which the env counts as an invalid
step (AgentBench's "invalid format"); a context-length refusal ends the episode with ``context_limit``; a turn
whose retries are exhausted ends it with ``agent_error``. ``preflight()`` is the one call that raises: before a
run, on an endpoint that cannot serve it.
"""

from __future__ import annotations

import functools
import logging
import random as _random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import gymnasium as gym

from agentgym_text.agents.base import Agent, Decision, Turn
from agentgym_text.agents.llm_config import LLMConfig
from agentgym_text.agents.parsing import parse_reply
from agentgym_text.agents.prompts import build_messages, load_prompt
from agentgym_text.core.info import FinishReason
from agentgym_text.core.registry import reads_whole_replies
from agentgym_text.wrappers.history import HistoryWindow, approximate_tokens

__all__ = ["LLMAgent", "AgentUnavailable", "is_context_error", "RETRY_STATUS"]

logger = logging.getLogger(__name__)

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


def _retryable(error: BaseException) -> bool:
    """A timeout, a lost connection, 408, 409, 429 or 5xx: worth another attempt."""
    import openai

    if isinstance(error, (openai.APITimeoutError, openai.APIConnectionError)):
        return True
    status = error.status_code if isinstance(error, openai.APIStatusError) else None
    return status is not None and (status >= 500 or status in RETRY_STATUS)


def _failure_name(error: BaseException) -> str:
    """``http_<status>`` for an HTTP answer, else the error's class (``APITimeoutError``)."""
    status = getattr(error, "status_code", None)
    return type(error).__name__ if status is None else f"http_{status}"


class AgentUnavailable(RuntimeError):
    """The model endpoint cannot serve this run (unreachable, refused the key, or does not know the model)."""


class LLMAgent(Agent):
    """Chat-completions agent configured by an ``LLMConfig`` (style "vanilla": action only; "react": thought, then
    action).

    The prompt is the family's system prompt, instruction and one example (``prompt.json`` in the family's
    folder), the goal, then the ``HistoryWindow`` of recent turns cut to ``history_tokens``. With
    ``context_window`` set, a prompt that would not fit ends the episode before it is sent. ``preflight()``
    checks the endpoint with one cheap request before a run; a turn whose retries are exhausted ends its
    episode with ``finish_reason="agent_error"`` (the runner replays such episodes on the next run).
    """

    name = "openai"

    def __init__(
        self,
        config: LLMConfig,
        *,
        backoff_s: float = 0.5,
        max_backoff_s: float = 8.0,
        concurrency: int = 32,
        client: Any = None,
        sleep: Callable[[float], None] = time.sleep,
    ):
        if not config.model:
            raise ValueError("the LLM agent needs a model name (--model)")
        self.config = config
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.concurrency = max(1, concurrency)
        self._sleep = sleep
        self._jitter = _random.Random(0)
        if client is None:
            import openai

            client = openai.OpenAI(
                base_url=config.base_url,
                api_key=config.api_key or "EMPTY",
                timeout=config.timeout,
                max_retries=0,  # ask() retries, counting the attempts each Decision reports
            )
        self.client = client
        self._pool: ThreadPoolExecutor | None = None

    @property
    def endpoint(self) -> str:
        return str(getattr(self.client, "base_url", None) or self.config.base_url or "the default OpenAI endpoint")

    def preflight(self, timeout: float = 10.0) -> None:
        """One cheap request (the model list, else a 1-token chat); raises ``AgentUnavailable`` saying why."""
        import openai

        client = self.client.with_options(timeout=timeout, max_retries=0)
        where = f"the endpoint {self.endpoint}"
        try:
            try:
                listed = [getattr(model, "id", None) for model in client.models.list().data]
            except openai.NotFoundError:  # servers without a model list: ask for one token instead
                listed = None
            if listed and self.config.model not in listed:
                shown = ", ".join(str(name) for name in listed[:10])
                raise AgentUnavailable(
                    f"{where} does not serve the model {self.config.model!r} (it lists: {shown}). "
                    "Pass one of those with --model."
                )
            if listed is None:
                client.chat.completions.create(
                    model=self.config.model, messages=[{"role": "user", "content": "ping"}], max_tokens=1
                )
        except (openai.APITimeoutError, openai.APIConnectionError) as error:
            raise AgentUnavailable(
                f"Cannot reach {where} ({type(error).__name__}: {error}). Is the server running and is the URL "
                "right (--base-url, or $OPENAI_BASE_URL)? Nothing was played."
            ) from None
        except (openai.AuthenticationError, openai.PermissionDeniedError) as error:
            raise AgentUnavailable(
                f"{where} refused the API key (HTTP {error.status_code}). Pass the right key with --api-key or "
                "$OPENAI_API_KEY. Nothing was played."
            ) from None
        except openai.NotFoundError:
            raise AgentUnavailable(
                f"{where} answered 404 for the model {self.config.model!r}: the model name or the URL is wrong "
                "(an OpenAI-compatible URL usually ends in /v1). Nothing was played."
            ) from None
        except openai.APIStatusError as error:
            raise AgentUnavailable(
                f"{where} answered HTTP {error.status_code} to a 1-token test request: {error.message}. "
                "Nothing was played."
            ) from None

    def env_wrappers(self) -> list[Callable[[gym.Env], gym.Env]]:
        return [functools.partial(HistoryWindow, max_tokens=self.config.history_tokens)]

    def describe(self) -> dict[str, Any]:
        return {"agent": self.name, **self.config.record()}

    def resume_settings(self) -> dict[str, Any]:
        return {"agent": self.name, **self.config.resume_settings()}

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
        return build_messages(
            load_prompt(turn.family, turn.text_format), turn.goal, turn.observation, self.config.style
        )

    def ask(self, turn: Turn) -> Decision:
        """One decision for one turn; never raises."""
        import openai
        import tenacity

        messages = self.messages_for(turn)
        started = time.perf_counter()
        if self.config.context_window is not None:
            needed = sum(approximate_tokens(m["content"]) for m in messages) + self.config.max_tokens
            if needed > self.config.context_window:
                return Decision(action="", error="context_limit", finish_reason=FinishReason.CONTEXT_LIMIT.value)
        retrying = tenacity.Retrying(
            retry=tenacity.retry_if_exception(_retryable),
            stop=tenacity.stop_after_attempt(self.config.max_retries + 1),
            wait=tenacity.wait_exponential(multiplier=self.backoff_s, max=self.max_backoff_s),
            sleep=self._sleep_jittered,
        )
        try:
            response = retrying(
                self.client.chat.completions.create,
                model=self.config.model,
                messages=messages,
                temperature=self.config.temperature,
                max_tokens=self.config.max_tokens,
            )
        except tenacity.RetryError as exhausted:
            return Decision(
                action="",
                error=f"retries_exhausted:{_failure_name(exhausted.last_attempt.exception())}",
                attempts=exhausted.last_attempt.attempt_number,
                finish_reason=FinishReason.AGENT_ERROR.value,
                latency_s=time.perf_counter() - started,
            )
        except openai.APIStatusError as error:
            attempts = retrying.statistics["attempt_number"]
            if is_context_error(error.status_code, str(error)):
                return Decision(
                    action="",
                    error="context_limit",
                    finish_reason=FinishReason.CONTEXT_LIMIT.value,
                    attempts=attempts,
                    latency_s=time.perf_counter() - started,
                )
            return Decision(
                action="", error=_failure_name(error), attempts=attempts, latency_s=time.perf_counter() - started
            )
        except Exception as error:  # a body the client cannot read: a malformed reply
            logger.warning("unreadable reply from %s: %s: %s", self.endpoint, type(error).__name__, error)
            return Decision(
                action="",
                error=f"invalid_format:{type(error).__name__}",
                attempts=retrying.statistics["attempt_number"],
                latency_s=time.perf_counter() - started,
            )
        return self._decide(turn, response, retrying.statistics["attempt_number"], time.perf_counter() - started)

    def _sleep_jittered(self, delay: float) -> None:
        """Sleep x0.5 to x1 of the backoff ``delay`` (seeded jitter, drawn only when a retry waits)."""
        self._sleep(delay * (0.5 + 0.5 * self._jitter.random()))

    def _decide(self, turn: Turn, response: Any, attempts: int, latency: float) -> Decision:
        usage = getattr(response, "usage", None)
        prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
        try:
            content = response.choices[0].message.content
        except Exception:
            content = None
        parsed = parse_reply(content, react=self.config.style == "react", whole=reads_whole_replies(turn.env_id))
        if parsed.action is None:
            return Decision(
                action="",
                reply=content if isinstance(content, str) else None,
                thought=parsed.thought,
                error="invalid_format",
                prompt_tokens=prompt_tokens,
                completion_tokens=completion_tokens,
                attempts=attempts,
                latency_s=latency,
            )
        return Decision(
            action=parsed.action,
            reply=content,
            thought=parsed.thought,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            attempts=attempts,
            latency_s=latency,
        )
