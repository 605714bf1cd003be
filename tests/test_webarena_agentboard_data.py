"""AgentBoard/WebArena-v0 with AgentBoard's data folder (245 lines turned back into WebArena configs) and
AgentBoard's progress rule under ``agentboard_fixes=False``: fixture files written here, progress by hand."""

from __future__ import annotations

import copy
import json

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401
from agentgym_text.core.agentboard_data import SETTING, AgentBoardDataError
from agentgym_text.envs.webarena.progress import ProgressTracker
from agentgym_text.envs.webarena.tasks import TASKS_FILE
from tests.support.agentboard_fixtures import WEBARENA_INFO_FIELDS, webarena_line, write_task_file

ENV_ID = "AgentBoard/WebArena-v0"
SITES = {"shopping": "http://127.0.0.1:9"}  # never contacted: the tests below make envs, they do not reset them


def _label(k: int) -> str:
    return "hard" if k % 4 == 1 else "easy"


def shipped_lines() -> list[dict]:
    """245 lines made from our shipped configs, with task ids 1000 + k (other instances than ours)."""
    lines = []
    for k, config in enumerate(json.loads(TASKS_FILE.read_text())):
        line = webarena_line(config, _label(k))
        line["original_task_id"] = 1000 + k
        lines.append(line)
    return lines


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write_task_file(tmp_path_factory.mktemp("agentboard"), "webarena", shipped_lines())


def _tasks(**kwargs):
    env = gym.make(ENV_ID, **kwargs)
    try:
        return list(env.unwrapped.tasks)
    finally:
        env.close()


def test_lines_become_webarena_configs_with_the_files_goal_difficulty_and_ids(folder):
    tasks = _tasks(agentboard_data=str(folder), sites=SITES)
    lines = shipped_lines()
    assert len(tasks) == 245
    assert [t.task_id for t in tasks] == [f"webarena-original-{1000 + k:03d}" for k in range(245)]
    assert [t.difficulty for t in tasks] == [_label(k) for k in range(245)]
    assert [t.goal for t in tasks] == [line["goal"] for line in lines]
    first = tasks[0].params
    assert first["intent"] == lines[0]["goal"] and first["task_id"] == 1000
    assert all(first[name] == lines[0]["additional_info"][name] for name in WEBARENA_INFO_FIELDS)
    assert "gold" not in first and "progress" not in first  # our extensions are not AgentBoard's


def test_the_setting_names_the_folder_and_without_either_our_tasks_stay(folder, monkeypatch):
    monkeypatch.setenv(SETTING, str(folder))
    assert _tasks(sites=SITES)[0].task_id == "webarena-original-1000"
    monkeypatch.delenv(SETTING)
    assert _tasks()[0].task_id == "webarena-000"


def test_the_lines_need_webarenas_own_sites(folder):
    env = gym.make(ENV_ID, agentboard_data=str(folder))
    try:
        with pytest.raises(ValueError, match="run on WebArena's own sites: pass sites="):
            env.reset()
    finally:
        env.close()
    with pytest.raises(ValueError, match="agentboard_data and task_config"):
        gym.make(ENV_ID, agentboard_data=str(folder), task_config=str(TASKS_FILE), sites=SITES)


def _broken(index: int, change) -> list:
    lines = shipped_lines()
    line = copy.deepcopy(lines[index])
    change(line)
    lines[index] = line
    return lines


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (shipped_lines()[:244], "has 244 lines, but AgentBoard matches its lines to the 245 WebArena tasks"),
        ([*shipped_lines()[:9], "not json", *shipped_lines()[10:]], "line 10: not JSON"),
        (_broken(2, lambda line: line.pop("additional_info")), "line 3: the field 'additional_info' is missing"),
        (
            _broken(4, lambda line: line["additional_info"].pop("start_url")),
            "line 5: the field 'additional_info.start_url' is missing",
        ),
        (
            _broken(6, lambda line: line["additional_info"]["eval"].update(eval_types=["fuzzy_match"])),
            "line 7: additional_info.eval.eval_types names \\['fuzzy_match'\\]",
        ),
        (
            _broken(8, lambda line: line["additional_info"]["eval"].pop("reference_url")),
            "line 9: additional_info.eval.reference_url is missing",
        ),
        (
            _broken(
                3,
                lambda line: line["additional_info"]["eval"].update(
                    eval_types=["program_html"],
                    program_html=[{"url": "last", "locator": "div.price", "required_contents": {"must_include": []}}],
                ),
            ),
            "line 4: additional_info.eval.program_html\\[1\\].locator 'div.price' is neither",
        ),
        (_broken(11, lambda line: line.update(original_task_id=1000)), "line 12: original_task_id 1000 repeats line 1"),
        (_broken(0, lambda line: line.update(difficulty="medium")), "line 1: difficulty must be one of"),
    ],
)
def test_bad_files_are_one_error_naming_file_and_line(tmp_path, lines, message):
    write_task_file(tmp_path, "webarena", lines)
    with pytest.raises(AgentBoardDataError, match=message) as caught:
        gym.make(ENV_ID, agentboard_data=str(tmp_path), sites=SITES)
    assert str(tmp_path / "webarena" / "test.jsonl") in str(caught.value)


def test_a_missing_folder_or_task_file(tmp_path):
    with pytest.raises(AgentBoardDataError, match="does not exist"):
        gym.make(ENV_ID, agentboard_data=str(tmp_path / "nowhere"), sites=SITES)
    with pytest.raises(AgentBoardDataError, match="webarena/test.jsonl is missing"):
        gym.make(ENV_ID, agentboard_data=str(tmp_path), sites=SITES)


# ---- AgentBoard's progress rule, by hand (no browser: the tracker is fed URLs and pages) -------------------
SHOP = "http://127.0.0.1:7770"


def _config(eval_types, reference_url="", program_html=(), answers=None) -> dict:
    return {
        "eval": {
            "eval_types": list(eval_types),
            "reference_url": reference_url,
            "program_html": list(program_html),
            "reference_answers": answers,
        }
    }


def _pages(html: str, values: dict | None = None):
    return lambda locator: html if not locator else (values or {}).get(locator, "")


def test_url_rule_best_reference_path_lcs_and_parameter_f1():
    config = _config(["url_match"], "__SHOPPING__/a/b/c?x=1&y=2 |OR| __SHOPPING__/orders/")
    tracker = ProgressTracker(config, {"shopping": SHOP}, agentboard_rule=True)
    # /a/c?x=1: path LCS 2 of 3 segments, parameters recall 1/2 precision 1 -> F1 2/3; (2/3 + 2/3) / 2
    assert tracker.update(f"{SHOP}/a/c?x=1", "", _pages("")) == pytest.approx(2 / 3)
    # another host scores 0 and the rate keeps its maximum
    assert tracker.update("http://elsewhere/a/b/c?x=1&y=2", "", _pages("")) == pytest.approx(2 / 3)
    # the second reference: no parameters, so domain x path; a trailing "/" is stripped on both sides
    assert tracker.update(f"{SHOP}/orders", "", _pages("")) == 1.0
    # AgentBoard splits paths raw: a quoted space is another segment than the space (the default unquotes)
    raw = ProgressTracker(_config(["url_match"], f"{SHOP}/search/red hat"), {}, agentboard_rule=True)
    fixed = ProgressTracker(_config(["url_match"], f"{SHOP}/search/red hat"), {})
    assert raw.update(f"{SHOP}/search/red%20hat", "", _pages("")) == pytest.approx(1 / 2)
    assert fixed.update(f"{SHOP}/search/red%20hat", "red hat") == 1.0


def test_content_rule_html_source_javascript_or_bug_and_func():
    targets = [
        {"url": "last", "locator": "", "required_contents": {"must_include": ["<b>Paid</b>", "Red |OR| Blue"]}},
        {
            "url": "last",
            "locator": "document.querySelector('#total').value",
            "required_contents": {"exact_match": "42"},
        },
        {"url": "last", "locator": "func:shopping_get_latest_order_url()", "required_contents": {"exact_match": "x"}},
    ]
    tracker = ProgressTracker(_config(["program_html"], program_html=targets), {}, agentboard_rule=True)
    page = "<p>Order <B>Paid</B> in Red</p>"
    # the HTML source holds "<b>paid</b>" once lower-cased; "red |or| blue" is never split (lower-cased before the
    # split on " |OR| "), so it must appear whole; the locator's value is "41"; func: is never evaluated: 1 of 4
    assert tracker.update(f"{SHOP}/order/1", "", _pages(page, {targets[1]["locator"]: "41"})) == 1 / 4
    # later pages add what they show (seen contents stay seen), the fraction is the rate
    later = "... red |or| blue ..."
    assert tracker.update(f"{SHOP}/order/2", "", _pages(later, {targets[1]["locator"]: " 42 "})) == 3 / 4
    # the default reads the page text, splits the alternatives first and skips locator contents
    default = ProgressTracker(_config(["program_html"], program_html=targets[:1]), {})
    assert default.update(f"{SHOP}/order/1", "Order Paid in Red") == 1 / 2


def test_url_and_contents_mix_three_over_n_plus_three():
    targets = [{"url": "last", "locator": "", "required_contents": {"must_include": ["Shipped", "Tracking"]}}]
    config = _config(["url_match", "program_html"], f"{SHOP}/order/7", targets)
    tracker = ProgressTracker(config, {}, agentboard_rule=True)
    # URL: same host, path "order/7" vs "order/8": LCS 1 of 2 -> 1/2; contents 1 of 2 (n = 2)
    assert tracker.update(f"{SHOP}/order/8", "", _pages("shipped")) == pytest.approx(
        (3 / 5) * (1 / 2) + (2 / 5) * (1 / 2)
    )
    assert tracker.update(f"{SHOP}/order/7", "", _pages("tracking")) == 1.0


def test_string_match_only_gets_no_progress_in_agentboard_and_a_reference_must_start_with_http():
    config = _config(["string_match"], answers={"must_include": ["169.99"]})
    assert ProgressTracker(config, {}, agentboard_rule=True).update(SHOP, "", _pages("169.99")) == 0.0
    assert ProgressTracker(config, {}).update(SHOP, "Price: 169.99") == 1.0  # FIX: the answer seen counts
    unresolved = _config(["url_match"], "__MAP__/route")  # no map site given: not an http URL
    tracker = ProgressTracker(unresolved, {"shopping": SHOP}, agentboard_rule=True)
    assert tracker.urls == [] and tracker.update(f"{SHOP}/route", "", _pages("")) == 0.0


# ---- one episode in a real browser, on the tiny shop of test_webarena.py --------------------------------------
def test_fixes_off_episode_on_a_deployment_scores_and_stops_as_agentboard(tmp_path):
    pytest.importorskip("playwright")
    from agentgym_text.envs.webarena.browser import find_chromium

    try:
        find_chromium()
    except ImportError as error:
        pytest.skip(str(error))
    from agentgym_text.envs.webarena.env import WebArenaEnv
    from tests.support.tiny_shop import TinyShop
    from tests.support.tiny_shop import shop_config as tiny_config

    targets = [
        {"url": "last", "locator": "", "required_contents": {"must_include": ["Blue Shoes", "Price: 31 |OR| $30.00"]}},
        {
            "url": "last",
            "locator": "document.querySelector('h1').textContent",
            "required_contents": {"must_include": ["blue shoes"]},
        },
    ]
    product = tiny_config(
        0,
        "Show Blue Shoes.",
        "__SHOPPING__/",
        [],
        {
            "eval_types": ["url_match", "program_html"],
            "reference_url": "__SHOPPING__/product/1",
            "program_html": targets,
        },
    )
    orders = tiny_config(
        1,
        "Open my orders.",
        "__SHOPPING__/",
        [],
        {"eval_types": ["url_match"], "reference_url": "__SHOPPING__/orders", "program_html": []},
    )
    lines = [webarena_line(product, "hard"), webarena_line(orders, "easy"), *shipped_lines()[2:]]
    write_task_file(tmp_path, "webarena", lines)
    shop = TinyShop(tmp_path)
    env = WebArenaEnv(sites={"shopping": shop.url}, agentboard_data=str(tmp_path), agentboard_fixes=False)
    try:
        _, info = env.reset(options={"task_index": 0})
        assert info["difficulty"] == "hard" and info["max_steps"] == 30
        _, _, _, _, info = env.step("goto [http://onestopmarket.com/orders]")
        assert info["progress_rate"] == 0.0  # path "orders" shares no segment with "product/1"; no content there
        _, _, terminated, _, info = env.step("goto [http://onestopmarket.com/product/1]")
        # URL 1.0; "blue shoes" in the HTML and in the h1; "price: 31 |or| $30.00" never whole: 2 of 3 contents
        assert info["progress_rate"] == pytest.approx((3 / 6) * 1.0 + (3 / 6) * (2 / 3)) and not terminated
        env.reset(options={"task_index": 1})
        _, _, terminated, _, info = env.step("goto [http://onestopmarket.com/orders]")
        assert terminated and info["success"] and info["progress_rate"] == 1.0  # AgentBoard stops at 1.0, solved
    finally:
        env.close()
        shop.close()
