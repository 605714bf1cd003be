"""The data cache: an entry is built once however many threads or processes ask for it at the same time, and a
damaged entry is built again."""

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from agentgym_text.core.cache import build_cached
from tests.support.cache_builds import slow_build

ROOT = Path(__file__).resolve().parents[1]

# A process that waits until all its siblings are ready, then asks for the entry (argv: folder, index, count).
WORKER = """
import sys, time
from pathlib import Path
from agentgym_text.core.cache import build_cached
from tests.support.cache_builds import slow_build
folder, index, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
(folder / f"ready-{index}").touch()
while len(list(folder.glob("ready-*"))) < count:
    time.sleep(0.01)
print(build_cached("demo", "processes", slow_build(folder / "builds.log"), quiet=True))
"""


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENTGYM_TEXT_CACHE", str(tmp_path / "cache"))
    return tmp_path


def test_threads_asking_at_once_build_the_entry_once(scratch):
    arrived = threading.Barrier(6, timeout=30)
    paths = []

    def ask() -> None:
        arrived.wait()
        paths.append(build_cached("demo", "threads", slow_build(scratch / "builds.log"), quiet=True))

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert (scratch / "builds.log").read_text() == "built\n"
    assert len(paths) == 6 and len(set(paths)) == 1 and (paths[0] / "data.txt").read_text() == "data"


def test_processes_asking_at_once_build_the_entry_once(scratch):
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(scratch), str(index), "4"], cwd=ROOT, stdout=subprocess.PIPE, text=True
        )
        for index in range(4)
    ]
    paths = [worker.communicate(timeout=120)[0].strip() for worker in workers]
    assert [worker.returncode for worker in workers] == [0] * 4
    assert (scratch / "builds.log").read_text() == "built\n"
    assert len(set(paths)) == 1 and (Path(paths[0]) / "data.txt").read_text() == "data"


def test_a_damaged_entry_is_built_again(scratch):
    log = scratch / "builds.log"
    path = build_cached("demo", "damaged", slow_build(log), quiet=True)
    (path / "data.txt").unlink()
    assert build_cached("demo", "damaged", slow_build(log), quiet=True) == path
    assert log.read_text() == "built\nbuilt\n" and (path / "data.txt").read_text() == "data"
