"""The DB expert: the gold SQL, then the gold answer; from a changed table, it restores the gold content first.

From any state: a question task runs the gold query (unless it already ran) and then answers with the gold
result. A modification task whose table is at its start runs the gold statement; a table the agent changed in
another way is rebuilt (recreated if dropped or altered, emptied, refilled with the gold rows in one INSERT).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agentgym_text.envs.db.actions import answer, operation
from agentgym_text.envs.db.engine import content_hash, create_statement, quote, sql_literal

__all__ = ["expert_action", "agentbench_expert_action"]


def expert_action(
    params: dict[str, Any],
    modification: bool,
    gold_ran: bool,
    current: Sequence[Sequence] | None,
    table_exists: bool,
    gold_table: Sequence[Sequence],
) -> str:
    """The next action (see the module docstring)."""
    if not modification:
        return answer(params["answer"]) if gold_ran else operation(params["sql"])
    table = params["table"]
    if current is not None and content_hash(current) == params["gold_hash"]:
        return answer(["done"])
    if current is not None and content_hash(current) == content_hash(table["rows"]):
        return operation(params["sql"])
    if current is None:
        if table_exists:
            return operation(f"DROP TABLE {quote(table['name'])}")
        return operation(create_statement(table))
    if current:
        return operation(f"DELETE FROM {quote(table['name'])}")
    values = ", ".join("(" + ", ".join(sql_literal(v) for v in row) + ")" for row in gold_table)
    return operation(f"INSERT INTO {quote(table['name'])} VALUES {values}")


def agentbench_expert_action(
    params: dict[str, Any],
    modification: bool,
    digest: str | None,
    current: Sequence[Sequence] | None,
    gold_table: Sequence[Sequence],
) -> str:
    """The expert on AgentBench's items: a question is answered with its label; a modification runs the gold
    statement from the start table, or rebuilds the gold table's rows from any other state, then answers."""
    if not modification:
        return answer(params["answer"])
    if digest == params["answer_md5"]:
        return answer(["done"])
    table = params["table"]
    name = "`" + table["name"].replace("`", "``") + "`"
    if current is not None and content_hash(current) == content_hash(table["rows"]):
        return operation(params["sql"])
    if current:
        return operation(f"DELETE FROM {name}")
    values = ", ".join("(" + ", ".join(sql_literal(v) for v in row) + ")" for row in gold_table)
    return operation(f"INSERT INTO {name} VALUES {values}")
