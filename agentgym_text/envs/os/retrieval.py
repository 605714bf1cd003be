"""Information-retrieval templates (AgentBench's first OS group): questions with one exact answer."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from agentgym_text.envs.os.generator import BASE_PASSWD, Files, Milestone, TaskInstance
from agentgym_text.envs.os.people import USERS

__all__ = ["count_modified_after", "largest_file", "users_matching", "count_extension", "random_stamp"]

_SERVICES = ("nginx", "postgres", "cron", "backup", "mailer", "billing", "sync", "worker")
_PEOPLE = USERS[:16]


def random_stamp(rng: random.Random, cutoff: datetime, after: bool) -> str:
    """A time 2-120 days after (or before) ``cutoff``, so "before/after the cutoff date" is never ambiguous."""
    days = rng.randint(2, 120)
    moment = cutoff + timedelta(days=days if after else -days, seconds=rng.randint(0, 86_399))
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def _cutoff(rng: random.Random) -> datetime:
    return datetime(2023, 3, 1) + timedelta(days=rng.randint(0, 240))


def count_modified_after(rng: random.Random) -> TaskInstance:
    service = rng.choice(_SERVICES)
    folder = f"/var/log/{service}"
    pool = [
        f"{service}.log",
        "error.log",
        "access.log",
        "debug.log",
        "audit.log",
        f"{service}.log.1",
        f"{service}.log.2",
        "error.log.1",
        "access.log.1",
        "startup.log",
        "queries.log",
        "slow.log",
        "events.log",
        "jobs.log",
        "report.txt",
    ]
    chosen = rng.sample(pool, rng.randint(7, 12))
    cutoff = _cutoff(rng)
    flags = [True, True, False, False] + [rng.random() < 0.5 for _ in chosen[4:]]
    rng.shuffle(flags)
    files = Files()
    after, before = [], []
    for name, is_after in zip(chosen, flags):
        files.write(
            f"{folder}/{name}",
            f"{service} {name} entry\n" * rng.randint(1, 5),
            mtime=random_stamp(rng, cutoff, is_after),
        )
        (after if is_after else before).append(name)
    archived = []
    if rng.random() < 0.6:
        for index in range(rng.randint(2, 3)):
            name = f"{service}-old-{index + 1}.log.gz"
            files.write(f"{folder}/archive/{name}", "old\n", mtime=random_stamp(rng, cutoff, True))
            archived.append(name)
    day = cutoff.strftime("%Y-%m-%d")
    find = f"find {folder} -maxdepth 1 -type f -newermt '{day}'"
    return TaskInstance(
        template="count-modified-after",
        group="information retrieval",
        description=f"How many files directly inside {folder} (not inside its subdirectories) were last modified "
        f"after {day}? Answer with a number.",
        init=files.script(),
        solution=(f"ls -l --time-style=long-iso {folder}", find, f"{find} | wc -l"),
        milestones=(
            Milestone(f"list the files of {folder}", "all", targets=tuple(chosen)),
            Milestone(
                "single out the files modified after the date",
                "select",
                targets=tuple(after),
                others=tuple(before + archived),
            ),
        ),
        answer=str(len(after)),
        explore=(f"ls {folder}", f"ls -la {folder}", "ls /var/log", "pwd"),
    )


def largest_file(rng: random.Random) -> TaskInstance:
    user = rng.choice(_PEOPLE)
    folder = f"/home/{user}/{rng.choice(('reports', 'media', 'backups', 'datasets', 'work'))}"
    pool = [
        "report-q1.pdf",
        "report-q2.pdf",
        "data.csv",
        "notes.txt",
        "backup.tar",
        "photo.jpg",
        "slides.odp",
        "archive.zip",
        "budget.xlsx",
        "readme.md",
        "dump.sql",
        "video.mp4",
        "song.mp3",
        "draft.docx",
    ]
    chosen = rng.sample(pool, rng.randint(6, 10))
    recursive = rng.random() < 0.5
    sizes = rng.sample(range(200, 40_000, 7), len(chosen))
    top = max(range(len(sizes)), key=sizes.__getitem__)
    sizes[top] = int(sorted(sizes)[-2] * 1.2) + 50
    files = Files()
    paths = []
    for name, size in zip(chosen, sizes):
        sub = rng.choice(("", "old/", "2023/")) if recursive else ""
        paths.append(f"{folder}/{sub}{name}")
        files.sized(paths[-1], size)
    if recursive:
        where = f"anywhere under {folder} (including its subdirectories)"
        solution = (f"find {folder} -type f -printf '%s %p\\n' | sort -rn",)
    else:
        where = f"directly inside {folder}"
        solution = (f"ls -lS {folder}",)
    return TaskInstance(
        template="largest-file",
        group="information retrieval",
        description=f"What is the name of the largest file {where}? Answer with the file name only, without "
        "its directory.",
        init=files.script(),
        solution=solution,
        milestones=(Milestone(f"list the files with their sizes under {folder}", "all", targets=tuple(chosen)),),
        answer=chosen[top],
        explore=(f"ls {folder}", f"ls -la {folder}", f"ls /home/{user}", "pwd"),
    )


def users_matching(rng: random.Random) -> TaskInstance:
    people = rng.sample(_PEOPLE, rng.randint(5, 9))
    shells = ("/bin/bash", "/bin/sh", "/usr/bin/zsh", "/usr/sbin/nologin", "/bin/false")
    users = list(BASE_PASSWD)
    for index, name in enumerate(people):
        home = f"/home/{name}" if rng.random() < 0.7 else rng.choice((f"/srv/{name}", f"/var/lib/{name}"))
        users.append((name, 1001 + index, 1001 + index, name.title(), home, rng.choice(shells)))
    users.insert(rng.randint(1, len(users)), ("svc-deploy", 998, 998, "deploy", "/home/svc-deploy", "/bin/bash"))
    files = Files(users)
    for _name, uid, _, _, home, _ in users:
        if uid >= 1000 and uid != 65534 and home.startswith("/home/"):
            files.mkdir(home)
    everyone = [u[0] for u in users]
    if rng.random() < 0.5:
        shell = rng.choice(("/bin/bash", "/usr/sbin/nologin", "/bin/sh"))
        match = [u[0] for u in users if u[5] == shell]
        question = f"How many user accounts in /etc/passwd have {shell} as their login shell? Answer with a number."
        rule = f'$7 == "{shell}"'
        fields = "$1, $3, $7"
        milestone = f"single out the accounts whose shell is {shell}"
    else:
        match = [u[0] for u in users if u[1] >= 1000 and u[4].startswith("/home/")]
        question = (
            "How many user accounts have a UID of 1000 or more and a home directory under /home? Answer with a number."
        )
        rule = "$3 >= 1000 && $6 ~ /^\\/home\\//"
        fields = "$1, $3, $6"
        milestone = "single out the accounts with UID >= 1000 and a home under /home"
    return TaskInstance(
        template="users-matching",
        group="information retrieval",
        description=question,
        init=files.script(),
        solution=(
            f"awk -F: '{{print {fields}}}' /etc/passwd",
            f"awk -F: '{rule} {{print $1}}' /etc/passwd",
            f"awk -F: '{rule}' /etc/passwd | wc -l",
        ),
        milestones=(
            Milestone("read /etc/passwd", "all", targets=tuple(everyone)),
            Milestone(
                milestone, "select", targets=tuple(match), others=tuple(name for name in everyone if name not in match)
            ),
        ),
        answer=str(len(match)),
        explore=("head -n 5 /etc/passwd", "ls /home", "wc -l /etc/passwd", "whoami"),
    )


def count_extension(rng: random.Random) -> TaskInstance:
    ext = rng.choice(("log", "txt", "conf", "py", "md", "csv"))
    others = [e for e in ("log", "txt", "conf", "py", "md", "csv", "json") if e != ext]
    root = rng.choice(("/srv", "/opt")) + "/" + rng.choice(("atlas", "hermes", "orion", "vega", "lyra", "nova"))
    dirs = ["", "src/", "docs/", "data/", "data/raw/", "build/tmp/", "config/"]
    stems = [
        "main",
        "util",
        "index",
        "notes",
        "setup",
        "report",
        "cache",
        "server",
        "client",
        "readme",
        "todo",
        "draft",
        "summary",
        "events",
        "schema",
    ]
    files = Files()
    matching, rest = [], []
    used = set()
    for _ in range(rng.randint(10, 16)):
        path = f"{root}/{rng.choice(dirs)}{rng.choice(stems)}.{rng.choice([ext, ext] + others)}"
        if path in used:
            continue
        used.add(path)
        (matching if path.endswith("." + ext) else rest).append(path)
    decoys = [
        f"{root}/{rng.choice(dirs)}{rng.choice(stems)}.{ext}.gz",
        f"{root}/{rng.choice(dirs)}{rng.choice(stems)}.{ext.upper()}",
    ]
    rest += [path for path in decoys if path not in used]
    if not matching:
        matching.append(f"{root}/src/main.{ext}")
    for path in matching + rest:
        files.write(path, f"{path.rsplit('/', 1)[-1]}\n")
    trap = f"{root}/old.{ext}"
    files.mkdir(trap)
    files.write(f"{trap}/.keep", "")
    rest.append(f"{trap}/.keep")
    find = f"find {root} -type f -name '*.{ext}'"
    return TaskInstance(
        template="count-extension",
        group="information retrieval",
        description=f"How many regular files whose names end in .{ext} are there under {root}, including all of "
        "its subdirectories? Answer with a number.",
        init=files.script(),
        solution=(f"find {root}", find, f"{find} | wc -l"),
        milestones=(
            Milestone(f"list everything under {root}", "all", targets=tuple(matching + rest)),
            Milestone(f"single out the .{ext} files", "select", targets=tuple(matching), others=tuple(rest + [trap])),
        ),
        answer=str(len(matching)),
        explore=(f"ls {root}", f"ls -la {root}", f"ls -R {root}", "pwd"),
    )
