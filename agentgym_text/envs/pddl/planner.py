"""The expert: pyperplan searches from the current state, with a state-keyed plan cache.

Strategy, each search with a budget of heuristic evaluations (pyperplan's searches have no node limit):

1. weighted A* (w=2) with h_FF for the whole goal: short plans, enough for most problems;
2. a goal agenda: goals already true first, then one more goal literal per search (greedy h_FF with
   preferred operators, the relaxed plan's actions, then without them where that pruning finds nothing),
   each keeping the goals reached so far (Barman's cocktails barely interact, so this is fast where one
   search is not: AgentBoard's Barman problems take seconds this way, a minute as one search);
3. greedy best-first search with h_FF and preferred operators for the whole goal;
4. greedy best-first search with h_FF for the whole goal, without preferred operators (complete, slower).

After planning from state s, every state along the plan maps to the rest of the plan, so following the
expert costs one search per episode; leaving the plan triggers one search from wherever the agent is.
Failures are cached too. Facts are handed to pyperplan as integers (atoms in sorted order): integer hashes
do not depend on ``PYTHONHASHSEED``, so pyperplan's set iterations, h_FF's tie-breaking and therefore the
plans are the same in every process.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from functools import lru_cache

from agentgym_text.envs.pddl.model import GroundProblem, State

__all__ = ["Planner", "NoPlanError"]

logger = logging.getLogger(__name__)

Plan = tuple[tuple[str, ...], ...]


PYPERPLAN_LOGGER = "pyperplan.search.a_star"
"""pyperplan's searches log every run at INFO through the root logger (``logging.info``); they log to this named
logger instead, at WARNING unless its level is set otherwise, so the caller's log stays clean."""


@lru_cache(maxsize=1)
def _searches():
    from pyperplan.search import a_star

    # a_star's only use of its module-level ``logging`` is logging.info/debug: a Logger has the same methods.
    search_logger = logging.getLogger(PYPERPLAN_LOGGER)
    if search_logger.level == logging.NOTSET:
        search_logger.setLevel(logging.WARNING)
    a_star.logging = search_logger
    return a_star.greedy_best_first_search, a_star.weighted_astar_search


class NoPlanError(RuntimeError):
    """The goal is unreachable from the state (or every search gave up)."""


class _BudgetExceeded(RuntimeError):
    pass


class _Budgeted:
    """A heuristic that gives up after ``budget`` evaluations."""

    def __init__(self, heuristic, budget: int):
        self.heuristic = heuristic
        self.budget = budget
        self.calls = 0

    def _count(self) -> None:
        self.calls += 1
        if self.calls > self.budget:
            raise _BudgetExceeded

    def __call__(self, node):
        self._count()
        return self.heuristic(node)

    def calc_h_with_plan(self, node):
        self._count()
        return self.heuristic.calc_h_with_plan(node)


class Planner:
    """Plans for one grounded problem, from any state."""

    weight = 2
    whole_goal_work = 300_000
    """Budget of the weighted A*, in heuristic evaluations x ground actions (an h_FF evaluation costs about
    one pass over the ground actions)."""
    preferred_work = 3_000_000
    """Budget of the greedy search with preferred operators."""
    greedy_work = 10_000_000
    """Budget of the plain greedy search for the whole goal."""
    agenda_work = 3_000_000
    """Budget of each greedy search of the goal agenda."""

    def __init__(self, problem: GroundProblem, cache_size: int = 50_000):
        from pyperplan.task import Operator  # pure Python and light, but only the expert needs it

        self.problem = problem
        self.cache_size = cache_size
        self._cache: OrderedDict[State, Plan | None] = OrderedDict()
        # A loaded problem (and its planner) is shared by every env of the process that plays it, threads included.
        self._cache_lock = threading.Lock()
        atoms = set(problem.init) | set(problem.goal)
        for action in problem.actions:
            atoms |= action.preconditions | action.add_effects | action.del_effects
        self._fact_id = {atom: index for index, atom in enumerate(sorted(atoms))}
        self._operators = [
            Operator(
                " ".join(action.key),
                sorted(self._fact_id[a] for a in action.preconditions),
                sorted(self._fact_id[a] for a in action.add_effects),
                sorted(self._fact_id[a] for a in action.del_effects),
            )
            for action in problem.actions
        ]
        self._key_of = {" ".join(action.key): action.key for action in problem.actions}

    # ---- public ------------------------------------------------------------------------------------
    def plan(self, state: State) -> Plan:
        """A plan (ground action keys) from ``state`` to the goal; cached by state. Raises NoPlanError."""
        with self._cache_lock:
            found = state in self._cache
            if found:
                self._cache.move_to_end(state)
                cached = self._cache[state]
        if found:
            if cached is None:
                raise NoPlanError(f"no plan found for {self.problem.problem.name} from this state")
            return cached
        try:
            plan = self._search(state)
        except NoPlanError:
            self._remember(state, None)
            raise
        current = state
        for index in range(len(plan) + 1):
            self._remember(current, plan[index:])
            if index < len(plan):
                current = self.problem.by_key[plan[index]].apply(current)
        return plan

    def next_action(self, state: State) -> tuple[str, ...] | None:
        """The first action of a plan from ``state`` (None when the goal already holds)."""
        plan = self.plan(state)
        return plan[0] if plan else None

    # ---- searching ---------------------------------------------------------------------------------
    def _remember(self, state: State, plan: Plan | None) -> None:
        with self._cache_lock:
            self._cache[state] = plan
            self._cache.move_to_end(state)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def _budget(self, work: int) -> int:
        return max(500, work // max(1, len(self._operators)))

    def _search(self, state: State) -> Plan:
        if self.problem.is_goal(state):
            return ()
        goal = list(self.problem.goal)
        try:
            plan = self._run(state, goal, "weighted", self._budget(self.whole_goal_work))
        except _BudgetExceeded:
            plan = None
        else:
            if plan is None:  # a complete search found nothing: the goal is unreachable
                raise NoPlanError(f"no plan exists for {self.problem.problem.name} from this state")
        if plan is None:
            plan = self._agenda(state)
        for mode, work in (("preferred", self.preferred_work), ("greedy", self.greedy_work)):
            if plan is not None:
                return plan
            try:
                plan = self._run(state, goal, mode, self._budget(work))
            except _BudgetExceeded:
                plan = None
        if plan is None:
            raise NoPlanError(f"the expert found no plan for {self.problem.problem.name} from this state")
        return plan

    def _agenda(self, state: State) -> Plan | None:
        goal = list(self.problem.goal)
        agenda = [atom for atom in goal if atom in state] + [atom for atom in goal if atom not in state]
        plan: list[tuple[str, ...]] = []
        current = state
        for count in range(1, len(agenda) + 1):
            target = agenda[:count]
            if all(atom in current for atom in target):
                continue
            steps = None
            for mode in ("preferred", "greedy"):  # preferred-operator pruning is fast but incomplete
                try:
                    steps = self._run(current, target, mode, self._budget(self.agenda_work))
                except _BudgetExceeded:
                    steps = None
                if steps is not None:
                    break
            if steps is None:
                return None
            for key in steps:
                current = self.problem.by_key[key].apply(current)
            plan.extend(steps)
        return tuple(plan)

    def _run(self, state: State, goal: list[tuple[str, ...]], mode: str, budget: int) -> Plan | None:
        from pyperplan.heuristics.relaxation import hFFHeuristic
        from pyperplan.task import Task

        greedy_best_first_search, weighted_astar_search = _searches()

        task = Task(
            self.problem.problem.name,
            sorted(self._fact_id.values()),
            frozenset(self._fact_id[a] for a in state),
            frozenset(self._fact_id[a] for a in goal),
            self._operators,
        )
        heuristic = _Budgeted(hFFHeuristic(task), budget)
        if mode == "weighted":
            solution = weighted_astar_search(task, heuristic, weight=self.weight)
        else:
            solution = greedy_best_first_search(task, heuristic, use_relaxed_plan=mode == "preferred")
        if solution is None:
            return None
        return tuple(self._key_of[op.name] for op in solution)
