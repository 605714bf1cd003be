"""WebShop's purchase reward (Yao et al. 2022, ``web_agent_site/engine/goal.py``) as pure functions.

    reward = r_type * (#attributes matched + #options matched + [price <= bound]) / (#goal attrs + #goal options + 1)

Matching follows WebShop: an attribute matches when ``token_set_ratio`` with one of the product's attributes
exceeds 85, or when it appears in the title, bullet points or description; a chosen option matches a goal
option exactly for ``size`` and by ``token_set_ratio > 85`` otherwise, or when it appears in the product's text.
``r_type`` is 1 / 0.5 / 0.1 / 0 from the query match, category overlap and noun overlap of the names.

Differences from WebShop's code, on purpose (each is a bug there):
- "appears in the text" is a whole-word match, not a raw substring ("red" no longer matches "preferred");
- option matches are capped at the number of goal options (WebShop can score above 1.0);
- nouns of a product's name come from the vocabulary (type nouns and brand words) instead of spaCy tagging.

``agentboard_text.reward.agentboard_reward`` is WebShop's own rule, quirks included, for ``agentboard_fixes=False``.

>>> from agentgym_text.envs.webshop.generator import generate_product
>>> p = generate_product(3)
>>> goal = Goal.for_product(p, attributes=p.attributes[:2], options={}, price_upper=p.price + 10)
>>> purchase_reward(p, goal, {})
1.0
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from rapidfuzz import fuzz

from agentgym_text.envs.webshop.generator import Product

__all__ = [
    "Goal",
    "purchase_reward",
    "best_reward",
    "type_reward",
    "attribute_matches",
    "option_matches",
    "choose_options",
]

EXACT_MATCH_OPTIONS = ("size",)
FUZZY_THRESHOLD = 85


@dataclass(frozen=True)
class Goal:
    """What an instruction asks for (WebShop's goal dict): the target's type data, attributes, options, price."""

    asin: str
    query: str
    product_category: str
    nouns: tuple[str, ...]
    attributes: tuple[str, ...]
    options: tuple[str, ...]
    price_upper: float
    instruction: str = ""
    option_groups: tuple[str, ...] = field(default=())

    @classmethod
    def for_product(cls, product: Product, attributes, options: dict, price_upper: float, instruction: str = ""):
        return cls(
            asin=product.asin,
            query=product.query,
            product_category=product.product_category,
            nouns=product.nouns,
            attributes=tuple(attributes),
            options=tuple(options.values()),
            price_upper=float(price_upper),
            instruction=instruction,
            option_groups=tuple(options),
        )

    def to_params(self) -> dict:
        return {
            "asin": self.asin,
            "query": self.query,
            "product_category": self.product_category,
            "nouns": list(self.nouns),
            "attributes": list(self.attributes),
            "options": list(self.options),
            "option_groups": list(self.option_groups),
            "price_upper": self.price_upper,
            "instruction": self.instruction,
        }

    @classmethod
    def from_params(cls, params: dict) -> Goal:
        return cls(
            asin=params["asin"],
            query=params["query"],
            product_category=params["product_category"],
            nouns=tuple(params["nouns"]),
            attributes=tuple(params["attributes"]),
            options=tuple(params["options"]),
            price_upper=float(params["price_upper"]),
            instruction=params.get("instruction", ""),
            option_groups=tuple(params.get("option_groups", ())),
        )


@lru_cache(maxsize=65536)
def _word_pattern(phrase: str) -> re.Pattern:
    return re.compile(r"(?<![a-z0-9])" + re.escape(phrase.lower()) + r"(?![a-z0-9])")


def _in_text(phrase: str, product: Product) -> bool:
    return _word_pattern(phrase).search(product.page_text()) is not None


def type_reward(product: Product, goal: Goal) -> float:
    query_match = product.query == goal.query
    levels = {level.strip() for level in product.product_category.split("›")}
    goal_levels = {level.strip() for level in goal.product_category.split("›")}
    category_match = len(levels & goal_levels) >= 2
    title_score = len(set(product.nouns) & set(goal.nouns)) / len(goal.nouns) if goal.nouns else 0.2
    r_type = 1.0 if (query_match or category_match or title_score > 0.2) else 0.5
    if title_score < 0.1:
        r_type = 0.1
    if title_score == 0.0:
        r_type = 0.0
    return r_type


def attribute_matches(product: Product, goal: Goal) -> int:
    count = 0
    for wanted in goal.attributes:
        if any(fuzz.token_set_ratio(have, wanted) > FUZZY_THRESHOLD for have in product.attributes):
            count += 1
        elif _in_text(wanted, product):
            count += 1
    return count


def _option_matches(group: str, value: str, goal: Goal, product: Product) -> bool:
    if group.lower() in EXACT_MATCH_OPTIONS:
        if value in goal.options:
            return True
    elif any(fuzz.token_set_ratio(wanted, value) > FUZZY_THRESHOLD for wanted in goal.options):
        return True
    return _in_text(value, product)


def option_matches(product: Product, goal: Goal, chosen: dict[str, str]) -> int:
    count = sum(_option_matches(group, value, goal, product) for group, value in chosen.items())
    return min(count, len(goal.options))


def purchase_reward(product: Product, goal: Goal, chosen: dict[str, str]) -> float:
    """The reward of buying ``product`` with options ``chosen`` (option group -> value) for ``goal``."""
    r_type = type_reward(product, goal)
    if r_type == 0.0:
        return 0.0
    matched = (
        attribute_matches(product, goal) + option_matches(product, goal, chosen) + (product.price <= goal.price_upper)
    )
    return r_type * matched / (len(goal.attributes) + len(goal.options) + 1)


def choose_options(product: Product, goal: Goal) -> dict[str, str]:
    """For each option group, the first value that matches a goal option (groups with none are left out)."""
    chosen = {}
    for group, values in product.options:
        for value in values:
            if _option_matches(group, value, goal, product):
                chosen[group] = value
                break
    return chosen


def best_reward(product: Product, goal: Goal) -> float:
    """The reward of the best option combination (AgentBoard's page scores take this maximum)."""
    return purchase_reward(product, goal, choose_options(product, goal))
