"""AgentBench/DB-v0: SQL on SQLite in AgentBench's format."""

import json
import time
from collections import Counter

import pytest

import agentgym_text  # noqa: F401  (registers the ids)
from agentgym_text.envs.db.actions import answer, operation, parse_action
from agentgym_text.envs.db.env import BEFORE_ANSWER, DbEnv
from agentgym_text.envs.db.tasks import TASK_COUNT, make_tasks

ALL_TASK_IDS = make_tasks().task_ids
SAMPLE = ALL_TASK_IDS[::15]  # 20 tasks, every question type


@pytest.fixture(scope="module")
def env():
    made = DbEnv()
    yield made
    made.close()


def _task_index(qtype: str, nth: int = 0) -> int:
    return [i for i, t in enumerate(make_tasks()) if t.params["qtype"] == qtype][nth]


def test_task_set_has_300_tasks_of_every_type_and_is_deterministic():
    tasks = make_tasks()
    assert len(tasks) == TASK_COUNT == 300
    types = Counter(t.params["qtype"] for t in tasks)
    assert set(types) == {"select", "aggregate", "count", "rank", "insert", "update", "delete"}
    assert min(types.values()) >= 30
    make_tasks.cache_clear()
    again = make_tasks()

    def dump(task_set):
        return [json.dumps(t.params, sort_keys=True) for t in task_set]

    assert dump(again) == dump(tasks)
    assert {t.difficulty for t in tasks} == {"easy", "hard"}


def test_progress_is_zero_at_start_and_capped_until_the_answer(env):
    index = _task_index("rank")
    obs, info = env.reset(options={"task_index": index})
    assert info["progress_rate"] == 0.0 and info["progress_now"] == 0.0
    sql = env.current_task.params["sql"]
    obs, reward, terminated, truncated, info = env.step(operation(sql))
    assert info["valid"] and not terminated
    assert info["progress_rate"] == pytest.approx(BEFORE_ANSWER)
    obs, reward, terminated, truncated, info = env.step(answer(env.current_task.params["answer"]))
    assert terminated and info["success"] and info["progress_rate"] == 1.0


def test_partial_result_earns_partial_progress(env):
    index = next(
        i for i, t in enumerate(make_tasks()) if t.params["qtype"] == "select" and len(t.params["answer"]) >= 3
    )
    env.reset(options={"task_index": index})
    table = env.current_task.params["table"]
    obs, reward, terminated, truncated, info = env.step(operation(f'SELECT * FROM "{table["name"]}"'))
    assert 0.0 < info["progress_now"] < BEFORE_ANSWER


def test_wrong_answer_ends_the_episode_as_failure(env):
    env.reset(options={"task_index": _task_index("count")})
    obs, reward, terminated, truncated, info = env.step('Action: Answer\nFinal Answer: ["-12345"]')
    assert terminated and not info["success"] and info["finish_reason"] == "failure"
    assert "wrong" in obs


def test_answers_are_order_insensitive_unless_the_question_orders_them(env):
    unordered = next(
        i
        for i, t in enumerate(make_tasks())
        if t.params["qtype"] == "select" and len(set(map(str, t.params["answer"]))) >= 2
    )
    env.reset(options={"task_index": unordered})
    _, _, _, _, info = env.step(answer(list(reversed(env.current_task.params["answer"]))))
    assert info["success"]
    ordered = next(i for i, t in enumerate(make_tasks()) if t.params["ordered"])
    env.reset(options={"task_index": ordered})
    _, _, _, _, info = env.step(answer(list(reversed(env.current_task.params["answer"]))))
    assert not info["success"]


def test_modification_is_checked_by_table_content(env):
    index = _task_index("update")
    env.reset(options={"task_index": index})
    _, _, _, _, info = env.step('Action: Answer\nFinal Answer: ["done"]')  # nothing changed yet
    assert not info["success"]
    env.reset(options={"task_index": index})
    _, _, _, _, info = env.step(operation(env.current_task.params["sql"]))
    assert info["valid"] and info["progress_rate"] == pytest.approx(BEFORE_ANSWER)
    _, _, terminated, _, info = env.step('Action: Answer\nFinal Answer: ["anything"]')
    assert terminated and info["success"]


@pytest.mark.parametrize("qtype", ["insert", "update", "delete"])
def test_expert_repairs_a_table_the_agent_damaged(env, qtype):
    env.reset(options={"task_index": _task_index(qtype)})
    name = env.current_task.params["table"]["name"]
    env.step(operation(f'DELETE FROM "{name}" WHERE rowid % 2 = 0'))
    env.step(operation(f'ALTER TABLE "{name}" ADD COLUMN junk TEXT'))
    steps = 0
    while not env.episode_over and steps < 10:
        _, _, _, _, info = env.step(env.expert_action())
        steps += 1
    assert info["success"] and info["progress_rate"] == 1.0


def test_expert_answers_a_question_after_the_agent_changed_the_data(env):
    env.reset(options={"task_index": _task_index("count")})
    name = env.current_task.params["table"]["name"]
    env.step(operation(f'DELETE FROM "{name}"'))
    while not env.episode_over:
        _, _, _, _, info = env.step(env.expert_action())
    assert info["success"]


@pytest.mark.parametrize(
    "action",
    [
        "",
        "   ",
        "hello there",
        "x" * 50_000,
        "Action: Operation\nno sql here",
        "Action: Answer",
        "Final Answer: [1, 2",
        "'; DROP TABLE tasks; --",
        '{"sql": "SELECT 1"}',
        "Action: Operation\n```sql\n```",
    ],
)
def test_bad_input_is_invalid_with_a_message_never_an_exception(env, action):
    env.reset(options={"task_index": 0})
    obs, reward, terminated, truncated, info = env.step(action)
    assert info["valid"] is False and not terminated and len(obs) > 10


def test_bad_sql_returns_the_engine_error_as_an_invalid_action(env):
    env.reset(options={"task_index": 0})
    obs, _, terminated, _, info = env.step(operation("SELEC name FROM nowhere"))
    assert not info["valid"] and info["invalid_reason"] == "bad_argument" and not terminated
    assert "syntax error" in obs
    obs, _, _, _, info = env.step(operation("SELECT * FROM no_such_table"))
    assert "no such table" in obs and not info["valid"]
    obs, _, _, _, info = env.step(operation("SELECT 1; SELECT 2"))
    assert "one statement" in obs and not info["valid"]


def test_statements_reaching_outside_the_episode_are_refused(env, tmp_path):
    env.reset(options={"task_index": 0})
    target = tmp_path / "escape.db"
    for sql in (
        f"ATTACH DATABASE '{target}' AS other",
        "SELECT load_extension('/usr/lib/x.so')",
        "PRAGMA journal_mode = WAL",
        "PRAGMA writable_schema = 1",
        f"VACUUM INTO '{target}'",
        f"/* hidden */ VACUUM INTO '{target}'",
        "DETACH DATABASE main",
    ):
        obs, _, _, _, info = env.step(operation(sql))
        assert not info["valid"], sql
        assert "not authorized" in obs or "not allowed" in obs or "cannot" in obs.lower(), obs
    assert not target.exists() and list(tmp_path.iterdir()) == []
    obs, _, _, _, info = env.step(operation("PRAGMA table_info(employees)"))
    assert info["valid"]


def test_a_statement_cannot_make_a_huge_string(env):
    env.reset(options={"task_index": 0})
    for sql in ("SELECT length(randomblob(50000000))", "SELECT length(zeroblob(50000000))"):
        obs, _, terminated, _, info = env.step(operation(sql))
        assert not info["valid"] and not terminated, sql
        assert "too big" in obs or "not authorized" in obs, obs
    obs, _, _, _, info = env.step(operation("SELECT length(hex(1234))"))
    assert info["valid"] and "8" in obs


def test_a_runaway_query_is_stopped(env):
    env.reset(options={"task_index": 0})
    start = time.perf_counter()
    obs, _, _, _, info = env.step(
        operation("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c")
    )
    elapsed = time.perf_counter() - start
    assert not info["valid"] and "interrupted" in obs
    assert elapsed < 5, f"the endless query was interrupted only after {elapsed:.1f} s"


def test_each_episode_gets_a_fresh_database(env):
    env.reset(options={"task_index": 0})
    name = env.current_task.params["table"]["name"]
    env.step(operation(f'DELETE FROM "{name}"'))
    env.reset(options={"task_index": 0})
    obs, _, _, _, _ = env.step(operation(f'SELECT COUNT(*) FROM "{name}"'))
    assert obs == f"[({len(env.current_task.params['table']['rows'])},)]"


def test_strict_mode_ends_on_a_format_error_like_agentbench():
    strict = DbEnv(strict=True)
    strict.reset(options={"task_index": 0})
    _, _, terminated, _, info = strict.step("I think I will look at the table")
    assert terminated and info["finish_reason"] == "invalid_format" and not info["success"]


def test_lenient_forms_are_read():
    assert parse_action("```sql\nSELECT 1\n```").sql == "SELECT 1"
    assert parse_action("SELECT name FROM t").sql == "SELECT name FROM t"
    assert parse_action("Action: Operation\nSELECT 1").sql == "SELECT 1"
    assert parse_action("Final Answer: Lisbon").answer == ("Lisbon",)
    assert parse_action("Action: Answer\nFinal Answer: ['a', 2.5]").answer == ("a", 2.5)


def test_training_tasks_keep_the_kinds_and_proportions_on_other_tables():
    from agentgym_text.envs.db.tasks import training_tasks

    train = training_tasks(600)
    assert [task.task_id for task in train][:2] == ["db-train-insert-0000", "db-train-update-0001"]
    assert Counter(t.params["qtype"] for t in train) == Counter(t.params["qtype"] for t in make_tasks()) + Counter(
        t.params["qtype"] for t in make_tasks()
    )
    shipped = {json.dumps(t.params["table"]) for t in make_tasks()}
    assert not shipped & {json.dumps(t.params["table"]) for t in train}
    with pytest.raises(ValueError, match="split must be one of"):
        DbEnv(split="dev")
    with pytest.raises(ValueError, match="split= choose among the generated tasks"):
        DbEnv(split="train", task_file="standard.jsonl")
