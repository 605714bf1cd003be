"""``AgentBench/WebShop-v0``: AgentBench v0.2's WebShop protocol (``agentbench_v02_text.py``) on the generated shop.

AgentBench's own task code needs WebShop's Java search engine and cannot run here, so its format is checked by
hand: the expectations below are written from its task code (the reply regex, the ``Observation:`` /
``Available Actions:`` turn, the 10-step loop) and from WebShop's page templates in "text" mode, as the
examples in AgentBench's prompt show them.
"""

from __future__ import annotations

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401
from agentgym_text.envs.webshop import agentbench_v02_text as text
from agentgym_text.envs.webshop.env import AgentBenchWebShopEnv, WebShopEnv
from agentgym_text.envs.webshop.tasks import shipped_tasks

ENV_ID = "AgentBench/WebShop-v0"
GOAL = "i would like a lipstick that is long lasting for dry lips, in coral, and price lower than 60.00 dollars"
ITEM_BUTTONS = ["back to search", "< prev", "description", "features", "reviews", "buy now"]


def _actions(has_search_bar: bool, clickables: list[str]) -> str:
    return "\n\nAvailable Actions:\n" + str({"has_search_bar": has_search_bar, "clickables": clickables})


@pytest.fixture(scope="module")
def env():
    env = gym.make(ENV_ID).unwrapped
    yield env
    env.close()


def _page(env, action: str):
    obs, reward, terminated, truncated, info = env.step(action)
    return obs, info


def test_scripted_episode_pages(env):
    """Every page of one scripted episode, written out by hand in WebShop's text mode."""
    obs, _ = env.reset(options={"task_index": 0})
    start = f"WebShop [SEP] Instruction: [SEP] {GOAL} [SEP] Search" + _actions(True, ["search"])
    assert obs.startswith(start + "\n")  # then the core's footer (action format, 10 steps)
    assert obs.rstrip().endswith("You have 10 steps.")

    obs, info = _page(
        env, "Thought:\nI think I should search.\n\nAction:\nsearch[Lipstick Long Lasting Dry Lips Coral]"
    )
    assert info["valid"]
    head = (
        f"Instruction: [SEP] {GOAL} [SEP] Back to Search [SEP] Page 1 (Total results: 50) [SEP] Next > [SEP] "
        "B0HOTKM0QQ [SEP] Clearwave Creamy Lipstick for Dry Lips, Long Lasting [SEP] $32.99 [SEP] "
    )
    assert obs.startswith(head)
    page, actions = obs.split("\n\nAvailable Actions:\n")
    assert page.count(" [SEP] ") == 5 + 3 * 10 - 1  # instruction (2), 3 results-page texts, 10 x (asin, title, price)
    listed = eval(actions)  # noqa: S307 - our own repr of a dict of strings, as AgentBench prints it
    assert listed["has_search_bar"] is False
    assert listed["clickables"][:3] == ["back to search", "next >", "b0hotkm0qq"] and len(listed["clickables"]) == 12

    item = (
        f"Instruction: [SEP] {GOAL} [SEP] Back to Search [SEP] < Prev [SEP] color [SEP] berry [SEP] coral [SEP] mauve "
        "[SEP] classic pink [SEP] Clearwave Creamy Lipstick for Dry Lips, Long Lasting [SEP] Price: $32.99 [SEP] "
        "Rating: N.A. [SEP] Description [SEP] Features [SEP] Reviews [SEP] Buy Now"
    ) + _actions(False, ITEM_BUTTONS + ["berry", "coral", "mauve", "classic pink"])
    obs, info = _page(env, "Action: click[B0HOTKM0QQ]")
    assert obs == item
    obs, info = _page(env, "Action: click[coral]")
    assert obs == item and info["valid"]  # text mode does not mark a chosen option

    obs, _ = _page(env, "Action: click[Reviews]")
    assert obs == f"Instruction: [SEP] {GOAL} [SEP] Back to Search [SEP] < Prev" + _actions(
        False, ["back to search", "< prev"]
    )
    product = env.session.product()
    obs, _ = _page(env, "Action: click[< Prev]")
    assert obs == item
    obs, _ = _page(env, "Action: click[Features]")
    bullets = " [SEP] ".join(bullet.strip() for bullet in product.bullets)
    assert obs.startswith(f"Instruction: [SEP] {GOAL} [SEP] Back to Search [SEP] < Prev [SEP] {bullets}\n\n")
    obs, _ = _page(env, "Action: click[< Prev]")
    assert obs == item  # the chosen colour is kept
    obs, info = _page(env, "Action: click[Buy Now]")
    assert info["success"] and info["progress_rate"] == 1.0 and env.session.buy_score == 1.0
    assert obs.startswith("Thank you for shopping with us! [SEP] Your score (min 0.0, max 1.0) [SEP] 1.0")


def test_reading_replies():
    assert text.marked_action("Thought:\nI think so.\n\nAction:\nclick[Buy Now]") == "click[Buy Now]"
    assert text.marked_action("action:  \n\n  search[red mug]") == "search[red mug]"
    assert text.marked_action("Action: click[a] and click[b]") == "click[a]"
    assert text.marked_action("Action: click[x] y]") == "click[x]"  # up to the first ]
    assert text.marked_action("ACTION: click[x]") is None  # only Action: / action:
    assert text.marked_action("Action: Click[x]") is None  # the verb is case-sensitive
    assert text.marked_action("click[x]") is None
    assert text.any_action("I will Click[Buy Now] now") == "click[Buy Now]"
    assert text.split_action("click[B0ABC]") == ("click", "b0abc")
    assert text.split_action("click[]") == ("click[]", None)


def test_unknown_click_leaves_the_page(env):
    first, _ = env.reset(options={"task_index": 1})
    page = first.split("\nActions: ")[0]
    for reply in ("Action: click[Buy Now]", "Action: click[search]", "Action: click[nothing here]"):
        obs, info = _page(env, reply)
        assert obs == page and info["valid"] is False and info["invalid_reason"] == "unknown_object"
    obs, info = _page(env, "I do not know")
    assert not info["valid"] and info["invalid_reason"] == "unparsable" and obs.startswith("No action found")
    assert not env.episode_over


def test_search_works_on_every_page_and_pages_turn(env):
    env.reset(options={"task_index": 0})
    _page(env, "search[lipstick]")
    obs, _ = _page(env, "click[Next >]")
    assert "[SEP] Page 2 (Total results: 50) [SEP] < Prev [SEP] Next > [SEP]" in obs
    _page(env, "click[< Prev]")
    asin = env.session.page_asins()[0]
    obs, info = _page(env, f"click[{asin.lower()}]")
    assert env.session.page == "item"
    obs, info = _page(env, "Action: search[coral lipstick]")  # no search bar on an item page, yet WebShop searches
    assert info["valid"] and env.session.page == "results" and env.session.query == "coral lipstick"


def test_strict_ends_without_a_marker():
    env = AgentBenchWebShopEnv(strict=True, num_tasks=1)
    env.reset(options={"task_index": 0})
    obs, reward, terminated, truncated, info = env.step("search[lipstick]")
    assert terminated and not info["success"] and info["finish_reason"] == "invalid_format"
    assert obs.startswith("The reply has no 'Action:'")


def test_task_set_and_budget():
    env = gym.make(ENV_ID)
    shipped = shipped_tasks(200)
    tasks = env.unwrapped.tasks
    assert [task.task_id for task in tasks] == [task.task_id for task in shipped]
    assert {task.max_steps for task in tasks} == {text.MAX_STEPS} == {10}
    env.reset(options={"task_index": 0})
    for _ in range(10):
        obs, reward, terminated, truncated, info = env.step("Action: click[nothing]")
    assert truncated and not terminated  # AgentBench's TASK_LIMIT_REACHED


def test_options_outside_the_protocol_are_refused():
    with pytest.raises(ValueError, match="strict"):
        WebShopEnv(strict=True, num_tasks=1)
    with pytest.raises(ValueError, match="agentboard_data"):
        AgentBenchWebShopEnv(agentboard_data="/nowhere")


def test_price_prints_as_webshops_float(env):
    env.reset(options={"task_index": 0})
    product = env.session.catalogue.product("B0HOTKM0QQ")
    assert text.price_text(product) == "$32.99"
    assert text.price_text(type("P", (), {"price": 31})()) == "$31.0"
