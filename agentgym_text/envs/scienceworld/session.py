"""Agent text to simulator, the way the env sends it; the gold-path replay goes through the same door."""

from __future__ import annotations

from dataclasses import dataclass

from agentgym_text.core.info import InvalidReason
from agentgym_text.core.text_env import Outcome
from agentgym_text.envs.scienceworld.actions import ParsedCommand, is_ambiguity_prompt, parse_command
from agentgym_text.envs.scienceworld.engine import Combinations, ScienceWorldEngine, StepResult

__all__ = ["CommandSession", "Reply"]


@dataclass(frozen=True)
class Reply:
    """What a text mode made of one action: the env's outcome and, where the simulator answered (``result``), what
    the env records: the command as sent, the simulator's refusal, and the listing the step made (None: none)."""

    outcome: Outcome
    result: StepResult | None = None
    command: str = ""
    refusal: InvalidReason | None = None
    combinations: Combinations | None = None


class CommandSession:
    """Text is parsed first (what is rejected never reaches the simulator, so no time passes in the world), and
    a pending "Ambiguous request" question is cancelled before any command that does not answer it."""

    def __init__(self, engine: ScienceWorldEngine, cancel_questions: bool = True) -> None:
        self.engine = engine
        self.cancel_questions = cancel_questions
        """False: a command sent while a question is pending goes to the simulator as the answer (AgentBoard)."""
        self.choice_count = 0
        """Options of the question the simulator is waiting on (0 when none)."""

    def reset(self) -> str:
        self.choice_count = 0
        return self.engine.reset()

    def reset_agentboard(self) -> tuple[str, list[str]]:
        """Start as AgentBoard does: the first observation and the combinations the reset listed."""
        self.choice_count = 0
        return self.engine.reset_as_agentboard()

    def send_agentboard(self, text: str) -> tuple[StepResult, Combinations]:
        """One step as AgentBoard plays it, and its validity listing after the step (a pending question is
        cancelled first only where ``cancel_questions``, which AgentBoard never does)."""
        if self.cancel_questions and self.choice_count and not text.isdigit():
            self.cancel()
        result, combinations = self.engine.step_as_agentboard(text)
        self.choice_count = is_ambiguity_prompt(result.observation)
        return result, combinations

    def cancel(self) -> None:
        """Cancel a pending question (the simulator takes a blank answer as "cancel")."""
        if self.choice_count:
            self.engine.step("")
            self.choice_count = 0

    def send(self, action: str) -> tuple[ParsedCommand, StepResult | None]:
        """The parse of ``action``, and the simulator's reply (None when the text was rejected before it)."""
        parsed = parse_command(action, self.choice_count)
        if not parsed.ok:
            return parsed, None
        return parsed, self.send_text(parsed.text)

    def send_text(self, text: str) -> StepResult:
        """Send ``text`` as it is (already screened), cancelling a pending question first where asked to."""
        if self.cancel_questions and self.choice_count and not text.isdigit():
            self.engine.step("")  # a blank answer cancels the question
        result = self.engine.step(text)
        self.choice_count = is_ambiguity_prompt(result.observation)
        return result
