"""Reading AgentBench's DB actions: ``Action: Operation`` with one SQL statement, or ``Action: Answer``.

Accepted forms (AgentBench's first, then lenient ones an LLM produces):

- ``Action: Operation`` followed by a ```sql code block (the first block is run, as in AgentBench);
- a ```sql code block alone, or a bare statement starting with a SQL keyword (``SELECT ...``);
- ``Action: Answer`` followed by ``Final Answer: [...]`` (a JSON or Python list literal; a bare value is a
  one-element list), or the ``Final Answer:`` line alone.

>>> parse_action("Action: Operation\\n```sql\\nSELECT * FROM t;\\n```")
DbAction(kind='sql', sql='SELECT * FROM t;', answer=())
>>> parse_action('Action: Answer\\nFinal Answer: ["Lisbon", 3]')
DbAction(kind='answer', sql='', answer=('Lisbon', 3))
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import InvalidReason

__all__ = ["DbAction", "parse_action", "operation", "answer", "SQL_KEYWORDS"]

SQL_KEYWORDS = frozenset(
    {
        "select",
        "with",
        "insert",
        "update",
        "delete",
        "replace",
        "create",
        "drop",
        "alter",
        "pragma",
        "explain",
        "values",
        "attach",
        "detach",
        "vacuum",
        "begin",
        "commit",
        "rollback",
        "savepoint",
        "release",
        "reindex",
        "analyze",
    }
)
_FENCE = re.compile(r"```[ \t]*(?:sql|sqlite|mysql|postgresql)?[ \t]*\n?(.*?)```", re.IGNORECASE | re.DOTALL)
_OPERATION = re.compile(r"action\s*[:：]\s*\**\s*operation\b", re.IGNORECASE)
_ANSWER = re.compile(r"final\s+answer\s*[:：]\s*(.*)", re.IGNORECASE | re.DOTALL)
_ANSWER_AS_SENT = re.compile(r"Final Answer:(.*)")
_ANSWER_MARK = re.compile(r"action\s*[:：]\s*\**\s*answer\b", re.IGNORECASE)
_MAX_ANSWER_CHARS = 20_000


@dataclass(frozen=True)
class DbAction:
    kind: str  # "sql" or "answer"
    sql: str = ""
    answer: tuple = ()
    answer_text: str = field(default="", repr=False)
    """The rest of the ``Final Answer:`` line as sent (AgentBench v0.2 scores this text)."""


def operation(sql: str) -> str:
    """The action text that runs ``sql`` (AgentBench's format)."""
    return f"Action: Operation\n```sql\n{sql}\n```"


def answer(values: list) -> str:
    """The action text that commits ``values`` as the final answer."""
    return "Action: Answer\nFinal Answer: " + json.dumps(list(values), ensure_ascii=False)


def _answer_values(text: str) -> tuple:
    body = text.strip().splitlines()[0].strip() if text.strip() else ""
    if not body:
        raise ActionError(
            '\'Final Answer:\' is empty; write e.g. Final Answer: ["value1", "value2"].', InvalidReason.UNPARSABLE
        )
    if len(body) > _MAX_ANSWER_CHARS:
        raise ActionError("The final answer is too long.", InvalidReason.UNPARSABLE)
    if body[0] == "[":
        for reader in (json.loads, ast.literal_eval):  # literal_eval reads literals only, never code
            try:
                value = reader(body)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                continue
            if isinstance(value, list):
                return tuple(_scalar(item) for item in value)
        raise ActionError(
            'The final answer looks like a list but cannot be read; use a JSON list such as ["Lisbon", 3].',
            InvalidReason.UNPARSABLE,
        )
    return (_scalar(body.strip("'\"")),)


def _scalar(value: object) -> object:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_scalar(item)) for item in value)
    if isinstance(value, (str, int, float)) or value is None:
        return value
    return str(value)


def parse_action(text: str) -> DbAction:
    """The action in ``text``; raises ``ActionError`` with a hint when there is none."""
    if _OPERATION.search(text) or "```" in text:
        fence = _FENCE.search(text)
        if fence and fence.group(1).strip():
            return DbAction("sql", sql=fence.group(1).strip())
        if _OPERATION.search(text):
            rest = text[_OPERATION.search(text).end() :].strip()  # type: ignore[union-attr]
            if _first_word(rest) in SQL_KEYWORDS:
                return DbAction("sql", sql=rest)
        raise ActionError("Action: Operation needs one SQL statement in a ```sql code block.", InvalidReason.UNPARSABLE)
    final = _ANSWER.search(text)
    if final:
        exact = _ANSWER_AS_SENT.search(text)
        line = exact.group(1) if exact else " " + final.group(1).strip().partition("\n")[0]
        return DbAction("answer", answer=_answer_values(final.group(1)), answer_text=line)
    if _ANSWER_MARK.search(text):
        raise ActionError("Action: Answer needs a line 'Final Answer: [...]'.", InvalidReason.UNPARSABLE)
    if _first_word(text) in SQL_KEYWORDS:
        return DbAction("sql", sql=text.strip())
    raise ActionError(
        "Unreadable action. Either run SQL:\nAction: Operation\n```sql\nSELECT * FROM table;\n```\n"
        'or answer:\nAction: Answer\nFinal Answer: ["ANSWER1", "ANSWER2"]',
        InvalidReason.UNPARSABLE,
    )


def _first_word(text: str) -> str:
    match = re.match(r"\s*([A-Za-z]+)", text)
    return match.group(1).lower() if match else ""
