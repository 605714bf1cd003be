"""Starting bubblewrap: the sandbox's command line, its limits, and the check that namespaces are allowed here."""

from __future__ import annotations

import fcntl
import functools
import os
import shutil
import subprocess
from dataclasses import dataclass
from typing import Protocol

from agentgym_text.envs.os.keeper import WRITABLE_DIRS

__all__ = [
    "SandboxLimits",
    "SandboxUnavailable",
    "Runtime",
    "BWRAP",
    "sandbox_problem",
    "bwrap_args",
    "limit_prefix",
    "demote",
    "high_pipe",
    "VIRTUAL_EPOCH",
]

VIRTUAL_EPOCH = 1_717_243_200
"""2024-06-01 12:00:00 UTC: files made by the init script get this mtime (unless it sets one); files changed at
step k get ``VIRTUAL_EPOCH + 60 * k``. Listings are then the same in every run."""

_NOBODY = 65534
_AGENT_ENV = {
    "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "HOME": "/root",
    "USER": "root",
    "LOGNAME": "root",
    "SHELL": "/bin/bash",
    "TERM": "dumb",
    "LANG": "C.UTF-8",
    "TZ": "UTC",
}


class SandboxUnavailable(RuntimeError):
    """bwrap is missing or may not create namespaces here; the OS env refuses to run rather than use the host."""


@dataclass(frozen=True)
class SandboxLimits:
    """Resource limits of one sandbox (defaults suit the shipped tasks)."""

    command_timeout: float = 10.0
    """Wall-clock seconds a command may run before every process it started is killed."""
    output_bytes: int = 1 << 20
    """A command printing more than this is stopped (only the start of the output is ever shown)."""
    disk_mb: int = 16
    """Size of each writable tmpfs (and the largest file a process may write)."""
    max_processes: int = 64
    """RLIMIT_NPROC inside the sandbox (counted per sandbox: it has its own user namespace)."""
    memory_mb: int = 512
    """RLIMIT_AS of every process in the sandbox."""
    check_timeout: float = 10.0
    """Wall-clock seconds for one checker script."""
    init_timeout: float = 60.0
    """Wall-clock seconds for one of AgentBench's init scripts."""


class Runtime(Protocol):
    """How a sandbox is started: the command line before the keeper's bash, and the Popen kwargs."""

    name: str

    def problem(self) -> str | None:
        """None when sandboxes can be made, else why not (one sentence)."""

    def prepare(self) -> None:
        """Build what the sandboxes need (once per process); raises with the cause when that fails."""

    def command(self, limits: SandboxLimits) -> list[str]: ...

    def popen_kwargs(self) -> dict: ...


class _Bwrap:
    """Today's sandbox: bwrap over the host's read-only /usr, tmpfs for the writable folders, one uid."""

    name = "bwrap"

    def problem(self) -> str | None:
        return sandbox_problem()

    def prepare(self) -> None:
        return None

    def command(self, limits: SandboxLimits) -> list[str]:
        return bwrap_args(limits)

    def popen_kwargs(self) -> dict:
        return demote()


BWRAP: Runtime = _Bwrap()


def bwrap_args(limits: SandboxLimits) -> list[str]:
    size = str(limits.disk_mb * 1024 * 1024)
    args = [
        "bwrap",
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--die-with-parent",
        "--new-session",
        "--as-pid-1",
        "--cap-drop",
        "ALL",
        "--uid",
        "0",
        "--gid",
        "0",
        "--hostname",
        "sandbox",
        "--ro-bind",
        "/usr",
        "/usr",
    ]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        host = f"/{name}"
        if os.path.islink(host):
            args += ["--symlink", os.readlink(host), host]
        elif os.path.isdir(host):
            args += ["--ro-bind", host, host]
    args += ["--proc", "/proc", "--dev", "/dev"]
    for name in WRITABLE_DIRS:
        perms = {"tmp": "1777", "root": "0700"}.get(name, "0755")
        args += ["--perms", perms, "--size", size, "--tmpfs", f"/{name}"]
    for shared in ("/etc/alternatives", "/etc/ld.so.cache"):
        if os.path.exists(shared):
            args += ["--ro-bind", shared, shared]
    args += ["--remount-ro", "/", "--clearenv"]
    for key, value in _AGENT_ENV.items():
        args += ["--setenv", key, value]
    return args + ["--chdir", "/root"]


def limit_prefix(limits: SandboxLimits) -> str:
    kib = limits.disk_mb * 1024
    return f"ulimit -c 0; ulimit -u {limits.max_processes}; ulimit -f {kib}; ulimit -v {limits.memory_mb * 1024}; "


def high_pipe() -> tuple[int, int]:
    """A pipe whose fds are >= 10, so the keeper can move them to 3 and 4 without clobbering one."""
    read_fd, write_fd = os.pipe()
    high = []
    for fd in (read_fd, write_fd):
        high.append(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10))
        os.close(fd)
    return high[0], high[1]


def demote() -> dict:
    """Popen kwargs that drop host root to ``nobody`` (root is exempt from RLIMIT_NPROC; nobody is not)."""
    if os.geteuid() != 0:
        return {}
    return {"user": _NOBODY, "group": _NOBODY, "extra_groups": []}


@functools.lru_cache(maxsize=1)
def sandbox_problem() -> str | None:
    """None when sandboxes can be made here, else a sentence saying why not (checked once per process)."""
    if shutil.which("bwrap") is None:
        return (
            "bubblewrap (bwrap) is not installed; install it (Debian/Ubuntu: apt-get install bubblewrap, or "
            "`make system`). AgentBench/OS-v0 runs commands only inside a bwrap sandbox, never on the host."
        )
    try:
        probe = subprocess.run(
            bwrap_args(SandboxLimits()) + ["/usr/bin/bash", "-c", "echo ok"],
            capture_output=True,
            timeout=20,
            **demote(),
        )
    except (OSError, subprocess.SubprocessError) as error:
        return f"bwrap could not be started ({error}); AgentBench/OS-v0 refuses to run commands on the host."
    if probe.returncode != 0 or probe.stdout.strip() != b"ok":
        detail = probe.stderr.decode("utf-8", "replace").strip() or f"exit code {probe.returncode}"
        return (
            f"bwrap cannot create the sandbox's namespaces on this machine ({detail}). Some containers forbid "
            "user namespaces; allow them (e.g. sysctl kernel.unprivileged_userns_clone=1, or run the container "
            "with --security-opt seccomp=unconfined). AgentBench/OS-v0 refuses to run commands on the host."
        )
    return None
