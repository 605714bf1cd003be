"""The expert: pyperplan (greedy best-first search with the h_add heuristic) from the current state.

Plans are cached by state: after planning from state s, every state along the plan maps to the rest of the
plan, so following the expert costs one search per episode, and an agent that leaves the plan (or someone
else's actions) triggers one new search from wherever it is. h_add values do not depend on set iteration
order, and successors are generated in the grounding's fixed order, so plans are the same in every process.
"""

from __future__ import annotations

import logging
from collections import OrderedDict

from agentgym_text.envs.pddl.grounding import GroundProblem, State

__all__ = ["Planner", "NoPlanError"]

logger = logging.getLogger(__name__)


class NoPlanError(RuntimeError):
    """The goal is unreachable from the state (or the search gave up)."""


def _fact(atom: tuple[str, ...]) -> str:
    return "(" + " ".join(atom) + ")"


class _BudgetExceeded(RuntimeError):
    pass


class _Budgeted:
    """A heuristic that gives up after ``budget`` evaluations (pyperplan's searches have no node limit)."""

    def __init__(self, heuristic, budget: int | None):
        self.heuristic = heuristic
        self.budget = budget
        self.calls = 0

    def __call__(self, node):
        self.calls += 1
        if self.budget is not None and self.calls > self.budget:
            raise _BudgetExceeded
        return self.heuristic(node)


class Planner:
    """Plans for one grounded problem, from any state, with a state-keyed plan cache."""

    search_work = 300_000
    """Heuristic evaluations x ground actions the whole-goal weighted A* may spend before the goal agenda
    takes over (an h_add evaluation costs about one pass over the ground actions)."""
    agenda_work = 20_000_000
    """The same budget for each greedy search of the goal agenda (far above what the shipped tasks need)."""
    weight = 2

    def _budget(self, work: int) -> int:
        return max(500, work // max(1, len(self._operators)))

    def __init__(self, problem: GroundProblem, cache_size: int = 50_000):
        from pyperplan.task import Operator  # pure Python and light, but only the expert needs it

        self.problem = problem
        self.cache_size = cache_size
        self._cache: OrderedDict[State, tuple[tuple[str, ...], ...]] = OrderedDict()
        self._operators = [
            Operator(
                " ".join(action.key),
                [_fact(a) for a in sorted(action.preconditions)],
                [_fact(a) for a in sorted(action.add_effects)],
                [_fact(a) for a in sorted(action.del_effects)],
            )
            for action in problem.actions
        ]
        self._key_of = {" ".join(action.key): action.key for action in problem.actions}
        facts: set[str] = {_fact(a) for a in problem.init} | {_fact(a) for a in problem.goal}
        for op in self._operators:
            facts |= op.preconditions | op.add_effects | op.del_effects
        self._facts = sorted(facts)

    def plan(self, state: State) -> tuple[tuple[str, ...], ...]:
        """A plan (ground action keys) from ``state`` to the goal; cached by state. Raises NoPlanError."""
        cached = self._cache.get(state)
        if cached is not None:
            self._cache.move_to_end(state)
            return cached
        plan = self._search(state)
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

    def _remember(self, state: State, plan: tuple[tuple[str, ...], ...]) -> None:
        self._cache[state] = plan
        self._cache.move_to_end(state)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def _search(self, state: State) -> tuple[tuple[str, ...], ...]:
        """Weighted A* for the whole goal within a budget of heuristic evaluations (short plans); past the
        budget, a goal agenda (see :meth:`_agenda`)."""
        if self.problem.is_goal(state):
            return ()
        goal = list(self.problem.goal)
        try:
            plan = self._run(state, goal, budget=self._budget(self.search_work), weighted=True)
        except _BudgetExceeded:
            return self._agenda(state)
        if plan is None:
            raise NoPlanError(f"no plan found for {self.problem.problem.name} from this state")
        return plan

    def _agenda(self, state: State) -> tuple[tuple[str, ...], ...]:
        """Goals already true first, then one more goal literal per greedy search, each search keeping the
        goals reached so far. Much faster than one search where goals barely interact (Barman's cocktails:
        one greedy search for three takes minutes in pure Python); if a step fails, one greedy search for
        the whole goal decides. Each search has a (large) budget, so the expert never hangs."""
        goal = list(self.problem.goal)
        agenda = [atom for atom in goal if atom in state] + [atom for atom in goal if atom not in state]
        plan: list[tuple[str, ...]] = []
        current = state
        for count in range(1, len(agenda) + 1):
            target = agenda[:count]
            if all(atom in current for atom in target):
                continue
            budget = self._budget(self.agenda_work)
            try:
                steps = self._run(current, target, budget=budget)
                if steps is None:
                    whole = self._run(state, goal, budget=budget)
                    if whole is None:
                        raise NoPlanError(f"no plan found for {self.problem.problem.name} from this state")
                    return whole
            except _BudgetExceeded:
                raise NoPlanError(f"the search for {self.problem.problem.name} gave up") from None
            for key in steps:
                current = self.problem.by_key[key].apply(current)
            plan.extend(steps)
        return tuple(plan)

    def _run(
        self, state: State, goal: list[tuple[str, ...]], budget: int | None = None, weighted: bool = False
    ) -> tuple[tuple[str, ...], ...] | None:
        from pyperplan.heuristics.relaxation import hAddHeuristic
        from pyperplan.search.a_star import greedy_best_first_search, weighted_astar_search
        from pyperplan.task import Task

        task = Task(
            self.problem.problem.name,
            self._facts,
            frozenset(_fact(a) for a in state),
            frozenset(_fact(a) for a in goal),
            self._operators,
        )
        # pyperplan logs every search at INFO on the root logger; keep the caller's log clean.
        root = logging.getLogger()
        root_level = root.level
        root.setLevel(max(root_level, logging.WARNING))
        try:
            heuristic = _Budgeted(hAddHeuristic(task), budget)
            if weighted:
                solution = weighted_astar_search(task, heuristic, weight=self.weight)
            else:
                solution = greedy_best_first_search(task, heuristic)
        finally:
            root.setLevel(root_level)
        if solution is None:
            return None
        return tuple(self._key_of[op.name] for op in solution)
