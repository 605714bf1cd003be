"""Task generators for the code-hosting site, modelled on WebArena's gitlab intent templates."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import NamedTuple

from agentgym_text.envs.webarena.sites.gitlab_data import LABELS, USERNAME
from agentgym_text.envs.webarena.sites.taskkit import (
    GITLAB,
    REDDIT,
    Instance,
    SeededDatabase,
    Template,
    change,
    click,
    db_check,
    fill_in,
    goto,
    make_tasks,
    month_label,
    navigation,
    page_includes,
    question,
    rng_for,
    type_,
)
from agentgym_text.envs.webarena.sites.tasks_reddit import most_upvoted_post

__all__ = ["generate", "TEMPLATES", "FORUM_POST_AS_ISSUE"]

NEW_ISSUES = (
    "Add a changelog to the README",
    "Support Python 3.12",
    "Crash on empty config file path",
    "Document the release process",
    "Add a command line flag for verbose output",
    "Broken link in the contributing guide",
)
NEW_MEMBER_ROLES = ("Developer", "Reporter", "Maintainer", "Guest", "Developer")
FORUMS_TO_FILE = ("technology", "science")

Project = tuple[int, str, str]  # id, namespace, name


class Issue(NamedTuple):
    id: int
    number: int  # in its project, as its URL shows it
    title: str
    namespace: str
    project: str
    project_id: int


class IssueEdits(NamedTuple):
    to_close: list[Issue]
    to_assign: list[tuple[Issue, str]]  # with the member to assign
    to_label: list[tuple[Issue, str]]  # with a label it lacks


def _projects(db: SeededDatabase) -> list[Project]:
    return db.rows("SELECT id, namespace, name FROM projects ORDER BY id")


def _my_projects(db: SeededDatabase) -> list[Project]:
    return [project for project in _projects(db) if project[1] == USERNAME]


def _member_names(db: SeededDatabase, pid: int) -> list[str]:
    return db.column(
        "SELECT u.username FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = ? ORDER BY u.username",
        (pid,),
    )


def _to_project(namespace: str, name: str) -> list[dict]:
    return [click("link", "Explore projects"), click("link", f"{namespace} / {name}")]


def _project_page(namespace: str, name: str, tail: str = "") -> str:
    return f"{GITLAB}/{namespace}/{name}{tail}"


def _file_issue(namespace: str, name: str, title: str) -> list[dict]:
    return [
        *_to_project(namespace, name),
        click("link", "Issues"),
        click("link", "New issue"),
        *fill_in({"Title": title}, "Create issue"),
    ]


def _open_issue(db: SeededDatabase) -> list[Instance]:
    return [
        change(
            {"title": title, "repo": name},
            _file_issue(namespace, name, title),
            page_includes(_project_page(namespace, name, "/-/issues"), title),
            db_check(
                "gitlab",
                "SELECT COUNT(*) FROM issues WHERE project_id = ? AND title = ? AND state = 'opened' AND author_id = 1",
                (pid, title),
                1,
            ),
        )
        for (pid, namespace, name), title in zip(rng_for(60).sample(_projects(db), 4), NEW_ISSUES)
    ]


def _dashboard_list(link_name: str, path: str) -> Callable[[SeededDatabase], list[Instance]]:
    """A dashboard list of the logged-in user's: one link away."""
    return lambda db: [navigation({}, [click("link", link_name)], f"{GITLAB}/dashboard/{path}={USERNAME}")]


def _issues_with_label(db: SeededDatabase) -> list[Instance]:
    labelled = db.rows(
        "SELECT DISTINCT p.id, p.namespace, p.name, l.label FROM issues i JOIN issue_labels l ON "
        "l.issue_id = i.id JOIN projects p ON p.id = i.project_id WHERE i.state = 'opened' ORDER BY 1, 4",
    )
    return [
        navigation(
            {"label": label, "repo": name},
            [*_to_project(namespace, name), click("link", "Issues"), click("link", label)],
            _project_page(namespace, name, f"/-/issues?label_name={label.replace(' ', '+')}"),
        )
        for _, namespace, name, label in rng_for(62).sample(labelled, 5)
    ]


def _other_members(db: SeededDatabase) -> list[Instance]:
    instances = []
    for pid, namespace, name in rng_for(63).sample(_my_projects(db), 4):
        others = [member for member in _member_names(db, pid) if member != USERNAME]
        instances.append(
            question(
                {"repo": name},
                [*_to_project(namespace, name), click("link", "Members")],
                ", ".join(others),
                reference=("must_include", others),
                page=_project_page(namespace, name, "/-/project_members"),
                seen=others,
            )
        )
    return instances


def _add_member(db: SeededDatabase) -> list[Instance]:
    usernames = db.column("SELECT username FROM users WHERE id > 1 ORDER BY id")
    draw, instances = rng_for(64), []
    for (pid, namespace, name), role in zip(draw.sample(_my_projects(db), 5), NEW_MEMBER_ROLES):
        members = _member_names(db, pid)
        user = draw.choice([username for username in usernames if username not in members])
        instances.append(
            change(
                {"user": user, "repo": name, "role": role},
                [
                    *_to_project(namespace, name),
                    click("link", "Members"),
                    type_("textbox", "Username", user, 0),
                    click("radio", role),
                    click("button", "Invite"),
                ],
                page_includes(_project_page(namespace, name, "/-/project_members"), user),
                db_check(
                    "gitlab",
                    "SELECT m.role FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = ? "
                    "AND u.username = ?",
                    (pid, user),
                    role,
                ),
            )
        )
    return instances


def _issue_edits(db: SeededDatabase) -> IssueEdits:
    """Thirteen open issues: five to close, four to assign to a member (drawn for each), four to get a label they
    lack (drawn for each, from the same draw as the assignees, after them)."""
    open_issues = [
        Issue(*row)
        for row in db.rows(
            "SELECT i.id, i.iid, i.title, p.namespace, p.name, p.id FROM issues i JOIN projects p ON "
            "p.id = i.project_id WHERE i.state = 'opened' ORDER BY i.id",
        )
    ]
    picks, draw = rng_for(65).sample(open_issues, 13), rng_for(67)
    to_assign = []
    for issue in picks[5:9]:
        candidates = db.column(
            "SELECT u.username FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = ? AND "
            "u.id IS NOT (SELECT assignee_id FROM issues WHERE id = ?) ORDER BY u.username",
            (issue.project_id, issue.id),
        )
        to_assign.append((issue, draw.choice(candidates)))
    to_label = []
    for issue in picks[9:13]:
        present = set(db.column("SELECT label FROM issue_labels WHERE issue_id = ?", (issue.id,)))
        to_label.append((issue, draw.choice([label for label in LABELS if label not in present])))
    return IssueEdits(picks[:5], to_assign, to_label)


def _issue_page(issue: Issue) -> str:
    return _project_page(issue.namespace, issue.project, f"/-/issues/{issue.number}")


def _to_issue(issue: Issue) -> list[dict]:
    return [*_to_project(issue.namespace, issue.project), click("link", "Issues"), click("link", issue.title)]


def _close_issue(db: SeededDatabase) -> list[Instance]:
    return [
        change(
            {"title": issue.title, "repo": issue.project},
            [*_to_issue(issue), click("button", "Close issue")],
            page_includes(_issue_page(issue), "Status: Closed"),
            db_check("gitlab", "SELECT state FROM issues WHERE id = ?", (issue.id,), "closed"),
        )
        for issue in db.shared(_issue_edits).to_close
    ]


def _assign_issue(db: SeededDatabase) -> list[Instance]:
    return [
        change(
            {"title": issue.title, "repo": issue.project, "user": user},
            [*_to_issue(issue), *fill_in({"Assignee username": user}, "Assign")],
            page_includes(_issue_page(issue), f"Assignee: {user}"),
            db_check(
                "gitlab",
                "SELECT u.username FROM issues i JOIN users u ON u.id = i.assignee_id WHERE i.id = ?",
                (issue.id,),
                user,
            ),
        )
        for issue, user in db.shared(_issue_edits).to_assign
    ]


def _label_issue(db: SeededDatabase) -> list[Instance]:
    return [
        change(
            {"label": label, "title": issue.title, "repo": issue.project},
            [*_to_issue(issue), *fill_in({"Label name": label}, "Add label")],
            page_includes(_issue_page(issue), label),
            db_check(
                "gitlab", "SELECT COUNT(*) FROM issue_labels WHERE issue_id = ? AND label = ?", (issue.id, label), 1
            ),
        )
        for issue, label in db.shared(_issue_edits).to_label
    ]


def _open_issue_count(db: SeededDatabase) -> list[Instance]:
    instances = []
    for pid, namespace, name in rng_for(66).sample(_projects(db), 4):
        count = db.value("SELECT COUNT(*) FROM issues WHERE project_id = ? AND state = 'opened'", (pid,))
        steps, page = (
            [*_to_project(namespace, name), click("link", "Issues")],
            _project_page(namespace, name, "/-/issues"),
        )
        instances.append(question({"repo": name}, steps, str(count), page=page, seen=[f"{count} issues"]))
    return instances


def _license(db: SeededDatabase) -> list[Instance]:
    instances = []
    for pid, namespace, name in rng_for(69).sample(_projects(db), 4):
        license_id = db.value("SELECT license FROM projects WHERE id = ?", (pid,))
        instances.append(
            question(
                {"repo": name},
                _to_project(namespace, name),
                license_id,
                reference=("must_include", [license_id]),
                page=_project_page(namespace, name),
                seen=[f"License: {license_id}"],
            )
        )
    return instances


def _commits_in_month(db: SeededDatabase) -> list[Instance]:
    authors = db.rows(
        "SELECT p.id, p.namespace, p.name, u.name, substr(c.date, 1, 7), COUNT(*) FROM commits c JOIN "
        "projects p ON p.id = c.project_id JOIN users u ON u.id = c.author_id GROUP BY 1, 4, 5 ORDER BY 1, 4, 5",
    )
    return [
        question(
            {"person": person, "repo": name, "month": month_label(month)},
            [*_to_project(namespace, name), click("link", "Commits")],
            str(count),
            page=_project_page(namespace, name, "/-/commits"),
            seen=[person],
        )
        for _, namespace, name, person, month, count in rng_for(70).sample(authors, 4)
    ]


def _merge_request_author(db: SeededDatabase) -> list[Instance]:
    merge_requests = db.rows(
        "SELECT m.title, u.username, p.namespace, p.name, m.iid FROM merge_requests m JOIN users u ON "
        "u.id = m.author_id JOIN projects p ON p.id = m.project_id WHERE m.state = 'opened' ORDER BY m.id",
    )
    return [
        question(
            {"title": title, "repo": name},
            [*_to_project(namespace, name), click("link", "Merge requests"), click("link", title)],
            user,
            page=_project_page(namespace, name, f"/-/merge_requests/{number}"),
            seen=[f"by {user}"],
        )
        for title, user, namespace, name, number in rng_for(71).sample(merge_requests, 3)
    ]


def _star(db: SeededDatabase) -> list[Instance]:
    return [
        change(
            {"repo": name},
            [*_to_project(namespace, name), click("button", "Star")],
            page_includes(_project_page(namespace, name), "Unstar"),
            db_check("gitlab", "SELECT COUNT(*) FROM stars WHERE project_id = ?", (pid,), 1),
        )
        for pid, namespace, name in rng_for(72).sample(_projects(db), 3)
    ]


def _forum_post_as_issue(db: SeededDatabase, forum_db: SeededDatabase) -> list[Instance]:
    instances = []
    for forum, (pid, namespace, name) in zip(FORUMS_TO_FILE, rng_for(73).sample(_projects(db), len(FORUMS_TO_FILE))):
        _, title = most_upvoted_post(forum_db, forum)
        instances.append(
            change(
                {"repo": name, "forum": forum},
                [
                    click("link", "Forums"),
                    click("link", forum),
                    click("link", "Top"),
                    goto(GITLAB),
                    *_file_issue(namespace, name, title),
                ],
                page_includes(_project_page(namespace, name, "/-/issues"), title),
                db_check(
                    "gitlab",
                    "SELECT COUNT(*) FROM issues WHERE project_id = ? AND title = ? AND author_id = 1",
                    (pid, title),
                    1,
                ),
            )
        )
    return instances


TEMPLATES = (
    Template(60, 'Open an issue titled "{{title}}" in the {{repo}} project', GITLAB, _open_issue),
    Template(
        61,
        "Checkout merge requests assigned to me",
        GITLAB,
        _dashboard_list("Merge requests assigned to me", "merge_requests?assignee_username"),
    ),
    Template(
        61,
        "Checkout merge requests requiring my review",
        GITLAB,
        _dashboard_list("Review requests for me", "merge_requests?reviewer_username"),
    ),
    Template(
        61,
        "Show me the issues assigned to me",
        GITLAB,
        _dashboard_list("Issues assigned to me", "issues?assignee_username"),
    ),
    Template(62, 'List all opened issues labelled "{{label}}" in {{repo}}', GITLAB, _issues_with_label),
    Template(63, "Who else have access to my repo {{repo}}, show me their usernames", GITLAB, _other_members),
    Template(64, "Add {{user}} to the {{repo}} project as {{role}}", GITLAB, _add_member),
    Template(65, 'Close the issue "{{title}}" in {{repo}}', GITLAB, _close_issue),
    Template(67, 'Assign the issue "{{title}}" in {{repo}} to {{user}}', GITLAB, _assign_issue),
    Template(68, 'Add the label "{{label}}" to the issue "{{title}}" in {{repo}}', GITLAB, _label_issue),
    Template(66, "How many open issues are there in the {{repo}} project?", GITLAB, _open_issue_count),
    Template(69, "Which license does the {{repo}} project use?", GITLAB, _license),
    Template(70, "How many commits did {{person}} make to {{repo}} in {{month}}?", GITLAB, _commits_in_month),
    Template(
        71, 'Who created the merge request "{{title}}" in {{repo}}? Give the username.', GITLAB, _merge_request_author
    ),
    Template(72, "Star the {{repo}} project", GITLAB, _star),
)
# A multi-site task, as WebArena's reddit+gitlab ones: read a post title on the forum, file it as an issue.
FORUM_POST_AS_ISSUE = Template(
    73,
    "Open an issue in the {{repo}} project whose title is the title of the most upvoted post in the {{forum}} forum",
    REDDIT,
    _forum_post_as_issue,
    also=("gitlab",),
)


def generate(connection: sqlite3.Connection, forum: sqlite3.Connection | None = None) -> list[dict]:
    """The code-hosting site's tasks; with the forum's database, the tasks spanning both sites too."""
    db = SeededDatabase(connection)
    tasks = make_tasks(TEMPLATES, db)
    if forum is not None:
        tasks += FORUM_POST_AS_ISSUE.tasks(db, SeededDatabase(forum))
    return tasks
