"""The WebArena sites, task configs, evaluators and progress; the gold plans driven in Chromium."""

from __future__ import annotations

import sqlite3
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

import pytest

from agentgym_text.envs.webarena import evaluators as ev
from agentgym_text.envs.webarena import sites as sites_module
from agentgym_text.envs.webarena.evaluators import evaluate, resolve
from agentgym_text.envs.webarena.progress import ProgressTracker, url_soft_score
from agentgym_text.envs.webarena.sites import SITE_NAMES, SiteServer
from agentgym_text.envs.webarena.sites.taskkit import db_check
from agentgym_text.envs.webarena.tasks import TASKS, TASKS_FILE, generate_configs, tasks_file_text

CHROMIUM = "/usr/bin/chromium"
CONFIGS = [task.params for task in TASKS]


@pytest.fixture(scope="module")
def server():
    with SiteServer() as s:
        yield s


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def post(url: str, **form: str) -> int:
    data = urllib.parse.urlencode(form).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


# --- servers -------------------------------------------------------------------------------------------------


def test_start_is_idempotent_one_port_per_site(server):
    urls = server.start()
    assert set(urls) == set(SITE_NAMES) and urls == server.start()
    assert len({urllib.parse.urlparse(u).port for u in urls.values()}) == len(SITE_NAMES)
    assert all(u.startswith("http://127.0.0.1:") for u in urls.values())


PAGES = {
    "shopping": [
        "/",
        "/search?q=webcam",
        "/category/beauty?sort=price_asc&price_max=20",
        "/product/6",
        "/cart",
        "/orders",
        "/wishlist",
        "/account",
    ],
    "shopping_admin": [
        "/admin",
        "/admin/catalog/product?q=webcam",
        "/admin/catalog/product/edit/3",
        "/admin/sales/order?status=pending",
        "/admin/customer",
        "/admin/customer/3",
        "/admin/review?q=refund",
        "/admin/reports/bestsellers",
        "/admin/reports/orders?year=2022",
    ],
    "reddit": [
        "/",
        "/forums",
        "/f/books",
        "/f/books?sort=new",
        "/f/books?sort=top",
        "/submit",
        "/create_forum",
        "/search?q=guide",
        "/user/lakeside_reader",
    ],
    "gitlab": [
        "/",
        "/explore?sort=stars",
        "/dashboard/issues?assignee_username=byteblaze",
        "/dashboard/merge_requests?reviewer_username=byteblaze",
    ],
    "wikipedia": ["/", "/category/city", "/category/person", "/search?q=river"],
}


@pytest.mark.parametrize("site", SITE_NAMES)
def test_each_site_pages_render(server, site):
    urls = server.start()
    for path in PAGES[site]:
        status, body = get(urls[site] + path)
        assert status == 200, path
        assert "<h1>" in body and '<nav aria-label="Main">' in body, path
    status, body = get(urls[site] + "/no/such/page/here")
    assert status == 404 and "not found" in body.lower()


def test_detail_pages_render(server):
    urls = server.start()
    project = sqlite3.connect(server.db_path("gitlab")).execute("SELECT namespace, name FROM projects").fetchone()
    base = f"{urls['gitlab']}/{project[0]}/{project[1]}"
    for path in (
        "",
        "/-/issues",
        "/-/issues?state=all&label_name=bug",
        "/-/issues/new",
        "/-/issues/1",
        "/-/merge_requests?state=all",
        "/-/project_members",
        "/-/commits",
        "/-/blob/README.md",
    ):
        assert get(base + path)[0] == 200, path
    post_id, forum = (
        sqlite3.connect(server.db_path("reddit"))
        .execute("SELECT p.id, f.name FROM posts p JOIN forums f ON f.id = p.forum_id")
        .fetchone()
    )
    assert get(f"{urls['reddit']}/f/{forum}/{post_id}")[0] == 200
    title = sqlite3.connect(server.db_path("wikipedia")).execute("SELECT title FROM articles").fetchone()[0]
    status, body = get(f"{urls['wikipedia']}/search?q={urllib.parse.quote(title)}")  # exact title -> article
    assert status == 200 and f"<h1>{title}</h1>" in body
    assert get(urls["shopping"] + "/orders/7")[0] in (200, 404)


def test_two_servers_are_isolated_and_reset_restores(server, monkeypatch):
    urls = server.start()
    other = SiteServer()
    try:
        other_urls = other.start()
        assert other.db_path("shopping") != server.db_path("shopping")
        assert (
            post(
                urls["shopping_admin"] + "/admin/catalog/product/edit/5",
                name="Renamed",
                price="1.00",
                enabled="1",
                qty="3",
                description="",
            )
            == 200
        )
        assert "Renamed" in get(urls["shopping"] + "/product/5")[1]  # the shop and its admin share a database
        assert "Renamed" not in get(other_urls["shopping"] + "/product/5")[1]
        post(other_urls["reddit"] + "/submit", forum="books", title="Only on the other server", body="x")
        assert "Only on the other server" in get(other_urls["reddit"] + "/f/books?sort=new")[1]
        assert "Only on the other server" not in get(urls["reddit"] + "/f/books?sort=new")[1]

        def no_rebuild(*args, **kwargs):
            raise AssertionError("reset rebuilt the seeded databases instead of copying the templates")

        monkeypatch.setattr(sites_module, "_build", no_rebuild)
        monkeypatch.setattr(sites_module, "template_dir", no_rebuild)
        server.reset()
        for site in SITE_NAMES:
            live = server.db_path(site)
            assert live.read_bytes() == (server.data_dir / live.name).read_bytes(), site
        assert "Renamed" not in get(urls["shopping"] + "/product/5")[1]
        assert "Only on the other server" in get(other_urls["reddit"] + "/f/books?sort=new")[1]
    finally:
        work = other.db_path("reddit").parent
        other.close()
    assert not work.exists()


def test_reset_copies_back_what_was_changed_by_requests_or_through_db_path(server):
    urls = server.start()
    server.reset()
    stamp = {site: server.db_path(site).stat().st_mtime_ns for site in ("reddit", "gitlab", "wikipedia")}
    get(urls["reddit"] + "/f/books")  # a read changes nothing
    post(urls["reddit"] + "/submit", forum="books", title="Changed by a request", body="x")
    with sqlite3.connect(server.db_path("gitlab")) as database:  # a write outside the sites
        database.execute("UPDATE projects SET name = name || ' (edited)'")
    server.reset()
    assert "Changed by a request" not in get(urls["reddit"] + "/f/books?sort=new")[1]
    for site in ("reddit", "gitlab", "wikipedia"):
        live = server.db_path(site)
        assert live.read_bytes() == (server.data_dir / live.name).read_bytes(), site
    assert server.db_path("wikipedia").stat().st_mtime_ns == stamp["wikipedia"]  # untouched: not copied again
    assert server.db_path("reddit").stat().st_mtime_ns != stamp["reddit"]


def test_forms_post_and_redirect(server):
    urls = server.start()
    server.reset()
    request = urllib.request.Request(
        urls["reddit"] + "/create_forum", data=urllib.parse.urlencode({"name": "kites", "description": "d"}).encode()
    )

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.build_opener(NoRedirect).open(request)
    assert info.value.code == 303 and info.value.headers["Location"] == "/f/kites"
    assert get(urls["reddit"] + "/f/kites")[0] == 200
    assert "not created" in post_page(urls["reddit"] + "/create_forum", name="kites")  # a second one: refused
    server.reset()


def post_page(url: str, **form: str) -> str:
    with urllib.request.urlopen(urllib.request.Request(url, data=urllib.parse.urlencode(form).encode())) as r:
        return r.read().decode()


# --- task configs ----------------------------------------------------------------------------------------------


def test_shipped_tasks_match_a_fresh_generation():
    assert TASKS_FILE.read_text() == tasks_file_text(generate_configs())  # to the byte


def test_db_check_writes_values_as_sql_literals():
    check = db_check("reddit", "SELECT COUNT(*) FROM t WHERE a = ? AND b = ? AND c = ?", (7, "it's", 2.5), 1)
    assert check == {
        "site": "reddit",
        "sql": "SELECT COUNT(*) FROM t WHERE a = 7 AND b = 'it''s' AND c = 2.5",
        "expected": 1,
    }
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE t (a, b, c)")
    connection.execute("INSERT INTO t VALUES (7, 'it''s', 2.5)")
    assert connection.execute(check["sql"]).fetchone() == (1,)
    with pytest.raises(ValueError, match="2 placeholders for 1 values"):
        db_check("reddit", "SELECT ? + ?", (1,), 2)


def test_task_set_shape():
    assert len(TASKS) == 245 and TASKS.task_ids == [f"webarena-{i:03d}" for i in range(245)]
    sites = Counter("+".join(config["sites"]) for config in CONFIGS)
    assert sites == {
        "shopping": 56,
        "shopping_admin": 55,
        "reddit": 40,
        "gitlab": 52,
        "wikipedia": 40,
        "reddit+gitlab": 2,
    }
    assert len({config["intent_template_id"] for config in CONFIGS}) >= 30
    kinds = Counter(kind for config in CONFIGS for kind in config["eval"]["eval_types"])
    assert min(kinds["string_match"], kinds["url_match"], kinds["program_html"]) >= 20
    answers = Counter(kind for config in CONFIGS for kind in (config["eval"]["reference_answers"] or {}))
    assert min(answers["exact_match"], answers["must_include"], answers["fuzzy_match"]) >= 5
    assert sum(config["eval"]["reference_answers"] == {"fuzzy_match": "N/A"} for config in CONFIGS) >= 3
    assert sum(bool(config["db_checks"]) for config in CONFIGS) >= 50
    assert len({config["intent"] for config in CONFIGS}) == 245
    for task, config in zip(TASKS, CONFIGS):
        assert task.goal == config["intent"] and task.max_steps == 30 and task.difficulty in ("easy", "hard")
        assert config["start_url"].startswith("__") and config["eval"]["eval_types"]
        assert config["gold"][-1]["action"] == "stop" and len(config["gold"]) >= 2
        assert bool(config["db_checks"]) == config["require_reset"]
        for step in config["gold"]:
            assert step["action"] in ("click", "type", "goto", "stop")
            if step["action"] in ("click", "type"):
                assert step["role"] in ("link", "button", "textbox", "searchbox", "radio", "checkbox") and step["name"]


def test_gold_answers_pass_string_match_and_db_checks_fail_on_fresh_data(server):
    server.reset()
    paths = {site: server.db_path(site) for site in SITE_NAMES}
    for config in CONFIGS:
        answer = config["gold"][-1]["answer"]
        if "string_match" in config["eval"]["eval_types"]:
            assert ev.string_match(config, answer) == 1.0, config["intent"]
            assert ev.string_match(config, "something else entirely") == 0.0, config["intent"]
        if config["db_checks"]:
            assert ev.db_checks(config["db_checks"], paths) == 0.0, config["intent"]  # nothing done yet


def test_answers_are_computed_from_the_database(server):
    """Spot checks that an answer is what the seeded database says, by an independent query."""
    shop = sqlite3.connect(server.db_path("shopping"))
    for config in CONFIGS:
        if config["intent_template_id"] == 0:
            name = config["instantiation_dict"]["product"]
            price = shop.execute("SELECT price FROM products WHERE name = ?", (name,)).fetchone()[0]
            assert config["gold"][-1]["answer"] == f"${price:,.2f}"
        if config["intent_template_id"] == 25:
            status = config["instantiation_dict"]["status"]
            count = shop.execute("SELECT COUNT(*) FROM orders WHERE status = ?", (status,)).fetchone()[0]
            assert config["eval"]["reference_answers"]["exact_match"] == str(count)


# --- evaluators ------------------------------------------------------------------------------------------------

SITES = {"shopping": "http://127.0.0.1:1111", "gitlab": "http://127.0.0.1:2222"}


def _config(**eval_fields) -> dict:
    base = {"eval_types": [], "reference_answers": None, "reference_url": "", "program_html": [], "string_note": ""}
    base.update(eval_fields)
    return {"intent": "q", "eval": base, "db_checks": []}


def _score(config: dict, answer: str = "", url: str = "", content: str = "", db=None) -> float:
    return evaluate(config, answer, url, lambda u, loc: content, db or {}, SITES)


def test_exact_match():
    config = _config(eval_types=["string_match"], reference_answers={"exact_match": "2022-03-04"})
    assert _score(config, " '2022-03-04' ") == 1.0 and _score(config, '"2022-03-04"') == 1.0
    assert _score(config, "It was 2022-03-04") == 0.0 and _score(config, None) == 0.0


def test_must_include():
    config = _config(eval_types=["string_match"], reference_answers={"must_include": ["Alice", "Bob"]})
    assert _score(config, "alice and BOB") == 1.0 and _score(config, "alice") == 0.0
    single = _config(eval_types=["string_match"], reference_answers={"must_include": ["0"]})
    assert _score(single, "There are 0 orders") == 1.0 and _score(single, "10 orders") == 0.0
    alternatives = _config(eval_types=["string_match"], reference_answers={"must_include": ["1,234.50 |OR| 1234.50"]})
    assert _score(alternatives, "$1234.50") == 1.0 and _score(alternatives, "$1,234.50") == 1.0
    assert _score(alternatives, "$1,234") == 0.0


def test_fuzzy_match_by_rules_and_llm():
    config = _config(eval_types=["string_match"], reference_answers={"fuzzy_match": ["Lake Shore Drive"]})
    assert _score(config, "It is on lake shore drive.") == 1.0
    assert _score(config, "Lake Shore Drvie") == 1.0  # ratio >= 90
    assert _score(config, "Main Street") == 0.0
    assert _score(_config(eval_types=["string_match"], reference_answers={"fuzzy_match": ["1,200"]}), "1200") == 1.0
    na = _config(eval_types=["string_match"], reference_answers={"fuzzy_match": "N/A"}, string_note="no such item")
    assert _score(na, "N/A") == 1.0 and _score(na, "42") == 0.0
    seen = []

    def llm(messages):
        seen.append(messages[-1]["content"])
        return "correct" if "lakeshore" in messages[-1]["content"].lower() else "incorrect"

    assert evaluate(config, "Lakeshore Dr.", "", lambda url, locator: "", {}, SITES, llm=llm) == 1.0
    assert evaluate(config, "Main St", "", lambda url, locator: "", {}, SITES, llm=llm) == 0.0
    assert "reference answer: Lake Shore Drive" in seen[0]
    assert evaluate(na, "the item does not exist", "", lambda url, locator: "", {}, SITES, llm=lambda m: "same") == 1.0


def test_url_match_gold_in_pred_and_or():
    config = _config(eval_types=["url_match"], reference_url="__GITLAB__/a/b/-/issues?label_name=bug")
    assert _score(config, url="http://127.0.0.1:2222/a/b/-/issues?state=opened&label_name=bug") == 1.0
    assert _score(config, url="http://127.0.0.1:2222/a/b/-/issues/?label_name=bug") == 1.0
    assert _score(config, url="http://127.0.0.1:2222/a/b/-/issues?label_name=feature") == 0.0
    assert _score(config, url="http://127.0.0.1:2222/a/c/-/issues?label_name=bug") == 0.0
    either = _config(eval_types=["url_match"], reference_url="__SHOPPING__/x |OR| __SHOPPING__/y")
    assert _score(either, url="http://127.0.0.1:1111/y") == 1.0 and _score(either, url="http://127.0.0.1:1111/z") == 0
    assert resolve("__SHOPPING_ADMIN__/admin", {"shopping_admin": "http://h:1/"}) == "http://h:1/admin"


def test_program_html_with_a_fake_page_content():
    targets = [
        {
            "url": "__SHOPPING__/cart",
            "locator": "",
            "required_contents": {"must_include": ["Lamp |OR| Light", "2 items"]},
        },
        {
            "url": "last",
            "locator": "document.querySelector('[name=\"price\"]').value",
            "required_contents": {"exact_match": "25.00"},
        },
    ]
    config = _config(eval_types=["program_html"], program_html=targets)
    pages = {("http://127.0.0.1:1111/cart", ""): "Cart: Desk light, 2 items", ("last", targets[1]["locator"]): "25.00"}
    calls = []

    def content(url, locator):
        calls.append((url, locator))
        return pages.get((url, locator), "")

    assert evaluate(config, None, "http://127.0.0.1:1111/x", content, {}, SITES) == 1.0
    assert calls == list(pages)
    pages[("last", targets[1]["locator"])] = "24.00"
    assert evaluate(config, None, "", content, {}, SITES) == 0.0
    assert evaluate(config, None, "", lambda url, locator: 1 / 0, {}, SITES) == 0.0  # a failing read scores 0


def test_db_checks(tmp_path):
    path = tmp_path / "d.sqlite"
    with sqlite3.connect(path) as connection:
        connection.executescript("CREATE TABLE t (a, b); INSERT INTO t VALUES (1, 'x'), (2.5, 'y');")
    config = _config(eval_types=["string_match"], reference_answers={"exact_match": "ok"})
    config["db_checks"] = [
        {"site": "reddit", "sql": "SELECT COUNT(*) FROM t", "expected": 2},
        {"site": "reddit", "sql": "SELECT a, b FROM t ORDER BY a", "expected": [[1, "x"], [2.5, "y"]]},
    ]
    assert _score(config, "ok", db={"reddit": path}) == 1.0
    assert _score(config, "no", db={"reddit": path}) == 0.0
    config["db_checks"].append({"site": "reddit", "sql": "SELECT b FROM t WHERE a = 1", "expected": "z"})
    assert _score(config, "ok", db={"reddit": path}) == 0.0
    config["db_checks"][-1] = {"site": "reddit", "sql": "SELECT nonsense", "expected": 1}
    assert _score(config, "ok", db={"reddit": path}) == 0.0
    assert _score(config, "ok", db={}) == 0.0


# --- progress --------------------------------------------------------------------------------------------------


def test_url_soft_score():
    assert url_soft_score("http://h:1/a/b/c", "http://h:1/a/b/c") == 1.0
    assert url_soft_score("http://h:1/a/b/c", "http://h:1/a/x/c") == pytest.approx(2 / 3)
    assert url_soft_score("http://h:1/a/b", "http://h:2/a/b") == 0.0
    assert url_soft_score("http://h:1/a?x=1&y=2", "http://h:1/a?x=1") == pytest.approx((1 + 2 / 3) / 2)


def test_progress_formula_and_monotone():
    config = {
        "eval": {
            "eval_types": ["program_html"],
            "program_html": [
                {
                    "url": "__SHOPPING__/cart",
                    "locator": "",
                    "required_contents": {"must_include": ["Lamp", "Desk |OR| Table"]},
                },
                {"url": "last", "locator": "document.title", "required_contents": {"exact_match": "skipped"}},
            ],
        },
        "progress": {"url": "__SHOPPING__/cart"},
    }
    tracker = ProgressTracker(config, SITES)
    assert tracker.subgoals == ["reach http://127.0.0.1:1111/cart", "see 'lamp'", "see 'desk' or 'table'"]
    assert tracker.update("http://127.0.0.1:9/", "nothing") == 0.0
    assert tracker.update("http://127.0.0.1:1111/cart", "a LAMP") == pytest.approx(3 / 5 + 2 / 5 * 1 / 2)
    assert tracker.update("http://127.0.0.1:9/", "nothing") == pytest.approx(3 / 5 + 1 / 5)  # never decreases
    assert tracker.update("http://127.0.0.1:9/", "a   table") == 1.0
    assert tracker.subgoals_done == [True, True, True]


def test_progress_of_string_match_tasks_is_not_zero():
    config = {"eval": {"eval_types": ["string_match"], "reference_answers": {"must_include": ["Alice", "Bob"]}}}
    tracker = ProgressTracker(config, SITES)  # a user's WebArena config: the answers are the contents
    assert tracker.update("http://x/", "alice") == 0.5 and tracker.update("http://x/", "bob") == 1.0
    shipped = next(c for c in CONFIGS if c["eval"]["eval_types"] == ["string_match"])
    tracker = ProgressTracker(shipped, SITES)
    assert tracker.urls and tracker.contents and tracker.rate == 0.0


def test_every_task_has_subgoals():
    for config in CONFIGS:
        tracker = ProgressTracker(config, SITES)
        assert tracker.subgoals and tracker.rate == 0.0, config["intent"]


# --- the gold plans in Chromium ----------------------------------------------------------------------------


def _browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed at /usr/bin/chromium")
    manager = sync_api.sync_playwright().start()
    browser = manager.chromium.launch(executable_path=CHROMIUM, headless=True)
    return manager, browser


@pytest.fixture(scope="module")
def browser():
    manager, chromium = _browser()
    context = chromium.new_context()
    yield context
    context.close()
    chromium.close()
    manager.stop()


def run_gold(browser, server, config: dict) -> tuple[float, float]:
    """Drive the gold plan; returns (evaluate(...), progress rate at the end)."""
    urls = server.start()
    server.reset()
    context = browser  # one browser context for every task: the sites keep no cookies or sessions
    page = context.new_page()
    page.set_default_timeout(10_000)
    tracker = ProgressTracker(config, urls)
    answer = None
    try:
        page.goto(resolve(config["start_url"], urls))
        for step in config["gold"]:
            action = step["action"]
            if action == "stop":
                answer = step["answer"]
                break
            if action == "goto":
                page.goto(resolve(step["url"], urls))
            else:
                locator = page.get_by_role(step["role"], name=step["name"], exact=True)
                if "nth" in step:
                    locator = locator.nth(step["nth"])
                else:
                    assert locator.count() == 1, f"{step} matches {locator.count()} elements on {page.url}"
                if action == "click":
                    locator.click()
                else:
                    locator.fill(step["text"])
                    if step["enter"]:
                        locator.press("Enter")
            page.wait_for_load_state()
            tracker.update(page.url, page.inner_text("body"))

        def page_content(url: str, locator: str) -> str:
            target = page if url == "last" else context.new_page()
            try:
                if url != "last":
                    target.goto(url)
                if not locator:
                    return target.inner_text("body")
                return str(target.evaluate(f"() => {locator}"))
            finally:
                if target is not page:
                    target.close()

        paths = {site: server.db_path(site) for site in SITE_NAMES}
        return evaluate(config, answer, page.url, page_content, paths, urls), tracker.rate
    finally:
        page.close()


_FIRST_OF_TEMPLATE = sorted({config["intent_template_id"]: i for i, config in enumerate(CONFIGS)}.items())
FAST_SAMPLE = [index for _, index in _FIRST_OF_TEMPLATE[::4]]
"""The first task of every fourth template (15 tasks, every site and evaluator type); all 245 under -m slow."""


@pytest.mark.parametrize("index", FAST_SAMPLE, ids=[TASKS[i].task_id for i in FAST_SAMPLE])
def test_gold_plan_solves_task_sample(browser, server, index):
    score, rate = run_gold(browser, server, CONFIGS[index])
    assert score == 1.0 and rate == 1.0


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=TASKS.task_ids)
def test_gold_plan_solves_every_task(browser, server, index):
    score, rate = run_gold(browser, server, CONFIGS[index])
    assert score == 1.0 and rate == 1.0


def test_a_browser_that_stops_reading_is_not_reported_but_other_errors_are(capsys):
    from agentgym_text.envs.webarena.sites import web

    server = web._SiteHTTPServer(("127.0.0.1", 0), web._Handler, bind_and_activate=False)
    try:
        for error in (BrokenPipeError(32, "Broken pipe"), ConnectionResetError(104, "reset"), ValueError("bug")):
            try:
                raise error
            except Exception:
                server.handle_error(None, ("127.0.0.1", 1))
    finally:
        server.server_close()
    printed = capsys.readouterr().err
    assert "ValueError: bug" in printed
    assert "Broken pipe" not in printed and "reset" not in printed
