"""One step the way AgentBoard's tool harness and env take it.

``AgentBoardStep.run(message)`` returns the observation text AgentBoard would show and a ``kind``: "ok", "failed"
(the tool answered with its own failure text), "help", "finish", or "refused" with the ``reason``: ``unparsable``
for no ``with Action Input:`` or an input that is not a literal, ``unknown_action`` for an unknown name,
``bad_argument`` for a Python exception (``ERROR | <Type>(<msg>)``). For "ok" and "finish" it also gives the
call's parameters, so the env can credit progress on its own backend. Sheet follows ``sheet`` and AgentBoard's
``sheet_env.py`` (``_sheet``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agentgym_text.core.info import InvalidReason
from agentgym_text.envs.tools.agentboard_text import words
from agentgym_text.envs.tools.agentboard_text.functions import TOOLS, Session
from agentgym_text.envs.tools.agentboard_text.sheet import SHEET, invalid_sheet_action
from agentgym_text.envs.tools.agentboard_text.weather import air_quality_level_fixed

__all__ = ["AgentBoardStep", "StepResult"]


@dataclass
class StepResult:
    observation: str
    kind: str
    name: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    ends_episode: bool = False
    """AgentBoard's own rule: the rebuilt action contains "finish"/"Finish" and no exception was raised."""
    reason: InvalidReason | None = None
    """Why the step is invalid: set for "refused", and ``precondition_failed`` for "failed" (FIX-FAILED-VALID)."""
    result: Any = None
    """What the tool function returned ("ok" and "failed"): AgentBoard's progress rule records it."""


def _refused(observation: str, reason: InvalidReason, name: str = "", ends: bool = False) -> StepResult:
    return StepResult(observation, "refused", name, ends_episode=ends, reason=reason)


def _answered(result: Any, success: bool, name: str, kwargs: dict[str, Any], ends: bool) -> StepResult:
    if success:
        return StepResult(str(result), "ok", name, kwargs, ends, result=result)
    return StepResult(str(result), "failed", name, kwargs, ends, InvalidReason.PRECONDITION, result)


class AgentBoardStep:
    def __init__(self, toolkit: Any, config: dict[str, Any], fixes: bool):
        self.toolkit = toolkit
        self.tool = toolkit.name
        self.session = Session(toolkit, config)
        self.fixes = fixes
        toolkit.scratch_column_stays = not fixes  # read by the sheet port (FIX-SHEET-SCRATCH)

    def run(self, message: str) -> StepResult:
        message = words.agent_parse(message).strip()
        parts = words.split_message(message)
        if parts is None:
            return _refused(words.FORMAT_ERROR, InvalidReason.UNPARSABLE)
        name, raw = parts
        try:
            params = words.parse_input(raw)
        except ValueError:
            return _refused(words.BAD_INPUT_ERROR, InvalidReason.UNPARSABLE)
        rebuilt = words.rebuilt_action(message)
        ends = "Finish" in rebuilt or "finish" in rebuilt
        if self.tool == "sheet":
            return self._sheet(name, params, "finish" in rebuilt.lower())
        table = TOOLS[self.tool]
        try:
            if name == "finish":
                answer = params["answer"]
                if type(answer) == list:  # noqa: E721 (as AgentBoard)
                    answer = sorted(answer)
                return StepResult(str(answer), "finish", name, {"answer": params["answer"]}, ends)
            if name == "check_valid_actions":
                return StepResult(words.help_text(self.tool), "help", name, ends_episode=ends)
            if name not in table:
                return _refused(words.invalid_action(name), InvalidReason.UNKNOWN_ACTION, name, ends)
            keys, function = table[name]
            kwargs = {key: params[key] for key in keys}
            if self.fixes and name == "get_air_quality_level":
                success, result = function(self.session, **kwargs)
                result = air_quality_level_fixed(kwargs["air_quality_index"])
            else:
                success, result = function(self.session, **kwargs)
        except Exception as error:  # AgentBoard's env catches everything a tool raises
            return _refused(words.exception_text(error), InvalidReason.BAD_ARGUMENT, name)
        return _answered(result, success, name, kwargs, ends)

    def _sheet(self, name: str, params: Any, ends: bool) -> StepResult:
        """``environment/sheet_env.py``: its own dispatch, invalid-action text and "finish" rule (any case)."""
        sheet = self.toolkit
        try:
            if name == "finish":  # AgentBoard's sheet finish ignores its input and shows the sheet
                return StepResult(str(sheet.sheet.values()), "finish", name, {"answer": None}, ends)
            if name not in SHEET:  # check_valid_actions included: AgentBoard's sheet env has none
                names = [n for n in words.ACTION_NAMES["sheet"] if n != "check_valid_actions"]
                return _refused(invalid_sheet_action(name, names), InvalidReason.UNKNOWN_ACTION, name, ends)
            keys, function = SHEET[name]
            if keys is None:
                kwargs = {key: params.get(key) for key in ("query", "in_row", "in_column")}
            else:
                kwargs = {key: params[key] for key in (keys(params) if callable(keys) else keys)}
            success, result = function(sheet, **kwargs)
        except Exception as error:
            return _refused(words.exception_text(error), InvalidReason.BAD_ARGUMENT, name)
        return _answered(result, success, name, kwargs, ends)
