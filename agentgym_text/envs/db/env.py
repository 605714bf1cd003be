"""``AgentBench/DB-v0``: answer a question about a table, or change the table, with SQL on SQLite."""

from __future__ import annotations

from typing import Any

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import FinishReason, InvalidReason
from agentgym_text.core.progress import Progress
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.db.actions import answer, operation, parse_action
from agentgym_text.envs.db.engine import Database, content_hash, quote
from agentgym_text.envs.db.expert import expert_action
from agentgym_text.envs.db.postgres import PostgresDatabase
from agentgym_text.envs.db.questions import MODIFICATION_TYPES
from agentgym_text.envs.db.scoring import answer_correct, result_match, table_progress
from agentgym_text.envs.db.tasks import TASK_COUNT, make_tasks

__all__ = ["DbEnv", "BEFORE_ANSWER"]

BEFORE_ANSWER = 0.9
"""Progress is capped at this share until the answer is committed: 1.0 only for a correct answer."""


class DbEnv(TextEnv):
    """SQL on a fresh in-memory SQLite database per episode, in AgentBench's DB format.

    Progress: for questions, the row/column match score of the latest query result against the gold result;
    for insert/update/delete, how far the table moved from its start to the gold content; both times
    ``BEFORE_ANSWER`` of it until the answer, 1.0 on a correct answer. ``strict=True`` ends the episode on a
    format error, as AgentBench does (finish reason ``invalid_format``). ``db_url`` (a PostgreSQL DSN, e.g.
    ``postgresql://user@localhost/scratch``) runs episodes on that server instead (see ``postgres.py``).

    >>> env = DbEnv()
    >>> obs, info = env.reset(options={"task_index": 3})
    >>> while not env.episode_over:
    ...     obs, reward, terminated, truncated, info = env.step(env.expert_action())
    >>> info["success"], info["progress_rate"]
    (True, 1.0)
    """

    cheap_admissible_actions = True
    unwrap_actions = False
    action_format = (
        "'Action: Operation' with one SQL statement in a ```sql block, or 'Action: Answer' with 'Final Answer: [...]'"
    )
    action_example = "Action: Operation ```sql SELECT * FROM table; ```"

    def __init__(self, num_tasks: int = TASK_COUNT, strict: bool = False, db_url: str | None = None, **kwargs: Any):
        super().__init__(make_tasks(num_tasks), **kwargs)
        self.strict = strict
        self.db_url = db_url or None
        self._db: Any = None
        self._params: dict[str, Any] = {}
        self._modification = False
        self._latest_rows: list[tuple] | None = None
        self._gold_ran = False
        self._answered_right = False
        self._gold_table: list[tuple] = []

    def _start(self, task: TaskSpec, seed: int) -> Start:
        if self._db is not None:
            self._db.close()
        self._params = dict(task.params)
        self._db = (
            Database(self._params["table"])
            if self.db_url is None
            else PostgresDatabase(self._params["table"], self.db_url)
        )
        self._modification = self._params["qtype"] in MODIFICATION_TYPES
        self._latest_rows = None
        self._gold_ran = False
        self._answered_right = False
        self._gold_table = []
        if self._modification:
            scratch = Database(self._params["table"])
            scratch.run(self._params["sql"])
            self._gold_table = scratch.table_rows() or []
            scratch.close()
        return Start(observation=task.goal, goal=task.goal)

    def _act(self, action: str) -> Outcome:
        assert self._db is not None
        try:
            parsed = parse_action(action)
        except ActionError as error:
            if not self.strict:
                raise
            return Outcome(
                observation=f"{error} The episode ends (invalid format).",
                valid=False,
                invalid_reason=error.reason.value,
                terminated=True,
                finish_reason=FinishReason.INVALID_FORMAT.value,
            )
        if parsed.kind == "answer":
            return self._answer(parsed.answer)
        result = self._db.run(parsed.sql)
        if result.error is not None:
            return Outcome.invalid(result.error, InvalidReason.BAD_ARGUMENT)
        if result.is_query:
            self._latest_rows = result.rows
        if parsed.sql.strip().rstrip(";").strip() == self._params["sql"]:
            self._gold_ran = True
        return Outcome(observation=result.text())

    def _answer(self, values: tuple) -> Outcome:
        assert self._db is not None
        if self._modification:
            right = content_hash(self._db.table_rows()) == self._params["gold_hash"]
        else:
            right = answer_correct(values, self._params["answer"], self._params["ordered"])
        self._answered_right = right
        text = "Your answer is correct." if right else "Your answer is wrong."
        return Outcome(observation=text, terminated=True, success=right)

    def _progress(self) -> Progress:
        if self._answered_right:
            return Progress(now=1.0)
        if self._db is None:
            return Progress(now=0.0)
        if self._modification:
            score = table_progress(self._db.table_rows(), self._params["table"]["rows"], self._gold_table)
        elif self._latest_rows is None:
            score = 0.0
        else:
            score = result_match(self._latest_rows, self._params["gold_rows"], self._params["ordered"])
        return Progress(now=BEFORE_ANSWER * score)

    def _admissible_actions(self) -> list[str]:
        table = self._params["table"]
        name = quote(table["name"])
        actions = [operation(f"SELECT * FROM {name}"), operation(f"SELECT COUNT(*) FROM {name}")]
        for (column, _), kind in zip(table["columns"], table["kinds"]):
            col = quote(column)
            if kind == "cat":
                actions.append(operation(f"SELECT DISTINCT {col} FROM {name}"))
            elif kind in ("int", "real"):
                key = quote(table["columns"][0][0])
                actions.append(operation(f"SELECT MAX({col}) FROM {name}"))
                actions.append(operation(f"SELECT {key} FROM {name} ORDER BY {col} DESC LIMIT 1"))
        if self._latest_rows is not None:
            actions.append(answer([value for row in self._latest_rows[:20] for value in row]))
        return actions

    def _help_text(self) -> str:
        return (
            "Valid actions: run one SQL statement with\nAction: Operation\n```sql\nSELECT * FROM table;\n```\n"
            'or commit your answer with\nAction: Answer\nFinal Answer: ["ANSWER1", "ANSWER2", ...]\n'
            "For insert/update/delete questions, answer with anything once the table is changed. "
            "Examples: " + " | ".join(self._admissible_actions()[:3]).replace("\n", " ")
        )

    def _expert_action(self) -> str:
        assert self._db is not None
        return expert_action(
            self._params,
            self._modification,
            self._gold_ran,
            self._db.table_rows(),
            self._db.table_exists(),
            self._gold_table,
        )

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        super().close()
