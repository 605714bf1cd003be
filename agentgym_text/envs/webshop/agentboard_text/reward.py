"""WebShop's reward as AgentBoard's server computes it, quirks included (the package's docstring lists them)."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from agentgym_text.envs.webshop.generator import Product
from agentgym_text.envs.webshop.reward import FUZZY_THRESHOLD, Goal, type_reward

__all__ = [
    "agentboard_reward",
    "option_combinations",
]

_LATIN1 = dict.fromkeys(range(128, 256))

# WebShop's colour words (web_agent_site/engine/normalize.py, MIT), in its order: an option is normalised to the
# first of them it contains, so "jet black" and "black" compare equal, and so do "ash blonde" and "ash brown".
_WEBSHOP_COLORS = (
    "alabaster apricot aqua ash asphalt azure banana beige black blue blush bordeaux bronze brown burgundy camel "
    "camo caramel champagne charcoal cheetah chestnut chocolate christmas coffee cognac copper coral cranberry "
    "cream crystal dark denim eggplant elephant espresso fuchsia gold granite grape graphite grass gray green grey "
    "heather indigo ivory ivy khaki lavender lemon leopard light lilac lime magenta maroon mauve merlot midnight "
    "mint mocha multicolor mushroom mustard natural navy nude olive orange peach pewter pink plum purple rainbow "
    "red rose royal rust sand sapphire seashell silver skull slate steel stone stonewash sunflower tan taupe teal "
    "tiger turquoise violet walnut wheat white wine yellow"
).split()


def _fuzz_process(text: str) -> str:
    """thefuzz 0.19's ``full_process(force_ascii=True)``: Latin-1 dropped, non-word characters to spaces, lower."""
    text = text.translate(_LATIN1)
    return re.sub(r"(?ui)\W", " ", text).lower().strip()


def _fuzz_ratio(a: str, b: str) -> int:
    if a == b:
        return 100
    if not a or not b:
        return 0
    return int(round(100 * SequenceMatcher(None, a, b).ratio()))


def _webshop_ratio(a: str, b: str) -> int:
    """``thefuzz.fuzz.token_set_ratio`` as AgentBoard's pinned thefuzz 0.19 computes it (difflib's matcher: its
    requirements do not install python-Levenshtein): token sets, three rounded ratios, the best."""
    a, b = _fuzz_process(a), _fuzz_process(b)
    if not a or not b:
        return 0
    tokens_a, tokens_b = set(a.split()), set(b.split())
    common = " ".join(sorted(tokens_a & tokens_b))
    with_a = (common + " " + " ".join(sorted(tokens_a - tokens_b))).strip()
    with_b = (common + " " + " ".join(sorted(tokens_b - tokens_a))).strip()
    return max(_fuzz_ratio(common, with_a), _fuzz_ratio(common, with_b), _fuzz_ratio(with_a, with_b))


def _webshop_color(value: str) -> str:
    return next((color for color in _WEBSHOP_COLORS if color in value), value)


def option_combinations(product: Product) -> list[tuple[str, ...]]:
    """Every choice of one value per option group, in WebShop's order (``itertools.product`` over the groups)."""
    combos: list[tuple[str, ...]] = [()]
    for _, values in product.options:
        combos = [combo + (value,) for combo in combos for value in values]
    return combos if product.options else []


def agentboard_reward(product: Product, goal: Goal, chosen: tuple[str, ...] | list[str]) -> float:
    """WebShop's ``get_reward`` with its quirks, as AgentBoard's server computes it (see the module's docstring)."""
    r_type = type_reward(product, goal)
    texts = (product.title.lower(), " ".join(product.bullets).lower(), product.description.lower())
    attributes = sum(
        any(_webshop_ratio(have, wanted) > FUZZY_THRESHOLD for have in product.attributes)
        or any(wanted in text for text in texts)
        for wanted in goal.attributes
    )
    have = [_webshop_color(value) for value in chosen]
    options = sum(
        any(_webshop_ratio(value, _webshop_color(wanted)) > FUZZY_THRESHOLD for value in have)
        for wanted in goal.options
    )
    price = product.price <= goal.price_upper
    return (attributes + options + price) / (len(goal.attributes) + len(goal.options) + 1) * r_type
