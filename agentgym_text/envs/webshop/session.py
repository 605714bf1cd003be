"""One shopper's browsing state and AgentBoard's three page scores (search, item, purchase).

Progress (AgentBoard, appendix H.6) = (S + I + B) / 3: S is the best reward of any product listed on a visited
results page (each at its best option combination), I the best reward of any product whose page was visited
(also at its best options), B the reward of the purchase. All three are kept per episode, not server-wide. After
a purchase the progress is also at least B (AgentBoard's client reads the done page's "Your score" as progress too).

``agentboard_rule=True`` (``agentboard_fixes=False``) scores as AgentBoard's WebShop server does, bugs included:
WebShop's reward with its quirks (``agentboard_text.reward``), S the best option combination of each listed
product, I the LAST option combination of a visited product (unless one scores 1.0: AgentBoard's loop resets its
maximum at every combination), and progress ``S/3 + I/3 + B/3`` in that float order, kept at its maximum.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agentgym_text.envs.webshop.agentboard_text.reward import agentboard_reward, option_combinations
from agentgym_text.envs.webshop.catalogue import Catalogue
from agentgym_text.envs.webshop.generator import Product
from agentgym_text.envs.webshop.reward import Goal, best_reward, purchase_reward

__all__ = ["Session", "MAX_PAGES"]

MAX_PAGES = 5
"""Results pages an agent may visit (50 results, 10 a page)."""


@dataclass
class Session:
    catalogue: Catalogue
    goal: Goal
    page_size: int = 10
    max_pages: int = MAX_PAGES
    agentboard_rule: bool = False
    page: str = "init"  # init | results | item | sub | end
    query: str = ""
    page_num: int = 1
    hits: list[str] = field(default_factory=list)
    asin: str = ""
    options: dict[str, str] = field(default_factory=dict)
    sub_page: str = ""
    searched: list[str] = field(default_factory=list)
    search_score: float = 0.0
    item_score: float = 0.0
    buy_score: float = 0.0
    progress: float = 0.0
    _scores: dict[str, float] = field(default_factory=dict)
    _item_scores: dict[str, float] = field(default_factory=dict)

    # ---- what the shopper sees ---------------------------------------------------------------------
    def page_asins(self) -> list[str]:
        start = (self.page_num - 1) * self.page_size
        return self.hits[start : start + self.page_size]

    def page_products(self) -> list[Product]:
        return [self.catalogue.product(asin) for asin in self.page_asins()]

    def product(self) -> Product:
        return self.catalogue.product(self.asin)

    def score(self, asin: str) -> float:
        """A product's reward at its best option combination (cached: pages are revisited often)."""
        if asin not in self._scores:
            product = self.catalogue.product(asin)
            if self.agentboard_rule:
                combos = option_combinations(product) or [()]
                self._scores[asin] = max(agentboard_reward(product, self.goal, combo) for combo in combos)
            else:
                self._scores[asin] = best_reward(product, self.goal)
        return self._scores[asin]

    def item_score_of(self, asin: str) -> float:
        """The item page's score: the best option combination; AgentBoard's rule keeps the last one unless one
        scores 1.0 (its loop resets the maximum at each combination)."""
        if not self.agentboard_rule:
            return self.score(asin)
        if asin not in self._item_scores:
            product = self.catalogue.product(asin)
            reward = 0.0
            for combo in option_combinations(product) or [()]:
                reward = agentboard_reward(product, self.goal, combo)
                if reward == 1.0:
                    break
            self._item_scores[asin] = reward
        return self._item_scores[asin]

    # ---- transitions ---------------------------------------------------------------------------------
    def search(self, query: str) -> None:
        self.page, self.query, self.page_num = "results", query, 1
        self.hits = self.catalogue.search(query)
        self.searched.append(query)
        self.asin, self.options = "", {}
        self._visit_results()

    def turn_page(self, delta: int) -> None:
        self.page_num += delta
        self._visit_results()

    def back_to_results(self) -> None:
        self.page, self.asin, self.options = "results", "", {}
        self._visit_results()

    def open_item(self, asin: str) -> None:
        self.page, self.asin, self.options = "item", asin, {}
        self._visit_item()

    def open_sub_page(self, name: str) -> None:
        self.page, self.sub_page = "sub", name
        self._visit_item()

    def back_to_item(self) -> None:
        self.page = "item"
        self._visit_item()

    def back_to_search(self) -> None:
        self.page, self.asin, self.options, self.hits = "init", "", {}, []

    def buy(self) -> float:
        if self.agentboard_rule:
            reward = agentboard_reward(self.product(), self.goal, tuple(self.options.values()))
        else:
            reward = purchase_reward(self.product(), self.goal, self.options)
        self.page, self.buy_score = "end", reward
        self._record()
        self.progress = max(self.progress, reward)
        return reward

    def _visit_results(self) -> None:
        for asin in self.page_asins():
            self.search_score = max(self.search_score, self.score(asin))
        self._record()

    def _visit_item(self) -> None:
        self.item_score = max(self.item_score, self.item_score_of(self.asin))
        self._record()

    def _record(self) -> None:
        if self.agentboard_rule:
            now = self.search_score / 3.0 + self.item_score / 3.0 + self.buy_score / 3.0
        else:
            now = (self.search_score + self.item_score + self.buy_score) / 3
        self.progress = max(self.progress, now)
