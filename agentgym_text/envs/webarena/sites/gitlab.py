"""The code-hosting site (GitLab-like paths): projects, stars, issues (filter, create, close, label, assign),
merge requests, members (invite), commits, files, dashboards of what is assigned to the logged-in user."""

from __future__ import annotations

from agentgym_text.envs.webarena.sites.gitlab_data import LABELS, ROLES, USERNAME
from agentgym_text.envs.webarena.sites.web import App, NotFound, Redirect, Request, esc, field_text, link, qs, table

__all__ = ["app"]

ME = 1
app = App(
    "gitlab",
    "GitLab",
    [
        ("Projects", "/"),
        ("Explore projects", "/explore"),
        ("Issues assigned to me", f"/dashboard/issues?assignee_username={USERNAME}"),
        ("Merge requests assigned to me", f"/dashboard/merge_requests?assignee_username={USERNAME}"),
        ("Review requests for me", f"/dashboard/merge_requests?reviewer_username={USERNAME}"),
    ],
)
P = r"/([a-z0-9._]+)/([a-z0-9-]+)"


def _project(request: Request):
    return request.one("SELECT * FROM projects WHERE namespace = ? AND name = ?", (request.match[1], request.match[2]))


def _base(p) -> str:
    return f"/{p['namespace']}/{p['name']}"


def _project_page(p, heading: str, body: str, title: str | None = None) -> str:
    base = _base(p)
    sub = "".join(
        f"<li>{link(base + path, text)}</li>"
        for text, path in (
            ("Project overview", ""),
            ("Issues", "/-/issues"),
            ("Merge requests", "/-/merge_requests"),
            ("Members", "/-/project_members"),
            ("Commits", "/-/commits"),
        )
    )
    return app.page(
        heading,
        f'<nav aria-label="Project"><p>{esc(p["namespace"])} / {esc(p["name"])}</p><ul>{sub}</ul></nav>{body}',
        title=title or f"{heading} · {p['name']}",
    )


def _project_rows(rows) -> str:
    return table(
        ["Project", "Description", "Stars"],
        [
            [
                link(f"/{r['namespace']}/{r['name']}", f"{r['namespace']} / {r['name']}"),
                esc(r["description"]),
                str(r["stars"]),
            ]
            for r in rows
        ],
    )


@app.get("/")
def home(request: Request) -> str:
    q = request.arg("q")
    rows = request.all(
        "SELECT p.* FROM projects p JOIN members m ON m.project_id = p.id AND m.user_id = ? "
        "WHERE p.name LIKE ? ORDER BY p.name",
        (ME, f"%{q}%"),
    )
    form = (
        '<form role="search" action="/" method="get"><label for="q">Filter by name</label> '
        f'<input id="q" type="search" name="q" value="{esc(q)}"></form>'
    )
    return app.page("Your projects", form + _project_rows(rows), title="Projects")


@app.get("/explore")
def explore(request: Request) -> str:
    sort = "stars" if request.arg("sort") == "stars" else "name"
    rows = request.all(f"SELECT * FROM projects ORDER BY {'stars DESC' if sort == 'stars' else 'name'}, id")
    links = link("/explore" + qs(sort="stars"), "Most stars") + " | " + link("/explore", "Name")
    return app.page("Explore projects", f"<p>Sort by: {links}</p>" + _project_rows(rows))


@app.get(P)
def project(request: Request) -> str:
    p = _project(request)
    files = request.all("SELECT path FROM files WHERE project_id = ? ORDER BY path", (p["id"],))
    readme = request.all("SELECT content FROM files WHERE project_id = ? AND path = 'README.md'", (p["id"],))
    starred = request.all("SELECT 1 FROM stars WHERE project_id = ?", (p["id"],))
    body = (
        f"<p>{esc(p['description'])}</p><p>Stars: {p['stars']}</p><p>License: {esc(p['license'])}</p>"
        f'<form action="{_base(p)}/star" method="post"><button type="submit">{"Unstar" if starred else "Star"}'
        "</button></form><h2>Files</h2><ul>"
        + "".join(f"<li>{link(_base(p) + '/-/blob/' + f['path'], f['path'])}</li>" for f in files)
        + "</ul>"
        + (f"<h2>README.md</h2><pre>{esc(readme[0][0])}</pre>" if readme else "")
    )
    return _project_page(p, p["name"], body)


@app.post(P + "/star")
def star(request: Request) -> Redirect:
    p = _project(request)
    if request.all("SELECT 1 FROM stars WHERE project_id = ?", (p["id"],)):
        request.db.execute("DELETE FROM stars WHERE project_id = ?", (p["id"],))
        request.db.execute("UPDATE projects SET stars = stars - 1 WHERE id = ?", (p["id"],))
    else:
        request.db.execute("INSERT INTO stars VALUES (?)", (p["id"],))
        request.db.execute("UPDATE projects SET stars = stars + 1 WHERE id = ?", (p["id"],))
    return Redirect(_base(p))


@app.get(P + "/-/blob/(.+)")
def blob(request: Request) -> str:
    p = _project(request)
    f = request.one("SELECT * FROM files WHERE project_id = ? AND path = ?", (p["id"], request.match[3]))
    return _project_page(p, f["path"], f"<pre>{esc(f['content'])}</pre>")


ISSUES = (
    "SELECT i.*, a.username AS author, s.username AS assignee, "
    "(SELECT group_concat(label, ', ') FROM (SELECT label FROM issue_labels l WHERE l.issue_id = i.id "
    "ORDER BY label)) AS labels, p.namespace, p.name AS project FROM issues i JOIN projects p "
    "ON p.id = i.project_id JOIN users a ON a.id = i.author_id LEFT JOIN users s ON s.id = i.assignee_id"
)


def _issue_table(rows) -> str:
    return table(
        ["Issue", "Title", "Author", "Assignee", "Labels", "Created"],
        [
            [
                f"#{r['iid']}",
                link(f"/{r['namespace']}/{r['project']}/-/issues/{r['iid']}", r["title"]),
                esc(r["author"]),
                esc(r["assignee"] or ""),
                esc(r["labels"] or ""),
                r["created"],
            ]
            for r in rows
        ],
    )


def _state_links(base: str, state: str, states: tuple, **keep: str) -> str:
    return " | ".join(
        esc(label) if key == state else link(base + qs(**keep, state=key), label) for key, label in states
    )


@app.get(P + "/-/issues")
def issues(request: Request) -> str:
    p = _project(request)
    state = request.arg("state") if request.arg("state") in ("opened", "closed", "all") else "opened"
    label, search = request.arg("label_name"), request.arg("search")
    rows = request.all(
        f"{ISSUES} WHERE i.project_id = ? AND (? = 'all' OR i.state = ?) AND (? = '' OR EXISTS("
        "SELECT 1 FROM issue_labels l WHERE l.issue_id = i.id AND l.label = ?)) AND i.title LIKE ? "
        "ORDER BY i.iid DESC",
        (p["id"], state, state, label, label, f"%{search}%"),
    )
    base = _base(p) + "/-/issues"
    states = _state_links(
        base, state, (("opened", "Open"), ("closed", "Closed"), ("all", "All")), label_name=label, search=search
    )
    labels = " | ".join(link(base + qs(state="" if state == "opened" else state, label_name=x), x) for x in LABELS)
    form = (
        f"<p>Filter by label: {labels}</p>"
        f'<form role="search" action="{base}" method="get"><label for="q">Search or filter results</label> '
        f'<input id="q" type="search" name="search" value="{esc(search)}">'
        f'<input type="hidden" name="state" value="{state}"><input type="hidden" name="label_name" '
        f'value="{esc(label)}"></form>'
    )
    body = (
        f"<p>{states}</p>"
        + form
        + f"<p>{link(base + '/new', 'New issue')}</p><p>{len(rows)} issues</p>"
        + _issue_table(rows)
    )
    return _project_page(p, "Issues", body)


@app.get(P + "/-/issues/new")
def issue_new(request: Request) -> str:
    p = _project(request)
    form = (
        f'<form action="{_base(p)}/-/issues/new" method="post">'
        + field_text("title", "Title")
        + field_text("description", "Description", area=True)
        + '<button type="submit">Create issue</button></form>'
    )
    return _project_page(p, "New Issue", form)


@app.post(P + "/-/issues/new")
def issue_create(request: Request) -> str | Redirect:
    p = _project(request)
    title = request.form.get("title", "").strip()
    if not title:
        return _project_page(p, "Issue not created", "<p>Title can't be blank.</p>")
    iid = request.one("SELECT COALESCE(MAX(iid), 0) + 1 FROM issues WHERE project_id = ?", (p["id"],))[0]
    request.db.execute(
        "INSERT INTO issues (project_id, iid, title, description, state, author_id, assignee_id, "
        "created) VALUES (?, ?, ?, ?, 'opened', ?, NULL, '2023-12-31')",
        (p["id"], iid, title, request.form.get("description", "").strip(), ME),
    )
    return Redirect(f"{_base(p)}/-/issues/{iid}")


@app.get(P + r"/-/issues/(\d+)")
def issue(request: Request) -> str:
    p = _project(request)
    i = request.one(f"{ISSUES} WHERE i.project_id = ? AND i.iid = ?", (p["id"], request.match[3]))
    url = f"{_base(p)}/-/issues/{i['iid']}"
    toggle = "Reopen issue" if i["state"] == "closed" else "Close issue"
    body = (
        f"<p>Status: {'Closed' if i['state'] == 'closed' else 'Open'}</p><p>Issue #{i['iid']} created "
        f"{i['created']} by {esc(i['author'])}</p><p>{esc(i['description'])}</p>"
        f"<p>Assignee: {esc(i['assignee'] or 'None')}</p><p>Labels: {esc(i['labels'] or 'None')}</p>"
        f'<form action="{url}" method="post"><input type="hidden" name="op" value="toggle">'
        f'<button type="submit">{toggle}</button></form>'
        f'<form action="{url}" method="post"><input type="hidden" name="op" value="assign">'
        + field_text("assignee", "Assignee username")
        + '<button type="submit">Assign</button></form>'
        f'<form action="{url}" method="post"><input type="hidden" name="op" value="label">'
        + field_text("label", "Label name")
        + '<button type="submit">Add label</button></form>'
    )
    return _project_page(p, i["title"], body)


@app.post(P + r"/-/issues/(\d+)")
def issue_update(request: Request) -> Redirect:
    p = _project(request)
    i = request.one("SELECT * FROM issues WHERE project_id = ? AND iid = ?", (p["id"], request.match[3]))
    op = request.form.get("op")
    if op == "toggle":
        request.db.execute(
            "UPDATE issues SET state = ? WHERE id = ?", ("opened" if i["state"] == "closed" else "closed", i["id"])
        )
    elif op == "assign":
        users = request.all("SELECT id FROM users WHERE username = ?", (request.form.get("assignee", "").strip(),))
        if users:
            request.db.execute("UPDATE issues SET assignee_id = ? WHERE id = ?", (users[0][0], i["id"]))
    elif op == "label":
        label = request.form.get("label", "").strip()
        if label:
            request.db.execute("INSERT OR IGNORE INTO issue_labels VALUES (?, ?)", (i["id"], label))
    return Redirect(f"{_base(p)}/-/issues/{i['iid']}")


MRS = (
    "SELECT m.*, a.username AS author, s.username AS assignee, r.username AS reviewer, p.namespace, "
    "p.name AS project FROM merge_requests m JOIN projects p ON p.id = m.project_id JOIN users a "
    "ON a.id = m.author_id LEFT JOIN users s ON s.id = m.assignee_id LEFT JOIN users r ON r.id = m.reviewer_id"
)


def _mr_table(rows) -> str:
    return table(
        ["MR", "Title", "Author", "Assignee", "Reviewer", "Status"],
        [
            [
                f"!{r['iid']}",
                link(f"/{r['namespace']}/{r['project']}/-/merge_requests/{r['iid']}", r["title"]),
                esc(r["author"]),
                esc(r["assignee"] or ""),
                esc(r["reviewer"] or ""),
                r["state"].capitalize(),
            ]
            for r in rows
        ],
    )


@app.get(P + "/-/merge_requests")
def merge_requests(request: Request) -> str:
    p = _project(request)
    state = request.arg("state") if request.arg("state") in ("opened", "merged", "closed", "all") else "opened"
    rows = request.all(
        f"{MRS} WHERE m.project_id = ? AND (? = 'all' OR m.state = ?) ORDER BY m.iid DESC", (p["id"], state, state)
    )
    base = _base(p) + "/-/merge_requests"
    states = _state_links(base, state, (("opened", "Open"), ("merged", "Merged"), ("closed", "Closed"), ("all", "All")))
    return _project_page(p, "Merge requests", f"<p>{states}</p><p>{len(rows)} merge requests</p>" + _mr_table(rows))


@app.get(P + r"/-/merge_requests/(\d+)")
def merge_request(request: Request) -> str:
    p = _project(request)
    m = request.one(f"{MRS} WHERE m.project_id = ? AND m.iid = ?", (p["id"], request.match[3]))
    body = (
        f"<p>Status: {m['state'].capitalize()}</p><p>Merge request !{m['iid']} created {m['created']} by "
        f"{esc(m['author'])}</p><p>Source branch: {esc(m['source_branch'])} into main</p>"
        f"<p>Assignee: {esc(m['assignee'] or 'None')}</p><p>Reviewer: {esc(m['reviewer'] or 'None')}</p>"
    )
    return _project_page(p, m["title"], body)


@app.get(P + "/-/project_members")
def members(request: Request) -> str:
    p = _project(request)
    rows = request.all(
        "SELECT u.username, u.name, m.role FROM members m JOIN users u ON u.id = m.user_id "
        "WHERE m.project_id = ? ORDER BY u.username",
        (p["id"],),
    )
    radios = "".join(
        f'<label><input type="radio" name="role" value="{r}"{" checked" if r == "Guest" else ""}> {r}</label> '
        for r in ROLES[:4]
    )
    body = (
        table(["Username", "Name", "Max role"], [[esc(r["username"]), esc(r["name"]), r["role"]] for r in rows])
        + f'<h2>Invite members</h2><form action="{_base(p)}/-/project_members" method="post">'
        + field_text("username", "Username")
        + f"<fieldset><legend>Role</legend>{radios}</fieldset>"
        + '<button type="submit">Invite</button></form>'
    )
    return _project_page(p, "Project members", body)


@app.post(P + "/-/project_members")
def invite(request: Request) -> str | Redirect:
    p = _project(request)
    users = request.all("SELECT id FROM users WHERE username = ?", (request.form.get("username", "").strip(),))
    role = request.form.get("role", "Guest")
    if not users or role not in ROLES[:4]:
        return _project_page(p, "Member not added", "<p>No user with that username.</p>")
    request.db.execute(
        "INSERT INTO members VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET role = excluded.role",
        (p["id"], users[0][0], role),
    )
    return Redirect(f"{_base(p)}/-/project_members")


@app.get(P + "/-/commits")
def commits(request: Request) -> str:
    p = _project(request)
    rows = request.all(
        "SELECT c.*, u.name FROM commits c JOIN users u ON u.id = c.author_id "
        "WHERE c.project_id = ? ORDER BY c.date DESC, c.id DESC",
        (p["id"],),
    )
    return _project_page(
        p,
        "Commits",
        table(
            ["Date", "Author", "Message", "Commit"],
            [[r["date"], esc(r["name"]), esc(r["message"]), r["sha"]] for r in rows],
        ),
    )


@app.get("/dashboard/(issues|merge_requests)")
def dashboard(request: Request) -> str:
    kind = request.match[1]
    assignee, reviewer = request.arg("assignee_username"), request.arg("reviewer_username")
    state = request.arg("state") or "opened"
    if kind == "issues":
        if not assignee:
            raise NotFound()
        rows = request.all(
            f"{ISSUES} WHERE s.username = ? AND (? = 'all' OR i.state = ?) ORDER BY i.created DESC",
            (assignee, state, state),
        )
        return app.page("Issues", f"<p>{len(rows)} issues</p>" + _issue_table(rows))
    who, column = (reviewer, "r") if reviewer else (assignee, "s")
    rows = request.all(
        f"{MRS} WHERE {column}.username = ? AND (? = 'all' OR m.state = ?) ORDER BY m.created DESC", (who, state, state)
    )
    return app.page("Merge requests", f"<p>{len(rows)} merge requests</p>" + _mr_table(rows))
