"""This package's own PDDL text (``text_format="clear"``): a domain introduction, actions in words or operator form,
what became true and what stopped being true after each action, refusals that name the false preconditions, and an
episode that ends in a proven dead end."""

from __future__ import annotations

from agentgym_text.core.info import InvalidReason
from agentgym_text.core.text_env import Outcome, Start
from agentgym_text.core.text_mode import TextMode
from agentgym_text.envs.pddl.actions import ParseFailure, normalise
from agentgym_text.envs.pddl.deadends import proven_dead_end
from agentgym_text.envs.pddl.model import State
from agentgym_text.envs.pddl.problem_files import LoadedProblem

__all__ = ["ClearMode", "LOOK_ACTIONS"]

LOOK_ACTIONS = frozenset({"look around", "look", "look at the state", "observe", "state"})


class ClearMode(TextMode):
    """This package's words for the env's problem and state (see the family README)."""

    name = "clear"
    action_format = "one action per step, in words or in operator form (the PDDL name, then its arguments)"

    def start(self, problem: LoadedProblem, state: State) -> Start:
        renderer = problem.renderer
        goal = renderer.goal(problem.ground.goal)
        observation = (
            f"{renderer.text.title}. {renderer.text.intro}\n"
            f"Objects: {', '.join(sorted(problem.ground.objects))}.\n"
            f"The current state: {renderer.facts_text(state)}\n"
            f"{goal}\n"
            "'look around' shows the whole state again."
        )
        return Start(observation=observation, goal=goal)

    def action_example(self, problem: LoadedProblem, state: State) -> str | None:
        actions = self.actions(problem, state)
        return actions[0] if actions else None

    def read_action(self, problem: LoadedProblem, state: State, text: str) -> tuple[str, ...] | Outcome:
        """The ground action key read from ``text``, or the answer when it names none (look, unreadable)."""
        if normalise(text) in LOOK_ACTIONS:
            return Outcome(observation="The current state: " + problem.renderer.facts_text(state), changed=False)
        parsed = problem.parser.parse(text)
        if isinstance(parsed, ParseFailure):
            return Outcome.invalid(
                parsed.message + " Type 'check valid actions' to list the actions you can take now.", parsed.reason
            )
        return parsed.key

    def refusal(
        self, problem: LoadedProblem, state: State, key: tuple[str, ...], after: State | None
    ) -> Outcome | None:
        """An action is refused when it is not applicable (``after``: None), naming its false preconditions."""
        if after is not None:
            return None
        failed = problem.ground.failed_preconditions(key[0], key[1:], state)
        missing = " ".join(problem.renderer.fact(atom) + "." for atom in failed) or "(its preconditions)"
        return Outcome.invalid(
            f"You cannot {problem.renderer.action(key)} now. It needs these facts, which are not true: {missing} "
            "Nothing changed.",
            InvalidReason.PRECONDITION,
        )

    def after_action(self, problem: LoadedProblem, key: tuple[str, ...], before: State, after: State) -> str:
        added, removed = after - before, before - after
        parts = [f"You {problem.renderer.action(key)}."]
        parts.append("Now true: " + (problem.renderer.facts_text(added) or "nothing new."))
        if removed:
            parts.append("No longer true: " + problem.renderer.facts_text(removed))
        return " ".join(parts)

    def dead_end(self, problem: LoadedProblem, state: State) -> str | None:
        if not proven_dead_end(problem.domain_key, problem.ground, state):
            return None
        return (
            "No sequence of actions can reach the goal from this state any more (a dead end), so the episode is over."
        )

    def actions(self, problem: LoadedProblem, state: State) -> list[str]:
        return sorted(problem.renderer.action(a.key) for a in problem.ground.applicable(state))

    def help_text(self, problem: LoadedProblem, state: State) -> str:
        actions = self.actions(problem, state)
        listing = ", ".join(actions) if actions else "none (no action applies in this state)"
        return (
            f"Valid actions are: {listing}. You can also type 'look around' or 'check valid actions'. "
            "Operator forms such as 'stack b1 b2' work too."
        )

    def action_text(self, problem: LoadedProblem, key: tuple[str, ...]) -> str:
        return problem.renderer.action(key)
