"""``AgentBoard/WebShop-v0``: WebShop's text mode over a generated catalogue, in one process, no server."""

from __future__ import annotations

import dataclasses
import os

from agentgym_text.core.info import InvalidReason
from agentgym_text.core.progress import Progress
from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.core.text_mode import AGENTBOARD
from agentgym_text.envs.webshop import agentbench_v02_text, render
from agentgym_text.envs.webshop.actions import element_key, parse_action
from agentgym_text.envs.webshop.agentbench_shop import AgentBenchShop
from agentgym_text.envs.webshop.agentboard_data import label_tasks
from agentgym_text.envs.webshop.agentboard_text import AGENTBOARD_MAX_PAGES, AGENTBOARD_PAGE_SIZE, AGENTBOARD_TOTAL
from agentgym_text.envs.webshop.catalogue import DEFAULT_NUM_PRODUCTS, open_catalogue
from agentgym_text.envs.webshop.expert import expert_action
from agentgym_text.envs.webshop.generator import product_types
from agentgym_text.envs.webshop.goals import goal_difficulty
from agentgym_text.envs.webshop.reward import Goal
from agentgym_text.envs.webshop.session import MAX_PAGES, Session
from agentgym_text.envs.webshop.tasks import TRAIN_TASK_COUNT, shipped_tasks, train_goal, train_tasks
from agentgym_text.envs.webshop.webshop_data import imported_tasks, open_imported

__all__ = ["WebShopEnv"]

_AGENTBOARD_BUTTONS = {
    element_key(name) for name in ("Buy Now", "Back to Search", "Next >", "< Prev", *render.SUB_PAGES, "Attributes")
}
"""The buttons AgentBoard's client checks by name (a wrong page is its "You can only click ..." error)."""
_HARNESS_ERRORS = ("You can only click", "The page number is limited")
"""The two texts AgentBoard's harness writes itself (its env raised), which do not become its recent observation."""


class WebShopEnv(TextEnv):
    """Find and buy the product an instruction describes with ``search[...]`` and ``click[...]``.

    Progress is AgentBoard's (search page + item page + purchase scores) / 3; success is a purchase with
    WebShop's reward 1.0. Keyword arguments:

    - ``split``: "test" (the 251 shipped tasks) or "train" (goals generated on demand from a separate seed
      range, never aimed at a test target); ``num_tasks``: how many (default 251 / 1000);
    - ``num_products`` (default 20,000) and ``catalogue_seed``: the generated catalogue, built into
      ``$AGENTGYM_TEXT_CACHE`` at first use (test tasks need the default catalogue or a larger one);
    - ``results_shown``: products listed per results page (10, as WebShop; 3 lists only the first three of the
      page's ten);
    - ``agentboard_data``: AgentBoard's data folder (else ``$AGENTGYM_TEXT_AGENTBOARD_DATA``): the difficulty
      labels of its ``webshop/test.jsonl``, line k for shipped task k (see ``agentboard_data.py``);
    - ``text_format="agentbench_v02"`` (``AgentBench/WebShop-v0``): AgentBench v0.2's protocol (``[SEP]`` pages
      with Available Actions, the ``Action:`` reply, 10 steps; ``agentbench_v02_text.py``) on the first 200
      shipped goals; ``strict=True`` ends the episode on a reply without a marked action, as AgentBench does;
      ``webshop_data``: WebShop's released files, imported into the cache, whose goals 0-199 are AgentBench's
      (``webshop_data.py``);
    - ``agentboard_fixes=False``: AgentBoard's WebShop as it reads and scores, bugs included, for replays of its
      trajectories: 3 products a results page (the page scored for progress), ``Next >`` up to page 6, WebShop's
      reward quirks, the item page scored at its last option combination, its page texts, and 29 steps for the
      agent (AgentBoard's 30 include the ``reset[]`` its harness sends first); ``agentboard_text.py`` lists each.

    Fixes against AgentBoard's WebShop, on purpose: scores are per episode (not server-wide); the item page
    score is the best option combination (AgentBoard kept the last one); selected multi-word options show as
    ``[[value]]``; the result count is real (AgentBoard printed 15); ``Next >`` stops at page 5 (AgentBoard
    allowed a 6th, empty page); an unknown click on the start page is an error (AgentBoard re-rendered the
    page); clicks ignore case and spaces; ``search[]`` with no words is invalid; ``reset[]`` returns to the
    start page. Reward differences are listed in ``reward.py``.

    >>> env = WebShopEnv(num_tasks=1)
    >>> obs, info = env.reset(options={"task_index": 0})
    >>> obs.splitlines()[:2]
    ['WEB PAGE: {Let us begin shopping ', '[Search]}']
    >>> while not env.episode_over:
    ...     obs, reward, terminated, truncated, info = env.step(env.expert_action())
    >>> obs, info["success"], info["progress_rate"]
    ('WEB PAGE: {Result: [Success]}', True, 1.0)
    """

    cheap_admissible_actions = True
    text_formats = (AGENTBOARD, agentbench_v02_text.AGENTBENCH)
    action_format = (
        "'search[<keywords>]' on a page with a search box, 'click[<button or product id>]' on what the page shows"
    )
    action_example = "search[running shoes]"

    def __init__(
        self,
        split: str = "test",
        num_tasks: int | None = None,
        num_products: int = DEFAULT_NUM_PRODUCTS,
        catalogue_seed: int = 0,
        results_shown: int | None = None,
        agentboard_data: str | os.PathLike[str] | None = None,
        strict: bool = False,
        webshop_data: str | os.PathLike[str] | None = None,
        **kwargs,
    ):
        self.protocol = kwargs.get("text_format") == agentbench_v02_text.AGENTBENCH
        if strict and not self.protocol:
            raise ValueError("strict= is an option of AgentBench's protocol (text_format='agentbench_v02')")
        if self.protocol and (agentboard_data or results_shown or split != "test"):
            raise ValueError(
                "AgentBench's protocol plays its 200 test goals: agentboard_data, results_shown and "
                "split='train' do not apply"
            )
        self.strict = bool(strict)
        if webshop_data is not None and not self.protocol:
            raise ValueError(
                "webshop_data plays WebShop's own goals under AgentBench's protocol: use "
                "AgentBench/WebShop-v0 (text_format='agentbench_v02')"
            )
        if split not in ("test", "train"):
            raise ValueError("split must be 'test' or 'train'")
        if split == "test" and (num_products < DEFAULT_NUM_PRODUCTS or catalogue_seed != 0):
            raise ValueError(
                f"the shipped test tasks target products of the default catalogue: use num_products >= "
                f"{DEFAULT_NUM_PRODUCTS} and catalogue_seed=0, or split='train' for other catalogues"
            )
        tasks = shipped_tasks(num_tasks) if split == "test" else train_tasks(num_tasks or TRAIN_TASK_COUNT)
        imported = None
        if self.protocol:
            count = min(num_tasks or agentbench_v02_text.TASK_COUNT, agentbench_v02_text.TASK_COUNT)
            steps = agentbench_v02_text.MAX_STEPS
            if webshop_data is not None:
                imported, goals = open_imported(webshop_data)
                tasks = imported_tasks(goals, count, steps)
            else:
                tasks = TaskSet([dataclasses.replace(task, max_steps=steps) for task in shipped_tasks(count)])
            self._labelled = False
        elif split == "test":
            tasks, self._labelled = label_tasks(tasks, agentboard_data)
        elif agentboard_data:
            raise ValueError("agentboard_data labels the shipped test tasks: it does not apply to split='train'")
        else:
            self._labelled = False
        if not kwargs.get("agentboard_fixes", True):
            # FIX: AgentBoard's harness spends step 0 of its 30 on a reset[] it grades valid; fixed, the agent has 30
            tasks = TaskSet([dataclasses.replace(task, max_steps=task.max_steps - 1) for task in tasks])
        super().__init__(tasks, **kwargs)
        self.catalogue = imported if imported is not None else open_catalogue(num_products, catalogue_seed)
        exact = not self.agentboard_fixes
        self.results_shown = results_shown or (AGENTBOARD_PAGE_SIZE if exact else 10)
        self._page_size = AGENTBOARD_PAGE_SIZE if exact else 10
        self._max_pages = AGENTBOARD_MAX_PAGES if exact else MAX_PAGES
        self.session: Session | None = None
        self.keywords = ""
        self._last_page = ""
        self.shop: AgentBenchShop | None = None
        if self.protocol:
            self.unwrap_actions = False  # the reply's Action: is read here, as AgentBench reads it

    # ---- episode ----------------------------------------------------------------------------------
    def _start(self, task: TaskSpec, seed: int) -> Start:
        if task.params.get("split") == "train":
            goal, self.keywords = train_goal(self.catalogue, int(task.params["number"]))
        else:
            goal, self.keywords = Goal.from_params(task.params), task.params["keywords"]
        self.session = Session(
            self.catalogue,
            goal,
            page_size=self._page_size,
            max_pages=self._max_pages,
            agentboard_rule=not self.agentboard_fixes,
        )
        self._last_page = render.start_page()
        difficulty = task.difficulty if self._labelled else goal_difficulty(goal)
        if self.protocol:
            self.shop = AgentBenchShop(self.session, goal.instruction, self.strict)
            return Start(self.shop.observation(), goal=goal.instruction, difficulty=difficulty)
        return Start(self._last_page, goal=goal.instruction, difficulty=difficulty)

    def _act(self, action: str) -> Outcome:
        if self.shop is not None:
            return self.shop.step(action)
        outcome = self._act_on_page(action)
        if not self.agentboard_fixes and not outcome.observation.startswith(_HARNESS_ERRORS):
            # FIX: AgentBoard's "recent observation" is the last text its env returned, format errors included
            self._last_page = outcome.observation
        return outcome

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
                    return Outcome.invalid(render.page_limit_error(self._last_page), InvalidReason.PRECONDITION)
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
                    return self._show(render.sub_page(product, name, reviews=self.agentboard_fixes))
            for group, values in product.options:
                for value in values:
                    if key == element_key(value):
                        session.options[group] = value
                        return self._show(render.clicked(value))
        elif page == "sub" and key == "<prev":
            session.back_to_item()
            return self._show(self._item_page())
        if not self.agentboard_fixes and page in ("init", "sub") and key not in _AGENTBOARD_BUTTONS:
            # FIX: AgentBoard re-renders the start page or a sub page for a click it does not know
            return self._show(self._last_page)
        return Outcome.invalid(render.click_error(self._last_page), InvalidReason.UNKNOWN_OBJECT)

    def _results(self) -> str:
        session = self.session
        # FIX: AgentBoard's server prints "Total results: 15" whatever the search found, and prices as "$31.0"
        total = len(session.hits) if self.agentboard_fixes else AGENTBOARD_TOTAL
        return render.results_page(
            session.page_num, total, session.page_products(), self.results_shown, not self.agentboard_fixes
        )

    def _item_page(self) -> str:
        # FIX: AgentBoard's server never loads reviews: every rating reads N.A. and the Reviews page is empty
        rating = None if self.agentboard_fixes else "N.A."
        # FIX: AgentBoard's scraper shows a selected option as [[value]] only when the value has no space
        exact = not self.agentboard_fixes
        return render.item_page(self.session.product(), self.session.options, rating, exact, exact)

    def _show(self, observation: str) -> Outcome:
        self._last_page = observation
        return Outcome(observation)

    # ---- contract hooks ---------------------------------------------------------------------------
    def _progress(self) -> Progress:
        return Progress(now=self.session.progress if self.session else 0.0)

    def _admissible_actions(self) -> list[str]:
        session = self.session
        if session.page == "init":
            return [f"search[{ptype.plural}]" for ptype in product_types()]
        if self.shop is not None:
            return self.shop.admissible()
        actions = ["click[Back to Search]"]
        if session.page == "results":
            if session.page_num > 1:
                actions.append("click[< Prev]")
            if session.page_num < session.max_pages:
                actions.append("click[Next >]")
            actions += [f"click[{asin}]" for asin in session.page_asins()[: self.results_shown]]
        elif session.page == "item":
            actions.append("click[< Prev]")
            actions += [f"click[{value}]" for _, values in session.product().options for value in values]
            actions += [f"click[{name}]" for name in render.SUB_PAGES] + ["click[Buy Now]"]
        elif session.page == "sub":
            actions.append("click[< Prev]")
        return actions

    def _help_text(self) -> str:
        if self.session.page == "init":
            return "Valid actions: search[<what you are looking for>], e.g. search[wireless earbuds]."
        return "Valid actions: " + ", ".join(self._admissible_actions())

    def _expert_action(self) -> str | None:
        return expert_action(self.session, self.keywords)
