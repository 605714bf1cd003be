"""The deterministic product generator: product ``i`` of a catalogue is a pure function of ``(seed, i)``.

Products come in families of four consecutive indices so that near-duplicates exist everywhere: variant 0 is
the base product, variant 1 swaps one attribute, variant 2 offers a different set of values for one option
group, variant 3 is another brand's take on the same product (sharing most attributes, usually pricier).
Across families, products of the same type share most of their words, so search has to rank, not just match.
Vocabularies (types, attributes, option values, brands) live in ``vocab.json`` beside this module.

>>> p = generate_product(0)
>>> p.asin == asin_of(0) and index_of_asin(p.asin) == 0
True
>>> generate_product(5) == generate_product(5)
True
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from agentgym_text.envs.webshop.product_text import (
    REVIEWS,
    bullet_for,
    closing_sentences,
    description_opening,
    title_case,
)

__all__ = [
    "Product",
    "ProductType",
    "generate_product",
    "asin_of",
    "index_of_asin",
    "product_types",
    "FAMILY_SIZE",
    "ATTRIBUTE_KINDS",
]

FAMILY_SIZE = 4
ATTRIBUTE_KINDS = ("pre", "adj", "with", "for")
_ASIN_SPACE = 36**8
_ASIN_MULTIPLIER = 2_654_435_761  # coprime with 36: index -> ASIN is a bijection that scatters neighbours
_ASIN_OFFSET = 917_350_411
_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class ProductType:
    """One product type of the vocabulary (e.g. "hair extension" in beauty)."""

    type_id: int
    category: str
    name: str
    plural: str
    sub: str
    nouns: tuple[str, ...]
    attributes: dict  # kind -> tuple of phrases
    options: dict  # option group -> tuple of values (in display order)
    price: tuple[float, float]
    category_path: str

    def kind_of(self, attribute: str) -> str:
        for kind in ATTRIBUTE_KINDS:
            if attribute in self.attributes[kind]:
                return kind
        raise KeyError(attribute)


@dataclass(frozen=True)
class Product:
    """A full product page's data (WebShop's fields: Title, Price, options, BulletPoints, Description, ...)."""

    index: int
    asin: str
    type_id: int
    category: str
    query: str
    product_category: str
    brand: str
    title: str
    nouns: tuple[str, ...]
    price: float
    attributes: tuple[str, ...]
    options: tuple[tuple[str, tuple[str, ...]], ...]
    bullets: tuple[str, ...]
    description: str
    reviews: tuple[tuple[str, int, str], ...]

    @property
    def option_dict(self) -> dict[str, tuple[str, ...]]:
        return dict(self.options)

    @property
    def rating(self) -> str:
        if not self.reviews:
            return "N.A."
        return f"{sum(score for _, score, _ in self.reviews) / len(self.reviews):.1f}"

    @property
    def price_text(self) -> str:
        return f"${self.price:.2f}"

    def search_text(self) -> str:
        """What the search index sees (WebShop's: title, description, bullet points, option lists)."""
        option_text = ", and ".join(f"{name}: {', '.join(values)}" for name, values in self.options)
        return " ".join([self.title, self.description, " ".join(self.bullets), option_text]).lower()

    def page_text(self) -> str:
        """Title, bullets and description in lower case: where WebShop's reward looks for unlisted matches."""
        return " ".join([self.title, " ".join(self.bullets), self.description]).lower()


@lru_cache(maxsize=1)
def _vocab() -> dict:
    return json.loads((Path(__file__).with_name("vocab.json")).read_text())


@lru_cache(maxsize=1)
def product_types() -> tuple[ProductType, ...]:
    vocab = _vocab()
    types = []
    for type_id, raw in enumerate(vocab["types"]):
        category_path = f"{vocab['categories'][raw['cat']]} › {raw['sub']} › {title_case(raw['plural'])}"
        types.append(
            ProductType(
                type_id=type_id,
                category=raw["cat"],
                name=raw["name"],
                plural=raw["plural"],
                sub=raw["sub"],
                nouns=tuple(raw["nouns"]),
                attributes={kind: tuple(a.removeprefix("for ") for a in raw[kind]) for kind in ATTRIBUTE_KINDS},
                options={name: tuple(values) for name, values in raw["options"].items()},
                price=(float(raw["price"][0]), float(raw["price"][1])),
                category_path=category_path,
            )
        )
    return tuple(types)


def brands(category: str) -> tuple[str, ...]:
    return tuple(_vocab()["brands"][category])


def asin_of(index: int, seed: int = 0) -> str:
    """The ASIN-like id of product ``index`` (a bijection, so ids are unique and decodable)."""
    code = (index * _ASIN_MULTIPLIER + _ASIN_OFFSET + seed * 7_919) % _ASIN_SPACE
    chars = []
    for _ in range(8):
        code, digit = divmod(code, 36)
        chars.append(_DIGITS[digit])
    return "B0" + "".join(reversed(chars))


def index_of_asin(asin: str, seed: int = 0) -> int | None:
    """The product index behind an ASIN, or None if the text is not one of ours."""
    text = asin.strip().upper()
    if len(text) != 10 or not text.startswith("B0") or any(ch not in _DIGITS for ch in text[2:]):
        return None
    code = 0
    for ch in text[2:]:
        code = code * 36 + _DIGITS.index(ch)
    inverse = pow(_ASIN_MULTIPLIER, -1, _ASIN_SPACE)
    return ((code - _ASIN_OFFSET - seed * 7_919) * inverse) % _ASIN_SPACE


def _price(rng: random.Random, low: float, high: float) -> float:
    whole = int(rng.uniform(low, high))
    return round(max(1, whole) + rng.choice((0.99, 0.49, 0.95, 0.0, 0.79)), 2)


def _near(price: float) -> float:
    return int(price) + 0.99


def _pick_attributes(rng: random.Random, kind_pool: dict) -> list[str]:
    counts = {
        "pre": rng.choice((1, 1, 2)),
        "adj": rng.choice((1, 2, 2, 3)),
        "with": rng.choice((0, 1, 1, 2)),
        "for": rng.choice((0, 1, 1)),
    }
    chosen = []
    for kind in ATTRIBUTE_KINDS:
        pool = list(kind_pool[kind])
        chosen.extend(rng.sample(pool, min(counts[kind], len(pool))))
    return chosen


def _pick_options(rng: random.Random, groups: dict) -> dict[str, tuple[str, ...]]:
    options = {}
    for name, values in groups.items():
        count = rng.randint(min(2, len(values)), max(2, (len(values) + 1) // 2))
        keep = set(rng.sample(range(len(values)), count))
        options[name] = tuple(value for i, value in enumerate(values) if i in keep)
    return options


@lru_cache(maxsize=4096)
def _family(family: int, seed: int) -> tuple:
    rng = random.Random(f"webshop-family:{seed}:{family}")
    ptype = product_types()[rng.randrange(len(product_types()))]
    brand = rng.choice(brands(ptype.category))
    attributes = _pick_attributes(rng, ptype.attributes)
    options = _pick_options(rng, ptype.options)
    price = _price(rng, *ptype.price)
    return ptype, brand, tuple(attributes), tuple(options.items()), price


def _variant(family_data: tuple, variant: int, rng: random.Random) -> tuple:
    ptype, brand, attributes, options, price = family_data
    attributes, options = list(attributes), dict(options)
    if variant == 1:  # one attribute swapped for another of the same kind
        slot = rng.randrange(len(attributes))
        kind = ptype.kind_of(attributes[slot])
        spare = [a for a in ptype.attributes[kind] if a not in attributes]
        if spare:
            attributes[slot] = rng.choice(spare)
        else:
            del attributes[slot]
        price = _near(price * rng.uniform(0.85, 1.15))
    elif variant == 2 and options:  # one option group offers other values
        name = rng.choice(sorted(options))
        pool = ptype.options[name]
        current = set(options[name])
        dropped = rng.choice(sorted(current))
        fresh = [v for v in pool if v not in current]
        values = (current - {dropped}) | ({rng.choice(fresh)} if fresh else set())
        options[name] = tuple(v for v in pool if v in values)
        price = _near(price * rng.uniform(0.9, 1.1))
    elif variant >= 2:  # another brand's near copy, usually pricier
        brand = rng.choice([b for b in brands(ptype.category) if b != brand])
        keep = rng.sample(attributes, max(1, len(attributes) - 1))
        extra = [a for kind in ("adj", "with") for a in ptype.attributes[kind] if a not in attributes]
        attributes = [a for a in attributes if a in keep] + rng.sample(extra, min(1, len(extra)))
        options = _pick_options(rng, ptype.options)
        price = _near(price * rng.uniform(1.2, 2.6))
    return ptype, brand, attributes, options, price


def _title(ptype: ProductType, brand: str, attributes: list[str]) -> str:
    by_kind = {kind: [a for a in attributes if a in ptype.attributes[kind]] for kind in ATTRIBUTE_KINDS}
    words = [brand] + [title_case(a) for a in by_kind["pre"]] + [title_case(ptype.name)]
    if by_kind["with"]:
        words.append("with " + title_case(by_kind["with"][0]))
    if by_kind["for"]:
        words.append("for " + title_case(by_kind["for"][0]))
    title = " ".join(words)
    if by_kind["adj"]:
        title += ", " + title_case(by_kind["adj"][0])
    return title


def generate_product(index: int, seed: int = 0) -> Product:
    """Product ``index`` of the catalogue with generator seed ``seed``."""
    family, variant = divmod(index, FAMILY_SIZE)
    rng = random.Random(f"webshop-product:{seed}:{index}")
    ptype, brand, attributes, options, price = _variant(_family(family, seed), variant, rng)
    title = _title(ptype, brand, attributes)
    bullets = [bullet_for(rng, ptype.kind_of(a), a, ptype.name) for a in attributes]
    rng.shuffle(bullets)
    description = " ".join([description_opening(rng, brand, ptype.name)] + closing_sentences(rng, ptype.category))
    reviews = tuple(
        (title_text, score, body.format(type=ptype.name))
        for title_text, score, body in rng.sample(REVIEWS, rng.randint(0, 4))
    )
    return Product(
        index=index,
        asin=asin_of(index, seed),
        type_id=ptype.type_id,
        category=ptype.category,
        query=ptype.plural,
        product_category=ptype.category_path,
        brand=brand,
        title=title,
        nouns=tuple(dict.fromkeys(list(ptype.nouns) + brand.lower().replace("&", " ").split())),
        price=price,
        attributes=tuple(attributes),
        options=tuple((name, tuple(values)) for name, values in options.items()),
        bullets=tuple(bullets),
        description=description,
        reviews=reviews,
    )
