"""``AgentBench/DB-v0``: answer a question about a table, or change the table, with SQL on SQLite."""

from __future__ import annotations

from typing import Any

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import FinishReason, InvalidReason
from agentgym_text.core.progress import Progress
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.db.actions import answer, operation, parse_action
from agentgym_text.envs.db.agentbench_file import MODIFICATIONS, load_task_file
from agentgym_text.envs.db.engine import Database, Result, content_hash, quote
from agentgym_text.envs.db.expert import agentbench_expert_action, expert_action
from agentgym_text.envs.db.mysql_dialect import SqliteAsMysql, mysql_table, table_md5
from agentgym_text.envs.db.postgres import PostgresDatabase
from agentgym_text.envs.db.questions import MODIFICATION_TYPES
from agentgym_text.envs.db.scoring import (
    agentbench_answer_correct,
    answer_correct,
    fc_answer_correct,
    result_match,
    table_progress,
    values_f1,
)
from agentgym_text.envs.db.tasks import DEFAULT_TRAIN_COUNT, MAX_STEPS, TASK_COUNT, make_tasks, training_tasks

__all__ = ["DbEnv", "BEFORE_ANSWER", "PROTOCOLS", "SPLITS", "AGENTBENCH_RESULT_CHARS", "SQL_RESULT"]

BEFORE_ANSWER = 0.9
"""Progress is capped at this share until the answer is committed: 1.0 only for a correct answer."""
SPLITS = ("test", "train")
"""The shipped 300 tasks, or the training tasks (``tasks.training_tasks``: other seeds, no shipped table)."""
PROTOCOLS = ("v0.2", "fc")
"""How AgentBench's items are scored: v0.2 (the paper's release and leaderboard) or the later FC release."""
AGENTBENCH_RESULT_CHARS = 800
"""AgentBench cuts a statement's printed result here and appends ``[TRUNCATED]``."""
SQL_RESULT = "sql_result"
"""Step info after a statement ran: its result as AgentBench prints it (the error text, else ``str`` of the fetched
rows; cut at ``AGENTBENCH_RESULT_CHARS`` + ``[TRUNCATED]``), whatever the observation's wording (the ``agentbench``
agent protocol shows this)."""


def _printed(result: Result) -> str:
    text = result.error if result.error is not None else str(result.rows)
    return text[:AGENTBENCH_RESULT_CHARS] + "[TRUNCATED]" if len(text) > AGENTBENCH_RESULT_CHARS else text


def _backquote(identifier: str) -> str:
    return "`" + identifier.replace("`", "``") + "`"


class DbEnv(TextEnv):
    """SQL on a fresh in-memory SQLite database per episode, in AgentBench's DB format.

    Progress: for questions, the row/column match score of the latest query result against the gold result;
    for insert/update/delete, how far the table moved from its start to the gold content; both times
    ``BEFORE_ANSWER`` of it until the answer, 1.0 on a correct answer. ``strict=True`` ends the episode on a
    format error, as AgentBench does (finish reason ``invalid_format``). ``db_url`` (a PostgreSQL DSN, e.g.
    ``postgresql://user@localhost/scratch``) runs episodes on that server instead (see ``postgres.py``).
    ``split="train"`` gives ``num_tasks`` (default 1,000) training tasks from the same generator on other seeds,
    none with a shipped task's table or question.

    ``task_file`` plays AgentBench's own items (``data/dbbench/standard.jsonl``, ``dev.jsonl``; see
    ``agentbench_file.py``) as AgentBench scores them: every column TEXT, a modification right when AgentBench's md5
    table hash equals the item's ``answer_md5``, a question's answer checked by ``protocol`` ("v0.2": AgentBench
    v0.2's check; "fc": the FC release's normalised check), results printed as AgentBench prints them (cut at 800
    characters + ``[TRUNCATED]``). They run on SQLite emulating MySQL (``mysql_dialect.py``) or, with
    ``db_url="mysql://user:password@host/"``, on a MySQL or MariaDB server (``mysql.py``), AgentBench's engine.
    Progress: a question's latest result against the answer values (F1), a modification's table against the gold
    statement's table, each ``BEFORE_ANSWER`` of it until the answer.

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

    def __init__(
        self,
        num_tasks: int | None = None,
        strict: bool = False,
        split: str = "test",
        db_url: str | None = None,
        task_file: str | None = None,
        protocol: str = "v0.2",
        **kwargs: Any,
    ):
        if protocol not in PROTOCOLS:
            raise ValueError(f"protocol must be one of {PROTOCOLS}, not {protocol!r}")
        if split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
        self.db_url = db_url or None
        self.protocol = protocol
        self.from_file = bool(task_file)
        if self.from_file:
            if num_tasks is not None or split != "test":
                raise ValueError(
                    "num_tasks= and split= choose among the generated tasks; with task_file= every item of the file "
                    "is a task"
                )
            if self.db_url is not None and not self.db_url.startswith(("mysql://", "mariadb://")):
                raise ValueError(
                    "AgentBench's items run on SQLite (emulating MySQL) or on MySQL/MariaDB: "
                    "db_url='mysql://user:password@host[:port]/'"
                )
            tasks = load_task_file(str(task_file), MAX_STEPS)
        else:
            if protocol != "v0.2":
                raise ValueError("protocol= chooses how AgentBench's own items are scored: it needs task_file=")
            if self.db_url is not None and self.db_url.startswith(("mysql://", "mariadb://")):
                raise ValueError(
                    "the shipped tasks run on SQLite or PostgreSQL; mysql:// plays AgentBench's items (task_file=)"
                )
            if split == "train":
                tasks = training_tasks(DEFAULT_TRAIN_COUNT if num_tasks is None else num_tasks)
            else:
                tasks = make_tasks(TASK_COUNT if num_tasks is None else num_tasks)
        super().__init__(tasks, **kwargs)
        self.strict = strict
        self._quote = _backquote if self.from_file else quote
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
        self._db = self._open(self._params["table"])
        self._modification = self._params["qtype"] in (MODIFICATIONS if self.from_file else MODIFICATION_TYPES)
        self._latest_rows = None
        self._gold_ran = False
        self._answered_right = False
        self._gold_table = []
        if self._modification:
            scratch = (
                SqliteAsMysql(mysql_table(self._params["table"])) if self.from_file else Database(self._params["table"])
            )
            scratch.run(self._params["sql"])
            self._gold_table = scratch.table_rows() or []
            scratch.close()
        return Start(observation=task.goal, goal=task.goal)

    def _open(self, table: dict[str, Any]) -> Any:
        if self.from_file:
            if self.db_url is None:
                return SqliteAsMysql(mysql_table(table))
            from agentgym_text.envs.db.mysql import MySQLDatabase

            return MySQLDatabase(table, self.db_url)
        return Database(table) if self.db_url is None else PostgresDatabase(table, self.db_url)

    def _result_text(self, result: Result) -> str:
        return _printed(result) if self.from_file else result.text()

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
            return self._answer(parsed.answer, parsed.answer_text)
        result = self._db.run(parsed.sql)
        printed = {SQL_RESULT: _printed(result)}
        if result.error is not None:
            outcome = Outcome.invalid(self._result_text(result), InvalidReason.BAD_ARGUMENT)
            outcome.info = printed
            return outcome
        if result.is_query:
            self._latest_rows = result.rows
        if parsed.sql.strip().rstrip(";").strip() == self._params["sql"].strip().rstrip(";").strip():
            self._gold_ran = True
        return Outcome(observation=self._result_text(result), info=printed)

    def _table_md5(self) -> str | None:
        assert self._db is not None
        if hasattr(self._db, "table_md5"):
            return self._db.table_md5()
        return table_md5(self._db.table_rows())

    def _answer(self, values: tuple, answer_text: str) -> Outcome:
        assert self._db is not None
        if self.from_file and self._modification:
            right = self._table_md5() == self._params["answer_md5"]
        elif self.from_file:
            right = (
                agentbench_answer_correct(answer_text, self._params["answer"])
                if self.protocol == "v0.2"
                else fc_answer_correct(values, self._params["answer"])
            )
        elif self._modification:
            right = content_hash(self._db.table_rows()) == self._params["gold_hash"]
        else:
            right = answer_correct(values, self._params["answer"], self._params["ordered"])
        self._answered_right = right
        text = "Your answer is correct." if right else "Your answer is wrong."
        return Outcome(observation=text, terminated=True, success=right)

    def judge_as_ended(self) -> bool:
        """AgentBench v0.2 scores an INSERT/UPDATE/DELETE item by the table's hash however its episode ended (no
        answer, a reply it could not read, the round limit)."""
        return bool(
            self.from_file
            and self._modification
            and self.protocol == "v0.2"
            and self._db is not None
            and self._table_md5() == self._params["answer_md5"]
        )

    def _progress(self) -> Progress:
        if self._answered_right:
            return Progress(now=1.0)
        if self._db is None:
            return Progress(now=0.0)
        if self._modification:
            score = table_progress(self._db.table_rows(), self._params["table"]["rows"], self._gold_table)
        elif self._latest_rows is None:
            score = 0.0
        elif self.from_file:
            score = values_f1([value for row in self._latest_rows for value in row], self._params["answer"])
        else:
            score = result_match(self._latest_rows, self._params["gold_rows"], self._params["ordered"])
        return Progress(now=BEFORE_ANSWER * score)

    def _admissible_actions(self) -> list[str]:
        table = self._params["table"]
        quote = self._quote
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
        if self.from_file:
            return agentbench_expert_action(
                self._params, self._modification, self._table_md5(), self._db.table_rows(), self._gold_table
            )
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
