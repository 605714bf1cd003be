"""This package's own words for ScienceWorld (``text_format="clear"``): screened commands, refusal hints, a concrete
action list with command help. The README's "Text" line says how it differs from AgentBoard's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, NoReturn

from agentgym_text.core.agentboard_data import AgentBoardDataError
from agentgym_text.core.info import FinishReason, InvalidReason
from agentgym_text.core.text_env import Outcome
from agentgym_text.core.text_mode import AGENTBOARD, TextMode
from agentgym_text.envs.scienceworld.actions import ACTION_FORMAT, COMMAND_HELP, refusal_kind
from agentgym_text.envs.scienceworld.engine import Combinations, ScienceWorldEngine
from agentgym_text.envs.scienceworld.session import CommandSession, Reply

__all__ = ["ClearMode"]

_REFUSAL_HINTS = {
    InvalidReason.UNKNOWN_OBJECT: "ScienceWorld understood the verb but no object here matches that name",
    InvalidReason.PRECONDITION: "ScienceWorld understood the action but it is not possible in the current state",
    InvalidReason.UNKNOWN_ACTION: "ScienceWorld did not understand the command",
}


class ClearMode(TextMode):
    """Valid = what ScienceWorld carried out in the state the action was given in: text that is no command is
    rejected before the simulator with format help, and what it cannot match or refuses is invalid, with a hint.
    An "Ambiguous request" question is valid; the next action may then be one of the listed numbers."""

    name: ClassVar[str] = "clear"
    action_format: ClassVar[str] = ACTION_FORMAT
    cancels_questions: ClassVar[bool] = True
    """A command sent while the simulator waits on a question cancels it first."""

    def start(self, session: CommandSession) -> tuple[str, list[str] | None]:
        """The simulator's first observation; nothing listed (the listing is made when asked for)."""
        return session.reset(), None

    def act(self, session: CommandSession, action: str, listed: Sequence[str]) -> Reply:
        """One command, parsed before it reaches the simulator; ``listed`` is not read."""
        parsed, result = session.send(action)
        if result is None:
            return Reply(Outcome.invalid(parsed.error, parsed.reason))
        kind = refusal_kind(result.observation)
        if result.success:
            outcome = Outcome(result.observation, terminated=True, success=True)
        elif result.completed or result.failed:
            outcome = Outcome(
                result.observation + "\nThe task has failed.", terminated=True, finish_reason=FinishReason.FAILURE.value
            )
        elif kind is not None:
            # the simulator took the step (time passes in its world), so progress is read again
            outcome = Outcome.invalid(
                f"{result.observation}\n({_REFUSAL_HINTS[kind]}. Type 'check valid actions' to list them.)",
                kind,
                changed=True,
            )
        else:
            outcome = Outcome(result.observation)
        return Reply(outcome, result, parsed.text, kind)

    def answers(self, choice_count: int) -> list[str] | None:
        """While a question is pending, its numbers are the actions."""
        return [str(i) for i in range(choice_count)] if choice_count else None

    def help_text(
        self, engine: ScienceWorldEngine, choice_count: int, listed: Callable[[], list[str]]
    ) -> tuple[str, Combinations | None]:
        """The concrete actions and the command help (the question's numbers while one is pending)."""
        if choice_count:
            return f"Answer the question above with a number from 0 to {choice_count - 1}.", None
        return "Choose an action from these valid actions: " + ", ".join(listed()) + ("\n" + COMMAND_HELP), None

    def expert_listing(self, combinations: Sequence[dict]) -> Sequence[dict] | None:
        """None: the expert is not given a listing, since listing changes how the world goes on (bees, plants), so
        the world would leave the gold run's."""
        return None

    def agentboard_progress(self) -> NoReturn:
        """Refused: AgentBoard's regexes read AgentBoard's observations."""
        raise AgentBoardDataError(
            "agentboard_data= scores with AgentBoard's regexes over AgentBoard's observations: use "
            f"text_format='{AGENTBOARD}' (the default), not {self.name!r}"
        )
