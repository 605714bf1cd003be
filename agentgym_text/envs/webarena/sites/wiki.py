"""The wiki (Wikipedia-like): main page, articles with infoboxes and [[links]], search (an exact title goes
straight to the article), category lists. Read-only."""

from __future__ import annotations

import re
import urllib.parse

from agentgym_text.envs.webarena.sites.web import App, Redirect, Request, esc, link, table

__all__ = ["app", "article_url"]

app = App(
    "wikipedia",
    "Wikipedia",
    [
        ("Main page", "/"),
        ("Countries", "/category/country"),
        ("Cities", "/category/city"),
        ("Rivers", "/category/river"),
        ("People", "/category/person"),
    ],
)
KINDS = {"country": "Countries", "city": "Cities", "river": "Rivers", "person": "People"}


def article_url(title: str) -> str:
    return "/wiki/" + urllib.parse.quote(title.replace(" ", "_"))


def _search_form(value: str = "") -> str:
    return (
        '<form role="search" action="/search" method="get"><label for="q">Search Wikipedia</label> '
        f'<input id="q" type="search" name="q" value="{esc(value)}"> <button type="submit">Search</button></form>'
    )


def _render(body: str) -> str:
    parts = re.split(r"\[\[([^\]]+)\]\]", body)
    return "".join(link(article_url(p), p) if n % 2 else esc(p) for n, p in enumerate(parts))


@app.get("/")
def home(request: Request) -> str:
    count = request.one("SELECT COUNT(*) FROM articles")[0]
    cats = "".join(f"<li>{link('/category/' + k, v)}</li>" for k, v in KINDS.items())
    return app.page(
        "Welcome to Wikipedia",
        _search_form() + f"<p>The free encyclopedia with {count} articles.</p><h2>Browse</h2><ul>{cats}</ul>",
        title="Main page",
    )


@app.get("/category/([a-z]+)")
def category(request: Request) -> str:
    kind = request.match[1]
    if kind not in KINDS:
        return app.page("Page not found", "<p>No such category.</p>")
    rows = request.all("SELECT title FROM articles WHERE kind = ? ORDER BY title", (kind,))
    return app.page(
        f"Category: {KINDS[kind]}",
        _search_form() + "<ul>" + "".join(f"<li>{link(article_url(r[0]), r[0])}</li>" for r in rows) + "</ul>",
    )


@app.get("/wiki/(.+)")
def article(request: Request) -> str:
    a = request.one("SELECT * FROM articles WHERE title = ?", (request.match[1].replace("_", " "),))
    facts = request.all("SELECT * FROM facts WHERE article_id = ? ORDER BY position", (a["id"],))
    box = table(
        ["Field", "Value"],
        [[esc(f["key"]), link(article_url(f["link"]), f["value"]) if f["link"] else esc(f["value"])] for f in facts],
        a["title"],
    )
    body = _search_form() + f'<aside aria-label="Infobox">{box}</aside><p>{_render(a["body"])}</p>'
    return app.page(a["title"], body)


@app.get("/search")
def search(request: Request) -> str | Redirect:
    q = request.arg("q")
    exact = request.all("SELECT title FROM articles WHERE title = ? COLLATE NOCASE", (q,)) if q else []
    if exact:
        return Redirect(article_url(exact[0][0]))
    rows = (
        request.all(
            "SELECT title, summary FROM articles WHERE title LIKE ? OR body LIKE ? ORDER BY title LIMIT 20",
            (f"%{q}%", f"%{q}%"),
        )
        if q
        else []
    )
    items = "".join(f"<li>{link(article_url(r[0]), r[0])}: {esc(r[1])}</li>" for r in rows)
    return app.page("Search results", _search_form(q) + f"<p>{len(rows)} results for '{esc(q)}'</p><ul>{items}</ul>")
