"""AgentBench v0.2's WebShop protocol (the "WS" task, ``src/server/tasks/webshop`` at THUDM/AgentBench 41e6807).

``text_format="agentbench_v02"`` (``AgentBench/WebShop-v0``) speaks it; the facts, restated here:

- AgentBench runs WebShop's text env in its ``"text"`` mode: a page is its visible texts, stripped, joined by
  `` [SEP] `` ("WebShop [SEP] Instruction: [SEP] <goal> [SEP] Search" on the start page). Prices print as
  WebShop's loader writes them (``$31.0``); the rating is ``N.A.`` and the Reviews page is empty (its loader
  reads no reviews); a selected option is not marked.
- Each turn shows ``Observation:\\n<page>\\n\\nAvailable Actions:\\n<dict>``, the dict as Python prints
  ``{'has_search_bar': ..., 'clickables': [...]}``: the page's buttons and product links lower-cased, in page
  order, then its option values.
- The action is the first ``search[...]`` / ``click[...]`` after ``Action:`` (or ``action:``, spaces and
  newlines allowed between), up to the first ``]``. A reply without one ends AgentBench's sample with reward 0
  (``strict=True`` here; the default then reads the first ``search[...]`` / ``click[...]`` anywhere in the reply,
  and a reply with none is an invalid step).
- WebShop lower-cases the argument; ``search[...]`` works on every page; a click must name one of the page's
  clickables (not ``search``); anything else leaves the page as it was, with reward 0 and no message.
- 10 steps (AgentBench's loop); the score is WebShop's reward at ``Buy Now``, 0 otherwise.

The observation format is checked against the examples in AgentBench's prompt (``tests/test_webshop_agentbench.py``);
AgentBench's own code needs WebShop's Java search engine and cannot run here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from agentgym_text.envs.webshop.generator import Product

__all__ = [
    "AGENTBENCH",
    "MAX_STEPS",
    "TASK_COUNT",
    "SEP",
    "SUB_PAGES",
    "marked_action",
    "any_action",
    "split_action",
    "price_text",
    "start_page",
    "results_page",
    "item_page",
    "sub_page",
    "done_page",
    "with_actions",
]

AGENTBENCH = "agentbench_v02"
"""The text format's name."""
MAX_STEPS = 10
"""AgentBench v0.2's WebShop loop: ``for j in range(10)``."""
TASK_COUNT = 200
"""``webshop-std``: goal indices 0-199 (``configs/tasks/webshop.yaml``)."""
SEP = " [SEP] "
SUB_PAGES = ("Description", "Features", "Reviews")
_MARKED = re.compile(r"[Aa]ction: *\n* *((search|click)\[.+?])")
_ANYWHERE = re.compile(r"((search|click)\[.+?])", re.IGNORECASE)
_SPLIT = re.compile(r"(.+)\[(.+)\]")


def marked_action(reply: str) -> str | None:
    """The action AgentBench reads from a reply, or None.

    >>> marked_action("Thought:\\nI think I should buy it.\\n\\nAction:\\nclick[Buy Now]")
    'click[Buy Now]'
    >>> marked_action("click[Buy Now]") is None
    True
    """
    match = _MARKED.search(reply)
    return match.group(1) if match else None


def any_action(reply: str) -> str | None:
    """The first ``search[...]`` / ``click[...]`` anywhere in a reply (the default's reading without a marker)."""
    match = _ANYWHERE.search(reply)
    if match is None:
        return None
    text = match.group(1)
    return text[:6].lower() + text[6:] if text[:6].lower() == "search" else text[:5].lower() + text[5:]


def split_action(action: str) -> tuple[str, str | None]:
    """WebShop's ``parse_action``: name and argument (lower-cased, as its text env does), or (action, None).

    >>> split_action("click[B000VOHH8I]")
    ('click', 'b000vohh8i')
    """
    match = _SPLIT.match(action)
    if match is None:
        return action, None
    return match.group(1), match.group(2).lower()


def price_text(product: Product) -> str:
    """WebShop's price tag: the float as Python prints it ("$31.0", "$64.98")."""
    return f"${float(product.price)}"


def _page(instruction: str, parts: Sequence[str]) -> str:
    return SEP.join(["Instruction:", instruction, *parts])


def start_page(instruction: str) -> str:
    return SEP.join(["WebShop", "Instruction:", instruction, "Search"])


def results_page(instruction: str, page: int, total: int, products: Sequence[Product]) -> str:
    parts = ["Back to Search", f"Page {page} (Total results: {total})"]
    if page > 1:
        parts.append("< Prev")
    parts.append("Next >")
    for product in products:
        parts += [product.asin, product.title, price_text(product)]
    return _page(instruction, parts)


def item_page(instruction: str, product: Product) -> str:
    parts = ["Back to Search", "< Prev"]
    for group, values in product.options:
        parts += [group.lower(), *(value.lower() for value in values)]
    parts += [product.title, f"Price: {price_text(product)}", "Rating: N.A.", *SUB_PAGES, "Buy Now"]
    return _page(instruction, parts)


def sub_page(instruction: str, product: Product, name: str) -> str:
    parts = ["Back to Search", "< Prev"]
    if name == "Description":
        parts.append(product.description.strip())
    elif name == "Features":
        parts += [bullet.strip() for bullet in product.bullets]
    return _page(instruction, parts)  # Reviews: AgentBench's WebShop loads none


def done_page(instruction: str, reward: float) -> str:
    """The done page, shortened to its score (AgentBench never shows it to the agent: the sample ends)."""
    return SEP.join(["Thank you for shopping with us!", "Your score (min 0.0, max 1.0)", str(reward)])


def with_actions(page: str, has_search_bar: bool, clickables: Sequence[str]) -> str:
    """A turn's text as AgentBench sends it, without its leading ``Observation:\\n``.

    >>> with_actions("WebShop [SEP] Instruction: [SEP] a mug [SEP] Search", True, ["search"])
    "WebShop [SEP] Instruction: [SEP] a mug [SEP] Search\\n\\nAvailable Actions:\\n{'has_search_bar': True, 'clickables': ['search']}"
    """
    actions: Mapping[str, object] = {"has_search_bar": has_search_bar, "clickables": list(clickables)}
    return f"{page}\n\nAvailable Actions:\n{actions}"
