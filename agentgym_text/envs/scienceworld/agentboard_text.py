"""AgentBoard's words for ScienceWorld: its help answer, its pass-through of commands, its validity rule.

AgentBoard's ScienceWorld env (``environment/scienceworld_env.py``) adds little text of its own: the first
observation is the simulator's reset text plus a newline and the inventory, every command goes to the simulator
stripped and its answer comes back verbatim, and ``check valid actions`` answers "Choose an action from these
valid actions: " followed by the simulator's abstract action templates ("open OBJ", "go OBJ", ...) minus
"reset task", plus "check valid actions". An action counts as valid (its grounding accuracy) when the exact text
is one of the simulator's concrete action-object combinations, or the help action.

``AgentBoardMode`` speaks it; its fixes of AgentBoard's bugs (``agentboard_fixes=``) are listed in the README.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import ClassVar

from agentgym_text.core.info import HELP_ACTION, FinishReason, InvalidReason
from agentgym_text.core.text_env import Outcome
from agentgym_text.core.text_mode import AgentBoardText
from agentgym_text.envs.scienceworld.actions import ALLOWED_CHARACTERS, MAX_COMMAND_CHARS, normalise, refusal_kind
from agentgym_text.envs.scienceworld.agentboard_data import LabelProgress
from agentgym_text.envs.scienceworld.engine import Combinations, ScienceWorldEngine
from agentgym_text.envs.scienceworld.session import CommandSession, Reply

__all__ = [
    "AGENTBOARD_ACTION_FORMAT",
    "AgentBoardMode",
    "HELP_PREFIX",
    "NO_MATCH",
    "help_answer",
    "screen",
]

HELP_PREFIX = "Choose an action from these valid actions: "
NO_MATCH = "No known action matches that input."
"""The simulator's answer to text it cannot read as an action (it lets no time pass)."""
AGENTBOARD_ACTION_FORMAT = (
    "one ScienceWorld command per step, e.g. look around, go to LOC, open OBJ, pick up OBJ, move OBJ to OBJ, "
    "pour OBJ in OBJ, use OBJ on OBJ, activate OBJ, focus on OBJ, wait, with objects named as in the observation"
)


def help_answer(possible_actions: Sequence[str]) -> str:
    """AgentBoard's answer to ``check valid actions``: the simulator's templates minus reset, plus the help action.

    >>> help_answer(["open OBJ", "reset task", "wait"])
    'Choose an action from these valid actions: open OBJ, wait, check valid actions'
    """
    listed = [action for action in possible_actions if "reset" not in action]
    if HELP_ACTION not in listed:
        listed.append(HELP_ACTION)
    return HELP_PREFIX + ", ".join(listed)


def screen(action: str) -> InvalidReason | None:
    """Why ``action`` cannot be a ScienceWorld command, or None when it goes to the simulator.

    Text longer than any command, or with characters no command uses, gets the simulator's own "No known action
    matches that input." without a round trip to the JVM (the simulator lets no time pass on it either). Any
    other text goes to the simulator, as in AgentBoard: each step there renames ambiguous objects in the
    combination listings, so skipping it would change the names of later listings.

    >>> screen("fly to the moon"), screen("look around?").value, screen("x" * 400).value
    (None, 'unparsable', 'unparsable')
    """
    if len(action) > MAX_COMMAND_CHARS or not ALLOWED_CHARACTERS.match(action):
        return InvalidReason.UNPARSABLE
    return None


class AgentBoardMode(AgentBoardText):
    """AgentBoard's words: the simulator's text verbatim, its templates as the help answer, and an action valid when
    it is one of the simulator's listed combinations; the simulator is called as AgentBoard's harness calls it,
    since every listing renames ambiguous objects. ``fixes``: the README's FIX list (validity, ending, questions,
    completion)."""

    action_format: ClassVar[str] = AGENTBOARD_ACTION_FORMAT

    @property
    def cancels_questions(self) -> bool:
        """FIX questions: a command sent while the simulator waits on a question cancels it first."""
        return self.fixes

    def start(self, session: CommandSession) -> tuple[str, list[str] | None]:
        """The first observation (the room and the inventory) and the actions the reset listed."""
        observation, listing = session.reset_agentboard()
        return observation, sorted(set(listing))

    def act(self, session: CommandSession, action: str, listed: Sequence[str]) -> Reply:
        """One step as AgentBoard plays it; ``listed``: the combinations of the state the action was given in."""
        fixes = self.fixes
        pending = session.choice_count
        answers = bool(pending) and action.isdigit() and int(action) < pending
        if not pending or fixes and not answers:
            reason = screen(action)
            if reason is not None:  # the simulator would answer the same (and AgentBoard's regexes read it)
                return Reply(Outcome.invalid(NO_MATCH, reason))
        # FIX questions: cancels a pending one first (fixes); AgentBoard's validity listing comes after the step
        result, combinations = session.send_agentboard(action)
        kind = refusal_kind(result.observation)
        # FIX validity: the combinations of the state before the action, and what the simulator carried out
        carried_out = kind is None and not session.choice_count
        valid = (fixes and (answers or carried_out)) or action in (listed if fixes else combinations.actions)
        if result.success:
            outcome = Outcome(result.observation, terminated=True, success=True)
        elif fixes and (result.completed or result.failed):  # FIX ending
            outcome = Outcome(result.observation, terminated=True, finish_reason=FinishReason.FAILURE.value)
        elif not valid:
            outcome = Outcome.invalid(result.observation, kind or InvalidReason.UNKNOWN_OBJECT, changed=True)
        else:
            outcome = Outcome(result.observation)
        return Reply(outcome, result, normalise(action), kind, combinations)

    def answers(self, choice_count: int) -> list[str] | None:
        """None: while a question is pending, the listing is the simulator's own (its options)."""
        return None

    def help_text(
        self, engine: ScienceWorldEngine, choice_count: int, listed: Callable[[], list[str]]
    ) -> tuple[str, Combinations | None]:
        """AgentBoard's help answer, and the listing its harness makes after the help action too."""
        answer = help_answer(engine.possible_actions())
        return answer, engine.grounding_combinations()

    def expert_listing(self, combinations: Sequence[dict]) -> Sequence[dict] | None:
        """The listing the expert names objects from: AgentBoard's validity needs listed names."""
        return combinations

    def agentboard_progress(self) -> Callable[[tuple[str, ...]], LabelProgress]:
        """AgentBoard's progress rule for a data-folder line's regexes, with FIX completion where fixed."""
        return partial(LabelProgress, reads_simulator_success=self.fixes)
