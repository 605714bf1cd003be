"""``AgentBoardWebShop``: the ``"agentboard"`` text of ``AgentBoard/WebShop-v0``, and ``AgentBoardPages``, one
episode's pages in its words (``render.py``) over a ``Session``: ``search[...]`` and ``click[...]`` as AgentBoard's
harness reads them, and its error observations. ``fixes=False`` restores what the package's docstring lists."""

from __future__ import annotations

import dataclasses

from agentgym_text.core.info import InvalidReason
from agentgym_text.core.tasks import TaskSet
from agentgym_text.core.text_env import Outcome
from agentgym_text.core.text_mode import AgentBoardText
from agentgym_text.envs.webshop import render
from agentgym_text.envs.webshop.actions import element_key, parse_action
from agentgym_text.envs.webshop.catalogue import Catalogue
from agentgym_text.envs.webshop.reward import Goal
from agentgym_text.envs.webshop.session import Session

__all__ = ["AgentBoardWebShop", "AgentBoardPages", "AGENTBOARD_PAGE_SIZE", "AGENTBOARD_MAX_PAGES", "AGENTBOARD_TOTAL"]

AGENTBOARD_PAGE_SIZE = 3
AGENTBOARD_MAX_PAGES = 6
AGENTBOARD_TOTAL = 15
"""The result count AgentBoard's results page prints, whatever the search found."""
_AGENTBOARD_BUTTONS = {
    element_key(name) for name in ("Buy Now", "Back to Search", "Next >", "< Prev", *render.SUB_PAGES, "Attributes")
}
"""The buttons AgentBoard's client checks by name (a wrong page is its "You can only click ..." error)."""
_HARNESS_ERRORS = ("You can only click", "The page number is limited")
"""The two texts AgentBoard's harness writes itself (its env raised), which do not become its recent observation."""


class AgentBoardWebShop(AgentBoardText):
    """AgentBoard's words, its bugs fixed unless ``fixes`` is False."""

    @property
    def page_size(self) -> int:
        """Products a results page holds (and scores): AgentBoard's server lists 3."""
        return Session.page_size if self.fixes else AGENTBOARD_PAGE_SIZE

    def session(self, catalogue: Catalogue, goal: Goal) -> Session:
        exact = not self.fixes
        return Session(
            catalogue,
            goal,
            page_size=self.page_size,
            max_pages=AGENTBOARD_MAX_PAGES if exact else Session.max_pages,
            agentboard_rule=exact,
        )

    def agent_tasks(self, tasks: TaskSet) -> TaskSet:
        """The tasks with the agent's step budget."""
        if self.fixes:
            return tasks
        # FIX: AgentBoard's harness spends step 0 of its 30 on a reset[] it grades valid; fixed, the agent has 30
        return TaskSet([dataclasses.replace(task, max_steps=task.max_steps - 1) for task in tasks])

    def open(self, session: Session, shown: int) -> AgentBoardPages:
        """One episode's pages, ``shown`` products listed a results page."""
        return AgentBoardPages(session, shown, self.fixes)


class AgentBoardPages:
    """The pages of one episode and how an action moves them."""

    def __init__(self, session: Session, shown: int, fixes: bool):
        self.session = session
        self.shown = shown
        self.fixes = fixes
        self.last_page = render.start_page()
        """AgentBoard's "recent observation", quoted in its click and page-limit errors."""

    def first_page(self) -> str:
        return self.last_page

    def act(self, action: str) -> Outcome:
        outcome = self._act_on_page(action)
        if not self.fixes and not outcome.observation.startswith(_HARNESS_ERRORS):
            # FIX: AgentBoard's "recent observation" is the last text its env returned, format errors included
            self.last_page = outcome.observation
        return outcome

    def admissible(self) -> list[str]:
        """The clicks a page other than the start page offers."""
        session = self.session
        actions = ["click[Back to Search]"]
        if session.page == "results":
            if session.page_num > 1:
                actions.append("click[< Prev]")
            if session.page_num < session.max_pages:
                actions.append("click[Next >]")
            actions += [f"click[{asin}]" for asin in session.page_asins()[: self.shown]]
        elif session.page == "item":
            actions.append("click[< Prev]")
            actions += [f"click[{value}]" for _, values in session.product().options for value in values]
            actions += [f"click[{name}]" for name in render.SUB_PAGES] + ["click[Buy Now]"]
        elif session.page == "sub":
            actions.append("click[< Prev]")
        return actions

    def _act_on_page(self, action: str) -> Outcome:
        parsed = parse_action(action)
        if parsed is None:
            return Outcome.invalid(render.FORMAT_ERROR, InvalidReason.UNPARSABLE)
        kind, argument = parsed
        if kind == "reset":
            self.session.back_to_search()
            return self._show(render.start_page())
        if kind == "search":
            return self._search(argument)
        return self._click(argument)

    def _search(self, query: str) -> Outcome:
        if self.session.page != "init":
            return Outcome.invalid(render.wrap(render.NO_SEARCH_BUTTON), InvalidReason.PRECONDITION)
        if not query.strip():
            return Outcome.invalid(
                "The search query is empty. Type what you are looking for, e.g. search[wireless earbuds].",
                InvalidReason.BAD_ARGUMENT,
            )
        self.session.search(query)
        return self._show(self._results())

    def _click(self, label: str) -> Outcome:
        session, key = self.session, element_key(label)
        page = session.page
        if key == "backtosearch" and page != "init":
            session.back_to_search()
            return self._show(render.start_page())
        if page == "results":
            if key in ("next>", "<prev"):
                delta = 1 if key == "next>" else -1
                if not 1 <= session.page_num + delta <= session.max_pages:
                    return Outcome.invalid(render.page_limit_error(self.last_page), InvalidReason.PRECONDITION)
                session.turn_page(delta)
                return self._show(self._results())
            for asin in session.page_asins():
                if key == asin.lower():
                    session.open_item(asin)
                    return self._show(self._item_page())
        elif page == "item":
            product = session.product()
            if key == "<prev":
                session.back_to_results()
                return self._show(self._results())
            if key == "buynow":
                reward = session.buy()
                return Outcome(render.done_page(reward), terminated=True, success=reward == 1.0)
            for name in render.SUB_PAGES:
                if key == name.lower():
                    session.open_sub_page(name)
                    return self._show(render.sub_page(product, name, reviews=self.fixes))
            for group, values in product.options:
                for value in values:
                    if key == element_key(value):
                        session.options[group] = value
                        return self._show(render.clicked(value))
        elif page == "sub" and key == "<prev":
            session.back_to_item()
            return self._show(self._item_page())
        if not self.fixes and page in ("init", "sub") and key not in _AGENTBOARD_BUTTONS:
            # FIX: AgentBoard re-renders the start page or a sub page for a click it does not know
            return self._show(self.last_page)
        return Outcome.invalid(render.click_error(self.last_page), InvalidReason.UNKNOWN_OBJECT)

    def _results(self) -> str:
        session = self.session
        # FIX: AgentBoard's server prints "Total results: 15" whatever the search found, and prices as "$31.0"
        total = len(session.hits) if self.fixes else AGENTBOARD_TOTAL
        return render.results_page(session.page_num, total, session.page_products(), self.shown, not self.fixes)

    def _item_page(self) -> str:
        # FIX: AgentBoard's server never loads reviews: every rating reads N.A. and the Reviews page is empty
        rating = None if self.fixes else "N.A."
        # FIX: AgentBoard's scraper shows a selected option as [[value]] only when the value has no space
        exact = not self.fixes
        return render.item_page(self.session.product(), self.session.options, rating, exact, exact)

    def _show(self, observation: str) -> Outcome:
        self.last_page = observation
        return Outcome(observation)
