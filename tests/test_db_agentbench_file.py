"""AgentBench/DB-v0 on AgentBench's own items (task_file=): loading, AgentBench's scoring (v0.2 and FC), its
printed results, and the MySQL behaviour emulated on SQLite. Files are written here in AgentBench's format."""

from __future__ import annotations

import json

import pytest

from agentgym_text.envs.db.actions import answer, operation
from agentgym_text.envs.db.agentbench_file import TaskFileError
from agentgym_text.envs.db.env import DbEnv
from agentgym_text.envs.db.scoring import agentbench_answer_correct, fc_answer_correct
from tests.support.db_agentbench_items import ITEMS, write_items


@pytest.fixture
def items(tmp_path):
    return write_items(tmp_path)


def _play_expert(env: DbEnv, task_id: str) -> dict:
    env.reset(options={"task_id": task_id})
    info: dict = {}
    for _ in range(10):
        if env.episode_over:
            break
        _, _, _, _, info = env.step(env.expert_action())
    return info


def test_items_load_with_agentbench_ids_goals_and_text_columns(items):
    env = DbEnv(task_file=str(items))
    assert env.task_ids == [f"dbbench-standard-{i:03d}" for i in range(len(ITEMS))]
    first = env.tasks[0]
    assert (
        first.goal == "How many cities are listed?\nThe name of this table is Cities, and the headers of this table "
        "are City,Country,Population."
    )
    assert first.params["table"]["columns"] == [["City", "TEXT"], ["Country", "TEXT"], ["Population", "TEXT"]]
    assert first.params["table"]["rows"][2] == ["Porto", "Portugal", "231962.5"]
    assert env.tasks[4].params["table"]["rows"] == []  # the row of the wrong length: MySQL refuses the INSERT
    assert first.max_steps == 15


@pytest.mark.parametrize("index", range(len(ITEMS)))
def test_every_gold_succeeds_with_progress_one(items, index):
    env = DbEnv(task_file=str(items))
    info = _play_expert(env, env.task_ids[index])
    assert info["success"] and info["progress_rate"] == 1.0, info


def test_mysql_behaviour_emulated_on_sqlite(items):
    env = DbEnv(task_file=str(items))
    env.reset(options={"task_index": 0})
    obs, *_ = env.step(operation("SELECT City FROM Cities WHERE City = 'MONTREAL'"))
    assert obs == "[('Montréal',)]"  # case- and accent-insensitive, as MySQL's default collation
    obs, *_ = env.step(operation("SELECT 'a\\tb', \"quoted\""))
    assert obs == "[('a\\tb', 'quoted')]"  # a backslash escape and a double-quoted string, read as MySQL reads them
    obs, *_ = env.step(operation("SELECT Population FROM Cities WHERE City = 'Lyon'"))
    assert obs == "[('513275',)]"  # every column is TEXT
    env.reset(options={"task_index": 5})
    obs, _, _, _, info = env.step(operation("SELECT * FROM Results"))
    assert not info["valid"] and "no such table" in obs


def test_results_are_cut_at_800_characters_as_agentbench_prints_them(items):
    env = DbEnv(task_file=str(items))
    env.reset(options={"task_index": 0})
    obs, *_ = env.step(
        operation("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) SELECT i FROM n")
    )
    assert len(obs) == 800 + len("[TRUNCATED]") and obs.endswith("[TRUNCATED]") and obs.startswith("[(1,), (2,)")


def test_wrong_answers_and_unchanged_tables_fail(items):
    env = DbEnv(task_file=str(items))
    env.reset(options={"task_index": 0})
    _, reward, terminated, _, info = env.step(answer(["4"]))
    assert terminated and not info["success"] and reward == 0.0
    env.reset(options={"task_index": 2})
    env.step(operation("UPDATE Cities SET Population = '2' WHERE City = 'Montréal'"))
    _, _, terminated, _, info = env.step(answer(["done"]))
    assert terminated and not info["success"]


def test_progress_before_the_answer(items):
    env = DbEnv(task_file=str(items))
    env.reset(options={"task_index": 6})
    _, _, _, _, info = env.step(operation("SELECT City FROM Cities WHERE City = 'Lyon'"))
    assert info["progress_rate"] == pytest.approx(0.9 * 2 * 1 / 3)  # F1 of {Lyon} against {Montréal, Lyon}
    env.reset(options={"task_index": 1})
    _, _, _, _, info = env.step(operation(ITEMS[1]["label"][0]))
    assert info["progress_rate"] == pytest.approx(0.9) and not env.episode_over


@pytest.mark.parametrize(
    ("text", "label", "right"),
    [
        (' ["3"]', ["3"], True),
        (" [3.0]", ["3"], True),  # one value each: compared as floats
        (" 3", ["3"], True),  # a bare number: not a list, the raw text as one value, float(" 3") == 3
        (" Lyon", ["Lyon"], False),  # a bare word stays " Lyon" (AgentBench keeps the space)
        (" 'Lyon'", ["Lyon"], False),  # a string literal becomes its characters
        (' ["Lyon", "Montréal"]', ["Montréal", "Lyon"], True),  # several values: sets
        (' ["Lyon", "Lyon", "Montréal"]', ["Montréal", "Lyon"], True),
        (' ["lyon", "Montréal"]', ["Montréal", "Lyon"], False),  # case-sensitive
        (" [[1], [2]]", ["1", "2"], False),  # unhashable values: wrong
    ],
)
def test_agentbench_v02_answer_check(text, label, right):
    assert agentbench_answer_correct(text, label) is right


@pytest.mark.parametrize(
    ("values", "label", "right"),
    [
        (["3.004"], ["3"], True),
        (["1,234"], ["1234"], True),
        (["45%"], ["45"], True),
        ([None], ["null"], True),
        (["2.0", "1.0"], ["1", "2"], True),
        (["2.0", "1.0"], ["1", "3"], False),
        (["'Lyon'"], ["Lyon"], True),
    ],
)
def test_fc_answer_check(values, label, right):
    assert fc_answer_correct(values, label) is right


def test_protocols_differ_where_the_releases_do(items):
    v02, fc = DbEnv(task_file=str(items)), DbEnv(task_file=str(items), protocol="fc")
    for env, right in ((v02, False), (fc, True)):
        env.reset(options={"task_index": 0})
        _, _, _, _, info = env.step("Action: Answer\nFinal Answer: 3.004")
        assert info["success"] is right


def test_a_json_list_file_is_read_too(tmp_path):
    path = tmp_path / "dev.json"
    path.write_text(json.dumps(ITEMS[:2]))
    env = DbEnv(task_file=str(path))
    assert env.task_ids == ["dbbench-dev-000", "dbbench-dev-001"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "has no items"),
        ('{"description": \n', "line 1: not JSON"),
        (json.dumps({**ITEMS[0], "table": None}) + "\n", "item 0: the field 'table' must be dict"),
        (json.dumps({k: v for k, v in ITEMS[0].items() if k != "label"}) + "\n", "the field 'label' is missing"),
        (json.dumps({**ITEMS[0], "type": ["JOIN"]}) + "\n", "unknown type 'JOIN'"),
        (json.dumps({**ITEMS[1], "answer_md5": "abc"}) + "\n", "answer_md5 as [('<32 hex digits>',)]"),
    ],
)
def test_bad_files_are_one_clear_error(tmp_path, content, message):
    path = tmp_path / "standard.jsonl"
    path.write_text(content)
    with pytest.raises(TaskFileError, match="standard.jsonl") as caught:
        DbEnv(task_file=str(path))
    assert message in str(caught.value)


def test_options_that_do_not_fit_are_refused(items):
    with pytest.raises(TaskFileError, match="does not exist"):
        DbEnv(task_file=str(items) + ".missing")
    with pytest.raises(ValueError, match="num_tasks"):
        DbEnv(task_file=str(items), num_tasks=3)
    with pytest.raises(ValueError, match="needs task_file"):
        DbEnv(protocol="fc")
    with pytest.raises(ValueError, match="protocol must be one of"):
        DbEnv(task_file=str(items), protocol="v1")
    with pytest.raises(ValueError, match="mysql://"):
        DbEnv(task_file=str(items), db_url="postgresql://localhost/x")


def test_gym_make_takes_the_file(items):
    import gymnasium as gym

    env = gym.make("AgentBench/DB-v0", task_file=str(items))
    _, info = env.reset(options={"task_index": 3})
    assert info["task_id"] == "dbbench-standard-003"
    env.close()


def test_dataset_rows_carry_the_task_file(items):
    from agentgym_text.integrations.datasets import tasks

    rows = tasks("AgentBench/DB-v0", env_kwargs={"task_file": str(items)}, limit=2)
    assert [row["task_id"] for row in rows] == ["dbbench-standard-000", "dbbench-standard-001"]
    assert rows[1]["env_kwargs"] == {"task_file": str(items)} and "Add Nice" in rows[1]["goal"]


def test_a_modification_is_judged_by_the_table_however_the_episode_ends(items):
    """AgentBench v0.2 hashes the table of an INSERT/UPDATE/DELETE item whatever ended its episode, so an episode a
    protocol ends unanswered is judged too (``judge_as_ended``); a question, or the FC release, is not."""
    env = DbEnv(task_file=str(items))
    env.reset(options={"task_index": 2})
    assert not env.judge_as_ended()
    env.step(operation("UPDATE Cities SET Population = '1' WHERE City = 'montreal'"))
    assert env.judge_as_ended()
    env.reset(options={"task_index": 2})
    env.step(operation("UPDATE Cities SET Population = '2' WHERE City = 'montreal'"))
    assert not env.judge_as_ended()
    env.reset(options={"task_index": 0})
    env.step(operation("SELECT COUNT(*) FROM Cities"))
    assert not env.judge_as_ended()
    fc = DbEnv(task_file=str(items), protocol="fc")
    fc.reset(options={"task_index": 2})
    fc.step(operation("UPDATE Cities SET Population = '1' WHERE City = 'montreal'"))
    assert not fc.judge_as_ended()


@pytest.mark.parametrize(("population", "solved"), [("1", True), ("2", False)])
def test_an_unreadable_last_reply_under_the_agentbench_protocol_is_judged_by_the_table(
    items, tmp_path, population, solved
):
    from agentgym_text.agents.protocols.agentbench import AgentBenchProtocol
    from agentgym_text.integrations.chat import ChatEnv
    from tests.support.agentbench_checkout import write_checkout

    chat = ChatEnv("AgentBench/DB-v0", protocol=AgentBenchProtocol(write_checkout(tmp_path)), task_file=str(items))
    chat.reset(options={"task_index": 2})
    update = f"UPDATE Cities SET Population = '{population}' WHERE City = 'montreal'"
    _, _, terminated, _, _ = chat.step(f"Action: Operation\n```sql\n{update}\n```")
    assert not terminated
    _, _, terminated, _, info = chat.step("Done, the table is updated.")
    assert terminated and info["finish_reason"] == "invalid_format" and info["success"] is solved
