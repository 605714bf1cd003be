"""``AgentBoard/ToolQuery-v0`` and ``AgentBoard/ToolOperation-v0``: call functions of an offline tool.

Progress (subgoal tools: weather, movie, academia, todo) is the share of golden call outputs the agent has
obtained, plus the final answer as the last subgoal; success is a correct ``finish`` answer (and, for
todo, the golden final state) and credits every subgoal. Sheet progress is the cell match score against
the golden sheet (see ``sheet.matching``), rescaled so the untouched sheet scores 0.

Text formats (``text_format=``):

- ``"agentboard"`` (default): AgentBoard's words. Its agent's output parser and harness read the message
  (``<name> with Action Input: <dict>``, the input a Python literal), its envs' dispatch, ``ERROR | ...`` texts,
  ``check_valid_actions`` answer and first observations, and its toolkits' reshaping and texts
  (``agentboard_text/functions.py``, ``sheet.py``) over our offline data served in the web APIs' schemas
  (``agentboard_text/api.py``); observations are ``str()`` of the results, as AgentBoard prints them. The env
  delegates to ``agentboard_text.mode.AgentBoardMode``. Replaying
  AgentBoard's own weather/movie/academia/todo envs (``tests/reference/record_tools.py``) gives identical
  observations; for sheet, whose AgentBoard tool runs on Google Sheets, the recorder replaces gspread with a
  stand-in over our spreadsheet, so that part checks AgentBoard's own tool code, not Google's answers.
- ``"clear"``: this suite's own wording (JSON results, explanatory errors, a described function list): ``ClearMode``
  below.

Where AgentBoard's behaviour is a bug, the agentboard format fixes it and keeps the wording
(``agentboard_fixes=False`` restores the behaviour, except FIX-EVAL and FIX-SHEET-HELP):

- FIX-EVAL: the action input is read with ``ast.literal_eval``, never ``eval``; an expression (``10+5``, a call)
  gets AgentBoard's "Parameters in action input are not valid" error (always on: no code runs).
- FIX-FAILED-VALID: a tool's own failure answer (e.g. "Error: start_date should be earlier than current_date",
  "Please load the PaperNet first.", "Task 9 is not exists.") counts as an invalid action (``precondition_failed``);
  AgentBoard graded it valid. The text is unchanged.
- FIX-FINISH-SUBSTRING: only a ``finish`` call ends the episode; AgentBoard ended it on any call whose text
  contains "finish" (sheet: in any case), e.g. an unknown ``finish_up`` or a value "not finished yet".
- FIX-AQI-GAPS: ``get_air_quality_level`` has no gaps between bands (AgentBoard answered "extremely poor" for
  20 < x <= 21, 40 < x <= 41, 60 < x <= 61 and 80 < x <= 81).
- FIX-SHEET-HELP: ``check_valid_actions`` (bare or as a call) answers on sheet with the tool's list, as on the
  other tools (AgentBoard's sheet env has no such action and called it invalid); the suite's help action, so
  always on.
- FIX-SHEET-SCRATCH: sheet ``get_value_by_formula`` never leaves its scratch column behind (AgentBoard left a
  column holding "1" in the sheet, changing every later view and the graded sheet, when the A1 check failed or
  the formula raised).

Also different from AgentBoard, by design: by default progress is this suite's (golden outputs of our backend,
sheet cell match), and the suite's checks on empty/huge/control-character input come first. With
``agentboard_data=`` (AgentBoard's data folder; ``agentboard_data.py``) the lines that are our instances give the
subgoals, answer and difficulty, and progress and success follow AgentBoard's rule (``agentboard_text/progress.py``,
with its metric fixes FIX-PR-INVALID-WORD and FIX-SHEET-SHAPE under ``agentboard_fixes``).
"""

from __future__ import annotations

import os
from typing import Any, Protocol

from agentgym_text.core.actions import ActionError
from agentgym_text.core.agentboard_data import AgentBoardDataError, data_folder
from agentgym_text.core.info import HELP_ACTION, TOOL_HELP_ACTION, InvalidReason
from agentgym_text.core.progress import Progress, Subgoal, SubgoalTracker
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.core.text_mode import AGENTBOARD
from agentgym_text.envs.tools.actions import Call, is_bare_name, parse_call
from agentgym_text.envs.tools.agentboard_data import agentboard_tasks
from agentgym_text.envs.tools.agentboard_text.mode import AgentBoardMode
from agentgym_text.envs.tools.backend import FINISH_SPEC, Toolkit
from agentgym_text.envs.tools.episode import Ledger, ToolEpisode
from agentgym_text.envs.tools.function_tools import FunctionTools
from agentgym_text.envs.tools.render import render_output
from agentgym_text.envs.tools.schema import ArgumentError, check_arguments, describe_functions
from agentgym_text.envs.tools.tasks import family_tasks

__all__ = ["ToolEnv", "ToolQueryEnv", "ToolOperationEnv", "ClearMode"]


class TextMode(Protocol):
    """What a text format of the tool env does; the env delegates to one (``ClearMode``, ``AgentBoardMode``)."""

    unwrap_actions: bool
    action_example: str

    def start(self, episode: ToolEpisode, goal: str) -> str: ...

    def act(self, episode: ToolEpisode, action: str) -> Outcome: ...

    def call_text(self, call: Call) -> str: ...

    def help_text(self, episode: ToolEpisode) -> str: ...


class ClearMode:
    """The ``"clear"`` format: calls read by ``parse_call``, JSON results, errors that say what to do."""

    unwrap_actions = True
    action_example = HELP_ACTION

    def start(self, episode: ToolEpisode, goal: str) -> str:
        intro = (
            f"You are using the {episode.tool} tool. Goal: {goal}\n"
            "Call one function per turn as '<function> with Action Input: {\"arg\": value}'. "
            'check_valid_actions lists the functions; call finish with Action Input: {"answer": ...} '
            "when you are done."
        )
        extra = episode.toolkit.intro()
        return intro + ("\n" + extra if extra else "")

    def act(self, episode: ToolEpisode, action: str) -> Outcome:
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
        except ActionError as error:  # the backend's refusal, in this format's words
            return Outcome.invalid(f"ERROR | {error}", error.reason)
        episode.obtain(call.name, output)
        episode.follow(call.name, args)
        return Outcome(observation=render_output(output))

    def call_text(self, call: Call) -> str:
        return call.text()

    def help_text(self, episode: ToolEpisode) -> str:
        toolkit = episode.toolkit
        listing = describe_functions(toolkit.name, (*toolkit.functions, FINISH_SPEC))
        return f"{listing}\nFor example: {self.call_text(episode.candidate_calls()[0])}"


def _obtained_predicate(key: str, count: int):
    return lambda ledger: ledger.success or ledger.obtained[key] >= count


class ToolEnv(FunctionTools, TextEnv):
    """A tool env over ``family`` ("query" or "operation"), optionally restricted to one ``tool``.

    ``text_format``: "agentboard" (default, AgentBoard's words) or "clear" (ours); ``agentboard_fixes=False``
    restores AgentBoard's buggy behaviours listed in the module docstring (agentboard format only).
    ``agentboard_data``: AgentBoard's data folder (else the setting ``AGENTGYM_TEXT_AGENTBOARD_DATA``; None: ours).

    >>> env = ToolEnv("query", tool="academia")
    >>> obs, info = env.reset(options={"task_index": 0})
    >>> while not env.episode_over:
    ...     obs, reward, terminated, truncated, info = env.step(env.expert_action())
    >>> info["success"], info["progress_rate"]
    (True, 1.0)
    """

    help_action = TOOL_HELP_ACTION
    cheap_admissible_actions = True
    text_formats = (AGENTBOARD, "clear")

    def __init__(
        self,
        family: str = "query",
        tool: str | None = None,
        agentboard_data: str | os.PathLike[str] | None = None,
        **kwargs: Any,
    ):
        folder = data_folder(agentboard_data)
        tasks = family_tasks(family, tool) if folder is None else agentboard_tasks(folder, family, tool)
        super().__init__(tasks, **kwargs)
        if folder is not None and self.text_format != AGENTBOARD:
            raise AgentBoardDataError(
                "agentboard_data= scores with AgentBoard's progress rule, which reads AgentBoard's tool outputs: "
                f"use text_format='{AGENTBOARD}' (the default), not {self.text_format!r}"
            )
        self.family = family
        self._mode: TextMode = AgentBoardMode(self.agentboard_fixes) if self.text_format == AGENTBOARD else ClearMode()
        self.unwrap_actions = self._mode.unwrap_actions
        self.action_example = self._mode.action_example
        self._episode: ToolEpisode | None = None
        self._tracker: SubgoalTracker | None = None
        self._sheet_baseline = 0.0
        self._score_cache: tuple[int | None, float] = (None, 0.0)

    # ---- episode ---------------------------------------------------------------------------------------
    def _start(self, task: TaskSpec, seed: int) -> Start:
        self.close()
        episode = self._episode = ToolEpisode(task.params)
        self._score_cache = (None, 0.0)
        keys = list(task.params["subgoal_keys"])
        if "agentboard" in task.params:  # AgentBoard's annotation: its progress rule (the mode keeps it)
            self._tracker = None
        elif keys:
            subgoals = [
                Subgoal(call.text(), predicate=_obtained_predicate(key, keys[: index + 1].count(key)))
                for index, (call, key) in enumerate(zip(episode.golden, keys))
            ]
            subgoals.append(Subgoal("finish with the correct answer", predicate=lambda ledger: ledger.success))
            self._tracker = SubgoalTracker(subgoals, ordered=False)
        else:
            self._tracker = None
            self._sheet_baseline = self._sheet_score()
        return Start(observation=self._mode.start(episode, task.goal), goal=task.goal)

    def close(self) -> None:
        if self._episode is not None:
            self._episode.close()
            self._episode = None

    def _act(self, action: str) -> Outcome:
        assert self._episode is not None
        return self._mode.act(self._episode, action)

    # ---- progress, listings, expert -------------------------------------------------------------------
    def _sheet_score(self) -> float:
        from agentgym_text.envs.tools.sheet.matching import match_ratio

        assert self._episode is not None
        toolkit = self._episode.toolkit
        revision = toolkit.revision()
        if revision is None or revision != self._score_cache[0]:
            self._score_cache = (revision, match_ratio(toolkit.state(), self._episode.params["golden_state"]))
        return self._score_cache[1]

    def _progress(self) -> Progress:
        ledger = self._episode.ledger if self._episode is not None else Ledger()
        scored = getattr(self._mode, "progress", None)
        if scored is not None:
            return Progress(now=scored.reward)
        if self._tracker is not None:
            return self._tracker.update("", ledger)
        if ledger.success:
            return Progress(now=1.0)
        score = self._sheet_score()
        baseline = self._sheet_baseline
        now = 0.0 if baseline >= 1.0 else max(0.0, (score - baseline) / (1.0 - baseline))
        return Progress(now=now)

    def _admissible_actions(self) -> list[str]:
        assert self._episode is not None
        return list(dict.fromkeys(self._mode.call_text(call) for call in self._episode.candidate_calls()))

    def _help_text(self) -> str:
        assert self._episode is not None
        return self._mode.help_text(self._episode)

    def _expert_action(self) -> str:
        assert self._episode is not None
        return self._mode.call_text(self._episode.next_call())

    # ---- for tests and tools ---------------------------------------------------------------------------
    @property
    def toolkit(self) -> Toolkit | None:
        """The live backend of the current episode (None before reset)."""
        return self._episode.toolkit if self._episode is not None else None


class ToolQueryEnv(ToolEnv):
    """``AgentBoard/ToolQuery-v0``: weather, movie and academia (or one of them with ``tool=``)."""

    def __init__(self, tool: str | None = None, **kwargs: Any):
        super().__init__("query", tool, **kwargs)


class ToolOperationEnv(ToolEnv):
    """``AgentBoard/ToolOperation-v0``: todo and sheet (or one of them with ``tool=``)."""

    def __init__(self, tool: str | None = None, **kwargs: Any):
        super().__init__("operation", tool, **kwargs)
