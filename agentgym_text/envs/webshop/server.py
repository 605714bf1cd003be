"""The same store as real HTML pages, for browser agents (optional; standard library only).

    python -m agentgym_text.envs.webshop.server --port 3000      # then open http://127.0.0.1:3000/fixed_0

A session id in the URL plays one task, as in WebShop's server: ``fixed_<i>`` plays shipped task ``i``, any
other id task 0 (or ``?task=<task_id>`` on its first page). Each session is its own ``WebShopEnv``, so scores
never leak between sessions. Every element an agent can click is a link (``<a class="btn">`` for buttons,
``class="product-link"`` for products, ``class="option"`` for option values, ``selected`` when chosen), and
the search page has a form with ``id="search_input"``, like WebShop's HTML mode. ``GET /<sid>/search?query=``
and ``GET /<sid>/click?element=`` perform the text actions ``search[...]`` and ``click[...]``.
"""

from __future__ import annotations

import argparse
import html
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, quote, urlsplit

from agentgym_text.envs.webshop.env import WebShopEnv
from agentgym_text.envs.webshop.render import SUB_PAGES

__all__ = ["ShopServer", "page_html", "main"]

_SESSION = re.compile(r"^/([A-Za-z0-9_\-]{1,64})(/search|/click)?$")


def _link(sid: str, element: str, css: str = "btn") -> str:
    return f'<a class="{css}" href="/{sid}/click?element={quote(element)}">{html.escape(element)}</a>'


def page_html(sid: str, env: WebShopEnv, message: str = "") -> str:
    """One HTML page for the session's current state (``message``: the last action's feedback, if any)."""
    session = env.session
    body = [f'<div id="instruction-text"><h4>Instruction:<br>{html.escape(session.goal.instruction)}</h4></div>']
    if message:
        body.append(f'<div id="message">{html.escape(message)}</div>')
    if session.page == "init":
        body.append(
            f'<h2>Let us begin shopping</h2><form action="/{sid}/search" method="get">'
            '<input id="search_input" name="query" type="text" placeholder="Search..." required>'
            '<button class="btn" type="submit">Search</button></form>'
        )
    elif session.page == "end":
        body.append(
            f'<h3>Thank you for shopping with us!</h3><h4 id="reward">Your score (min 0.0, max 1.0): '
            f"{session.buy_score:.2f}</h4>"
        )
    else:
        body.append(_link(sid, "Back to Search"))
    if session.page == "results":
        body.append(f"<h3>Page {session.page_num} (Total results: {len(session.hits)})</h3>")
        if session.page_num > 1:
            body.append(_link(sid, "< Prev"))
        body.append(_link(sid, "Next >"))
        for product in session.page_products()[: env.results_shown]:
            body.append(
                f'<div class="result">{_link(sid, product.asin, "product-link")}'
                f'<h4 class="product-title">{html.escape(product.title)}</h4>'
                f'<h5 class="product-price">{product.price_text}</h5></div>'
            )
    elif session.page in ("item", "sub"):
        product = session.product()
        body.append(_link(sid, "< Prev"))
        if session.page == "item":
            for group, values in product.options:
                links = " ".join(
                    _link(sid, v, "option selected" if session.options.get(group) == v else "option") for v in values
                )
                body.append(f'<div class="option-group"><h4>{html.escape(group)}</h4>{links}</div>')
            body.append(
                f"<h2>{html.escape(product.title)}</h2><h4>Price: {product.price_text}</h4>"
                f"<h4>Rating: {product.rating}</h4>"
            )
            body += [_link(sid, name) for name in SUB_PAGES] + [_link(sid, "Buy Now", "btn purchase")]
        elif session.sub_page == "Description":
            body.append(f'<p class="product-info">{html.escape(product.description)}</p>')
        elif session.sub_page == "Features":
            body.append("<ul>" + "".join(f"<li>{html.escape(b)}</li>" for b in product.bullets) + "</ul>")
        else:
            body += [
                f'<div class="review"><h4>"{html.escape(t)}"</h4><span>{s}</span><p>{html.escape(b)}</p></div>'
                for t, s, b in product.reviews
            ]
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>WebShop</title></head><body>'
        + "\n".join(body)
        + "</body></html>"
    )


class ShopServer(ThreadingHTTPServer):
    """An HTTP server holding one ``WebShopEnv`` per session id."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], **env_kwargs):
        super().__init__(address, _Handler)
        self.env_kwargs = env_kwargs
        self.sessions: dict[str, WebShopEnv] = {}
        self.lock = threading.Lock()

    def session(self, sid: str, task_id: str | None) -> WebShopEnv:
        env = self.sessions.get(sid)
        if env is None:
            env = self.sessions[sid] = WebShopEnv(**self.env_kwargs)
            match = re.fullmatch(r"fixed_(\d+)", sid)
            if task_id in env.task_ids:
                env.reset(options={"task_id": task_id})
            else:
                index = int(match.group(1)) if match and int(match.group(1)) < len(env.task_ids) else 0
                env.reset(options={"task_index": index})
        return env


class _Handler(BaseHTTPRequestHandler):
    server: ShopServer

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        parts = urlsplit(self.path)
        match = _SESSION.match(parts.path)
        if match is None:
            self._send(404, "<html><body>Open /fixed_0 (or /&lt;session id&gt;) to start shopping.</body></html>")
            return
        sid, verb = match.group(1), match.group(2)
        query = {key: values[0] for key, values in parse_qs(parts.query).items()}
        with self.server.lock:
            env = self.server.session(sid, query.get("task"))
            message = ""
            if verb and not env.episode_over:
                argument = query.get("query" if verb == "/search" else "element", "")
                observation, *_, info = env.step(f"{verb[1:]}[{argument}]")
                if not info["valid"] or observation.startswith("WEB PAGE: {You have clicked"):
                    message = observation.split("The recent observation is:")[0].removeprefix("WEB PAGE: {")
                    message = message.rstrip().removesuffix("}")
            page = page_html(sid, env, message)
        self._send(200, page)

    def _send(self, status: int, text: str) -> None:
        data = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (quiet by default)
        pass


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve the WebShop store as HTML pages.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=3000)
    parser.add_argument("--split", default="test", choices=("test", "train"))
    parser.add_argument("--num-products", type=int, default=20_000)
    args = parser.parse_args(argv)
    server = ShopServer((args.host, args.port), split=args.split, num_products=args.num_products)
    print(f"WebShop on http://{args.host}:{server.server_address[1]}/fixed_0 (Ctrl-C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
