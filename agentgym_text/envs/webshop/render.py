"""WebShop's pages as AgentBoard's text scraper shows them, and AgentBoard's error observations.

AgentBoard turns each HTML page into text: buttons and product links become ``\\n[label] ``, option values
``[value]`` (``[[value]]`` when selected) after a ``\\n<option group> `` line, other text ``\\n<text> ``; the
instruction is cut out (it is the goal) and the text wrapped as ``WEB PAGE: {...}``. Only the start page, where
the instruction is cut out with a regular expression, is stripped; the others keep their leading newline and
trailing space, as in AgentBoard's logs.

>>> start_page()
'WEB PAGE: {Let us begin shopping \\n[Search]}'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from urllib.parse import quote_plus

from agentgym_text.envs.webshop.generator import Product

__all__ = [
    "start_page",
    "results_page",
    "item_page",
    "sub_page",
    "done_page",
    "clicked",
    "click_error",
    "page_limit_error",
    "NO_SEARCH_BUTTON",
    "FORMAT_ERROR",
    "SUB_PAGES",
    "wrap",
]

SUB_PAGES = ("Description", "Features", "Reviews")
NO_SEARCH_BUTTON = (
    "There is no [Search] button, you should click the [Back to Search] button first to search something "
)
FORMAT_ERROR = (
    "Incorrect action format. Please use the correct action format following:\nAvailable Actions:\n\n"
    "click[something]: Engage with specific buttons or links.\n"
    "search[something]: Seek specific data on the website. Use this only if a [Search] button appears in the "
    "observation.\nNote: If you wish to search and there is no [Search] button, click the [Back to Search] "
    "button instead. "
)


def wrap(text: str) -> str:
    return "WEB PAGE: {" + text + "}"


def start_page() -> str:
    return wrap("Let us begin shopping \n[Search]")


def price_text(product: Product, agentboard: bool = False) -> str:
    """The price as shown: "$31.00"; AgentBoard's server prints the float as Python does ("$31.0")."""
    return f"${float(product.price)}" if agentboard else product.price_text


def results_page(
    page: int, total: int, products: Sequence[Product], shown: int = 10, agentboard_prices: bool = False
) -> str:
    parts = ["\n[Back to Search] ", f"\nPage {page} (Total results: {total}) "]
    if page > 1:
        parts.append("\n[< Prev] ")
    parts.append("\n[Next >] ")
    for product in products[:shown]:
        parts += [f"\n[{product.asin}] ", f"\n{product.title} ", f"\n{price_text(product, agentboard_prices)} "]
    return wrap("".join(parts))


def item_page(
    product: Product,
    selected: Mapping[str, str],
    rating: str | None = None,
    agentboard_prices: bool = False,
    agentboard_selection: bool = False,
) -> str:
    """An item page. ``agentboard_selection``: a value shows as selected as AgentBoard's scraper decides, when
    "'value'" is in the page's URL, whose options are URL-quoted: multi-word values never show, and a selected
    value shows in every group that offers it."""
    parts = ["\n[Back to Search] ", "\n[< Prev] "]
    quoted = {quote_plus(value) for value in selected.values()}
    for group, values in product.options:
        parts.append(f"\n{group} ")
        for value in values:
            chosen = value in quoted if agentboard_selection else selected.get(group) == value
            parts.append(f"[[{value}]]" if chosen else f"[{value}]")
    parts += [
        f"\n{product.title} ",
        f"\nPrice: {price_text(product, agentboard_prices)} ",
        f"\nRating: {rating or product.rating} ",
    ]
    parts += [f"\n[{name}] " for name in SUB_PAGES]
    parts.append("\n[Buy Now] ")
    return wrap("".join(parts))


def sub_page(product: Product, name: str, reviews: bool = True) -> str:
    parts = ["\n[Back to Search] ", "\n[< Prev] "]
    if name == "Description":
        parts.append(f"\n{product.description} ")
    elif name == "Features":
        parts += [f"\n {bullet} " for bullet in product.bullets]
    elif reviews:
        for title, score, body in product.reviews:
            parts += [f'\n"{title}" ', f"\n{score} ", f"\n{body} "]
    return wrap("".join(parts))


def done_page(reward: float) -> str:
    return wrap("Result: [Success]" if reward == 1.0 else "Result: [False]")


def clicked(value: str) -> str:
    return wrap(f"You have clicked {value}.")


def click_error(last_observation: str) -> str:
    return (
        "You can only click the button showed in the observation. Elements within square brackets (like "
        f"[Buy Now]) indicate clickable buttons or links. The recent observation is: \n{last_observation}"
    )


def page_limit_error(last_observation: str) -> str:
    return f"The page number is limited to 5, please choose another action. The recent observation is: \n{last_observation}"
