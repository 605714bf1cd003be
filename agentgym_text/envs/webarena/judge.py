"""The optional LLM judge of ``fuzzy_match`` answers (WebArena asks a chat model), through the ``openai`` client.

``make_judge(model, base_url, api_key)`` returns the ``llm`` callable the evaluators take: chat messages in,
the reply text out, temperature 0. Any OpenAI-compatible server works (``base_url``, or ``OPENAI_BASE_URL``).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from agentgym_text.core.registry import MissingDependency

__all__ = ["make_judge"]


def make_judge(
    model: str, base_url: str | None = None, api_key: str | None = None, timeout: float = 60.0
) -> Callable[[list[dict]], str]:
    """A callable ``messages -> reply text`` on ``model`` (an OpenAI-compatible chat endpoint)."""
    try:
        import openai
    except ModuleNotFoundError as error:
        raise MissingDependency("an LLM judge needs the 'llm' extra: pip install 'agentgym-text[llm]'") from error
    client = openai.OpenAI(
        base_url=base_url or os.environ.get("OPENAI_BASE_URL") or None,
        api_key=api_key or os.environ.get("OPENAI_API_KEY") or "none",
        timeout=timeout,
    )

    def judge(messages: list[dict]) -> str:
        reply = client.chat.completions.create(model=model, messages=messages, temperature=0)
        return reply.choices[0].message.content or ""

    return judge
