"""AgentBench v0.2's WebShop protocol (the "WS" task, ``src/server/tasks/webshop`` at THUDM/AgentBench 41e6807).

``AgentBench/WebShop-v0`` speaks it (``AgentBenchV02WebShop``, each episode an ``AgentBenchShop`` over the
family's ``Session``); the facts, restated here:

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

import dataclasses
import re
from collections.abc import Mapping, Sequence

from agentgym_text.core.info import FinishReason, InvalidReason
from agentgym_text.core.text_env import Outcome
from agentgym_text.core.text_mode import TextMode
from agentgym_text.envs.webshop.catalogue import Catalogue
from agentgym_text.envs.webshop.generator import Product
from agentgym_text.envs.webshop.reward import Goal
from agentgym_text.envs.webshop.session import Session

__all__ = [
    "AgentBenchV02WebShop",
    "AgentBenchShop",
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
    "NO_ACTION",
    "NO_MARKER",
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


NO_ACTION = (
    "No action found in the reply: end it with 'Action:' and one of search[keywords] or click[value] "
    "(a value from the clickables). The page is unchanged:\n"
)
NO_MARKER = "The reply has no 'Action:' with search[...] or click[...]; the episode ends (AgentBench ends the sample)."


class AgentBenchShop:
    """The page state of one episode and the step rule (``strict``: a reply without the marker ends it)."""

    def __init__(self, session: Session, instruction: str, strict: bool = False):
        self.session = session
        self.instruction = instruction
        self.strict = strict

    # ---- what the agent sees ---------------------------------------------------------------------
    def clickables(self) -> dict[str, tuple[str, str]]:
        """Clickable text (lower-cased) -> (kind, what it names), in WebShop's order: buttons, links, options."""
        session, found = self.session, {}
        if session.page == "init":
            found["search"] = ("button", "search")
        elif session.page == "results":
            found["back to search"] = ("button", "")
            if session.page_num > 1:
                found["< prev"] = ("button", "")
            found["next >"] = ("button", "")
            for asin in session.page_asins():
                found[asin.lower()] = ("asin", asin)
        elif session.page == "item":
            for name in ("back to search", "< prev", *(n.lower() for n in SUB_PAGES), "buy now"):
                found[name] = ("button", "")
            for group, values in session.product().options:
                for value in values:
                    # a radio's value is its key: a value offered by two groups selects the later group
                    found[value.lower()] = (group, value)
        elif session.page == "sub":
            found["back to search"] = ("button", "")
            found["< prev"] = ("button", "")
        return found

    def page(self) -> str:
        session, goal = self.session, self.instruction
        if session.page == "init":
            return start_page(goal)
        if session.page == "results":
            return results_page(goal, session.page_num, len(session.hits), session.page_products())
        if session.page == "item":
            return item_page(goal, session.product())
        if session.page == "sub":
            return sub_page(goal, session.product(), session.sub_page)
        return done_page(goal, session.buy_score)

    def first_page(self) -> str:
        return self.observation()

    def observation(self) -> str:
        return with_actions(self.page(), self.session.page == "init", list(self.clickables()))

    def admissible(self) -> list[str]:
        if self.session.page == "init":
            return []
        return [f"click[{name}]" for name in self.clickables() if name != "search"]

    # ---- one reply -------------------------------------------------------------------------------
    def act(self, reply: str) -> Outcome:
        action = marked_action(reply)
        if action is None:
            if self.strict:  # AgentBench ends the sample
                refused = Outcome.invalid(NO_MARKER, InvalidReason.UNPARSABLE)
                return dataclasses.replace(refused, terminated=True, finish_reason=FinishReason.INVALID_FORMAT.value)
            action = any_action(reply)
            if action is None:
                return Outcome.invalid(NO_ACTION + self.observation(), InvalidReason.UNPARSABLE)
        name, argument = split_action(action)
        if name == "search" and argument:
            self.session.search(argument)
            return Outcome(self.observation())
        if name == "click" and argument and argument != "search":
            target = self.clickables().get(argument)
            if target is not None:
                return self._click(argument, *target)
        return Outcome.invalid(self.observation(), InvalidReason.UNKNOWN_OBJECT)

    def _click(self, name: str, kind: str, target: str) -> Outcome:
        session = self.session
        if kind == "asin":
            session.open_item(target)
        elif kind != "button":
            session.options[kind] = target
        elif name == "buy now":
            reward = session.buy()
            return Outcome(self.observation(), terminated=True, success=reward == 1.0)
        elif name == "back to search":
            session.back_to_search()
        elif name in ("next >", "< prev") and session.page == "results":
            session.turn_page(1 if name == "next >" else -1)
        elif name == "< prev" and session.page == "sub":
            session.back_to_item()
        elif name == "< prev":
            session.back_to_results()
        else:
            session.open_sub_page(next(page for page in SUB_PAGES if page.lower() == name))
        return Outcome(self.observation())


class AgentBenchV02WebShop(TextMode):
    """AgentBench v0.2's protocol (``AgentBench/WebShop-v0``): each episode an ``AgentBenchShop``."""

    name = AGENTBENCH

    def session(self, catalogue: Catalogue, goal: Goal) -> Session:
        return Session(catalogue, goal)

    def open(self, session: Session, instruction: str, strict: bool) -> AgentBenchShop:
        return AgentBenchShop(session, instruction, strict)
