"""Seeded content of the code-hosting site (GitLab-like): users, projects, members, issues with labels, merge
requests, commits, files. The logged-in user is ``USERNAME`` (id 1)."""

from __future__ import annotations

import random
import sqlite3

from agentgym_text.envs.webarena.sites.names import FIRST, LAST, WORDS

__all__ = ["build_gitlab", "USERNAME", "ROLES", "LABELS", "LICENSES"]

USERNAME = "byteblaze"
ROLES = ("Guest", "Reporter", "Developer", "Maintainer", "Owner")
LABELS = ("bug", "feature", "documentation", "enhancement", "question", "help wanted")
LICENSES = {
    "MIT": "MIT License",
    "Apache-2.0": "Apache License, Version 2.0",
    "GPL-3.0": "GNU General Public License v3.0",
    "BSD-3-Clause": "BSD 3-Clause License",
}
_NOUNS = (
    "parser",
    "cli",
    "dashboard",
    "scheduler",
    "toolkit",
    "api",
    "bot",
    "engine",
    "viewer",
    "sync",
    "tracker",
    "linter",
    "cache",
    "router",
    "notebook",
)
_ISSUES = (
    ("Fix crash when {x} is empty", "bug"),
    ("Add support for {x} export", "feature"),
    ("Improve documentation for {x}", "documentation"),
    ("{X} is slow with large inputs", "enhancement"),
    ("How do I configure {x}?", "question"),
    ("Tests fail for {x} on Windows", "bug"),
    ("Refactor the {x} module", "enhancement"),
    ("Add dark mode to {x}", "feature"),
    ("Typo in the {x} guide", "documentation"),
    ("Need help migrating {x}", "help wanted"),
)
_TOPICS = (
    "config file",
    "login page",
    "search index",
    "CSV",
    "plugin",
    "settings panel",
    "date parser",
    "timezone",
    "error message",
    "installer",
    "cache",
    "logging",
    "API token",
    "README",
    "release notes",
)
_MRS = ("Fix {x} handling", "Add {x} support", "Update {x} docs", "Refactor {x}", "Speed up {x}")


def build_gitlab(connection: sqlite3.Connection, seed: int) -> None:
    rng = random.Random(f"gitlab-{seed}")
    connection.executescript("""
        CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT UNIQUE, name TEXT);
        CREATE TABLE projects (id INTEGER PRIMARY KEY, namespace TEXT, name TEXT, description TEXT, stars INTEGER,
            created TEXT, license TEXT, UNIQUE (namespace, name));
        CREATE TABLE stars (project_id INTEGER PRIMARY KEY);
        CREATE TABLE members (project_id INTEGER, user_id INTEGER, role TEXT, PRIMARY KEY (project_id, user_id));
        CREATE TABLE issues (id INTEGER PRIMARY KEY, project_id INTEGER, iid INTEGER, title TEXT, description TEXT,
            state TEXT, author_id INTEGER, assignee_id INTEGER, created TEXT);
        CREATE TABLE issue_labels (issue_id INTEGER, label TEXT, PRIMARY KEY (issue_id, label));
        CREATE TABLE merge_requests (id INTEGER PRIMARY KEY, project_id INTEGER, iid INTEGER, title TEXT,
            state TEXT, author_id INTEGER, assignee_id INTEGER, reviewer_id INTEGER, source_branch TEXT,
            created TEXT);
        CREATE TABLE commits (id INTEGER PRIMARY KEY, project_id INTEGER, author_id INTEGER, date TEXT,
            message TEXT, sha TEXT);
        CREATE TABLE files (project_id INTEGER, path TEXT, content TEXT, PRIMARY KEY (project_id, path));
    """)
    users = [(1, USERNAME, "Emma Lopez")]
    seen = {USERNAME}
    while len(users) < 40:
        first, last = rng.choice(FIRST), rng.choice(LAST)
        username = rng.choice(
            [
                f"{first.lower()}{last.lower()}",
                f"{first.lower()}.{last.lower()}",
                f"{first[0].lower()}{last.lower()}{rng.randint(1, 99)}",
            ]
        )
        if username in seen:
            continue
        seen.add(username)
        users.append((len(users) + 1, username, f"{first} {last}"))
    connection.executemany("INSERT INTO users VALUES (?, ?, ?)", users)
    names: set[str] = set()
    project_id = 0
    while project_id < 16:
        name = f"{rng.choice(WORDS)}-{rng.choice(_NOUNS)}"
        if name in names:
            continue
        names.add(name)
        project_id += 1
        owner = 1 if project_id % 2 else rng.randint(2, len(users))
        namespace = users[owner - 1][1]
        license_id = rng.choice(list(LICENSES))
        connection.execute(
            "INSERT INTO projects VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                project_id,
                namespace,
                name,
                f"A small {name.split('-')[1]} written in Python.",
                rng.randint(0, 1500),
                f"2022-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                license_id,
            ),
        )
        members = {owner: "Owner"}
        if owner != 1 and project_id % 4 == 0:
            members[1] = rng.choice(ROLES[2:4])
        for user in rng.sample(range(2, len(users) + 1), rng.randint(2, 6)):
            members.setdefault(user, rng.choice(ROLES[:4]))
        connection.executemany("INSERT INTO members VALUES (?, ?, ?)", [(project_id, u, r) for u, r in members.items()])
        people = sorted(members)
        titles: set[str] = set()
        for iid in range(1, rng.randint(8, 20) + 1):
            pattern, label = rng.choice(_ISSUES)
            topic = rng.choice(_TOPICS)
            title = pattern.format(x=topic, X=topic[0].upper() + topic[1:])
            if title in titles:
                continue
            titles.add(title)
            cursor = connection.execute(
                "INSERT INTO issues (project_id, iid, title, description, state, author_id, assignee_id, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    project_id,
                    iid,
                    title,
                    f"Reported while working on the {topic}. Steps to reproduce are below.",
                    rng.choices(("opened", "closed"), (3, 2))[0],
                    rng.randint(1, len(users)),
                    rng.choice(people + [None, None]),
                    f"2023-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                ),
            )
            labels = {label} | ({rng.choice(LABELS)} if rng.random() < 0.3 else set())
            connection.executemany("INSERT INTO issue_labels VALUES (?, ?)", [(cursor.lastrowid, x) for x in labels])
        mr_titles: set[str] = set()
        for iid in range(1, rng.randint(3, 8) + 1):
            title = rng.choice(_MRS).format(x=rng.choice(_TOPICS))
            if title in mr_titles:
                continue
            mr_titles.add(title)
            connection.execute(
                "INSERT INTO merge_requests (project_id, iid, title, state, author_id, assignee_id, reviewer_id, "
                "source_branch, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    project_id,
                    iid,
                    title,
                    rng.choices(("opened", "merged", "closed"), (3, 3, 1))[0],
                    rng.choice(people),
                    rng.choice(people),
                    rng.choice(people),
                    title.lower().replace(" ", "-"),
                    f"2023-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                ),
            )
        for _ in range(rng.randint(10, 30)):
            connection.execute(
                "INSERT INTO commits (project_id, author_id, date, message, sha) VALUES (?, ?, ?, ?, ?)",
                (
                    project_id,
                    rng.choice(people),
                    f"2023-{rng.randint(1, 3):02d}-{rng.randint(1, 28):02d}",
                    rng.choice(_MRS).format(x=rng.choice(_TOPICS)),
                    f"{rng.getrandbits(64):016x}"[:8],
                ),
            )
        files = {
            "README.md": f"# {name}\n\nA small {name.split('-')[1]} written in Python.\n\nInstall with pip install {name}.\n",
            "LICENSE": f"{LICENSES[license_id]}\n\nCopyright (c) 2022 {users[owner - 1][2]}\n",
            f"src/{name.replace('-', '_')}.py": f'"""{name}."""\n\nVERSION = "{rng.randint(0, 3)}.{rng.randint(0, 9)}.{rng.randint(0, 9)}"\n',
            "requirements.txt": "\n".join(
                sorted(rng.sample(("requests", "click", "numpy", "pyyaml", "rich", "httpx", "jinja2", "pydantic"), 3))
            )
            + "\n",
        }
        connection.executemany("INSERT INTO files VALUES (?, ?, ?)", [(project_id, p, c) for p, c in files.items()])
    connection.commit()
