"""The rootfs sandbox: a copy-on-write copy of the Debian root filesystem per sandbox, in its own namespaces.

util-linux's ``unshare`` (run by host root) makes a user namespace whose uids and gids 0..65535 are root's
subordinate range on the host (``/etc/subuid``), so inside it ``useradd``, ``su``, ``chown``, SUID bits and
``sudo`` work while every process is an unprivileged uid on the host; new mount, PID, network (loopback only),
IPC and UTS namespaces. A set-up script (the host's bash, as the namespace's root) then mounts:

- a size-limited tmpfs holding the overlay's upper and work folders (all writes of the episode: the disk limit);
- an overlay of the cached root filesystem (read through an inherited directory fd, so no host path needs to be
  reachable from the namespace) and that tmpfs, with a fresh ``/proc`` and a ``/dev`` of six device files;

and ``pivot_root``s into the overlay, detaching the host's tree, and drops the capabilities a container's root
does not need (``CAP_SYS_ADMIN`` among them: no mounts, so nothing can be unmounted to reveal what lies under the
sandbox's root) from the bounding set before it execs the keeper. ``setpriv --pdeathsig`` and ``--kill-child``
end everything when the host process dies. The cached root is never written.
"""

from __future__ import annotations

import os
import threading

from agentgym_text.envs.os.bwrap import SandboxLimits
from agentgym_text.envs.os.rootfs import SUBID_COUNT, rootfs_dir, rootfs_problem, subid_base

__all__ = ["RootfsRuntime", "ROOTFS", "KEPT_CAPABILITIES"]

KEPT_CAPABILITIES = (
    "chown",
    "dac_override",
    "dac_read_search",
    "fowner",
    "fsetid",
    "kill",
    "setgid",
    "setuid",
    "setpcap",
    "net_bind_service",
    "sys_chroot",
    "audit_write",
    "setfcap",
)
"""What a Docker container's root keeps (its default set, less mknod and net_raw)."""

_SETUP = r"""
set -e
fd=$1 size=$2
shift 2
mount -t tmpfs -o "size=${size}m,mode=0755" tmpfs /tmp
mkdir /tmp/up /tmp/work /tmp/root
mount -t overlay overlay -o "lowerdir=/proc/self/fd/$fd,upperdir=/tmp/up,workdir=/tmp/work" /tmp/root
exec {fd}<&-
cd /tmp/root
mount -t proc -o nosuid,nodev,noexec proc proc
mount -t tmpfs -o size=1m,mode=0755,nosuid tmpfs dev
for name in null zero full random urandom tty; do
    : > "dev/$name"
    mount --bind "/dev/$name" "dev/$name"
done
ln -s /proc/self/fd dev/fd
ln -s /proc/self/fd/0 dev/stdin
ln -s /proc/self/fd/1 dev/stdout
ln -s /proc/self/fd/2 dev/stderr
mkdir dev/shm dev/pts
mount -t tmpfs -o "size=${size}m,mode=1777,nosuid,nodev" tmpfs dev/shm
mkdir .pivot
pivot_root . .pivot
cd /
umount -l /.pivot
rmdir /.pivot
echo 0 > /proc/sys/user/max_user_namespaces 2>/dev/null || true
/usr/bin/hostname sandbox 2>/dev/null || true
exec /usr/bin/setpriv --bounding-set=-all,CAPS --inh-caps=-all -- /usr/bin/env -i \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root USER=root LOGNAME=root \
    SHELL=/bin/bash TERM=dumb LANG=C.UTF-8 TZ=UTC "$@"
""".replace("CAPS", ",".join("+" + name for name in KEPT_CAPABILITIES))


class RootfsRuntime:
    """Sandboxes on the cached Debian root (see the module's docstring); built on first use."""

    name = "rootfs"

    def __init__(self) -> None:
        self._fd: int | None = None
        self._lock = threading.Lock()

    def problem(self) -> str | None:
        return rootfs_problem()

    def root_fd(self) -> int:
        """A directory fd on the cached root (opened once per process; built on first use)."""
        with self._lock:
            if self._fd is None:
                self._fd = os.open(rootfs_dir(), os.O_PATH | os.O_DIRECTORY)
            return self._fd

    def command(self, limits: SandboxLimits) -> list[str]:
        fd = self.root_fd()
        base = subid_base()
        mapping = f"{base},0,{SUBID_COUNT}"
        return [
            "setpriv",
            "--pdeathsig",
            "KILL",
            "unshare",
            f"--map-users={mapping}",
            f"--map-groups={mapping}",
            "--setuid",
            "0",
            "--setgid",
            "0",
            "--mount",
            "--pid",
            "--fork",
            "--net",
            "--ipc",
            "--uts",
            "--cgroup",
            "--kill-child",
            "--propagation",
            "private",
            "--",
            "/usr/bin/bash",
            "-c",
            _SETUP,
            "setup",
            str(fd),
            str(limits.disk_mb),
        ]

    def popen_kwargs(self) -> dict:
        return {"pass_fds": (self.root_fd(),)}


ROOTFS = RootfsRuntime()
