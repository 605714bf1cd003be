"""AgentBench/DB-v0 on MariaDB (``db_url=mysql://...``), AgentBench's engine for its own items.

The server is ``$AGENTGYM_TEXT_MYSQL_URL`` when set; otherwise a throwaway MariaDB server is started from Debian's
package (``mariadb-install-db`` into a temporary folder, a Unix socket only, stopped at the end); otherwise the tests
are skipped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

pymysql = pytest.importorskip("pymysql")

from agentgym_text.envs.db.actions import operation  # noqa: E402
from agentgym_text.envs.db.env import DbEnv  # noqa: E402
from agentgym_text.envs.db.mysql import MySQLDatabase  # noqa: E402
from agentgym_text.envs.db.mysql_dialect import table_md5  # noqa: E402
from tests.support.db_agentbench_items import ITEMS, write_items  # noqa: E402


@pytest.fixture(scope="module")
def mysql_url():
    if os.environ.get("AGENTGYM_TEXT_MYSQL_URL"):
        yield os.environ["AGENTGYM_TEXT_MYSQL_URL"]
        return
    install, server = (
        shutil.which("mariadb-install-db"),
        shutil.which("mariadbd") or ("/usr/sbin/mariadbd" if Path("/usr/sbin/mariadbd").exists() else None),
    )
    if not install or not server:
        pytest.skip("no MariaDB server: set AGENTGYM_TEXT_MYSQL_URL or install mariadb-server")
    folder = Path(tempfile.mkdtemp(prefix="agentgym-mariadb-"))
    user = ["--user=root"] if os.geteuid() == 0 else []
    made = subprocess.run(
        [
            install,
            "--no-defaults",
            f"--datadir={folder / 'data'}",
            *user,
            "--auth-root-authentication-method=normal",
            "--skip-test-db",
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    if made.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"mariadb-install-db failed: {made.stderr[-300:]}")
    socket = folder / "socket"
    process = subprocess.Popen(
        [
            server,
            "--no-defaults",
            f"--datadir={folder / 'data'}",
            f"--socket={socket}",
            "--skip-networking",
            *user,
            f"--log-error={folder / 'log'}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"mysql://root@localhost/?unix_socket={socket}"
    for _ in range(100):
        try:
            pymysql.connect(unix_socket=str(socket), user="root").close()
            break
        except pymysql.Error:
            time.sleep(0.2)
    else:
        process.kill()
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip("the MariaDB server did not start")
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


def _leftovers(url: str) -> list:
    connection = pymysql.connect(unix_socket=url.split("unix_socket=")[1], user="root")
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE 'agentgym_ep_%' "
                "UNION ALL SELECT user FROM mysql.user WHERE user LIKE 'agentgym_ep_%'"
            )
            return list(cursor.fetchall())
    finally:
        connection.close()


def test_every_gold_succeeds_on_mariadb(mysql_url, tmp_path):
    env = DbEnv(task_file=str(write_items(tmp_path)), db_url=mysql_url)
    for task_id in env.task_ids:
        env.reset(options={"task_id": task_id})
        for _ in range(10):
            if env.episode_over:
                break
            _, _, _, _, info = env.step(env.expert_action())
        assert info["success"] and info["progress_rate"] == 1.0, task_id
    env.close()
    assert _leftovers(mysql_url) == []


def test_the_python_table_hash_equals_the_servers(mysql_url):
    for item in ITEMS[:4]:
        table = {
            "name": item["table"]["table_name"],
            "columns": [[c["name"], "TEXT"] for c in item["table"]["table_info"]["columns"]],
            "rows": [[None if v is None else str(v) for v in row] for row in item["table"]["table_info"]["rows"]],
        }
        database = MySQLDatabase(table, mysql_url)
        try:
            assert database.table_md5() == table_md5(table["rows"])
            if item["type"][0] != "counting":
                assert database.run(item["label"][0]).error is None
            assert database.table_md5() == table_md5(database.table_rows())
        finally:
            database.close()


def test_episodes_are_isolated_and_limited(mysql_url, tmp_path):
    path = str(write_items(tmp_path))
    first, second = DbEnv(task_file=path, db_url=mysql_url), DbEnv(task_file=path, db_url=mysql_url)
    first.reset(options={"task_index": 0})
    second.reset(options={"task_index": 1})
    obs, _, _, _, info = first.step(operation("SELECT City FROM Cities WHERE City = 'MONTREAL'"))
    assert obs == "[('Montréal',)]"
    obs, *_ = first.step(operation("SHOW DATABASES"))
    assert second._db.database not in obs and "mysql" not in obs.replace("information_schema", "")
    for sql in (
        f"SELECT * FROM `{second._db.database}`.`Cities`",
        "SELECT * FROM mysql.user",
        "SET SESSION max_statement_time = 0",
        "CREATE DATABASE elsewhere",
    ):
        obs, _, _, _, info = first.step(operation(sql))
        assert not info["valid"], (sql, obs)
    started = time.monotonic()
    first.step(operation("SELECT SLEEP(6)"))
    assert time.monotonic() - started < 4  # interrupted at the 2-second limit
    first.close()
    second.close()
    assert _leftovers(mysql_url) == []


def test_an_unreachable_server_is_one_clear_error(tmp_path):
    env = DbEnv(task_file=str(write_items(tmp_path)), db_url="mysql://root@localhost/?unix_socket=/nonexistent/sock")
    with pytest.raises(ConnectionError, match="cannot reach the MySQL server"):
        env.reset(options={"task_index": 0})
