"""The Debian root filesystem that AgentBench's own OS items run on, built once into the cache with mmdebstrap.

The recipe (suite, variant, packages) stands in for AgentBench's ``local-os/default`` image (Ubuntu with python3
and a few tools): Debian's ``minbase`` with python3, procps, sudo and the small tools items call. mmdebstrap
writes a tarball with the machine's own apt sources; the tarball is unpacked inside a user namespace whose uid and
gid range ``SUBID_BASE..+65536`` stands for 0..65535, so the files belong to the sandbox's own root, users and
groups (SUID bits included). The entry lives in ``$AGENTGYM_TEXT_CACHE/os-rootfs/<key>/root`` and is rebuilt when
this recipe changes. Sandboxes never write to it: each gets a copy-on-write overlay (``userns.py``).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from agentgym_text.core.cache import CacheError, build_cached, progress_bar, source_key

__all__ = ["RootfsError", "PACKAGES", "SUITE", "SUBID_COUNT", "subid_base", "rootfs_problem", "rootfs_dir"]

SUITE = "bookworm"
PACKAGES = (
    "python3",
    "procps",
    "sudo",
    "psmisc",
    "tree",
    "zip",
    "unzip",
    "file",
    "bc",
    "adduser",
    "less",
    "curl",
    "wget",
)
"""On top of minbase (which has bash, coreutils, findutils, grep, sed, gawk's mawk, passwd, util-linux's su)."""
RECIPE_VERSION = 3
"""Raise when the build steps change (the suite and packages are part of the cache key already)."""
SUBID_COUNT = 65536
SOURCES = Path("/etc/apt/sources.list.d/debian.sources")


class RootfsError(RuntimeError):
    """The root filesystem cannot be built or used here (the message says why and what to install)."""


def subid_base() -> int | None:
    """The first host uid of root's subordinate range (``/etc/subuid``, the same in ``/etc/subgid``), if any."""
    found = []
    for name in ("/etc/subuid", "/etc/subgid"):
        try:
            lines = Path(name).read_text().splitlines()
        except OSError:
            return None
        ranges = [line.split(":") for line in lines if line.startswith("root:")]
        good = [(int(r[1]), int(r[2])) for r in ranges if len(r) == 3 and r[1].isdigit() and r[2].isdigit()]
        good = [start for start, count in good if count >= SUBID_COUNT]
        if not good:
            return None
        found.append(good[0])
    return found[0] if found[0] == found[1] else None


@functools.lru_cache(maxsize=1)
def rootfs_problem() -> str | None:
    """None when the rootfs sandbox can run here, else one sentence saying why not (checked once per process)."""
    if os.geteuid() != 0:
        return "the Debian root filesystem sandbox needs root (it maps a uid range with newuidmap)"
    for program in ("mmdebstrap", "unshare", "newuidmap", "setpriv"):
        if shutil.which(program) is None:
            return (
                f"{program} is missing; install it with scripts/install-system.sh (apt-get install mmdebstrap uidmap)"
            )
    if subid_base() is None:
        return (
            f"root has no subordinate uid/gid range of {SUBID_COUNT} in /etc/subuid and /etc/subgid (the same start "
            "in both); scripts/install-system.sh adds one"
        )
    return None


def _unpack(tarball: Path, target: Path, base: int) -> None:
    """Unpack as the sandbox's root: uids 0..65535 become ``base``.. on the host (device nodes are skipped).

    The tarball comes on stdin and the target through a directory fd, since the namespace's root may not reach
    either by its host path (``/root`` is closed to others)."""
    target.mkdir()
    os.chown(target, base, base)
    mapping = f"{base},0,{SUBID_COUNT}"
    fd = os.open(target, os.O_PATH | os.O_DIRECTORY)
    try:
        with tarball.open("rb") as stream:
            result = subprocess.run(
                ["unshare", f"--map-users={mapping}", f"--map-groups={mapping}", "--setuid", "0", "--setgid", "0"]
                + ["tar", "--numeric-owner", "-xpf", "-", "-C", f"/proc/self/fd/{fd}", "--exclude=./dev/*"],
                stdin=stream,
                capture_output=True,
                text=True,
                pass_fds=(fd,),
            )
    finally:
        os.close(fd)
    if result.returncode != 0:
        raise RootfsError(f"unpacking the root filesystem failed: {result.stderr.strip()[-1500:]}")


DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
"""The host's device files each sandbox binds over the empty files of the same names in /dev."""


def _furnish(root: Path, base: int) -> None:
    """What a sandbox's start would otherwise make each time: /dev's mount points, the host name. (The links into
    /proc/self are made at each start: the cache's manifest would follow them into the building process.)"""
    dev = root / "dev"
    for name in DEVICES:
        (dev / name).touch(mode=0o666)
    (dev / "shm").mkdir(mode=0o1777)
    (dev / "pts").mkdir(mode=0o755)
    (root / "etc/hostname").write_text("sandbox\n")
    (root / "etc/hosts").write_text(
        "127.0.0.1\tlocalhost\n127.0.1.1\tsandbox\n::1\tlocalhost ip6-localhost ip6-loopback\n"
    )
    for path in [*dev.iterdir(), root / "etc/hostname", root / "etc/hosts"]:
        os.lchown(path, base, base)
    (dev / "shm").chmod(0o1777)


def _build(folder: Path) -> None:
    base = subid_base()
    assert base is not None
    sources = str(SOURCES) if SOURCES.is_file() else "-"
    with tempfile.TemporaryDirectory(prefix="agentgym-rootfs-") as scratch:
        tarball = Path(scratch) / "root.tar"
        command = ["mmdebstrap", "--variant=minbase", "--mode=root", "--include=" + ",".join(PACKAGES)]
        for stage in progress_bar(["mmdebstrap", "unpack"], desc="Debian root filesystem"):
            if stage == "mmdebstrap":
                result = subprocess.run(
                    [*command, SUITE, str(tarball), sources], capture_output=True, text=True, stdin=subprocess.DEVNULL
                )
                if result.returncode != 0:
                    raise RootfsError(f"mmdebstrap failed: {result.stderr.strip()[-1500:]}")
            else:
                _unpack(tarball, folder / "root", base)
                _furnish(folder / "root", base)


@functools.lru_cache(maxsize=1)
def rootfs_dir() -> Path:
    """The unpacked root filesystem, built on first use (about a minute, network to Debian's mirror needed)."""
    problem = rootfs_problem()
    if problem is not None:
        raise RootfsError(problem)
    key = source_key(RECIPE_VERSION, SUITE, "minbase", PACKAGES, subid_base())
    try:
        entry = build_cached("os-rootfs", key, _build, verify="size")
    except (CacheError, OSError, subprocess.CalledProcessError) as error:
        raise RootfsError(f"the Debian root filesystem could not be built: {error}") from error
    return entry / "root"
