"""The tool expert: the task's golden calls in order (those the agent has already made count), then ``finish``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agentgym_text.envs.tools.actions import Call

__all__ = ["next_call"]


def next_call(golden: Sequence[Call], done: int, answer: Any) -> Call:
    """The next golden call after the first ``done`` ones, then the finishing call with the answer.

    >>> next_call([Call("get_weather", {"city": "Oslo"})], 1, 3.5).text()
    'finish with Action Input: {"answer": 3.5}'
    """
    if done < len(golden):
        return golden[done]
    return Call("finish", {"answer": answer})
