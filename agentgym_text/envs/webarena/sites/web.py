"""Shared serving and HTML helpers for the WebArena sites: a tiny router, a threaded stdlib server, page parts.

Each site is an ``App`` (a list of routes). A route handler gets a ``Request`` (method, path, query and form
fields, a SQLite connection on this server's live copy, the current user) and returns HTML (``str``) or a
``Redirect``. Requests of one database are serialised by a lock, which is also what ``reset`` takes to swap
the file, so a reset never races a request.
"""

from __future__ import annotations

import html
import re
import socket
import sqlite3
import sys
import threading
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

__all__ = [
    "App",
    "Request",
    "Redirect",
    "NotFound",
    "serve",
    "stop",
    "esc",
    "page",
    "link",
    "table",
    "field_text",
    "pager",
    "qs",
]


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def qs(**params: object) -> str:
    """A query string from the non-empty params ("" when none)."""
    items = {k: v for k, v in params.items() if v not in (None, "")}
    return ("?" + urllib.parse.urlencode(items)) if items else ""


@dataclass
class Redirect:
    location: str


class NotFound(Exception):
    """Raised by a handler for a missing object; served as a 404 page."""


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    form: dict[str, str]
    db: sqlite3.Connection
    match: re.Match | None = None
    extra: dict = field(default_factory=dict)

    def arg(self, name: str, default: str = "") -> str:
        return self.query.get(name, default).strip()

    def int_arg(self, name: str, default: int = 1) -> int:
        try:
            return max(1, int(self.query.get(name, default)))
        except ValueError:
            return default

    def one(self, sql: str, params: Iterable = ()) -> sqlite3.Row:
        row = self.db.execute(sql, tuple(params)).fetchone()
        if row is None:
            raise NotFound()
        return row

    def all(self, sql: str, params: Iterable = ()) -> list[sqlite3.Row]:
        return self.db.execute(sql, tuple(params)).fetchall()


Handler = Callable[[Request], "str | Redirect"]


class App:
    """Routes of one site: ``@app.get(r"/product/(\\d+)")`` registers a handler for a full-path regex."""

    def __init__(self, name: str, title: str, nav: list[tuple[str, str]]):
        self.name, self.title, self.nav = name, title, nav
        self.routes: list[tuple[str, re.Pattern, Handler]] = []

    def route(self, method: str, pattern: str) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            self.routes.append((method, re.compile(pattern + "$"), handler))
            return handler

        return register

    def get(self, pattern: str) -> Callable[[Handler], Handler]:
        return self.route("GET", pattern)

    def post(self, pattern: str) -> Callable[[Handler], Handler]:
        return self.route("POST", pattern)

    def page(self, heading: str, body: str, *, title: str | None = None) -> str:
        return page(self.title, title or heading, heading, body, self.nav)

    def dispatch(self, request: Request) -> tuple[int, str | Redirect]:
        allowed = False
        for method, pattern, handler in self.routes:
            match = pattern.match(request.path)
            if match:
                allowed = True
                if method == request.method:
                    request.match = match
                    try:
                        return 200, handler(request)
                    except NotFound:
                        continue
        if allowed and request.method != "GET":
            return 405, self.page("Method not allowed", "<p>This page does not accept that request.</p>")
        return 404, self.page("Page not found", "<p>The page you requested was not found.</p>")


def page(site: str, title: str, heading: str, body: str, nav: list[tuple[str, str]]) -> str:
    links = "".join(f'<li><a href="{esc(href)}">{esc(text)}</a></li>' for text, href in nav)
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{esc(title)} | {esc(site)}</title>'
        "<style>body{font-family:sans-serif;margin:0}header{background:#334;color:#fff;padding:6px 12px}"
        "header a{color:#fff}nav ul{list-style:none;display:flex;gap:14px;margin:0;padding:0}main{padding:12px}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 6px}</style></head><body>"
        f'<header><strong>{esc(site)}</strong><nav aria-label="Main"><ul>{links}</ul></nav></header>'
        f"<main><h1>{esc(heading)}</h1>{body}</main></body></html>"
    )


def link(href: str, text: object, label: str | None = None) -> str:
    aria = f' aria-label="{esc(label)}"' if label else ""
    return f'<a href="{esc(href)}"{aria}>{esc(text)}</a>'


def table(headers: list[str], rows: list[list[str]], caption: str = "") -> str:
    """A table; cells are already HTML (escape text with ``esc``)."""
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    head = "".join(f'<th scope="col">{esc(h)}</th>' for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def field_text(name: str, label: str, value: object = "", *, kind: str = "text", area: bool = False) -> str:
    ident = f"f-{name}"
    if area:
        control = f'<textarea id="{ident}" name="{name}" rows="4" cols="60">{esc(value)}</textarea>'
    else:
        control = f'<input id="{ident}" name="{name}" type="{kind}" value="{esc(value)}">'
    return f'<p><label for="{ident}">{esc(label)}</label> {control}</p>'


def pager(base: str, page_no: int, pages: int, **params: object) -> str:
    if pages <= 1:
        return ""
    parts = []
    if page_no > 1:
        parts.append(link(base + qs(**params, page=page_no - 1), "Previous page"))
    parts.append(f"<span>Page {page_no} of {pages}</span>")
    if page_no < pages:
        parts.append(link(base + qs(**params, page=page_no + 1), "Next page"))
    return '<nav aria-label="Pagination">' + " ".join(parts) + "</nav>"


class _Handler(BaseHTTPRequestHandler):
    server: _SiteHTTPServer
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # quiet
        pass

    def _handle(self, method: str) -> None:
        parsed = urllib.parse.urlsplit(self.path)
        query = {k: v[-1] for k, v in urllib.parse.parse_qs(parsed.query, keep_blank_values=True).items()}
        form: dict[str, str] = {}
        if method == "POST":
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(min(length, 1 << 20)).decode("utf-8", "replace")
            form = {k: v[-1] for k, v in urllib.parse.parse_qs(raw, keep_blank_values=True).items()}
        path = urllib.parse.unquote(parsed.path.rstrip("/") or "/")
        site = self.server.site
        with site.lock:
            db = sqlite3.connect(site.db_path)
            db.row_factory = sqlite3.Row
            try:
                status, result = site.app.dispatch(Request(method, path, query, form, db))
                db.commit()
                if db.total_changes:
                    site.on_write()
            except Exception:  # a bug or a hostile request must not kill the connection silently
                db.rollback()
                status, result = 500, site.app.page("Server error", "<p>The request could not be handled.</p>")
            finally:
                db.close()
        if isinstance(result, Redirect):
            self.send_response(303)
            self.send_header("Location", result.location)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = result.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if method != "HEAD":
            self.wfile.write(body)

    def do_GET(self) -> None:
        self._handle("GET")

    def do_HEAD(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")


def _nothing() -> None:
    pass


@dataclass
class LiveSite:
    app: App
    db_path: Path
    lock: threading.Lock
    on_write: Callable[[], None] = _nothing
    """Called (under ``lock``) after a request that changed the database."""


class _SiteHTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    site: LiveSite

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that stopped reading (its context restarted, its page navigated away) is no error of the
        site's: only other errors get socketserver's traceback on stderr."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


_POLL_S = 5.0
"""How often an idle site's loop wakes to look for a stop request. ``stop`` wakes it at once, so this only needs to be
long: at 0.1 s the 5 sites of 32 envs woke 1,600 times a second, 3% of a core and as many takes of the GIL."""


def serve(site: LiveSite) -> tuple[ThreadingHTTPServer, threading.Thread, str]:
    """Serve ``site`` on 127.0.0.1 (a free port) in a daemon thread; returns (server, thread, base URL)."""
    server = _SiteHTTPServer(("127.0.0.1", 0), _Handler)
    server.site = site
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": _POLL_S}, daemon=True)
    thread.start()
    return server, thread, f"http://127.0.0.1:{server.server_address[1]}"


def stop(server: ThreadingHTTPServer, thread: threading.Thread) -> None:
    """Stop a server of ``serve`` and close its socket: ``shutdown`` waits for its loop, which a connection wakes."""
    stopping = threading.Thread(target=server.shutdown, daemon=True)
    stopping.start()
    while stopping.is_alive():
        try:
            socket.create_connection(server.server_address, timeout=1).close()
        except OSError:  # not accepting any more: the loop has ended
            pass
        stopping.join(0.05)
    server.server_close()
    thread.join(timeout=5)
