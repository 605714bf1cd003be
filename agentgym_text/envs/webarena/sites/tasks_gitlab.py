"""Task generators for the code-hosting site, modelled on WebArena's gitlab intent templates."""

from __future__ import annotations

import calendar
import sqlite3

from agentgym_text.envs.webarena.sites.gitlab_data import LABELS, USERNAME
from agentgym_text.envs.webarena.sites.taskkit import G, R, click, goto, rng_for, rows, stop, task, type_

__all__ = ["generate"]


def _project(ns: str, name: str) -> list[dict]:
    return [click("link", "Explore projects"), click("link", f"{ns} / {name}")]


def _q(text: str) -> str:
    return text.replace("'", "''")


def generate(c: sqlite3.Connection, reddit: sqlite3.Connection | None = None) -> list[dict]:
    out: list[dict] = []
    projects = rows(c, "SELECT id, namespace, name FROM projects ORDER BY id")
    mine = [p for p in projects if p[1] == USERNAME]

    new_issues = (
        "Add a changelog to the README",
        "Support Python 3.12",
        "Crash on empty config file path",
        "Document the release process",
        "Add a command line flag for verbose output",
        "Broken link in the contributing guide",
    )
    for (pid, ns, name), title in zip(rng_for(60).sample(projects, 4), new_issues):
        out.append(
            task(
                60,
                'Open an issue titled "{{title}}" in the {{repo}} project',
                {"title": title, "repo": name},
                G,
                _project(ns, name)
                + [
                    click("link", "Issues"),
                    click("link", "New issue"),
                    type_("textbox", "Title", title, 0),
                    click("button", "Create issue"),
                    stop(),
                ],
                html=[
                    {"url": f"{G}/{ns}/{name}/-/issues", "locator": "", "required_contents": {"must_include": [title]}}
                ],
                db=[
                    {
                        "site": "gitlab",
                        "sql": f"SELECT COUNT(*) FROM issues WHERE project_id = {pid} AND "
                        f"title = '{_q(title)}' AND state = 'opened' AND author_id = 1",
                        "expected": 1,
                    }
                ],
            )
        )

    for intent, name, url in (
        (
            "Checkout merge requests assigned to me",
            "Merge requests assigned to me",
            f"{G}/dashboard/merge_requests?assignee_username={USERNAME}",
        ),
        (
            "Checkout merge requests requiring my review",
            "Review requests for me",
            f"{G}/dashboard/merge_requests?reviewer_username={USERNAME}",
        ),
        (
            "Show me the issues assigned to me",
            "Issues assigned to me",
            f"{G}/dashboard/issues?assignee_username={USERNAME}",
        ),
    ):
        out.append(task(61, intent, {}, G, [click("link", name), stop()], url=url))

    labelled = rows(
        c,
        "SELECT DISTINCT p.id, p.namespace, p.name, l.label FROM issues i JOIN issue_labels l ON "
        "l.issue_id = i.id JOIN projects p ON p.id = i.project_id WHERE i.state = 'opened' ORDER BY 1, 4",
    )
    for _pid, ns, name, label in rng_for(62).sample(labelled, 5):
        out.append(
            task(
                62,
                'List all opened issues labelled "{{label}}" in {{repo}}',
                {"label": label, "repo": name},
                G,
                _project(ns, name) + [click("link", "Issues"), click("link", label), stop()],
                url=f"{G}/{ns}/{name}/-/issues?label_name={label.replace(' ', '+')}",
            )
        )

    for pid, ns, name in rng_for(63).sample(mine, 4):
        users = [
            r[0]
            for r in rows(
                c,
                "SELECT u.username FROM members m JOIN users u ON u.id = m.user_id WHERE "
                "m.project_id = ? AND u.id != 1 ORDER BY u.username",
                (pid,),
            )
        ]
        out.append(
            task(
                63,
                "Who else have access to my repo {{repo}}, show me their usernames",
                {"repo": name},
                G,
                _project(ns, name) + [click("link", "Members"), stop(", ".join(users))],
                answer=("must_include", users),
                progress={"url": f"{G}/{ns}/{name}/-/project_members", "contents": users},
            )
        )

    users = [r[0] for r in rows(c, "SELECT username FROM users WHERE id > 1 ORDER BY id")]
    rng = rng_for(64)
    for n, (pid, ns, name) in enumerate(rng.sample(mine, 5)):
        members = {
            r[0]
            for r in rows(
                c, "SELECT u.username FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = ?", (pid,)
            )
        }
        user = rng.choice([u for u in users if u not in members])
        role = ("Developer", "Reporter", "Maintainer", "Guest", "Developer")[n]
        out.append(
            task(
                64,
                "Add {{user}} to the {{repo}} project as {{role}}",
                {"user": user, "repo": name, "role": role},
                G,
                _project(ns, name)
                + [
                    click("link", "Members"),
                    type_("textbox", "Username", user, 0),
                    click("radio", role),
                    click("button", "Invite"),
                    stop(),
                ],
                html=[
                    {
                        "url": f"{G}/{ns}/{name}/-/project_members",
                        "locator": "",
                        "required_contents": {"must_include": [user]},
                    }
                ],
                db=[
                    {
                        "site": "gitlab",
                        "sql": f"SELECT m.role FROM members m JOIN users u ON u.id = m.user_id "
                        f"WHERE m.project_id = {pid} AND u.username = '{user}'",
                        "expected": role,
                    }
                ],
            )
        )

    open_issues = rows(
        c,
        "SELECT i.id, i.iid, i.title, p.namespace, p.name, p.id FROM issues i JOIN projects p ON "
        "p.id = i.project_id WHERE i.state = 'opened' ORDER BY i.id",
    )
    picks = rng_for(65).sample(open_issues, 13)
    for iid_, iid, title, ns, name, _ in picks[:5]:
        out.append(
            task(
                65,
                'Close the issue "{{title}}" in {{repo}}',
                {"title": title, "repo": name},
                G,
                _project(ns, name)
                + [click("link", "Issues"), click("link", title), click("button", "Close issue"), stop()],
                html=[
                    {
                        "url": f"{G}/{ns}/{name}/-/issues/{iid}",
                        "locator": "",
                        "required_contents": {"must_include": ["Status: Closed"]},
                    }
                ],
                db=[{"site": "gitlab", "sql": f"SELECT state FROM issues WHERE id = {iid_}", "expected": "closed"}],
            )
        )
    rng = rng_for(67)
    for iid_, iid, title, ns, name, pid in picks[5:9]:
        user = rng.choice(
            [
                r[0]
                for r in rows(
                    c,
                    "SELECT u.username FROM members m JOIN users u ON u.id = m.user_id "
                    "WHERE m.project_id = ? AND u.id IS NOT (SELECT assignee_id FROM "
                    "issues WHERE id = ?) ORDER BY u.username",
                    (pid, iid_),
                )
            ]
        )
        out.append(
            task(
                67,
                'Assign the issue "{{title}}" in {{repo}} to {{user}}',
                {"title": title, "repo": name, "user": user},
                G,
                _project(ns, name)
                + [
                    click("link", "Issues"),
                    click("link", title),
                    type_("textbox", "Assignee username", user, 0),
                    click("button", "Assign"),
                    stop(),
                ],
                html=[
                    {
                        "url": f"{G}/{ns}/{name}/-/issues/{iid}",
                        "locator": "",
                        "required_contents": {"must_include": [f"Assignee: {user}"]},
                    }
                ],
                db=[
                    {
                        "site": "gitlab",
                        "sql": f"SELECT u.username FROM issues i JOIN users u ON u.id = "
                        f"i.assignee_id WHERE i.id = {iid_}",
                        "expected": user,
                    }
                ],
            )
        )
    for iid_, iid, title, ns, name, _ in picks[9:13]:
        have = {r[0] for r in rows(c, "SELECT label FROM issue_labels WHERE issue_id = ?", (iid_,))}
        label = rng.choice([x for x in LABELS if x not in have])
        out.append(
            task(
                68,
                'Add the label "{{label}}" to the issue "{{title}}" in {{repo}}',
                {"label": label, "title": title, "repo": name},
                G,
                _project(ns, name)
                + [
                    click("link", "Issues"),
                    click("link", title),
                    type_("textbox", "Label name", label, 0),
                    click("button", "Add label"),
                    stop(),
                ],
                html=[
                    {
                        "url": f"{G}/{ns}/{name}/-/issues/{iid}",
                        "locator": "",
                        "required_contents": {"must_include": [label]},
                    }
                ],
                db=[
                    {
                        "site": "gitlab",
                        "sql": f"SELECT COUNT(*) FROM issue_labels WHERE issue_id = {iid_} AND label = '{label}'",
                        "expected": 1,
                    }
                ],
            )
        )

    for pid, ns, name in rng_for(66).sample(projects, 4):
        count = rows(c, "SELECT COUNT(*) FROM issues WHERE project_id = ? AND state = 'opened'", (pid,))[0][0]
        out.append(
            task(
                66,
                "How many open issues are there in the {{repo}} project?",
                {"repo": name},
                G,
                _project(ns, name) + [click("link", "Issues"), stop(str(count))],
                answer=("exact_match", str(count)),
                progress={"url": f"{G}/{ns}/{name}/-/issues", "contents": [f"{count} issues"]},
            )
        )

    for pid, ns, name in rng_for(69).sample(projects, 4):
        license_id = rows(c, "SELECT license FROM projects WHERE id = ?", (pid,))[0][0]
        out.append(
            task(
                69,
                "Which license does the {{repo}} project use?",
                {"repo": name},
                G,
                _project(ns, name) + [stop(license_id)],
                answer=("must_include", [license_id]),
                progress={"url": f"{G}/{ns}/{name}", "contents": [f"License: {license_id}"]},
            )
        )

    authors = rows(
        c,
        "SELECT p.id, p.namespace, p.name, u.name, substr(c.date, 1, 7), COUNT(*) FROM commits c JOIN "
        "projects p ON p.id = c.project_id JOIN users u ON u.id = c.author_id GROUP BY 1, 4, 5 ORDER BY 1, 4, 5",
    )
    for _pid, ns, name, person, month, count in rng_for(70).sample(authors, 4):
        label = f"{calendar.month_name[int(month[5:])]} {month[:4]}"
        out.append(
            task(
                70,
                "How many commits did {{person}} make to {{repo}} in {{month}}?",
                {"person": person, "repo": name, "month": label},
                G,
                _project(ns, name) + [click("link", "Commits"), stop(str(count))],
                answer=("exact_match", str(count)),
                progress={"url": f"{G}/{ns}/{name}/-/commits", "contents": [person]},
            )
        )

    mrs = rows(
        c,
        "SELECT m.title, u.username, p.namespace, p.name, m.iid FROM merge_requests m JOIN users u ON "
        "u.id = m.author_id JOIN projects p ON p.id = m.project_id WHERE m.state = 'opened' ORDER BY m.id",
    )
    for title, user, ns, name, iid in rng_for(71).sample(mrs, 3):
        out.append(
            task(
                71,
                'Who created the merge request "{{title}}" in {{repo}}? Give the username.',
                {"title": title, "repo": name},
                G,
                _project(ns, name) + [click("link", "Merge requests"), click("link", title), stop(user)],
                answer=("exact_match", user),
                progress={"url": f"{G}/{ns}/{name}/-/merge_requests/{iid}", "contents": [f"by {user}"]},
            )
        )

    for pid, ns, name in rng_for(72).sample(projects, 3):
        out.append(
            task(
                72,
                "Star the {{repo}} project",
                {"repo": name},
                G,
                _project(ns, name) + [click("button", "Star"), stop()],
                html=[{"url": f"{G}/{ns}/{name}", "locator": "", "required_contents": {"must_include": ["Unstar"]}}],
                db=[{"site": "gitlab", "sql": f"SELECT COUNT(*) FROM stars WHERE project_id = {pid}", "expected": 1}],
            )
        )
    out.extend(_cross_site(c, reddit, projects))
    return out


def _cross_site(c: sqlite3.Connection, reddit: sqlite3.Connection | None, projects: list[tuple]) -> list[dict]:
    """Multi-site tasks (as WebArena's reddit+gitlab ones): read a post title on the forum, file it as an issue."""
    if reddit is None:
        return []
    out = []
    forums = ("technology", "science")
    for forum, (pid, ns, name) in zip(forums, rng_for(73).sample(projects, len(forums))):
        title = rows(
            reddit,
            "SELECT p.title FROM posts p JOIN forums f ON f.id = p.forum_id WHERE f.name = ? "
            "ORDER BY p.upvotes DESC, p.id LIMIT 1",
            (forum,),
        )[0][0]
        out.append(
            task(
                73,
                "Open an issue in the {{repo}} project whose title is the title of the most upvoted post "
                "in the {{forum}} forum",
                {"repo": name, "forum": forum},
                R,
                [click("link", "Forums"), click("link", forum), click("link", "Top"), goto(G)]
                + _project(ns, name)
                + [
                    click("link", "Issues"),
                    click("link", "New issue"),
                    type_("textbox", "Title", title, 0),
                    click("button", "Create issue"),
                    stop(),
                ],
                html=[
                    {"url": f"{G}/{ns}/{name}/-/issues", "locator": "", "required_contents": {"must_include": [title]}}
                ],
                db=[
                    {
                        "site": "gitlab",
                        "sql": f"SELECT COUNT(*) FROM issues WHERE project_id = {pid} AND "
                        f"title = '{_q(title)}' AND author_id = 1",
                        "expected": 1,
                    }
                ],
                also=("gitlab",),
            )
        )
    return out
