"""An LLM agent for any OpenAI-compatible chat-completions endpoint (vLLM, llama.cpp server, hosted APIs).

All sub-envs of a vector env are asked concurrently each step (a thread pool over the ``openai`` client).
Timeouts, connection errors, 408, 409, 429 and 5xx answers are retried (tenacity) with exponential backoff; a
reply that cannot be read as an action is sent to the env as an empty action, which the env counts as an invalid
step (AgentBench's "invalid format"); a context-length refusal ends the episode with ``context_limit``; a turn
whose retries are exhausted ends it with ``agent_error``. ``preflight()`` is the one call that raises: before a
run, on an endpoint that cannot serve it.
"""

from __future__ import annotations

import logging
import random as _random
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from agentgym_text.agents.base import Decision, ProtocolAgent, Turn
from agentgym_text.agents.llm_config import LLMConfig
from agentgym_text.agents.protocols import AgentProtocol, Dialogue, Reading, Request
from agentgym_text.core.info import FinishReason

__all__ = ["LLMAgent", "AgentUnavailable", "is_context_error", "RETRY_STATUS"]

logger = logging.getLogger(__name__)

MAX_REQUESTS_PER_STEP = 10
"""Requests in one step when the protocol keeps asking (ReAct thoughts; AgentBench's card game: five guess tries and
five action tries when no guess phase is left); beyond it the step has no action."""
CONTEXT_LIMIT = FinishReason.CONTEXT_LIMIT.value

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


class LLMAgent(ProtocolAgent):
    """Chat-completions agent configured by an ``LLMConfig`` (style "vanilla": action only; "react": thought, then
    action), speaking an agent protocol (``protocol=``: a name or an ``AgentProtocol``; default the config's).

    Under this package's protocol ("ours") the prompt is the family's system prompt, instruction and one example
    (``prompt.json`` in the family's folder), the goal, then the ``HistoryWindow`` of recent turns cut to
    ``history_tokens``; under "agentboard" and "agentbench" it is what the originals' harnesses send
    (``agents.protocols``). A request that does not fit ``context_window`` ends the episode before it is sent.
    ``preflight()`` checks the endpoint with one cheap request before a run; a turn whose retries are exhausted ends
    its episode with ``finish_reason="agent_error"`` (the runner replays such episodes on the next run).
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
        protocol: str | AgentProtocol | None = None,
    ):
        if not config.model:
            raise ValueError("the LLM agent needs a model name (--model)")
        if isinstance(protocol, str):
            config = replace(config, protocol=protocol)
        self.config = config
        self.protocol = protocol if isinstance(protocol, AgentProtocol) else config.make_protocol()
        self._dialogues: dict[tuple[int, str], Dialogue] = {}
        self._dialogues_lock = threading.Lock()
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

    def describe(self) -> dict[str, Any]:
        return {"agent": self.name, **self.config.record(), **self.protocol.describe()}

    def begin_episode(self, turn: Turn) -> None:
        dialogue = self.protocol.begin(self.opening(turn))
        with self._dialogues_lock:
            self._dialogues[(turn.slot, turn.episode_key)] = dialogue

    def observe(self, turn: Turn) -> str | None:
        dialogue = self._dialogue(turn)
        seen = dialogue.observe(turn.observation, turn.info)
        return None if seen == turn.info.get("raw_observation", turn.observation) else seen

    def trailing_request(self, turn: Turn, finish_reason: str) -> Decision | None:
        with self._dialogues_lock:
            dialogue = self._dialogues.get((turn.slot, turn.episode_key))
        request = None if dialogue is None else dialogue.trailing_request(finish_reason)
        if request is None:
            return None
        return self._send(request)[0]

    def end_episode(self, turn: Turn) -> None:
        with self._dialogues_lock:
            self._dialogues.pop((turn.slot, turn.episode_key), None)

    def _dialogue(self, turn: Turn) -> Dialogue:
        with self._dialogues_lock:
            dialogue = self._dialogues.get((turn.slot, turn.episode_key))
        if dialogue is None:  # a caller that did not announce the episode: it starts here
            self.begin_episode(turn)
            with self._dialogues_lock:
                dialogue = self._dialogues[(turn.slot, turn.episode_key)]
        return dialogue

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
    def ask(self, turn: Turn) -> Decision:
        """One decision for one turn (several requests when the protocol keeps a thought and asks again); never
        raises."""
        dialogue = self._dialogue(turn)
        started = time.perf_counter()
        spent = Decision(action="", attempts=0)
        for _ in range(MAX_REQUESTS_PER_STEP):
            request = dialogue.request()
            if request.finish_reason:
                error = request.note or request.finish_reason
                return _with_usage(spent, Decision(action="", error=error, finish_reason=request.finish_reason))
            decision, content = self._send(request)
            decision = _with_usage(spent, decision)
            if decision.error or decision.finish_reason:
                return replace(decision, latency_s=time.perf_counter() - started)
            reading = dialogue.read(content)
            if not reading.again:
                return replace(self._decide(reading, content, decision), latency_s=time.perf_counter() - started)
            spent = decision
        return replace(spent, error="too_many_thoughts", latency_s=time.perf_counter() - started)

    def _send(self, request: Request) -> tuple[Decision, str | None]:
        """One request with retries: a decision carrying the usage (or the error) and the reply text."""
        import openai
        import tenacity
        from openai.types.chat import ChatCompletion

        retrying = tenacity.Retrying(
            retry=tenacity.retry_if_exception(_retryable),
            stop=tenacity.stop_after_attempt(self.config.max_retries + 1),
            wait=tenacity.wait_exponential(multiplier=self.backoff_s, max=self.max_backoff_s),
            sleep=self._sleep_jittered,
        )
        settings: dict[str, Any] = {
            "temperature": self.config.temperature if request.temperature is None else request.temperature,
            "max_tokens": self.config.max_tokens if request.max_tokens is None else request.max_tokens,
        }
        if request.stop is not None:
            settings["stop"] = request.stop
        body = {"model": self.config.model, "messages": request.messages, **settings}
        try:
            # The client's low-level post: ``chat.completions.create`` would walk the whole body through the
            # client's parameter types on every request (the runner's largest CPU cost per step); these messages
            # are plain strings, which the walk leaves as they are.
            response = retrying(self.client.post, "/chat/completions", body=body, cast_to=ChatCompletion)
        except tenacity.RetryError as exhausted:
            return Decision(
                action="",
                error=f"retries_exhausted:{_failure_name(exhausted.last_attempt.exception())}",
                attempts=exhausted.last_attempt.attempt_number,
                finish_reason=FinishReason.AGENT_ERROR.value,
            ), None
        except openai.APIStatusError as error:
            attempts = retrying.statistics["attempt_number"]
            if is_context_error(error.status_code, str(error)):
                return Decision(action="", error="context_limit", finish_reason=CONTEXT_LIMIT, attempts=attempts), None
            return Decision(action="", error=_failure_name(error), attempts=attempts), None
        except Exception as error:  # a body the client cannot read: a malformed reply
            logger.warning("unreadable reply from %s: %s: %s", self.endpoint, type(error).__name__, error)
            return Decision(
                action="",
                error=f"invalid_format:{type(error).__name__}",
                attempts=retrying.statistics["attempt_number"],
            ), None
        usage = getattr(response, "usage", None)
        try:
            content = response.choices[0].message.content
        except Exception:
            content = None
        decision = Decision(
            action="",
            reply=content if isinstance(content, str) else None,
            prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            attempts=retrying.statistics["attempt_number"],
        )
        return decision, content if isinstance(content, str) else None

    def _sleep_jittered(self, delay: float) -> None:
        """Sleep x0.5 to x1 of the backoff ``delay`` (seeded jitter, drawn only when a retry waits)."""
        self._sleep(delay * (0.5 + 0.5 * self._jitter.random()))

    @staticmethod
    def _decide(reading: Reading, content: str | None, sent: Decision) -> Decision:
        if reading.finish_reason:
            return replace(sent, error=reading.note, finish_reason=reading.finish_reason, thought=reading.thought)
        if reading.action is None:
            return replace(sent, error="invalid_format", thought=reading.thought)
        return replace(sent, action=reading.action, reply=content, thought=reading.thought)


def _with_usage(before: Decision, after: Decision) -> Decision:
    """``after`` with the tokens and attempts of the requests before it in the same step added."""
    return replace(
        after,
        prompt_tokens=before.prompt_tokens + after.prompt_tokens,
        completion_tokens=before.completion_tokens + after.completion_tokens,
        attempts=before.attempts + after.attempts,
    )
