"""The rootfs sandbox: a copy-on-write copy of the Debian root filesystem per sandbox, in its own namespaces.

Host root first binds the cached root read-only at ``/tmp/lower`` in a private mount namespace; util-linux's
``unshare`` then makes a user namespace whose uids and gids 0..65535 are root's subordinate range on the host
(``/etc/subuid``), so inside it ``useradd``, ``su``, ``chown``, SUID bits and ``sudo`` work while every process is
an unprivileged uid on the host; and new mount, PID, network (no interface up), IPC and UTS namespaces. A set-up
script (the host's bash, as the namespace's root) then mounts:

- a size-limited tmpfs holding the overlay's upper and work folders (all writes of the episode: the disk limit);
- an overlay of the read-only copy and that tmpfs, with a fresh ``/proc`` (``/proc/tty/driver``, the one folder the
  host's root keeps closed, masked by an empty one, as Docker masks /proc paths, so ``find /`` prints no error),
  six of the host's device files bound over the empty files the build left in ``/dev``, and a tmpfs ``/dev/shm``;

and ``pivot_root``s into the overlay, detaching the host's tree (mounts copied from the host's side are locked, so
nothing under them can be revealed), and drops from the bounding set the capabilities a container's root does not
have (``CAP_SYS_ADMIN`` among them: nothing can be mounted or unmounted) before it execs the keeper.
``setpriv --pdeathsig`` and ``--kill-child`` end everything when the host process dies. The cached root is never
written.
"""

from __future__ import annotations

import threading

from agentgym_text.envs.os.bwrap import SandboxLimits
from agentgym_text.envs.os.rootfs import DEVICES, SUBID_COUNT, rootfs_dir, rootfs_problem, subid_base

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

_OUTER = r"""
set -e
exec 9<"$1"
mount -t tmpfs -o size=1m,mode=0755 tmpfs /tmp
mkdir /tmp/lower /tmp/scratch
mount --bind -o ro /proc/self/fd/9 /tmp/lower
exec 9<&-
shift
exec "$@"
"""
"""Host root, in a mount namespace of its own: the cached root bound read-only where the sandbox's root can reach
it (host root's home is closed to it). The root is opened before the tmpfs covers /tmp (the cache may live under
/tmp) and bound through its descriptor, which is closed before anything of the sandbox runs."""

_SETUP = r"""
set -e
size=$1
shift
mount -t tmpfs -o "size=${size}m,mode=0755" tmpfs /tmp/scratch
mkdir /tmp/scratch/up /tmp/scratch/work /tmp/scratch/root
mount -t overlay overlay -o "lowerdir=/tmp/lower,upperdir=/tmp/scratch/up,workdir=/tmp/scratch/work" /tmp/scratch/root
cd /tmp/scratch/root
mount -t proc -o nosuid,nodev,noexec proc proc
mount -t tmpfs -o ro,size=4k,mode=0555 tmpfs proc/tty/driver
for name in DEVICES; do
    mount --bind "/dev/$name" "dev/$name"
done
mount -t tmpfs -o "size=${size}m,mode=1777,nosuid,nodev" tmpfs dev/shm
ln -s /proc/self/fd dev/fd
ln -s /proc/self/fd/0 dev/stdin
ln -s /proc/self/fd/1 dev/stdout
ln -s /proc/self/fd/2 dev/stderr
pivot_root . mnt
cd /
umount -l /mnt
echo 0 > /proc/sys/user/max_user_namespaces 2>/dev/null || true
/usr/bin/hostname sandbox 2>/dev/null || true
exec /usr/bin/setpriv --bounding-set=-all,CAPS --inh-caps=-all -- /usr/bin/env -i \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root USER=root LOGNAME=root \
    SHELL=/bin/bash TERM=dumb LANG=C.UTF-8 TZ=UTC "$@"
""".replace("CAPS", ",".join("+" + name for name in KEPT_CAPABILITIES)).replace("DEVICES", " ".join(DEVICES))
"""The sandbox's root, in new user, mount, PID, network, IPC and UTS namespaces: the episode's copy, pivoted into
(the host's tree is put on the root's empty /mnt, then detached)."""


class RootfsRuntime:
    """Sandboxes on the cached Debian root (see the module's docstring); built on first use."""

    name = "rootfs"

    def __init__(self) -> None:
        self._root: str | None = None
        self._lock = threading.Lock()

    def problem(self) -> str | None:
        return rootfs_problem()

    def prepare(self) -> None:
        self.root()

    def root(self) -> str:
        """The cached root's path (built on first use)."""
        with self._lock:
            if self._root is None:
                self._root = str(rootfs_dir())
            return self._root

    def command(self, limits: SandboxLimits) -> list[str]:
        mapping = f"{subid_base()},0,{SUBID_COUNT}"
        inner = [f"--map-users={mapping}", f"--map-groups={mapping}", "--setuid", "0", "--setgid", "0"]
        inner += ["--mount", "--pid", "--fork", "--net", "--ipc", "--uts", "--cgroup", "--kill-child"]
        return (
            ["setpriv", "--pdeathsig", "KILL", "unshare", "--mount", "--propagation", "private", "--"]
            + ["/usr/bin/bash", "-c", _OUTER, "outer", self.root(), "unshare", *inner, "--propagation", "private"]
            + ["--", "/usr/bin/bash", "-c", _SETUP, "setup", str(limits.disk_mb)]
        )

    def popen_kwargs(self) -> dict:
        return {}


ROOTFS = RootfsRuntime()
