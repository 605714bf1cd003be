"""``webshop_data=``: WebShop's released files (tiny ones written here in its format) imported and played.

The format is WebShop's ``load_products`` / ``get_human_goals`` (``web_agent_site/engine``): a product list with
``asin``, ``name``, ``pricing``, ``customization_options``, ...; attributes by ASIN; human instructions by ASIN.
"""

from __future__ import annotations

import json
import random
import re

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401
from agentgym_text.envs.webshop import webshop_data
from agentgym_text.envs.webshop.env import WebShopEnv


def _item(asin: str, name: str, pricing: str | None, options: dict | None = None, **extra) -> dict:
    return {
        "asin": asin,
        "name": name,
        "pricing": pricing,
        "customization_options": options,
        "small_description": [f"{name} bullet one", f"{name} bullet two"],
        "full_description": f"All about the {name}.",
        "category": "beauty",
        "query": " Lipstick ",
        "product_category": "Beauty & Personal Care › Makeup › Lips",
        "images": ["x.jpg"],
        **extra,
    }


ITEMS = [
    _item("B000000001", "Velvet Matte Lipstick", "$12.99", {"Color": [{"value": "Coral/Red"}, {"value": "Berry"}]}),
    _item("nan", "No asin", "$1.00"),
    _item("B0000000001X", "Too long an asin", "$1.00"),
    _item("B000000002", "Glossy Lip Tint", "$10.00$20.00", {"Size": [{"value": "Small "}, {"value": "Large"}]}),
    _item("B000000001", "Velvet Matte Lipstick again", "$3.00"),
    _item("B000000003", "Ceramic Coffee Mug", None, {"Color": None}),
    _item("B000000004", "Gold Watch", "$995.00"),
]
ATTRIBUTES = {
    "B000000001": {"attributes": ["long lasting"]},
    "B000000002": {"attributes": ["natural"]},
    "B000000004": {"attributes": ["water resistant"]},
}
HUMAN = {
    "B000000001": [
        {
            "instruction": "i want a long lasting velvet matte lipstick in coral red.",
            "instruction_attributes": ["long lasting"],
            "instruction_options": ["coral | red"],
        },
        {"instruction": "a lipstick please", "instruction_attributes": [], "instruction_options": []},
    ],
    "B000000002": [
        {
            "instruction": "i need a natural glossy lip tint, large size",
            "instruction_attributes": ["natural"],
            "instruction_options": ["large"],
        }
    ],
    "B000000003": [
        {
            "instruction": "find me a ceramic coffee mug",
            "instruction_attributes": ["ceramic"],
            "instruction_options": [],
        }
    ],
    "B000000004": [
        {"instruction": "a water resistant gold watch", "instruction_attributes": ["water resistant"]},
    ],
}


def _write(folder, items=ITEMS, attributes=ATTRIBUTES, human=HUMAN):
    folder.mkdir(exist_ok=True)
    (folder / "items_shuffle_1000.json").write_text(json.dumps(items))
    (folder / "items_ins_v2_1000.json").write_text(json.dumps(attributes))
    (folder / "items_human_ins.json").write_text(json.dumps(human))
    return folder


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENTGYM_TEXT_CACHE", str(tmp_path / "cache"))
    return _write(tmp_path / "webshop")


def test_products_are_read_as_webshop_loads_them(data):
    catalogue, _ = webshop_data.open_imported(data, quiet=True)
    assert [catalogue.product_at(i).asin for i in range(len(catalogue))] == [
        "B000000001",
        "B000000002",
        "B000000003",
        "B000000004",
    ]  # "nan", an 11-character ASIN and a repeated ASIN are skipped
    lipstick, tint, mug, watch = (catalogue.product_at(i) for i in range(4))
    assert lipstick.options == (("color", ("coral | red", "berry")),) and lipstick.price == 12.99
    assert tint.options == (("size", ("small", "large")),) and 10.0 <= tint.price <= 20.0
    assert mug.options == () and mug.price == 100.0 and mug.attributes == ("DUMMY_ATTR",)
    assert lipstick.query == "lipstick" and lipstick.bullets[0] == "Velvet Matte Lipstick bullet one"
    assert catalogue.search("ceramic mug")[0] == "B000000003"
    assert catalogue.product("B000000002") == tint and catalogue.product("B0NOTTHERE") is None


def test_goals_are_webshops_human_goals_in_its_shuffled_order(data):
    _, goals = webshop_data.open_imported(data, quiet=True)
    # file order, the instruction without attributes skipped
    in_order = ["B000000001", "B000000002", "B000000003", "B000000004"]
    expected = list(in_order)
    random.seed(233)  # what WebShop's SimServer does before random.shuffle(self.goals)
    random.shuffle(expected)
    assert [goal["asin"] for goal in goals] == expected
    by_asin = {goal["asin"]: goal for goal in goals}
    lipstick = by_asin["B000000001"]
    match = re.fullmatch(
        r"i want a long lasting velvet matte lipstick in coral red, and price lower than (\d+)\.00 dollars",
        lipstick["instruction"],
    )
    assert match and int(match.group(1)) in (30, 40, 50)  # the greater of two of 20, 30, 40, 50
    assert lipstick["price_upper"] == float(match.group(1)) and lipstick["options"] == ["coral | red"]
    watch = by_asin["B000000004"]  # above $990 there is no price clause
    assert watch["instruction"] == "a water resistant gold watch" and watch["price_upper"] == 1000000.0


def test_import_is_cached_by_checksum(data, tmp_path):
    first = webshop_data.open_imported(data, quiet=True)
    assert webshop_data.open_imported(data, quiet=True)[0] is first[0]
    other = _write(tmp_path / "other", human={k: v for k, v in HUMAN.items() if k != "B000000004"})
    catalogue, goals = webshop_data.open_imported(other, quiet=True)
    assert catalogue.path != first[0].path and len(goals) == 3
    copy = _write(tmp_path / "copy")  # the same bytes elsewhere: the same cache entry
    assert webshop_data.open_imported(copy, quiet=True)[0].path == first[0].path


def test_the_expert_buys_every_goal_under_agentbench_protocol(data):
    env = gym.make("AgentBench/WebShop-v0", webshop_data=str(data)).unwrapped
    _, goals = webshop_data.open_imported(data, quiet=True)
    assert env.task_ids == [f"webshop-goal-{k:05d}" for k in range(4)]
    for k, goal in enumerate(goals):
        obs, _ = env.reset(options={"task_index": k})
        assert obs.startswith(f"WebShop [SEP] Instruction: [SEP] {goal['instruction']} [SEP] Search")
        while not env.episode_over:
            obs, reward, terminated, truncated, info = env.step("Action: " + env.expert_action())
        assert info["success"] and info["progress_rate"] == 1.0, goal


def test_bad_folders_are_one_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENTGYM_TEXT_CACHE", str(tmp_path / "cache"))
    with pytest.raises(ValueError, match="not a folder"):
        webshop_data.open_imported(tmp_path / "missing")
    folder = _write(tmp_path / "data")
    (folder / "items_human_ins.json").unlink()
    with pytest.raises(ValueError, match="no human goals file"):
        webshop_data.open_imported(folder)
    broken = _write(tmp_path / "broken")
    (broken / "items_ins_v2_1000.json").write_text("{not json")
    with pytest.raises(ValueError, match="cannot read"):
        webshop_data.open_imported(broken, quiet=True)
    with pytest.raises(ValueError, match="AgentBench's protocol"):
        WebShopEnv(webshop_data=str(folder))
