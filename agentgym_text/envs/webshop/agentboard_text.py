"""What ``agentboard_fixes=False`` restores of AgentBoard's WebShop (its Flask server ``web_agent_site/app.py`` and
``engine/goal.py``, its client ``environment/webshop_env.py``, its harness ``tasks/webshop.py``): how it scores.
The default fixes each of these:

- FIX (item score): the item page's score is the product's best option combination; AgentBoard's loop resets its
  maximum at every combination, so it keeps the LAST combination's reward unless one scores 1.0.
- FIX (reward quirks): WebShop's reward (``agentboard_reward``) matches an attribute as a raw substring of the
  title, bullets or description ("red" in "preferred"), and an option by ``token_set_ratio > 85`` after its colour
  normalisation (the first colour word of its list found in the value: "ash blonde" and "ash brown" compare
  equal); the default matches whole words, sizes exactly, and counts chosen options (``reward.py``).
- FIX (reset[] graded): AgentBoard's harness spends step 0 of its 30 on a ``reset[]`` it grades as a valid action,
  leaving the agent 29; the default gives the agent all 30.
- Results pages: AgentBoard's server lists 3 products a page (the page scored for progress) and its client
  refuses ``Next >`` only from page 6; the default lists 10 a page, as WebShop, up to page 5.

The product-name nouns stay the vocabulary's in both (WebShop tags them with spaCy's ``en_core_web_lg``).
"""

from __future__ import annotations

from rapidfuzz import fuzz
from rapidfuzz.utils import default_process

from agentgym_text.envs.webshop.generator import Product
from agentgym_text.envs.webshop.reward import FUZZY_THRESHOLD, Goal, type_reward

__all__ = ["AGENTBOARD_PAGE_SIZE", "AGENTBOARD_MAX_PAGES", "agentboard_reward", "option_combinations"]

AGENTBOARD_PAGE_SIZE = 3
AGENTBOARD_MAX_PAGES = 6

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


def _webshop_ratio(a: str, b: str) -> int:
    """``thefuzz.fuzz.token_set_ratio`` as WebShop calls it: ASCII only, WebShop's default processing, rounded."""
    a, b = (default_process(text.encode("ascii", "ignore").decode()) for text in (a, b))
    return int(round(fuzz.token_set_ratio(a, b)))


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
