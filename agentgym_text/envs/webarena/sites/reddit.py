"""The forum (Postmill-like): front page, forum list with subscribe buttons, forum pages sorted hot/new/top,
posts with comments and votes, submission and comment forms, user pages, search, forum creation."""

from __future__ import annotations

from agentgym_text.envs.webarena.sites.web import App, Redirect, Request, esc, field_text, link, qs

__all__ = ["app"]

ME = 1
app = App(
    "reddit",
    "Postmill",
    [
        ("Home", "/"),
        ("Forums", "/forums"),
        ("Submit", "/submit"),
        ("Create forum", "/create_forum"),
        ("Profile", "/user/lakeside_reader"),
    ],
)
SORTS = {
    "hot": ("Hot", "(upvotes - downvotes) DESC, p.id"),
    "new": ("New", "created DESC, p.id DESC"),
    "top": ("Top", "upvotes DESC, p.id"),
}


def _search_form(value: str = "") -> str:
    return (
        '<form role="search" action="/search" method="get"><label for="q">Search query</label> '
        f'<input id="q" type="search" name="q" value="{esc(value)}"> <button type="submit">Search</button></form>'
    )


def _vote_buttons(kind: str, target: int, label: str, back: str) -> str:
    return "".join(
        f'<form action="/vote" method="post" style="display:inline"><input type="hidden" name="kind" value="{kind}">'
        f'<input type="hidden" name="target" value="{target}"><input type="hidden" name="value" value="{v}">'
        f'<input type="hidden" name="back" value="{esc(back)}">'
        f'<button type="submit" aria-label="{word} {esc(label)}">{arrow}</button></form>'
        for v, word, arrow in ((1, "Upvote", "▲"), (-1, "Downvote", "▼"))
    )


def _post_list(request: Request, rows: list, back: str) -> str:
    items = []
    for r in rows:
        items.append(
            f"<article><h2>{link('/f/' + r['forum'] + '/' + str(r['id']), r['title'])}</h2>"
            f"<p>Submitted by {link('/user/' + r['username'], r['username'])} on {r['created']} in "
            f"{link('/f/' + r['forum'], 'f/' + r['forum'])}</p><p>Score: {r['upvotes'] - r['downvotes']}, "
            f"{r['ncomments']} comments</p>{_vote_buttons('post', r['id'], r['title'], back)}{_vote_note(r['myvote'])}"
            "</article>"
        )
    return "".join(items) or "<p>There are no submissions here.</p>"


POSTS = (
    "SELECT p.*, u.username, f.name AS forum, (SELECT COUNT(*) FROM comments c WHERE c.post_id = p.id) "
    "AS ncomments, (SELECT value FROM votes v WHERE v.kind = 'post' AND v.target = p.id) AS myvote FROM posts p JOIN users u ON u.id = p.user_id JOIN forums f ON f.id = p.forum_id"
)


@app.get("/")
def home(request: Request) -> str:
    rows = request.all(f"{POSTS} ORDER BY {SORTS['hot'][1]} LIMIT 25")
    return app.page("Hot submissions", _search_form() + _post_list(request, rows, "/"), title="Front page")


@app.get("/forums")
def forums(request: Request) -> str:
    rows = request.all(
        "SELECT f.*, (SELECT COUNT(*) FROM subscriptions s WHERE s.forum_id = f.id) AS subs, "
        "EXISTS(SELECT 1 FROM subscriptions s WHERE s.forum_id = f.id AND s.user_id = ?) AS mine "
        "FROM forums f ORDER BY f.name",
        (ME,),
    )
    items = "".join(
        f"<li>{link('/f/' + r['name'], r['name'])} ({r['title']}, created {r['created']}): {r['subs']} subscribers "
        + _subscribe_button(r)
        + "</li>"
        for r in rows
    )
    return app.page("List of forums", f"<ul>{items}</ul>")


def _subscribe_button(forum) -> str:
    word = "Unsubscribe" if forum["mine"] else "Subscribe"
    return (
        f'<form action="/subscribe" method="post" style="display:inline"><input type="hidden" name="forum" '
        f'value="{forum["id"]}"><button type="submit" aria-label="{word} {esc(forum["name"])}">{word}</button>'
        "</form>"
    )


@app.post("/subscribe")
def subscribe(request: Request) -> Redirect:
    forum = request.one("SELECT * FROM forums WHERE id = ?", (request.form.get("forum", ""),))
    if request.all("SELECT 1 FROM subscriptions WHERE forum_id = ? AND user_id = ?", (forum["id"], ME)):
        request.db.execute("DELETE FROM subscriptions WHERE forum_id = ? AND user_id = ?", (forum["id"], ME))
    else:
        request.db.execute("INSERT INTO subscriptions VALUES (?, ?)", (forum["id"], ME))
    return Redirect(f"/f/{forum['name']}")


@app.get("/f/([A-Za-z0-9_]+)")
def forum(request: Request) -> str:
    f = request.one(
        "SELECT f.*, EXISTS(SELECT 1 FROM subscriptions s WHERE s.forum_id = f.id AND s.user_id = ?) "
        "AS mine FROM forums f WHERE f.name = ?",
        (ME, request.match[1]),
    )
    sort = request.arg("sort") if request.arg("sort") in SORTS else "hot"
    rows = request.all(f"{POSTS} WHERE f.id = ? ORDER BY {SORTS[sort][1]}", (f["id"],))
    sorts = " | ".join(
        esc(label) if key == sort else link(f"/f/{f['name']}" + qs(sort=key), label)
        for key, (label, _) in SORTS.items()
    )
    body = (
        f"<p>{esc(f['description'])}</p>{_subscribe_button(f)} "
        + link("/submit" + qs(forum=f["name"]), "Submit a post")
        + f"<p>Sort by: {sorts}</p>"
        + _post_list(request, rows, f"/f/{f['name']}" + qs(sort=request.arg("sort")))
    )
    return app.page(f["title"], body, title=f"f/{f['name']}")


@app.get(r"/f/([A-Za-z0-9_]+)/(\d+)")
def post(request: Request) -> str:
    p = request.one(f"{POSTS} WHERE f.name = ? AND p.id = ?", (request.match[1], request.match[2]))
    comments = request.all(
        "SELECT c.*, u.username FROM comments c JOIN users u ON u.id = c.user_id "
        "WHERE c.post_id = ? ORDER BY c.created, c.id",
        (p["id"],),
    )
    back = f"/f/{p['forum']}/{p['id']}"
    listed = "".join(
        f"<li><p>{link('/user/' + c['username'], c['username'])} wrote on {c['created']}:</p><p>{esc(c['body'])}</p>"
        f"<p>{c['upvotes']} upvotes, {c['downvotes']} downvotes</p>"
        f"{_vote_buttons('comment', c['id'], 'comment ' + str(c['id']), back)}</li>"
        for c in comments
    )
    body = (
        f"<p>Submitted by {link('/user/' + p['username'], p['username'])} on {p['created']} in "
        f"{link('/f/' + p['forum'], 'f/' + p['forum'])}</p><p>{esc(p['body'])}</p>"
        f"<p>Score: {p['upvotes'] - p['downvotes']} ({p['upvotes']} upvotes, {p['downvotes']} downvotes)</p>"
        + _vote_buttons("post", p["id"], "submission", back)
        + _vote_note(p["myvote"])
        + f'<section aria-label="Comments"><h2>{len(comments)} comments</h2><ul>{listed}</ul></section>'
        f'<form action="{back}/comment" method="post">'
        + field_text("body", "Comment", area=True)
        + '<button type="submit">Post comment</button></form>'
    )
    return app.page(p["title"], body)


def _vote_note(value: int | None) -> str:
    return f"<p>You {'upvoted' if value > 0 else 'downvoted'} this submission.</p>" if value else ""


@app.post(r"/f/([A-Za-z0-9_]+)/(\d+)/comment")
def comment(request: Request) -> Redirect:
    p = request.one(f"{POSTS} WHERE f.name = ? AND p.id = ?", (request.match[1], request.match[2]))
    text = request.form.get("body", "").strip()
    if text:
        request.db.execute(
            "INSERT INTO comments (post_id, user_id, body, created, upvotes, downvotes) "
            "VALUES (?, ?, ?, '2023-12-31 12:00', 1, 0)",
            (p["id"], ME, text),
        )
    return Redirect(f"/f/{p['forum']}/{p['id']}")


@app.post("/vote")
def vote(request: Request) -> Redirect:
    kind = "comment" if request.form.get("kind") == "comment" else "post"
    table = "comments" if kind == "comment" else "posts"
    target = request.one(f"SELECT id FROM {table} WHERE id = ?", (request.form.get("target", ""),))[0]
    value = 1 if request.form.get("value") == "1" else -1
    old = request.all("SELECT value FROM votes WHERE kind = ? AND target = ?", (kind, target))
    old_value = old[0][0] if old else 0
    new_value = 0 if old_value == value else value  # voting the same way twice takes the vote back
    up = (new_value == 1) - (old_value == 1)
    down = (new_value == -1) - (old_value == -1)
    request.db.execute(
        f"UPDATE {table} SET upvotes = upvotes + ?, downvotes = downvotes + ? WHERE id = ?", (up, down, target)
    )
    request.db.execute("DELETE FROM votes WHERE kind = ? AND target = ?", (kind, target))
    if new_value:
        request.db.execute("INSERT INTO votes VALUES (?, ?, ?)", (kind, target, new_value))
    back = request.form.get("back", "/")
    return Redirect(back if back.startswith("/") and not back.startswith("//") else "/")


@app.get("/submit")
def submit_form(request: Request) -> str:
    body = (
        '<form action="/submit" method="post">'
        + field_text("forum", "Forum", request.arg("forum"))
        + field_text("title", "Title")
        + field_text("body", "Body", area=True)
        + '<button type="submit">Create submission</button></form>'
    )
    return app.page("Create submission", body)


@app.post("/submit")
def submit(request: Request) -> str | Redirect:
    form = request.form
    forums = request.all("SELECT id, name FROM forums WHERE name = ?", (form.get("forum", "").strip(),))
    if not forums or not form.get("title", "").strip():
        return app.page(
            "Submission not created", "<p>Choose an existing forum and give a title.</p>" + link("/submit", "Try again")
        )
    cursor = request.db.execute(
        "INSERT INTO posts (forum_id, user_id, title, body, created, upvotes, downvotes) "
        "VALUES (?, ?, ?, ?, '2023-12-31 12:00', 1, 0)",
        (forums[0]["id"], ME, form["title"].strip(), form.get("body", "").strip()),
    )
    return Redirect(f"/f/{forums[0]['name']}/{cursor.lastrowid}")


@app.get("/create_forum")
def create_forum_form(request: Request) -> str:
    body = (
        '<form action="/create_forum" method="post">'
        + field_text("name", "Name")
        + field_text("title", "Title")
        + field_text("description", "Description", area=True)
        + '<button type="submit">Create forum</button></form>'
    )
    return app.page("Create forum", body)


@app.post("/create_forum")
def create_forum(request: Request) -> str | Redirect:
    form = request.form
    name = form.get("name", "").strip()
    if not name.replace("_", "").isalnum() or request.all("SELECT 1 FROM forums WHERE name = ?", (name,)):
        return app.page(
            "Forum not created",
            "<p>The name must be new and use letters, digits or _.</p>" + link("/create_forum", "Try again"),
        )
    request.db.execute(
        "INSERT INTO forums (name, title, description, created) VALUES (?, ?, ?, '2023-12-31')",
        (name, form.get("title", "").strip() or name, form.get("description", "").strip()),
    )
    return Redirect(f"/f/{name}")


@app.get("/user/([A-Za-z0-9_]+)")
def user(request: Request) -> str:
    u = request.one("SELECT * FROM users WHERE username = ?", (request.match[1],))
    posts = request.all(f"{POSTS} WHERE p.user_id = ? ORDER BY p.created DESC", (u["id"],))
    comments = request.all(
        "SELECT c.*, p.title, f.name AS forum FROM comments c JOIN posts p ON p.id = c.post_id "
        "JOIN forums f ON f.id = p.forum_id WHERE c.user_id = ? ORDER BY c.created DESC",
        (u["id"],),
    )
    listed = "".join(
        f"<li><p>On {link('/f/' + c['forum'] + '/' + str(c['post_id']), c['title'])}, {c['created']}:</p>"
        f"<p>{esc(c['body'])}</p><p>{c['upvotes']} upvotes, {c['downvotes']} downvotes</p></li>"
        for c in comments
    )
    body = (
        f"<p>Joined {u['joined']}</p><h2>Submissions</h2>"
        + _post_list(request, posts, "/user/" + u["username"])
        + f"<h2>Comments</h2><ul>{listed}</ul>"
    )
    return app.page(u["username"], body)


@app.get("/search")
def search(request: Request) -> str:
    q = request.arg("q")
    rows = request.all(f"{POSTS} WHERE p.title LIKE ? ORDER BY p.created DESC LIMIT 50", (f"%{q}%",)) if q else []
    return app.page(
        f"Search results for '{q}'",
        _search_form(q) + f"<p>{len(rows)} results</p>" + _post_list(request, rows, "/search" + qs(q=q)),
    )
