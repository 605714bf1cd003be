"""The Debian root filesystem sandbox: what AgentBench's items need from a container works (users, su, chown, SUID,
sudo, writes to /usr and new top-level folders), each sandbox has its own copy, the cached root is never
written, the sandbox's root is an unprivileged uid on the host, and a root that cannot be built is one clear error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentgym_text.envs.os import rootfs as rootfs_module
from agentgym_text.envs.os.bwrap import SandboxUnavailable
from agentgym_text.envs.os.rootfs import SUBID_COUNT, rootfs_dir, rootfs_problem, subid_base
from agentgym_text.envs.os.sandbox import Sandbox, SandboxLimits
from agentgym_text.envs.os.userns import ROOTFS
from tests.support.processes import descendants

pytestmark = pytest.mark.skipif(rootfs_problem() is not None, reason=str(rootfs_problem()))

CONTAINER_WORK = (
    "useradd -m -s /bin/bash jack && echo hi > /home/jack/f && chown jack:jack /home/jack/f && "
    "su - jack -c 'id -un; cat f; touch /root/x 2>/dev/null || echo denied' && "
    "chmod u+s /usr/bin/find && su jack -c 'find /root -maxdepth 0 -exec id -u \\;' && "
    "sudo -u jack whoami && echo new > /usr/local/bin/mine && mkdir /data && ls -ld /data | cut -c1-10 && "
    "groupadd team && usermod -aG team jack && id -Gn jack"
)


@pytest.fixture
def box():
    sandbox = Sandbox(None, SandboxLimits(command_timeout=10.0), ROOTFS)
    sandbox.setup_scripts([])
    yield sandbox
    sandbox.close()


def test_users_su_chown_suid_sudo_usr_and_new_top_level_folders_work(box):
    result = box.run(CONTAINER_WORK)
    assert result.output.split() == ["jack", "hi", "denied", "0", "jack", "drwxr-xr-x", "jack", "team"], result.output
    assert result.exit_code == 0


def test_each_sandbox_has_its_own_copy_and_the_cached_root_is_never_written(box):
    box.run("echo mine > /usr/local/bin/mine && mkdir /data && useradd jack && rm /etc/hostname")
    root = rootfs_dir()
    assert not (root / "usr/local/bin/mine").exists() and not (root / "data").exists()
    assert "jack" not in (root / "etc/passwd").read_text() and (root / "etc/hostname").exists()
    with Sandbox(None, runtime=ROOTFS) as other:
        other.setup_scripts([])
        output = other.run("ls /usr/local/bin /data 2>&1; grep -c jack /etc/passwd; ls /etc/hostname").output
        assert "mine" not in output and "No such file" in output and "/etc/hostname" in output


def test_the_sandbox_root_is_an_unprivileged_uid_on_the_host(box):
    box.run("sleep 60 &")
    base = subid_base()
    assert base is not None
    for pid in descendants(box.pid):
        uid = int(
            next(
                line for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("Uid:")
            ).split()[1]
        )
        assert base <= uid < base + SUBID_COUNT, (pid, uid)
    output = box.run("grep CapBnd /proc/self/status; mount -t tmpfs x /mnt 2>&1; echo rc=$?").output
    assert "rc=0" not in output  # no CAP_SYS_ADMIN: nothing can be mounted or unmounted


def test_a_root_that_cannot_be_built_is_one_clear_error(monkeypatch, tmp_path):
    from agentgym_text.envs.os.env import OsEnv
    from agentgym_text.envs.os.userns import RootfsRuntime

    monkeypatch.setattr(rootfs_module, "rootfs_problem", lambda: "mmdebstrap is missing; install it")
    monkeypatch.setattr("agentgym_text.envs.os.userns.rootfs_problem", lambda: "mmdebstrap is missing; install it")
    item = tmp_path / "x.json"
    item.write_text('{"description": "d", "evaluation": {"match": "1"}}')
    with pytest.raises(SandboxUnavailable, match="mmdebstrap is missing"):
        OsEnv(task_file=str(item))
    monkeypatch.undo()

    def broken() -> Path:
        raise rootfs_module.RootfsError("the Debian root filesystem could not be built: mmdebstrap failed: E: boom")

    runtime = RootfsRuntime()
    monkeypatch.setattr("agentgym_text.envs.os.userns.rootfs_dir", broken)
    with pytest.raises(rootfs_module.RootfsError, match="could not be built: mmdebstrap failed: E: boom"):
        runtime.prepare()


def test_a_start_line_that_opens_another_users_shell_keeps_it_for_the_agents_commands(tmp_path):
    from agentgym_text.envs.os.env import OsEnv
    from agentgym_text.envs.os.expert import bash_action

    item = {
        "description": "Who am I?",
        "start": "useradd -s /bin/bash -d /home/jack -m jack && cd /home/jack && echo hi > f && chown jack f && su - jack",
        "evaluation": {"match": "jack"},
    }
    path = tmp_path / "start.json"
    path.write_text(json.dumps([item]))
    env = OsEnv(task_file=str(path))
    try:
        env.reset(options={"task_index": 0})
        for _ in range(2):
            obs, *_ = env.step(bash_action("whoami; pwd; cat f"))
            assert obs == "The output of the OS:\n\njack\n/home/jack\nhi", obs
        _, _, _, _, info = env.step("Act: answer(jack)")
        assert info["success"]
    finally:
        env.close()


def test_no_descriptor_of_the_host_reaches_the_sandbox(box):
    # the cached root is bound through a descriptor before /tmp is covered; it must be closed before the keeper runs
    result = box.run("for fd in /proc/$$/fd/* /proc/1/fd/*; do readlink $fd; done | grep -c os-rootfs || true")
    assert result.output.strip() == "0", result.output
