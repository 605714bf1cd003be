"""A tiny shop in the shape of a WebArena site (search, product pages, an edit form, a long orders table, on its own
SQLite file), and a WebArena task config for it (``shop_config``)."""

from __future__ import annotations

import sqlite3
import threading
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

__all__ = ["PRODUCTS", "ORDERS", "TinyShop", "shop_config"]

# ---- a tiny shop in the shape of a WebArena site -------------------------------------------------------------
PRODUCTS = [(1, "Blue Shoes", 30.0), (2, "Red Hat", 12.5), (3, "Green Scarf", 8.25)]
ORDERS = [(n, "Complete" if n % 3 else "Pending") for n in range(1, 61)]


def _page(title: str, body: str) -> bytes:
    nav = (
        "<nav aria-label='Main'><a href='/'>Home</a> <a href='/orders'>My Orders</a> "
        "<a href='http://example.com/'>Partner site</a> <a href='/popup' target='_blank'>Help</a></nav>"
    )
    return (
        f"<!doctype html><html><head><title>{escape(title)}</title></head><body>{nav}<main>{body}</main>"
        f"</body></html>".encode()
    )


class TinyShop:
    """A shop with search, product pages, an edit form and a long orders table, on its own SQLite file."""

    def __init__(self, folder):
        self.db = folder / "shop.sqlite"
        with sqlite3.connect(self.db) as con:
            con.execute("CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, price REAL)")
            con.executemany("INSERT INTO products VALUES (?, ?, ?)", PRODUCTS)
        shop = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, body: bytes, status: int = 200, location: str = ""):
                self.send_response(status)
                if location:
                    self.send_header("Location", location)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                self._send(shop.get(self.path))

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                form = parse_qs(self.rfile.read(length).decode())
                self._send(b"", 303, shop.post(self.path, form))

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def rows(self, sql, *args):
        with sqlite3.connect(self.db) as con:
            return con.execute(sql, args).fetchall()

    def get(self, raw: str) -> bytes:
        parts = urlsplit(raw)
        path, query = parts.path, parse_qs(parts.query)
        search = (
            "<form action='/search' role='search'><label for='q'>Search</label>"
            "<input id='q' name='q' type='search'><button>Go</button></form>"
        )
        if path == "/":
            links = "".join(
                f"<li><a href='/product/{i}'>{escape(n)}</a></li>"
                for i, n, _ in self.rows("SELECT * FROM products ORDER BY id")
            )
            return _page("One Stop Market", f"<h1>Welcome</h1>{search}<ul>{links}</ul>")
        if path == "/search":
            words = query.get("q", [""])[0]
            hits = self.rows("SELECT id, name FROM products WHERE name LIKE ?", f"%{words}%")
            links = "".join(f"<li><a href='/product/{i}'>{escape(n)}</a></li>" for i, n in hits)
            return _page(f"Search results for {words}", f"<h1>{len(hits)} results</h1>{search}<ul>{links}</ul>")
        if path.startswith("/product/"):
            pid = path.split("/")[2]
            found = self.rows("SELECT name, price FROM products WHERE id = ?", pid)
            if not found:
                return _page("Not found", "<h1>No such product</h1>")
            name, price = found[0]
            if path.endswith("/edit"):
                return _page(
                    f"Edit {name}",
                    f"<h1>Edit {escape(name)}</h1><form method='post' action='/product/"
                    f"{pid}/edit'><label for='price'>Price</label><input id='price' name='price' "
                    f"value='{price:.2f}'><button>Save</button></form>",
                )
            return _page(
                name, f"<h1>{escape(name)}</h1><p>Price: ${price:.2f}</p><a href='/product/{pid}/edit'>Edit product</a>"
            )
        if path == "/orders":
            rows = "".join(f"<tr><td><a href='/order/{n}'>Order {n}</a></td><td>{s}</td></tr>" for n, s in ORDERS)
            return _page("My Orders", f"<h1>My Orders</h1><table><tr><th>Order</th><th>Status</th></tr>{rows}</table>")
        if path.startswith("/order/"):
            number = int(path.split("/")[2])
            return _page(f"Order {number}", f"<h1>Order {number}</h1><p>Status: {ORDERS[number - 1][1]}</p>")
        if path == "/popup":
            return _page("Help", "<h1>Help</h1><p>Ask us anything.</p>")
        return _page("Not found", "<h1>Not found</h1>")

    def post(self, path: str, form) -> str:
        pid = path.split("/")[2]
        with sqlite3.connect(self.db) as con:
            con.execute("UPDATE products SET price = ? WHERE id = ?", (float(form["price"][0]), pid))
        return f"/product/{pid}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def shop_config(task_id, intent, start, gold, eval_, db_checks=()):
    return {
        "sites": ["shopping"],
        "task_id": task_id,
        "require_login": False,
        "storage_state": None,
        "start_url": start,
        "intent": intent,
        "intent_template": intent,
        "instantiation_dict": {},
        "require_reset": bool(db_checks),
        "eval": eval_,
        "intent_template_id": task_id,
        "db_checks": list(db_checks),
        "gold": gold,
    }
