"""``ClearMode``: the tool env's ``"clear"`` text, this suite's own words (README, "Actions").

Calls are read by ``actions.parse_call`` and checked against the function's schema, results are shown as JSON,
and every refusal says what to do instead.
"""

from __future__ import annotations

from typing import ClassVar

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import HELP_ACTION, TOOL_HELP_ACTION, InvalidReason
from agentgym_text.core.text_env import Outcome
from agentgym_text.core.text_mode import TextMode
from agentgym_text.envs.tools.actions import Call, is_bare_name, parse_call
from agentgym_text.envs.tools.backend import FINISH_SPEC
from agentgym_text.envs.tools.episode import ToolEpisode
from agentgym_text.envs.tools.render import render_output
from agentgym_text.envs.tools.schema import ArgumentError, check_arguments, describe_functions

__all__ = ["ClearMode"]


class ClearMode(TextMode):
    """The ``"clear"`` text: calls read by ``parse_call``, JSON results, errors that say what to do."""

    name: ClassVar[str] = "clear"
    unwrap_actions: ClassVar[bool] = True
    action_example: ClassVar[str] = HELP_ACTION
    scores_agentboard_data: ClassVar[bool] = False
    """AgentBoard's progress rule reads AgentBoard's tool outputs, which this text does not print."""

    def start(self, episode: ToolEpisode, goal: str) -> str:
        """The first observation: the tool, the goal, the call syntax and the toolkit's own introduction."""
        intro = (
            f"You are using the {episode.tool} tool. Goal: {goal}\n"
            "Call one function per turn as '<function> with Action Input: {\"arg\": value}'. "
            'check_valid_actions lists the functions; call finish with Action Input: {"answer": ...} '
            "when you are done."
        )
        extra = episode.toolkit.intro()
        return intro + ("\n" + extra if extra else "")

    def act(self, episode: ToolEpisode, action: str) -> Outcome:
        """One call on the episode's backend; ``ActionError`` for a message that is no call."""
        try:
            call = parse_call(action)
        except ActionError:
            word = action.strip()
            if is_bare_name(word) and episode.spec(word) is not None:
                return Outcome.invalid(
                    f"Format error: '{word}' needs its input, e.g. '{word} with Action Input: {{}}'.",
                    InvalidReason.UNPARSABLE,
                )
            raise
        if call.name == TOOL_HELP_ACTION and not call.args:  # the call form AgentBoard's prompts teach
            return Outcome(observation=self.help_text(episode))
        spec = episode.spec(call.name)
        if spec is None:
            toolkit = episode.toolkit
            names = ", ".join(spec.name for spec in (*toolkit.functions, FINISH_SPEC))
            return Outcome.invalid(
                f"Invalid action: {call.name[:60]} is not a function of the {toolkit.name} tool. Functions: {names}.",
                InvalidReason.UNKNOWN_ACTION,
            )
        try:
            args = check_arguments(spec, call.args)
        except ArgumentError as error:
            return Outcome.invalid(f"ERROR | {error}", InvalidReason.BAD_ARGUMENT)
        if call.name == "finish":
            return episode.finish(args["answer"])
        try:
            output = episode.toolkit.call(call.name, args)
        except ActionError as error:  # the backend's refusal, in this text's words
            return Outcome.invalid(f"ERROR | {error}", error.reason)
        episode.obtain(call.name, output)
        episode.follow(call.name, args)
        return Outcome(observation=render_output(output))

    def call_text(self, call: Call) -> str:
        """``call`` as an action of this text (JSON input)."""
        return call.text()

    def help_text(self, episode: ToolEpisode) -> str:
        """The help answer: every function with its parameters, and one call as an example."""
        toolkit = episode.toolkit
        listing = describe_functions(toolkit.name, (*toolkit.functions, FINISH_SPEC))
        return f"{listing}\nFor example: {self.call_text(episode.candidate_calls()[0])}"
