"""Shopping goals from target products, worded like WebShop's human instructions.

"i need a clip-in hair extension that is natural looking, in ash blonde color, and price lower than 60.00
dollars": the goal names the target's type, some of its attributes, values of some of its option groups and a
price bound drawn as WebShop draws it (the larger of two of the first four multiples of ten above the price).

>>> import random
>>> from agentgym_text.envs.webshop.generator import generate_product
>>> goal, keywords = make_goal(generate_product(42), random.Random(0))
>>> goal.instruction.endswith("dollars") and goal.price_upper > generate_product(42).price
True
"""

from __future__ import annotations

import random

from agentgym_text.envs.webshop.generator import Product, product_types
from agentgym_text.envs.webshop.registration import FAMILY
from agentgym_text.envs.webshop.reward import Goal

__all__ = ["make_goal", "price_bound", "goal_difficulty"]

_OPENERS = (
    "i need",
    "i want",
    "i am looking for",
    "i would like",
    "i'm looking for",
    "find me",
    "i want to buy",
    "looking for",
)
_OPTION_PHRASES = {
    "color": ("in {v} color", "in the color {v}", "in {v}"),
    "size": ("in size {v}", "in {v} size", "size {v}"),
    "scent": ("with {v} scent", "in {v} scent", "in the {v} scent"),
    "flavor": ("in {v} flavor", "{v} flavored", "with {v} flavor"),
}


def price_bound(price: float, rng: random.Random) -> float:
    """WebShop's bound: the larger of two draws from the first four multiples of 10 above ``price``."""
    first = int(price // 10) + 1
    candidates = [10.0 * k for k in range(first, first + 4)]
    return sorted(rng.sample(candidates, 2))[1]


def goal_difficulty(goal: Goal) -> str:
    """ "hard" when the goal names more than three attributes and options together, else "easy"."""
    return FAMILY.difficulty.label(len(goal.attributes) + len(goal.options))


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def make_goal(product: Product, rng: random.Random) -> tuple[Goal, str]:
    """A goal for buying ``product`` and the search keywords that express it (its key terms)."""
    ptype = product_types()[product.type_id]
    attribute_count = min(len(product.attributes), rng.choice((1, 2, 2, 3)))
    picked = set(rng.sample(product.attributes, attribute_count))
    attributes = [a for a in product.attributes if a in picked]
    groups = [name for name, _ in product.options]
    group_count = min(len(groups), rng.choice((1, 1, 2)))
    chosen_groups = set(rng.sample(groups, group_count))
    options = {name: rng.choice(values) for name, values in product.options if name in chosen_groups}
    price_upper = price_bound(product.price, rng)

    by_kind = {kind: [a for a in attributes if ptype.kind_of(a) == kind] for kind in ("pre", "adj", "with", "for")}
    plural = ptype.name == ptype.plural
    noun_phrase = " ".join(by_kind["pre"] + [ptype.name])
    article = "" if plural else ("an " if noun_phrase[0] in "aeiou" else "a ")
    clauses = []
    if by_kind["adj"]:
        verb = "are" if plural else "is"
        clauses.append(f" {rng.choice(('that', 'which'))} {verb} {_join(by_kind['adj'])}")
    if by_kind["with"]:
        clauses.append(f" with {_join(by_kind['with'])}")
    if by_kind["for"]:
        clauses.append(f" for {_join(by_kind['for'])}")
    rng.shuffle(clauses)
    option_text = [rng.choice(_OPTION_PHRASES[name]).format(v=value) for name, value in options.items()]
    text = f"{rng.choice(_OPENERS)} {article}{noun_phrase}{''.join(clauses)}"
    if option_text:
        text += ", " + _join(option_text)
    text += f", and price lower than {price_upper:.2f} dollars"

    keywords = " ".join(
        by_kind["pre"] + [ptype.name] + by_kind["adj"] + by_kind["with"] + by_kind["for"] + list(options.values())
    )
    return Goal.for_product(product, attributes, options, price_upper, instruction=text), keywords
