"""Grounded STRIPS state machinery: every applicable-in-principle ground action, precomputed once per problem.

States are frozensets of ground atoms. Grounding binds parameters one at a time and prunes a binding as soon as
a static precondition (one no action changes) is false, so domains with many parameters (Barman's ``shake`` has
six) stay small. Applying an action is two set operations; listing applicable actions is one subset test per
ground action.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from agentgym_text.envs.pddl.pddl_reader import Atom, DomainSchema, OperatorSchema, ProblemSpec

__all__ = ["GroundAction", "GroundProblem", "State", "instantiate"]

State = frozenset[Atom]


@dataclass(frozen=True)
class GroundAction:
    """One ground action: the operator name, its arguments, and its instantiated preconditions and effects."""

    operator: str
    args: tuple[str, ...]
    preconditions: frozenset[Atom]
    add_effects: frozenset[Atom]
    del_effects: frozenset[Atom]

    @property
    def key(self) -> tuple[str, ...]:
        return (self.operator, *self.args)

    def applicable(self, state: State) -> bool:
        return self.preconditions <= state

    def apply(self, state: State) -> State:
        """PDDL semantics: delete effects first, then add effects."""
        return (state - self.del_effects) | self.add_effects


def instantiate(atoms: Iterable[Atom], binding: dict[str, str]) -> tuple[Atom, ...]:
    """Replace the ``?variables`` of ``atoms`` by their bound objects (constants stay)."""
    return tuple((atom[0], *(binding.get(arg, arg) for arg in atom[1:])) for atom in atoms)


class GroundProblem:
    """A domain and problem, grounded: the actions, the static atoms, the initial state and the goal."""

    def __init__(self, domain: DomainSchema, problem: ProblemSpec):
        self.domain = domain
        self.problem = problem
        self.objects: dict[str, str] = dict(problem.objects)
        self.static_predicates = domain.static_predicates
        self.static_atoms: State = frozenset(a for a in problem.init if a[0] in self.static_predicates)
        self.init: State = frozenset(problem.init)
        self.goal: tuple[Atom, ...] = problem.goal
        self.actions: tuple[GroundAction, ...] = tuple(action for op in domain.operators for action in self._ground(op))
        self.by_key: dict[tuple[str, ...], GroundAction] = {a.key: a for a in self.actions}
        self._reachable_cache: dict[State, bool] = {}

    # ---- typing ----------------------------------------------------------------------------------
    def is_a(self, obj: str, type_name: str) -> bool:
        """Whether ``obj`` is of ``type_name`` (or a subtype of it)."""
        own = self.objects.get(obj)
        if own is None:
            return False
        return type_name in self.domain.supertypes.get(own, frozenset({own, "object"}))

    def objects_of(self, type_name: str) -> list[str]:
        return [name for name in sorted(self.objects) if self.is_a(name, type_name)]

    # ---- grounding -------------------------------------------------------------------------------
    def _ground(self, op: OperatorSchema) -> Iterator[GroundAction]:
        variables = [name for name, _ in op.params]
        candidates = [self.objects_of(type_name) for _, type_name in op.params]
        static_pre = [atom for atom in op.preconditions if atom[0] in self.static_predicates]
        # Check each static precondition as soon as its last variable is bound.
        checks: list[list[Atom]] = [[] for _ in variables]
        for atom in static_pre:
            positions = [variables.index(arg) for arg in atom[1:] if arg in variables]
            checks[max(positions) if positions else 0].append(atom)
        binding: dict[str, str] = {}

        def extend(depth: int) -> Iterator[dict[str, str]]:
            if depth == len(variables):
                yield dict(binding)
                return
            for obj in candidates[depth]:
                binding[variables[depth]] = obj
                if all(atom in self.static_atoms for atom in instantiate(checks[depth], binding)):
                    yield from extend(depth + 1)
            binding.pop(variables[depth], None)

        if not variables:
            if all(atom in self.static_atoms for atom in static_pre):
                yield self._make(op, {})
            return
        for full in extend(0):
            yield self._make(op, full)

    def _make(self, op: OperatorSchema, binding: dict[str, str]) -> GroundAction:
        return GroundAction(
            operator=op.name,
            args=tuple(binding[name] for name, _ in op.params),
            preconditions=frozenset(instantiate(op.preconditions, binding)),
            add_effects=frozenset(instantiate(op.add_effects, binding)),
            del_effects=frozenset(instantiate(op.del_effects, binding)),
        )

    # ---- queries ---------------------------------------------------------------------------------
    def applicable(self, state: State) -> list[GroundAction]:
        """Applicable ground actions, in domain operator order then argument order."""
        return [action for action in self.actions if action.preconditions <= state]

    def goal_flags(self, state: State) -> list[bool]:
        return [atom in state for atom in self.goal]

    def is_goal(self, state: State) -> bool:
        return all(atom in state for atom in self.goal)

    def goal_relaxed_reachable(self, state: State) -> bool:
        """Whether the goal is reachable from ``state`` when delete effects are ignored. False proves a dead
        end (no plan exists); True does not prove a plan exists. Cached by state."""
        cached = self._reachable_cache.get(state)
        if cached is not None:
            return cached
        reached = set(state)
        remaining = list(self.actions)
        changed = True
        while changed and not all(atom in reached for atom in self.goal):
            changed = False
            waiting = []
            for action in remaining:
                if action.preconditions <= reached:
                    if not action.add_effects <= reached:
                        reached |= action.add_effects
                        changed = True
                else:
                    waiting.append(action)
            remaining = waiting
        result = all(atom in reached for atom in self.goal)
        if len(self._reachable_cache) > 100_000:
            self._reachable_cache.clear()
        self._reachable_cache[state] = result
        return result

    def failed_preconditions(self, operator: str, args: tuple[str, ...], state: State) -> list[Atom]:
        """The preconditions of ``operator(args)`` that are false in ``state``, in the domain file's order."""
        op = self.domain.operator(operator)
        binding = {name: arg for (name, _), arg in zip(op.params, args)}
        return [atom for atom in instantiate(op.preconditions, binding) if atom not in state]
