"""Reading one action (and an optional thought) out of a model's free-form reply."""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentgym_text.core.actions import unwrap_action

__all__ = ["ParsedReply", "parse_reply", "MAX_ACTION_LINE"]

MAX_ACTION_LINE = 300
"""A bare first line longer than this is prose, not an action."""

_THINK_BLOCK = re.compile(r"<think>.*?(</think>|$)", re.IGNORECASE | re.DOTALL)
_ACTION_MARK = re.compile(r"^[\s>*#_`-]*action\s*(?:\d+\s*)?[:：]\s*", re.IGNORECASE | re.MULTILINE)
_THOUGHT_MARK = re.compile(
    r"^[\s>*#_`-]*(?:thought|think|reasoning)\s*(?:\d+\s*)?[:：]\s*", re.IGNORECASE | re.MULTILINE
)
_LEAD_IN = re.compile(r"^(?:next action|my action|i will|i choose|answer)\s*[:：-]?\s*", re.IGNORECASE)


@dataclass(frozen=True)
class ParsedReply:
    """``action`` is None when no action could be read (the runner counts that as an invalid format)."""

    action: str | None
    thought: str | None = None


def _first_line(text: str) -> str:
    for line in text.splitlines():
        line = unwrap_action(line)
        if line and line.strip("`") and not line.lower().startswith(("```", "thought")):
            return line
    return ""


def parse_reply(text: object, react: bool = False, whole: bool = False) -> ParsedReply:
    """One action from ``text``: the line after the first ``Action:`` marker, else (not ReAct) the first line.

    ``whole=True`` is for envs that read a whole reply themselves (AgentBench's DB and KG formats put a code
    block under ``Action: Operation``): the action is the reply without ``<think>`` blocks.

    >>> parse_reply("Thought: try low digits.\\nAction: guess 0123")
    ParsedReply(action='guess 0123', thought='try low digits.')
    >>> parse_reply("go to red ball 1\\nThen I will pick it up.").action
    'go to red ball 1'
    >>> parse_reply("I think we should look around first.", react=True).action is None
    True
    >>> parse_reply("**Action:** `take apple`").action
    'take apple'
    """
    if not isinstance(text, str):
        return ParsedReply(None)
    body = _THINK_BLOCK.sub("", text).replace("\r\n", "\n").strip()
    if not body:
        return ParsedReply(None)
    if whole:
        return ParsedReply(body)
    thought = None
    thought_match = _THOUGHT_MARK.search(body)
    action_match = _ACTION_MARK.search(body)
    if thought_match and (action_match is None or thought_match.start() < action_match.start()):
        end = action_match.start() if action_match else len(body)
        thought = body[thought_match.end() : end].strip() or None
    if action_match:
        rest = body[action_match.end() :]
        action = _first_line(rest)
        return ParsedReply(action or None, thought)
    if react:
        return ParsedReply(None, thought)
    line = _LEAD_IN.sub("", _first_line(body)).strip()
    if not line or len(line) > MAX_ACTION_LINE or not any(ch.isalnum() for ch in line):
        return ParsedReply(None, thought)
    return ParsedReply(line, thought)
