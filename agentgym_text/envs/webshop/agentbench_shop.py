"""One ``AgentBench/WebShop-v0`` episode: WebShop's text env as AgentBench v0.2 drives it, over a ``Session``.

The pages, clickables and action reading are in ``agentbench_v02_text.py``; this module moves the session as
WebShop's simulated server does: ``search[...]`` from any page, clicks only on the page's clickables, anything else
leaves the page unchanged.
"""

from __future__ import annotations

from agentgym_text.core.info import FinishReason, InvalidReason
from agentgym_text.core.text_env import Outcome
from agentgym_text.envs.webshop import agentbench_v02_text as text
from agentgym_text.envs.webshop.session import Session

__all__ = ["AgentBenchShop", "NO_ACTION", "NO_MARKER"]

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
            for name in ("back to search", "< prev", *(n.lower() for n in text.SUB_PAGES), "buy now"):
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
            return text.start_page(goal)
        if session.page == "results":
            return text.results_page(goal, session.page_num, len(session.hits), session.page_products())
        if session.page == "item":
            return text.item_page(goal, session.product())
        if session.page == "sub":
            return text.sub_page(goal, session.product(), session.sub_page)
        return text.done_page(goal, session.buy_score)

    def observation(self) -> str:
        return text.with_actions(self.page(), self.session.page == "init", list(self.clickables()))

    def admissible(self) -> list[str]:
        if self.session.page == "init":
            return []
        return [f"click[{name}]" for name in self.clickables() if name != "search"]

    # ---- one reply -------------------------------------------------------------------------------
    def step(self, reply: str) -> Outcome:
        action = text.marked_action(reply)
        if action is None:
            if self.strict:
                return Outcome(
                    observation=NO_MARKER,
                    valid=False,
                    invalid_reason=InvalidReason.UNPARSABLE.value,
                    terminated=True,
                    finish_reason=FinishReason.INVALID_FORMAT.value,
                )
            action = text.any_action(reply)
            if action is None:
                return Outcome.invalid(NO_ACTION + self.observation(), InvalidReason.UNPARSABLE)
        name, argument = text.split_action(action)
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
            session.open_sub_page(next(page for page in text.SUB_PAGES if page.lower() == name))
        return Outcome(self.observation())
