"""File and permission templates (AgentBench's second OS group): operations judged by a checker script."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from agentgym_text.envs.os.generator import Files, Milestone, TaskInstance, q
from agentgym_text.envs.os.people import USERS
from agentgym_text.envs.os.retrieval import random_stamp

__all__ = ["readonly_except", "sort_by_extension", "delete_older_than", "scripts_executable"]

_PEOPLE = USERS[:10]


def _mode_is(path: str, mode: str) -> str:
    return f'[ "$(stat -c %a {path})" = {mode} ]'


def readonly_except(rng: random.Random) -> TaskInstance:
    user = rng.choice(_PEOPLE)
    root = f"/home/{user}/{rng.choice(('projects', 'shared', 'thesis', 'website', 'notes'))}"
    keep = rng.choice(("TODO.md", "config.local", "notes.txt", "draft.tex"))
    stems = [
        "index.html",
        "style.css",
        "main.py",
        "data.json",
        "chapter1.tex",
        "refs.bib",
        "plan.md",
        "run.sh",
        "table.csv",
        "logo.svg",
        "intro.txt",
        "results.txt",
    ]
    files = Files()
    modes: dict[str, str] = {}
    for sub in ("", rng.choice(("src/", "chapters/")), rng.choice(("assets/", "misc/"))):
        for name in rng.sample(stems, rng.randint(2, 4)):
            modes[f"{root}/{sub}{name}"] = rng.choice(("644", "664", "666", "640", "600", "755", "775"))
        if rng.random() < 0.7 or sub == "":
            modes[f"{root}/{sub}{keep}"] = rng.choice(("644", "664", "600"))
    for path, mode in modes.items():
        files.write(path, f"contents of {path.rsplit('/', 1)[-1]}\n", mode=mode)
    targets = [p for p in modes if not p.endswith("/" + keep)]
    kept = [p for p in modes if p.endswith("/" + keep)]

    def readonly(path: str) -> str:
        return f"{int(modes[path], 8) & ~0o222:o}"

    targets_done = " && ".join(_mode_is(p, readonly(p)) for p in targets)
    check = " && ".join([targets_done] + [_mode_is(p, modes[p]) for p in kept])
    listing = f"find {root} -type f -printf '%m %p\\n'"
    return TaskInstance(
        template="readonly-except",
        group="file and permission manipulation",
        description=f"Remove the write permission for everyone (owner, group and others) from every regular file "
        f"under {root}, recursively, except the files named {keep}: those must keep their current permissions. "
        "Do not change the directories. Take the finish action when you are done.",
        init=files.script(),
        solution=(listing, f"find {root} -type f ! -name '{keep}' -exec chmod a-w {{}} +", listing),
        milestones=(
            Milestone(f"list the files under {root}", "all", targets=tuple(modes)),
            Milestone(f"every file but {keep} is read-only", "state", script=targets_done),
        ),
        check=check,
        explore=(f"ls -la {root}", f"ls -R {root}", f"ls /home/{user}", "pwd"),
    )


def sort_by_extension(rng: random.Random) -> TaskInstance:
    user = rng.choice(_PEOPLE)
    folder = f"/home/{user}/downloads"
    exts = rng.sample(("pdf", "jpg", "txt", "zip", "csv", "mp3"), rng.randint(2, 4))
    stems = [
        "invoice",
        "holiday",
        "manual",
        "scan",
        "export",
        "track",
        "letter",
        "backup",
        "photo",
        "summary",
        "ticket",
        "contract",
    ]
    files = Files()
    content = {}
    for index, stem in enumerate(rng.sample(stems, rng.randint(6, 10))):
        name = f"{stem}.{exts[index % len(exts)]}"
        content[name] = f"{name} {rng.randint(1000, 9999)}\n"
        files.write(f"{folder}/{name}", content[name])

    def moved(ext: str) -> str:
        return " && ".join(
            f'[ "$(cat {folder}/{ext}/{name})" = {q(body.rstrip())} ]'
            for name, body in content.items()
            if name.endswith("." + ext)
        )

    empty_top = f'[ -z "$(find {folder} -maxdepth 1 -type f)" ]'
    example = next(iter(content))
    return TaskInstance(
        template="sort-by-extension",
        group="file and permission manipulation",
        description=f"Move every file in {folder} into a subdirectory of {folder} named after the file's extension; "
        f"for example {example} must end up as {folder}/{example.rsplit('.', 1)[1]}/{example}. Create the "
        f"subdirectories as needed and leave no file directly in {folder}. Take the finish action when you are "
        "done.",
        init=files.script(),
        solution=(
            f"ls {folder}",
            f'cd {folder} && for f in *.*; do mkdir -p "${{f##*.}}" && mv -- "$f" "${{f##*.}}/"; done',
            f"find {folder} -type f | sort",
        ),
        milestones=(
            Milestone(f"list the files in {folder}", "all", targets=tuple(content)),
            *(Milestone(f"every .{ext} file is in {folder}/{ext}", "state", script=moved(ext)) for ext in exts),
        ),
        check=" && ".join([moved(ext) for ext in exts] + [empty_top]),
        explore=(f"ls -la {folder}", f"ls /home/{user}", "pwd", f"ls -R {folder}"),
    )


def delete_older_than(rng: random.Random) -> TaskInstance:
    folder = rng.choice(("/var/cache/", "/tmp/")) + rng.choice(("thumbs", "pkgcache", "sessions", "render", "feeds"))
    cutoff = datetime(2023, 3, 1) + timedelta(days=rng.randint(0, 240))
    files = Files()
    old, new = [], []
    flags = [True, True, False, False] + [rng.random() < 0.5 for _ in range(rng.randint(4, 9))]
    rng.shuffle(flags)
    for index, is_new in enumerate(flags):
        name = f"{rng.choice(('item', 'blob', 'entry', 'chunk'))}-{index + 1:02d}.{rng.choice(('dat', 'bin', 'tmp'))}"
        files.write(f"{folder}/{name}", f"{name}\n", mtime=random_stamp(rng, cutoff, is_new))
        (new if is_new else old).append(name)
    day = cutoff.strftime("%Y-%m-%d")
    gone = " && ".join(f"[ ! -e {folder}/{name} ]" for name in old)
    kept = " && ".join(f'[ "$(cat {folder}/{name})" = {name} ]' for name in new)
    find = f"find {folder} -maxdepth 1 -type f ! -newermt '{day}'"
    listing = f"ls -l --time-style=long-iso {folder}"
    return TaskInstance(
        template="delete-older-than",
        group="file and permission manipulation",
        description=f"Delete every file in {folder} that was last modified before {day}. Keep every other file "
        "unchanged. Take the finish action when you are done.",
        init=files.script(),
        solution=(listing, find, f"{find} -delete", listing),
        milestones=(
            Milestone(f"list the files of {folder} with their dates", "all", targets=tuple(old + new)),
            Milestone("single out the files modified before the date", "select", targets=tuple(old), others=tuple(new)),
            Milestone("the old files are gone", "state", script=gone),
        ),
        check=f"{gone} && {kept}",
        explore=(f"ls {folder}", f"ls -la {folder}", "pwd", f"ls {folder.rsplit('/', 1)[0]}"),
    )


def scripts_executable(rng: random.Random) -> TaskInstance:
    root = "/opt/" + rng.choice(("deploytool", "backupkit", "sitegen", "monitor", "etl"))
    shebangs = ("#!/bin/sh", "#!/bin/bash", "#!/usr/bin/env python3", "#!/usr/bin/env bash")
    script_names = [
        "bin/start",
        "bin/stop.sh",
        "bin/status",
        "lib/migrate.py",
        "bin/rotate.sh",
        "tools/check",
        "tools/cleanup.sh",
        "bin/report.py",
    ]
    decoy_names = [
        "lib/common.sh",
        "lib/helpers.sh",
        "README.md",
        "docs/usage.txt",
        "etc/settings.conf",
        "docs/example.md",
    ]
    files = Files()
    scripts = rng.sample(script_names, rng.randint(3, 5))
    decoys = rng.sample(decoy_names, rng.randint(3, 5))
    for name in scripts:
        files.write(f"{root}/{name}", f"{rng.choice(shebangs)}\necho {name}\n", mode="644")
    for name in decoys:
        if name.endswith(".sh"):
            body = '# helper functions, sourced by the scripts in bin/\nlog() { echo "$@"; }\n'
        else:
            body = f"{name} for {root}\nExample:\n#!/bin/sh\necho hello\n"
        files.write(f"{root}/{name}", body, mode="644")
    script_paths = [f"{root}/{n}" for n in scripts]
    decoy_paths = [f"{root}/{n}" for n in decoys]
    check = " && ".join([_mode_is(p, "744") for p in script_paths] + [_mode_is(p, "644") for p in decoy_paths])
    each = f"for f in $(find {root} -type f); do head -n 1 \"$f\" | grep -q '^#!' && "
    return TaskInstance(
        template="scripts-executable",
        group="file and permission manipulation",
        description=f"Make every file under {root} whose first line starts with #! executable by its owner (add "
        "the owner's execute permission). Do not change the permissions of any other file. Take the finish "
        "action when you are done.",
        init=files.script(),
        solution=(
            f"find {root} -type f",
            each + 'echo "$f"; done',
            each + 'chmod u+x "$f"; done',
            f"find {root} -type f -printf '%m %p\\n'",
        ),
        milestones=(
            Milestone(f"list the files under {root}", "all", targets=tuple(script_paths + decoy_paths)),
            Milestone(
                "single out the files starting with #!",
                "select",
                targets=tuple(script_paths),
                others=tuple(decoy_paths),
            ),
        ),
        check=check,
        explore=(f"ls -la {root}", f"ls -R {root}", "pwd", "ls /opt"),
    )
