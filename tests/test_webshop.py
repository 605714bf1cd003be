"""AgentBoard/WebShop-v0: generated catalogue, search quality, WebShop's reward, AgentBoard's pages and progress."""

from __future__ import annotations

import re
from itertools import combinations

import gymnasium as gym
import numpy as np
import pytest
from rapidfuzz import fuzz

import agentgym_text  # noqa: F401
from agentgym_text.envs.webshop import render
from agentgym_text.envs.webshop.actions import parse_action
from agentgym_text.envs.webshop.catalogue import open_catalogue
from agentgym_text.envs.webshop.env import WebShopEnv
from agentgym_text.envs.webshop.generator import (
    ATTRIBUTE_KINDS,
    asin_of,
    generate_product,
    index_of_asin,
    product_types,
)
from agentgym_text.envs.webshop.reward import Goal, _word_pattern, best_reward, purchase_reward
from agentgym_text.envs.webshop.search import tokens
from agentgym_text.envs.webshop.tasks import PAGE_SIZE, TASK_COUNT, shipped_tasks
from agentgym_text.testing import assert_info_contract

ENV_ID = "AgentBoard/WebShop-v0"
TASK_IDS = shipped_tasks().task_ids
FAST_SAMPLE = TASK_IDS[::25]


@pytest.fixture(scope="module")
def env() -> WebShopEnv:
    return WebShopEnv()


@pytest.fixture(scope="module")
def catalogue():
    return open_catalogue()


# ---- expert and random agent ----------------------------------------------------------------------------


def test_shipped_task_set_has_251_stable_ids_and_both_difficulties():
    assert len(TASK_IDS) == TASK_COUNT == 251
    assert TASK_IDS[0] == "webshop-test-000" and TASK_IDS[-1] == "webshop-test-250"
    difficulties = {spec.difficulty for spec in shipped_tasks()}
    assert difficulties == {"easy", "hard"}
    targets = [spec.params["asin"] for spec in shipped_tasks()]
    assert len(set(targets)) == len(targets)


def test_expert_takes_over_mid_episode(env):
    env.reset(options={"task_index": 7})
    for action in ("search[office chair]", "click[Next >]", "click[Back to Search]", "search[lipstick]"):
        env.step(action)
    while not env.episode_over:
        *_, info = env.step(env.expert_action())
    assert info["success"]


def test_random_agent_scores_lower_than_expert(env):
    rng = np.random.default_rng(0)
    random_progress = []
    for task_id in TASK_IDS[:20]:
        env.reset(options={"task_id": task_id})
        info = {}
        for _ in range(30):
            actions = env.admissible_actions()
            if not actions:
                break
            *_, info = env.step(actions[int(rng.integers(len(actions)))])
        random_progress.append(info.get("progress_rate", 0.0))
    assert np.mean(random_progress) < 0.5  # the expert's is 1.0 (the contract suite plays it on every task)


# ---- WebShop's reward, hand-computed ---------------------------------------------------------------------
def _product_with_options(min_groups: int):
    for index in range(2000):
        product = generate_product(index)
        if len(product.options) >= min_groups and all(len(v) >= 2 for _, v in product.options):
            if len(product.attributes) >= 2:
                return product
    raise AssertionError("no suitable product")


def test_reward_counts_attributes_options_and_price_as_webshop():
    product = _product_with_options(2)
    (group_a, values_a), (group_b, values_b) = product.options[:2]
    goal = Goal.for_product(
        product, product.attributes[:2], {group_a: values_a[0], group_b: values_b[0]}, price_upper=product.price + 5
    )
    right = {group_a: values_a[0], group_b: values_b[0]}
    assert purchase_reward(product, goal, right) == 1.0
    # one option wrong: (2 attributes + 1 option + price) / (2 + 2 + 1)
    assert purchase_reward(product, goal, {**right, group_b: values_b[1]}) == pytest.approx(4 / 5)
    # one option never chosen: same count
    assert purchase_reward(product, goal, {group_a: values_a[0]}) == pytest.approx(4 / 5)
    # no option chosen: (2 + 0 + 1) / 5
    assert purchase_reward(product, goal, {}) == pytest.approx(3 / 5)
    # price above the bound: (2 + 2 + 0) / 5
    pricey = Goal.for_product(product, product.attributes[:2], right, price_upper=product.price - 1)
    assert purchase_reward(product, pricey, right) == pytest.approx(4 / 5)
    assert best_reward(product, goal) == 1.0


def test_reward_for_a_missing_attribute_and_for_another_product_type():
    product = _product_with_options(1)
    ptype = product_types()[product.type_id]
    missing = next(a for kind in ATTRIBUTE_KINDS for a in ptype.attributes[kind] if a not in product.attributes)
    goal = Goal.for_product(product, [product.attributes[0], missing], {}, price_upper=product.price + 1)
    assert purchase_reward(product, goal, {}) == pytest.approx(2 / 3)  # (1 attribute + price) / (2 + 0 + 1)
    other = next(generate_product(i) for i in range(4000) if not set(generate_product(i).nouns) & set(product.nouns))
    assert purchase_reward(other, goal, {}) == 0.0  # no noun shared: r_type = 0


def test_near_duplicate_differing_in_one_option_scores_below_one():
    product = _product_with_options(1)
    goal = Goal.for_product(
        product,
        product.attributes[:1],
        {product.options[0][0]: product.options[0][1][0]},
        price_upper=product.price + 5,
    )
    chosen = {product.options[0][0]: product.options[0][1][1]}
    assert purchase_reward(product, goal, chosen) == pytest.approx(2 / 3)


def test_vocabulary_has_no_accidental_fuzzy_or_text_matches():
    """Distinct attributes/option values never match each other (WebShop's fuzzy rule) or filler text."""
    for ptype in product_types():
        attributes = [a for kind in ATTRIBUTE_KINDS for a in ptype.attributes[kind]]
        for a, b in combinations(attributes, 2):
            assert fuzz.token_set_ratio(a, b) <= 85 and not _word_pattern(a).search(b), (ptype.name, a, b)
        values = [(g, v) for g, vs in ptype.options.items() for v in vs]
        for (g1, a), (g2, b) in combinations(values, 2):
            if not (g1 == g2 == "size"):
                assert fuzz.token_set_ratio(a, b) <= 85, (ptype.name, a, b)
    for index in range(0, 20_000, 7):
        product = generate_product(index)
        ptype, text = product_types()[product.type_id], product.page_text()
        for kind in ATTRIBUTE_KINDS:
            for attribute in ptype.attributes[kind]:
                if attribute not in product.attributes:
                    assert not _word_pattern(attribute).search(text), (product.asin, attribute)
        for _, values in ptype.options.items():
            assert not any(_word_pattern(v).search(text) for v in values), product.asin


# ---- catalogue and search -----------------------------------------------------------------------------
def test_catalogue_is_deterministic_and_asins_decode():
    assert generate_product(1234) == generate_product(1234)
    assert len({asin_of(i) for i in range(50_000)}) == 50_000
    assert all(index_of_asin(asin_of(i)) == i for i in (0, 1, 19_999, 999_999))
    assert index_of_asin("not an asin") is None


def test_catalogue_file_and_lookup(catalogue):
    assert len(catalogue) == 20_000
    count = catalogue.connection.execute("SELECT count(*) FROM products").fetchone()[0]
    assert count == 20_000
    assert catalogue.product(asin_of(20_000)) is None
    assert catalogue.product(asin_of(5)).title == generate_product(5).title
    assert catalogue.search("") == [] and catalogue.search("the and of") == []
    assert len(catalogue.search("black")) == 50


def test_every_shipped_goal_finds_its_target_on_page_one_and_many_show_decoys(catalogue):
    with_decoy = 0
    for spec in shipped_tasks():
        goal = Goal.from_params(spec.params)
        page = catalogue.search(spec.params["keywords"])[:PAGE_SIZE]
        assert goal.asin in page, spec.task_id
        decoys = [
            a
            for a in page
            if a != goal.asin
            and catalogue.product(a).query == goal.query
            and best_reward(catalogue.product(a), goal) < 1.0
        ]
        with_decoy += bool(decoys)
    assert with_decoy / len(shipped_tasks()) >= 0.30


def test_search_does_not_depend_on_the_goal(env):
    env.reset(options={"task_index": 0})
    env.step("search[wireless mouse ergonomic]")
    first = list(env.session.hits)
    env.reset(options={"task_index": 1})
    env.step("search[wireless mouse ergonomic]")
    assert env.session.hits == first and len(first) == 50


# ---- pages, actions and error observations -------------------------------------------------------------
def test_pages_follow_agentboard_text_mode(env):
    obs, info = env.reset(options={"task_index": 0})
    assert obs.startswith("WEB PAGE: {Let us begin shopping \n[Search]}\n") and info["progress_rate"] == 0.0
    assert "price lower than" in info["goal"]
    obs, *_ = env.step(f"search[{env.keywords}]")
    assert obs.startswith("WEB PAGE: {\n[Back to Search] \nPage 1 (Total results: 50) \n[Next >] \n[B0")
    assert len(re.findall(r"\n\[B0[0-9A-Z]{8}\] \n", obs)) == 10 and obs.endswith(" }")
    obs, *_ = env.step("click[Next >]")
    assert "\nPage 2 (Total results: 50) \n[< Prev] \n[Next >] " in obs
    asin = env.session.page_asins()[0]
    obs, *_ = env.step(f"click[{asin}]")
    product = env.session.product()
    assert obs.startswith("WEB PAGE: {\n[Back to Search] \n[< Prev] \n")
    assert f"\n{product.title} \nPrice: {product.price_text} \nRating: " in obs
    assert obs.endswith("\n[Description] \n[Features] \n[Reviews] \n[Buy Now] }")
    if product.options:
        group, values = product.options[0]
        assert f"\n{group} [{values[0]}]" in obs
        obs, _, _, _, info = env.step(f"click[{values[-1]}]")
        assert obs == f"WEB PAGE: {{You have clicked {values[-1]}.}}" and info["valid"]
        obs, *_ = env.step("click[Description]")
        assert obs == "WEB PAGE: {\n[Back to Search] \n[< Prev] \n" + product.description + " }"
        obs, *_ = env.step("click[< Prev]")
        assert f"[[{values[-1]}]]" in obs
    obs, *_ = env.step("click[Features]")
    assert obs.startswith("WEB PAGE: {\n[Back to Search] \n[< Prev] \n " + product.bullets[0])
    obs, *_ = env.step("click[Back to Search]")
    assert obs == render.start_page()


def test_agentboard_error_observations_are_invalid_not_fatal(env):
    obs, info = env.reset(options={"task_index": 2})
    obs, _, _, _, info = env.step("buy the best one")
    assert obs.startswith("Incorrect action format.") and not info["valid"] and info["invalid_reason"] == "unparsable"
    obs, _, _, _, info = env.step("click[Buy Now]")
    assert obs.startswith("You can only click the button showed in the observation.") and not info["valid"]
    assert obs.endswith("The recent observation is: \n" + render.start_page())
    obs, _, _, _, info = env.step("search[]")
    assert not info["valid"] and info["invalid_reason"] == "bad_argument"
    page, _, _, _, info = env.step("search[hoodie]")
    assert info["valid"]
    obs, _, _, _, info = env.step("search[jeans]")
    assert (
        obs
        == "WEB PAGE: {There is no [Search] button, you should click the [Back to Search] button first "
        "to search something }"
        and not info["valid"]
    )
    obs, _, _, _, info = env.step("click[< Prev]")
    assert obs == "The page number is limited to 5, please choose another action. The recent observation is: \n" + page
    for _ in range(4):
        *_, info = env.step("click[Next >]")
        assert info["valid"]
    obs, _, _, _, info = env.step("click[Next >]")
    assert obs.startswith("The page number is limited to 5") and not info["valid"]
    obs, _, _, _, info = env.step("click[B0ZZZZZZZZ]")
    assert obs.startswith("You can only click") and info["invalid_reason"] == "unknown_object"
    obs, _, _, _, info = env.step("click[" + "x" * 5000 + "]")
    assert not info["valid"]
    obs, _, terminated, _, info = env.step("click[Back to Search]")
    assert info["valid"] and not terminated


def test_clicks_ignore_case_and_spacing_and_parse_like_agentboard(env):
    assert parse_action("Action: search[red shoes]") == ("search", "red shoes")
    assert parse_action("click [ Buy Now ]") == ("click", "Buy Now")
    assert parse_action("click[Buy Now] then more") is None
    env.reset(options={"task_index": 3})
    env.step(f"search[{env.keywords}]")
    *_, info = env.step("CLICK[next >]")
    assert info["valid"] and env.session.page_num == 2
    *_, info = env.step("click[<Prev]")
    assert info["valid"] and env.session.page_num == 1


def test_progress_is_agentboards_three_page_score(env):
    obs, info = env.reset(options={"task_index": 5})
    goal = env.session.goal
    env.step(f"search[{env.keywords}]")
    *_, info = env.step("check valid actions")
    assert info["progress_rate"] == pytest.approx(1 / 3)  # the target is listed: search score 1
    decoy = next((a for a in env.session.page_asins() if env.session.score(a) < 1.0), None)
    if decoy is not None:
        *_, info = env.step(f"click[{decoy}]")
        assert info["progress_rate"] == pytest.approx((1 + env.session.score(decoy)) / 3)
        env.step("click[Buy Now]")
        *_, info = env.step("check valid actions")
        expected = (1 + env.session.score(decoy) + env.session.buy_score) / 3
        assert info["progress_rate"] == pytest.approx(expected) and not info["success"]
        assert info["finish_reason"] == "failure"
    assert goal.asin in env.session.hits


def test_results_shown_three_reproduces_agentboards_cut(env):
    small = WebShopEnv(results_shown=3)
    small.reset(options={"task_index": 0})
    obs, *_ = small.step("search[coffee table]")
    assert len(re.findall(r"\n\[B0[0-9A-Z]{8}\] ", obs)) == 3
    *_, info = small.step(f"click[{small.session.page_asins()[7]}]")  # hidden products stay clickable
    assert info["valid"]


def test_small_or_reseeded_catalogues_only_for_training():
    with pytest.raises(ValueError, match="num_products"):
        WebShopEnv(num_products=1000)
    env = WebShopEnv(split="train", num_tasks=3, num_products=2000, catalogue_seed=1)
    env.reset(options={"task_index": 0})
    assert env.catalogue.index_of(env.session.goal.asin) < 2000
    while not env.episode_over:
        *_, info = env.step(env.expert_action())
    assert info["success"]


def test_gym_make_and_info_contract():
    env = gym.make(ENV_ID)
    assert env.spec.max_episode_steps == 30
    obs, info = env.reset(seed=3)
    assert_info_contract(info)
    assert info["subgoals"] == [] and info["max_steps"] == 30


# ---- training split and prompt --------------------------------------------------------------------------
def test_training_tasks_are_generated_apart_from_test_targets():
    env = WebShopEnv(split="train", num_tasks=40)
    test_targets = {spec.params["asin"] for spec in shipped_tasks()}
    goals = []
    for index in range(0, 40, 8):
        env.reset(options={"task_index": index})
        goals.append(env.session.goal)
        assert env.session.goal.asin not in test_targets
        while not env.episode_over:
            *_, info = env.step(env.expert_action())
        assert info["success"]
    env.reset(options={"task_index": 0})
    assert env.session.goal == goals[0]
    assert env.task_ids[0] == "webshop-train-000000"


def test_search_tokens_drop_stop_words_and_fold_plurals():
    assert tokens("I need Clip-in hair extensions, and price lower than 40.00 dollars") == [
        "clip",
        "hair",
        "extension",
        "40",
        "00",
    ]
    assert tokens("boxes candies glass shoes") == ["boxe", "candy", "glass", "shoe"]


def test_fts5_match_answers_phrase_queries(catalogue):
    product = catalogue.product_at(11)
    hits = catalogue.match(f'"{product.title.lower()}"')
    assert product.asin in hits
