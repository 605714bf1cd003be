"""AgentBoard/WebArena-v0: the browser layer, the action grammar, the fence, the expert, isolation.

Two kinds of tests: on the package's own sites (the registered id), and on a tiny shop served by this file
through ``sites=`` + ``task_config=`` (the path a user's own WebArena deployment takes).
"""

from __future__ import annotations

import itertools
import json
import re
import sqlite3

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
from tests.support.tiny_shop import TinyShop, shop_config  # noqa: E402


def _tiny_tasks():
    return [
        shop_config(
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
        shop_config(
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
        shop_config(
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
        shop_config(
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
    url = env.unwrapped._session.url()
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
        assert "Invalid" in obs and env.unwrapped._session.url() == url
    assert not terminated


def test_browser_never_leaves_the_sites_by_links_or_popups(tiny):
    shop, env = tiny
    obs, _ = env.reset(options={"task_index": 1})
    partner = next(line for line in obs.splitlines() if "link 'Partner site'" in line)
    obs, *_, info = env.step(f"click [{partner.split('[')[1].split(']')[0]}]")
    session = env.unwrapped._session
    assert session.url() == shop.url + "/" and "http://example.com/" in session.run(lambda inner: inner.blocked)
    help_link = next(line for line in obs.splitlines() if "link 'Help'" in line)
    obs, *_ = env.step(f"click [{help_link.split('[')[1].split(']')[0]}]")
    assert "Tab 1 (current): Help" in obs
    assert all(url.startswith(shop.url) for url in session.run(lambda inner: [page.url for page in inner.pages]))
    obs, *_ = env.step("close_tab")
    assert obs.splitlines()[1] == "Tab 0 (current): One Stop Market"


def test_episode_context_is_fresh_and_reset_starts_over(tiny):
    _, env = tiny
    env.reset(options={"task_index": 1})
    env.step("new_tab")
    obs, _ = env.reset(options={"task_index": 1})
    assert "Tab 1" not in obs and env.unwrapped._session.tab_count() == 1


# ---- the package's own sites ---------------------------------------------------------------------------------
def _edit_price_task(task_id, price):
    return shop_config(
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
        and argv[0].endswith((b"chromium", b"chromium-headless-shell"))
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
