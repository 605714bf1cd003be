"""The optional HTML store: an expert episode over HTTP, and the pages as headless Chromium renders them."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import threading
import urllib.request
from urllib.parse import quote

import pytest

from agentgym_text.envs.webshop.server import ShopServer


@pytest.fixture(scope="module")
def server():
    shop = ShopServer(("127.0.0.1", 0))
    thread = threading.Thread(target=shop.serve_forever, daemon=True)
    thread.start()
    yield shop
    shop.shutdown()
    shop.server_close()


def _url(shop: ShopServer, path: str) -> str:
    return f"http://127.0.0.1:{shop.server_address[1]}{path}"


def _get(shop: ShopServer, path: str) -> str:
    with urllib.request.urlopen(_url(shop, path), timeout=30) as response:
        return response.read().decode("utf-8")


def _path(sid: str, action: str) -> str:
    verb, argument = re.fullmatch(r"(search|click)\[(.*)\]", action).groups()
    return f"/{sid}/search?query={quote(argument)}" if verb == "search" else f"/{sid}/click?element={quote(argument)}"


def test_expert_episode_over_http_scores_one(server):
    page = _get(server, "/fixed_4")
    env = server.sessions["fixed_4"]
    assert html.escape(env.session.goal.instruction) in page and 'id="search_input"' in page
    while not env.episode_over:
        page = _get(server, _path("fixed_4", env.expert_action()))
    assert "Your score (min 0.0, max 1.0): 1.00" in page


def test_links_match_the_text_mode_and_errors_show(server):
    _get(server, "/session_a")
    page = _get(server, "/session_a/search?query=black%20hoodie")
    env = server.sessions["session_a"]
    assert f'class="product-link" href="/session_a/click?element={env.session.page_asins()[0]}"' in page
    page = _get(server, "/session_a/click?element=Buy%20Now")
    assert 'id="message">You can only click the button showed in the observation.' in page
    assert server.sessions.get("fixed_4") is not env  # sessions do not share state


@pytest.mark.skipif(shutil.which("chromium") is None, reason="no chromium")
def test_pages_render_in_headless_chromium(server):
    _get(server, "/browser")
    env = server.sessions["browser"]
    dom = subprocess.run(
        [
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--dump-dom",
            _url(server, _path("browser", f"search[{env.keywords}]")),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    assert env.session.goal.asin in dom and "Total results: 50" in dom
