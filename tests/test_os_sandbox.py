"""AgentBench/OS-v0's sandboxes (bwrap, and the Debian root filesystem in a uid-mapped user namespace): nothing a
command does reaches the host, and nothing outlives the sandbox. Every escape test runs on both."""

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

from agentgym_text.envs.os import bwrap as bwrap_module
from agentgym_text.envs.os.bwrap import BWRAP
from agentgym_text.envs.os.rootfs import rootfs_problem
from agentgym_text.envs.os.sandbox import Sandbox, SandboxLimits, SandboxUnavailable, sandbox_problem
from agentgym_text.envs.os.userns import ROOTFS
from tests.support.processes import alive, descendants

CHECKOUT = Path(__file__).resolve().parents[1]
needs_bwrap = pytest.mark.skipif(sandbox_problem() is not None, reason=str(sandbox_problem()))
needs_rootfs = pytest.mark.skipif(rootfs_problem() is not None, reason=str(rootfs_problem()))
RUNTIMES = [pytest.param(BWRAP, marks=needs_bwrap, id="bwrap"), pytest.param(ROOTFS, marks=needs_rootfs, id="rootfs")]


@pytest.fixture(params=RUNTIMES)
def box(request):
    sandbox = Sandbox("mkdir -p /srv/t && echo data > /srv/t/f.txt", SandboxLimits(command_timeout=2.0), request.param)
    yield sandbox
    sandbox.close()


def test_refuses_to_start_when_bwrap_is_missing(monkeypatch):
    sandbox_problem.cache_clear()
    monkeypatch.setattr(bwrap_module.shutil, "which", lambda name: None)
    try:
        with pytest.raises(SandboxUnavailable, match="never on the host"):
            Sandbox("")
        from agentgym_text.envs.os.env import OsEnv

        with pytest.raises(SandboxUnavailable, match="bubblewrap"):
            OsEnv()
    finally:
        sandbox_problem.cache_clear()


def test_host_shadow_file_cannot_be_read(box):
    result = box.run("cat /etc/shadow; cat /proc/1/root/etc/shadow; ls /etc; echo end")
    assert result.output.rstrip().endswith("end")
    if box.runtime is BWRAP:
        assert "No such file" in result.output  # the rootfs has a shadow file of its own
    if os.access("/etc/shadow", os.R_OK):
        secret = Path("/etc/shadow").read_text().splitlines()[0]
        assert secret not in result.output


def test_checkout_cannot_be_written(box):
    readme = CHECKOUT / "README.md"
    before = readme.stat().st_mtime_ns
    target = CHECKOUT / "SANDBOX_ESCAPE"
    result = box.run(f"echo pwned > {target}; touch {readme}; ls {CHECKOUT}; echo x > /usr/escape; echo x > /x")
    assert not target.exists() and readme.stat().st_mtime_ns == before
    assert not Path("/usr/escape").exists() and not Path("/x").exists()
    if box.runtime is BWRAP:
        assert "Read-only file system" in result.output
    else:  # the host's tree is not there at all; /usr and / are the episode's own copy
        assert f"ls: cannot access '{CHECKOUT}': No such file or directory" in result.output
        assert box.run("cat /usr/escape /x").output.split() == ["x", "x"]


def test_network_to_the_host_is_unreachable(box):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.settimeout(0.2)
    port = server.getsockname()[1]
    peers: list[tuple[str, int]] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, peer = server.accept()
            except OSError:
                continue
            peers.append(peer)
            connection.close()

    def probe_from_the_host() -> tuple[str, int]:
        """Connect from outside the sandbox and wait until the listener has taken that connection."""
        with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
            me = client.getsockname()
            deadline = time.monotonic() + 10
            while me not in peers and time.monotonic() < deadline:
                time.sleep(0.05)
        assert me in peers, "the listener never saw a host connection: it could not have seen the sandbox's"
        return me

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        first = probe_from_the_host()
        commands = [f"(echo > /dev/tcp/127.0.0.1/{port}) && echo CONNECTED", "echo > /dev/tcp/1.1.1.1/53 && echo OUT"]
        if shutil.which("curl"):
            commands.append(f"curl -sS -m 2 http://127.0.0.1:{port}/ && echo CONNECTED")
        if shutil.which("python3"):
            commands.append(
                f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 2)\" && echo CONNECTED"
            )
        for command in commands:
            result = box.run(command)
            assert "CONNECTED" not in result.output and "OUT" not in result.output, result.output
        # the listener takes connections in arrival order: once this later one is taken, any connection a
        # command made has been taken before it
        last = probe_from_the_host()
        assert peers == [first, last]
    finally:
        stop.set()
        thread.join()
        server.close()


def test_fork_bomb_is_bounded_and_cleaned_up(box):
    start = time.monotonic()
    box.run(":(){ :|:& };:; sleep 1")
    box.checks([], after_step=True)
    elapsed = time.monotonic() - start
    assert elapsed < 30, f"the fork bomb was stopped only after {elapsed:.0f} s"
    assert len(descendants(box.pid)) <= 4  # keeper, the shell's restart loop, the shell (and bwrap's own)
    assert box.run("echo still alive").output.strip() == "still alive"


def test_ten_gigabyte_dd_is_bounded(box):
    free_before = shutil.disk_usage("/tmp").free
    result = box.run("dd if=/dev/zero of=/tmp/big bs=1M count=10240 2>&1; stat -c %s /tmp/big")
    size = int(result.output.strip().splitlines()[-1])
    assert size <= 16 * 1024 * 1024
    assert abs(shutil.disk_usage("/tmp").free - free_before) < 200 * 1024 * 1024
    assert box.run("echo ok").output.strip() == "ok"


def test_never_ending_commands_are_stopped(box):
    start = time.monotonic()
    result = box.run("sleep 1000")
    elapsed = time.monotonic() - start
    assert result.timed_out
    assert elapsed < 8, f"a 2 s command timeout stopped sleep 1000 after {elapsed:.1f} s"
    result = box.run("while :; do :; done")
    assert result.timed_out and result.restarted
    assert box.run("cat /srv/t/f.txt").output.strip() == "data"  # the files survive a shell restart
    result = box.run("yes")
    assert result.output_limited and box.run("echo ok").output.strip() == "ok"


def test_background_processes_do_not_outlive_their_command(box):
    # a forked child shows as bash until it has exec'd sleep: wait (bounded) until ps sees both sleeps
    seen = "ps -eo args | grep -q '^sleep 300' && ps -eo args | grep -q '^sleep 301'"
    running = box.run(f"sleep 300 & sleep 301 & for i in $(seq 200); do {seen} && break; sleep 0.05; done; ps -eo args")
    assert "sleep 300" in running.output and "sleep 301" in running.output  # the same ps sees them while they live
    box.checks([], after_step=True)
    assert "sleep 30" not in box.run("ps -eo args").output


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_close_leaves_no_process(runtime):
    sandbox = Sandbox("echo hi > /tmp/x", runtime=runtime)
    sandbox.run("sleep 100 &")
    pid, below = sandbox.pid, descendants(sandbox.pid)
    assert below
    sandbox.close()
    deadline = time.monotonic() + 10
    while any(alive(p) for p in below | {pid}) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(p) for p in below | {pid}), [p for p in below | {pid} if alive(p)]
