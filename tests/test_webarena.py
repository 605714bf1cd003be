"""AgentBoard/WebArena-v0: the browser layer, the action grammar, the fence, the expert, isolation.

Two kinds of tests: on the package's own sites (the registered id), and on a tiny shop served by this file
through ``sites=`` + ``task_config=`` (the path a user's own WebArena deployment takes).
"""

from __future__ import annotations

import itertools
import json
import re
import sqlite3
import threading
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("playwright")
from agentgym_text.envs.webarena.browser import find_chromium  # noqa: E402

try:
    find_chromium()
except ImportError as error:  # MissingDependency
    pytest.skip(str(error), allow_module_level=True)

from agentgym_text.core import ActionError  # noqa: E402
from agentgym_text.envs.webarena.actions import parse_action  # noqa: E402
from agentgym_text.envs.webarena.env import WebArenaEnv  # noqa: E402

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


def _config(task_id, intent, start, gold, eval_, db_checks=()):
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


def _tiny_tasks():
    return [
        _config(
            0,
            "What is the price of Blue Shoes?",
            "__SHOPPING__/",
            [
                {"action": "type", "role": "searchbox", "name": "Search", "text": "Blue Shoes", "enter": 1},
                {"action": "click", "role": "link", "name": "Blue Shoes"},
                {"action": "stop", "answer": "$30.00"},
            ],
            {
                "eval_types": ["string_match"],
                "reference_answers": {"must_include": ["30.00"]},
                "reference_url": "",
                "program_html": [],
            },
        ),
        _config(
            1,
            "Open my orders.",
            "__SHOPPING__/",
            [{"action": "click", "role": "link", "name": "My Orders"}, {"action": "stop", "answer": ""}],
            {
                "eval_types": ["url_match"],
                "reference_answers": None,
                "reference_url": "__SHOPPING__/orders",
                "program_html": [],
            },
        ),
        _config(
            2,
            "Set the price of Red Hat to 99.",
            "__SHOPPING__/",
            [
                {"action": "goto", "url": "__SHOPPING__/product/2"},
                {"action": "click", "role": "link", "name": "Edit product"},
                {"action": "type", "role": "textbox", "name": "Price", "text": "99", "enter": 1},
                {"action": "stop", "answer": ""},
            ],
            {"eval_types": ["program_html"], "reference_answers": None, "reference_url": "", "program_html": []},
            db_checks=[{"site": "shopping", "sql": "SELECT price FROM products WHERE id = 2", "expected": 99.0}],
        ),
        _config(
            3,
            "What is the status of order 58?",
            "__SHOPPING__/orders",
            [{"action": "click", "role": "link", "name": "Order 58"}, {"action": "stop", "answer": "Complete"}],
            {
                "eval_types": ["string_match"],
                "reference_answers": {"exact_match": "Complete"},
                "reference_url": "",
                "program_html": [],
            },
        ),
    ]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tinyshop")
    shop = TinyShop(folder)
    config = folder / "test.raw.json"
    config.write_text(json.dumps(_tiny_tasks()))
    env = WebArenaEnv(sites={"shopping": shop.url}, task_config=str(config), db_paths={"shopping": shop.db})
    yield shop, env
    env.close()
    shop.close()


def _play_expert(env, task_index):
    obs, info = env.reset(options={"task_index": task_index})
    steps, done = 0, False
    while not done:
        action = env.expert_action()
        assert action is not None, obs
        obs, reward, terminated, truncated, info = env.step(action)
        assert info["valid"], (action, obs)
        steps += 1
        done = terminated or truncated
    return obs, info, steps


# ---- the grammar -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, kind",
    [
        ("click [12]", "click"),
        ("@hover [3]@", "hover"),
        ("go_back", "go_back"),
        ("type [4] [a [b] c] [0]", "type"),
        ("press [ctrl+Enter]", "press"),
        ("```scroll [down]```", "scroll"),
        ("tab_focus [1]", "tab_focus"),
        ("stop [N/A]", "stop"),
        ("goto [http://reddit.com/f/books]", "goto"),
    ],
)
def test_grammar_reads_webarena_and_agentboard_forms(text, kind):
    assert parse_action(text).kind == kind


@pytest.mark.parametrize(
    "text",
    [
        "click [abc]",
        "click 12",
        "type [4]",
        "scroll [left]",
        "press [hyper+q]",
        "fly [3]",
        "new_tab now",
        "tab_focus [x]",
        "goto []",
        "stop 42",
    ],
)
def test_grammar_refuses_malformed_actions_with_a_reason(text):
    with pytest.raises(ActionError) as error:
        parse_action(text)
    assert len(str(error.value)) > 20


# ---- the browser on the tiny shop ---------------------------------------------------------------------------
def test_observation_is_webarenas_tree_with_ids_tabs_and_url(tiny):
    shop, env = tiny
    obs, info = env.reset(options={"task_index": 0})
    head = obs.split("\n")
    assert head[0] == "WINDOWED PAGE:{" and head[1] == "Tab 0 (current): One Stop Market"
    # one tab deeper per level of the tree: the nav's links are its children, each with its own id
    nav = next(i for i, line in enumerate(head) if re.fullmatch(r"\t\[\d+\] navigation 'Main'", line))
    children = list(itertools.takewhile(lambda line: line.startswith("\t\t"), head[nav + 1 :]))
    assert all(re.fullmatch(r"\t\t\[\d+\] link '[^']+'", line) for line in children), children
    assert [line.split("] ", 1)[1] for line in children] == [
        "link 'Home'",
        "link 'My Orders'",
        "link 'Partner site'",
        "link 'Help'",
    ]
    ids = re.findall(r"^\t*\[(\d+)\] ", obs, re.M)
    assert len(ids) == len(set(ids)) > len(children)
    assert any(line.strip().endswith("searchbox 'Search'") for line in head)
    assert "URL: http://onestopmarket.com/" in obs and shop.url not in obs
    assert info["progress_rate"] == 0.0
    assert info["subgoals"] and info["subgoals_done"] == [False] * len(info["subgoals"])


def test_viewport_only_and_scrolling_reveals_the_rest(tiny):
    _, env = tiny
    obs, _ = env.reset(options={"task_index": 3})
    assert "Order 2'" in obs and "Order 58'" not in obs
    obs, *_ = env.step("scroll [down]")
    assert "Order 2'" not in obs


@pytest.mark.parametrize("index", range(4))
def test_expert_solves_the_tiny_shop_tasks(tiny, index):
    _, env = tiny
    obs, info, steps = _play_expert(env, index)
    assert info["success"] and info["progress_rate"] == 1.0, obs


def test_bad_actions_are_invalid_with_a_reason_and_the_url_unchanged(tiny):
    shop, env = tiny
    obs, _ = env.reset(options={"task_index": 1})
    url = env.unwrapped._session.page.url
    for action, reason in [
        ("click [999999]", "unknown_object"),
        ("goto [file:///etc/passwd]", "bad_argument"),
        ("goto [http://example.com/]", "bad_argument"),
        ("type [1] [x]", "bad_argument"),
        ("click me", "unparsable"),
        ("tab_focus [7]", "bad_argument"),
    ]:
        obs, reward, terminated, truncated, info = env.step(action)
        assert not info["valid"] and info["invalid_reason"] == reason, (action, obs)
        assert "Invalid" in obs and env.unwrapped._session.page.url == url
    assert not terminated


def test_browser_never_leaves_the_sites_by_links_or_popups(tiny):
    shop, env = tiny
    obs, _ = env.reset(options={"task_index": 1})
    partner = next(line for line in obs.splitlines() if "link 'Partner site'" in line)
    obs, *_, info = env.step(f"click [{partner.split('[')[1].split(']')[0]}]")
    session = env.unwrapped._session
    assert session.page.url == shop.url + "/" and "http://example.com/" in session.blocked
    help_link = next(line for line in obs.splitlines() if "link 'Help'" in line)
    obs, *_ = env.step(f"click [{help_link.split('[')[1].split(']')[0]}]")
    assert "Tab 1 (current): Help" in obs
    assert all(page.url.startswith(shop.url) for page in session.pages)
    obs, *_ = env.step("close_tab")
    assert obs.splitlines()[1] == "Tab 0 (current): One Stop Market"


def test_episode_context_is_fresh_and_reset_starts_over(tiny):
    _, env = tiny
    env.reset(options={"task_index": 1})
    env.step("new_tab")
    obs, _ = env.reset(options={"task_index": 1})
    assert "Tab 1" not in obs and len(env.unwrapped._session.pages) == 1


# ---- the package's own sites ---------------------------------------------------------------------------------
def _edit_price_task(task_id, price):
    return _config(
        task_id,
        f"Set the price of product 1 to {price}.",
        "__SHOPPING_ADMIN__/admin/catalog/product/edit/1",
        [
            {"action": "type", "role": "textbox", "name": "Price", "text": str(price), "enter": 1},
            {"action": "stop", "answer": ""},
        ],
        {"eval_types": ["program_html"], "reference_answers": None, "reference_url": "", "program_html": []},
        db_checks=[
            {"site": "shopping_admin", "sql": "SELECT price FROM products WHERE id = 1", "expected": float(price)}
        ],
    )


@pytest.fixture(scope="module")
def edit_tasks(tmp_path_factory):
    path = tmp_path_factory.mktemp("edits") / "edits.json"
    path.write_text(json.dumps([_edit_price_task(0, 11), _edit_price_task(1, 22)]))
    return str(path)


def test_two_async_sub_envs_editing_the_same_product_see_their_own_databases(edit_tasks):
    envs = gym.vector.AsyncVectorEnv([lambda: WebArenaEnv(task_config=edit_tasks)] * 2)
    try:
        envs.set_attr("next_task_id", ["webarena-000", "webarena-001"])
        obs, _ = envs.reset(seed=0)
        assert all("textbox 'Price'" in o for o in obs)
        infos = None
        for _ in range(2):  # type the price (Enter saves), then stop: both sub-envs in lockstep
            actions = list(envs.call("expert_action"))
            obs, rewards, terminated, truncated, infos = envs.step(actions)
        assert terminated.all() and infos["success"].all(), obs
    finally:
        envs.close()


def test_reset_restores_the_site(edit_tasks):
    env = WebArenaEnv(task_config=edit_tasks)
    try:
        env.reset(options={"task_index": 0})
        database = env._server.db_path("shopping_admin")
        seeded = sqlite3.connect(database).execute("SELECT price FROM products WHERE id = 1").fetchone()[0]
        assert seeded != 11
        while not env.episode_over:
            env.step(env.expert_action())
        assert sqlite3.connect(database).execute("SELECT price FROM products WHERE id = 1").fetchone()[0] == 11
        env.reset(options={"task_index": 1})
        database = env._server.db_path("shopping_admin")
        assert sqlite3.connect(database).execute("SELECT price FROM products WHERE id = 1").fetchone()[0] == seeded
    finally:
        env.close()


# ---- the registered id on the shipped tasks ------------------------------------------------------------------
def _spread(count):
    from agentgym_text.envs.webarena.tasks import TASKS

    ids = TASKS.task_ids
    return [ids[round(i * (len(ids) - 1) / (count - 1))] for i in range(count)]


SAMPLE = _spread(5)  # one task on each site (the tasks are grouped by site)


@pytest.fixture(scope="module")
def shipped():
    env = gym.make("AgentBoard/WebArena-v0")
    yield env
    env.close()


def test_chromium_starts_headless(shipped):
    import os
    from pathlib import Path

    shipped.reset(options={"task_index": 0})
    assert shipped.unwrapped._browser.headless
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            pass

    def ours(pid):
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == os.getpid():
                return True
        return False

    browsers = [Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0") for pid in parents if ours(pid)]
    browsers = [
        argv
        for argv in browsers
        if argv
        and argv[0].endswith(b"chromium")
        and len(argv) > 1
        and not any(arg.startswith(b"--type=") for arg in argv)
    ]
    assert browsers and all(any(arg.startswith(b"--headless") for arg in argv) for argv in browsers)


def _expert_episode(env, task_id):
    obs, info = env.reset(seed=0, options={"task_id": task_id})
    total, done = 0.0, False
    while not done:
        action = env.unwrapped.expert_action()
        assert action is not None, f"the expert gave up on {task_id}: {obs[-500:]}"
        obs, reward, terminated, truncated, info = env.step(action)
        assert info["valid"], (task_id, action, obs[-500:])
        total += reward
        done = terminated or truncated
    return info, total


@pytest.mark.parametrize("task_id", SAMPLE)
def test_expert_solves_a_sample_of_shipped_tasks(shipped, task_id):
    info, total = _expert_episode(shipped, task_id)
    assert info["success"] and info["progress_rate"] == 1.0 and abs(total - 1.0) < 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("task_id", _spread(245))
def test_expert_solves_every_shipped_task(shipped, task_id):
    info, total = _expert_episode(shipped, task_id)
    assert info["success"] and info["progress_rate"] == 1.0 and abs(total - 1.0) < 1e-9


def test_random_agent_is_below_the_expert_on_shipped_tasks(shipped):
    """The expert reaches 1.0 on every sampled task (above); a seeded uniform-random agent, 10 steps a task, not."""
    totals = []
    for index, task_id in enumerate(SAMPLE[:2]):
        rng = np.random.default_rng(index)
        shipped.reset(seed=index, options={"task_id": task_id})
        for _ in range(10):
            actions = shipped.unwrapped.admissible_actions()
            *_, terminated, truncated, info = shipped.step(actions[int(rng.integers(len(actions)))])
            if terminated or truncated:
                break
        totals.append(info["progress_rate"])
    assert np.mean(totals) < 1.0
