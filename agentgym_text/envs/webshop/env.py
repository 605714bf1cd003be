"""``AgentBoard/WebShop-v0`` and ``AgentBench/WebShop-v0``: WebShop's text mode over a generated catalogue, in one
process, no server. The env keeps the shop (catalogue, session, expert); its text mode words the pages and reads the
actions (``agentboard_text/``, ``agentbench_v02_text.py``)."""

from __future__ import annotations

import dataclasses
import os
from typing import Any

from agentgym_text.core.progress import Progress
from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.webshop import agentbench_v02_text as agentbench
from agentgym_text.envs.webshop.agentboard_data import label_tasks
from agentgym_text.envs.webshop.agentboard_text.mode import AgentBoardPages, AgentBoardWebShop
from agentgym_text.envs.webshop.catalogue import DEFAULT_NUM_PRODUCTS, Catalogue, open_catalogue
from agentgym_text.envs.webshop.expert import expert_action
from agentgym_text.envs.webshop.generator import product_types
from agentgym_text.envs.webshop.goals import goal_difficulty
from agentgym_text.envs.webshop.reward import Goal
from agentgym_text.envs.webshop.session import Session
from agentgym_text.envs.webshop.tasks import TRAIN_TASK_COUNT, shipped_tasks, train_goal, train_tasks
from agentgym_text.envs.webshop.webshop_data import imported_tasks, open_imported

__all__ = ["WebShopEnv", "AgentBenchWebShopEnv"]


def _refuse_options_of(other_id: str, options: tuple[str, ...], kwargs: dict[str, Any], why: str) -> None:
    """A clear error for an option of the family's other id (Python's own would name ``TextEnv.__init__``)."""
    given = [f"{name}=" for name in options if name in kwargs]
    if given:
        raise ValueError(
            f"{', '.join(given)} {'is an option' if len(given) == 1 else 'are options'} of {why} ({other_id})"
        )


def _check_catalogue(num_products: int, catalogue_seed: int) -> None:
    if num_products < DEFAULT_NUM_PRODUCTS or catalogue_seed != 0:
        raise ValueError(
            f"the shipped test tasks target products of the default catalogue: use num_products >= "
            f"{DEFAULT_NUM_PRODUCTS} and catalogue_seed=0, or split='train' for other catalogues"
        )


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
    - ``agentboard_fixes=False``: AgentBoard's WebShop as it reads and scores, bugs included, for replays of its
      trajectories (``agentboard_text/`` lists each fix; the README says more).

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
    modes = (AgentBoardWebShop,)
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
        **kwargs: Any,
    ):
        _refuse_options_of("AgentBench/WebShop-v0", ("strict", "webshop_data"), kwargs, "AgentBench's protocol")
        if split not in ("test", "train"):
            raise ValueError("split must be 'test' or 'train'")
        if split == "test":
            _check_catalogue(num_products, catalogue_seed)
            tasks, labelled = label_tasks(shipped_tasks(num_tasks), agentboard_data)
        elif agentboard_data:
            raise ValueError("agentboard_data labels the shipped test tasks: it does not apply to split='train'")
        else:
            tasks, labelled = train_tasks(num_tasks or TRAIN_TASK_COUNT), False
        self._open_shop(tasks, open_catalogue(num_products, catalogue_seed), labelled, **kwargs)
        self.tasks = self.mode.agent_tasks(self.tasks)
        self.results_shown = results_shown or self.mode.page_size

    def _open_shop(self, tasks: TaskSet, catalogue: Catalogue, labelled: bool, **kwargs: Any) -> None:
        """What both ids share: the text env over ``tasks``, the catalogue, no episode yet."""
        super().__init__(tasks, **kwargs)
        self.catalogue = catalogue
        self._labelled = labelled
        self.session: Session | None = None
        self.pages: AgentBoardPages | agentbench.AgentBenchShop | None = None
        """The episode's pages in the mode's words (``mode.open``)."""
        self.keywords = ""

    def _open_pages(self, session: Session, instruction: str) -> AgentBoardPages | agentbench.AgentBenchShop:
        return self.mode.open(session, self.results_shown)

    # ---- episode ----------------------------------------------------------------------------------
    def _start(self, task: TaskSpec, seed: int) -> Start:
        if task.params.get("split") == "train":
            goal, self.keywords = train_goal(self.catalogue, int(task.params["number"]))
        else:
            goal, self.keywords = Goal.from_params(task.params), task.params["keywords"]
        self.session = self.mode.session(self.catalogue, goal)
        self.pages = self._open_pages(self.session, goal.instruction)
        difficulty = task.difficulty if self._labelled else goal_difficulty(goal)
        return Start(self.pages.first_page(), goal=goal.instruction, difficulty=difficulty)

    def _act(self, action: str) -> Outcome:
        outcome = self.pages.act(action)
        if outcome.terminated and self.session.page == "end":  # AgentBench's metric: the purchase's reward
            outcome.info = {**(outcome.info or {}), "purchase_reward": float(self.session.buy_score)}
        return outcome

    # ---- contract hooks ---------------------------------------------------------------------------
    def _progress(self) -> Progress:
        return Progress(now=self.session.progress if self.session else 0.0)

    def _admissible_actions(self) -> list[str]:
        if self.session.page == "init":
            return [f"search[{ptype.plural}]" for ptype in product_types()]
        return self.pages.admissible()

    def _help_text(self) -> str:
        if self.session.page == "init":
            return "Valid actions: search[<what you are looking for>], e.g. search[wireless earbuds]."
        return "Valid actions: " + ", ".join(self._admissible_actions())

    def _expert_action(self) -> str | None:
        return expert_action(self.session, self.keywords)


class AgentBenchWebShopEnv(WebShopEnv):
    """``AgentBench/WebShop-v0``: the shop under AgentBench v0.2's protocol (``[SEP]`` pages with Available Actions,
    the ``Action:`` reply, 10 steps; ``agentbench_v02_text.py``) on the first 200 shipped goals, or on the training
    goals of ``AgentBoard/WebShop-v0``'s ``split="train"`` (the same range, in AgentBench's text and budget).

    ``strict=True`` ends the episode on a reply without a marked action, as AgentBench does; ``webshop_data``:
    WebShop's released files, imported into the cache, whose goals 0-199 are AgentBench's (``webshop_data.py``);
    ``num_tasks``, ``num_products`` and ``catalogue_seed`` as for ``WebShopEnv``.
    """

    modes = (agentbench.AgentBenchV02WebShop,)
    unwrap_actions = False  # the reply's Action: is read by the mode, as AgentBench reads it

    def __init__(
        self,
        split: str = "test",
        num_tasks: int | None = None,
        num_products: int = DEFAULT_NUM_PRODUCTS,
        catalogue_seed: int = 0,
        strict: bool = False,
        webshop_data: str | os.PathLike[str] | None = None,
        **kwargs: Any,
    ):
        _refuse_options_of(
            "AgentBoard/WebShop-v0",
            ("agentboard_data", "results_shown"),
            kwargs,
            "AgentBoard's WebShop: AgentBench's protocol plays its 200 test goals",
        )
        if split not in ("test", "train"):
            raise ValueError("split must be 'test' or 'train'")
        if split == "train":
            if webshop_data is not None:
                raise ValueError("webshop_data plays WebShop's own goals 0-199: it does not apply to split='train'")
            catalogue, tasks = open_catalogue(num_products, catalogue_seed), train_tasks(num_tasks or TRAIN_TASK_COUNT)
        else:
            _check_catalogue(num_products, catalogue_seed)
            count = min(num_tasks or agentbench.TASK_COUNT, agentbench.TASK_COUNT)
            if webshop_data is not None:
                catalogue, goals = open_imported(webshop_data)
                tasks = imported_tasks(goals, count, agentbench.MAX_STEPS)
            else:
                catalogue, tasks = open_catalogue(num_products, catalogue_seed), shipped_tasks(count)
        budgeted = TaskSet([dataclasses.replace(task, max_steps=agentbench.MAX_STEPS) for task in tasks])
        self._open_shop(budgeted, catalogue, labelled=False, **kwargs)
        self.strict = bool(strict)

    def _open_pages(self, session: Session, instruction: str) -> agentbench.AgentBenchShop:
        return self.mode.open(session, instruction, self.strict)
