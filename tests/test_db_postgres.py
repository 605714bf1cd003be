"""AgentBench/DB-v0 on PostgreSQL (``db_url=``): run where a server is available.

The server is ``$AGENTGYM_TEXT_PG_URL`` when set; otherwise a throwaway local server is started (initdb into a
temporary folder, a Unix socket only, stopped at the end) when PostgreSQL's binaries are installed; otherwise
the tests are skipped.
"""

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

psycopg = pytest.importorskip("psycopg")

from agentgym_text.envs.db.actions import operation  # noqa: E402
from agentgym_text.envs.db.env import DbEnv  # noqa: E402
from agentgym_text.envs.db.tasks import make_tasks  # noqa: E402


def _binary(name: str) -> str | None:
    return shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))), None)


@pytest.fixture(scope="module")
def db_url():
    if os.environ.get("AGENTGYM_TEXT_PG_URL"):
        yield os.environ["AGENTGYM_TEXT_PG_URL"]
        return
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if not initdb or not pg_ctl:
        pytest.skip("no PostgreSQL server: set AGENTGYM_TEXT_PG_URL or install PostgreSQL")
    prefix: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="agentgym-pg-"))
    if os.geteuid() == 0:  # the server refuses to run as root
        if subprocess.run(["id", "postgres"], capture_output=True).returncode != 0:
            shutil.rmtree(folder)
            pytest.skip("running as root without a 'postgres' user to start a server")
        shutil.chown(folder, "postgres")
        prefix = ["su", "postgres", "-s", "/bin/sh", "-c"]

    def run(*command: str) -> subprocess.CompletedProcess:
        line = " ".join(f"'{part}'" for part in command)
        full = [*prefix, line] if prefix else ["/bin/sh", "-c", line]
        return subprocess.run(full, capture_output=True, text=True, timeout=120)

    data = folder / "data"
    made = run(initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "-N")
    if made.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"initdb failed: {made.stderr[-300:]}")
    started = run(
        pg_ctl,
        "-D",
        str(data),
        "-l",
        str(folder / "log"),
        "-w",
        "-o",
        f"-k {folder} -c listen_addresses= -c fsync=off",
        "start",
    )
    if started.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"the server did not start: {started.stderr[-300:]}")
    try:
        yield f"host={folder} user=postgres dbname=postgres"
    finally:
        run(pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def _leftovers(url: str) -> list:
    with psycopg.connect(url) as connection:
        return connection.execute(
            "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'agentgym_ep_%' "
            "UNION ALL SELECT rolname FROM pg_roles WHERE rolname LIKE 'agentgym_ep_%'"
        ).fetchall()


def test_expert_solves_tasks_of_every_type_on_postgres(db_url):
    env = DbEnv(db_url=db_url)
    tasks = make_tasks()
    sample = [
        next(t.task_id for t in tasks if t.params["qtype"] == q)
        for q in ("select", "aggregate", "count", "rank", "insert", "update", "delete")
    ]
    for task_id in sample:
        env.reset(options={"task_id": task_id})
        while not env.episode_over:
            _, _, _, _, info = env.step(env.expert_action())
        assert info["success"] and info["progress_rate"] == 1.0, task_id
    env.close()
    assert _leftovers(db_url) == []


def test_postgres_errors_and_escapes_are_refused(db_url, tmp_path):
    first, second = DbEnv(db_url=db_url), DbEnv(db_url=db_url)
    first.reset(options={"task_index": 0})
    second.reset(options={"task_index": 1})
    obs, _, _, _, info = first.step(operation("SELEC 1"))
    assert not info["valid"] and "syntax error" in obs
    other_schema = second._db.schema
    target = tmp_path / "out.txt"
    for sql in (
        f"SELECT * FROM {other_schema}.{second.current_task.params['table']['name']}",
        "SELECT pg_read_file('/etc/passwd')",
        f"COPY (SELECT 1) TO '{target}'",
        "SET ROLE postgres",
        "RESET ROLE",
        "SELECT set_config('role', 'postgres', false)",
        "SELECT * FROM pg_authid",
        "CREATE EXTENSION dblink",
        "DO $$ BEGIN PERFORM 1; END $$",
    ):
        obs, _, _, _, info = first.step(operation(sql))
        assert not info["valid"], sql
        assert "not authorized" in obs or "permission denied" in obs, (sql, obs)
    assert not target.exists()
    obs, _, _, _, info = first.step(operation("SELECT COUNT(*) FROM generate_series(1, 1000000000)"))
    assert not info["valid"] and "timeout" in obs
    first.close()
    second.close()
    assert _leftovers(db_url) == []
