"""``AgentBoard/ToolQuery-v0`` and ``AgentBoard/ToolOperation-v0``: call functions of an offline tool.

Progress (subgoal tools: weather, movie, academia, todo) is the share of golden call outputs the agent has
obtained, plus the final answer as the last subgoal; success is a correct ``finish`` answer (and, for
todo, the golden final state) and credits every subgoal. Sheet progress is the cell match score against
the golden sheet (see ``sheet.matching``), rescaled so the untouched sheet scores 0.

Text formats (``text_format=``):

- ``"agentboard"`` (default): AgentBoard's words. Its agent's output parser and harness read the message
  (``<name> with Action Input: <dict>``, the input a Python literal), its envs' dispatch, ``ERROR | ...`` texts,
  ``check_valid_actions`` answer and first observations, and its toolkits' reshaping and texts
  (``agentboard_tools``, ``agentboard_sheet``) over our offline data served in the web APIs' schemas
  (``agentboard_api``); observations are ``str()`` of the results, as AgentBoard prints them. Replaying
  AgentBoard's own weather/movie/academia/todo envs (``tests/reference/record_tools.py``) gives identical
  observations; for sheet, whose AgentBoard tool runs on Google Sheets, the recorder replaces gspread with a
  stand-in over our spreadsheet, so that part checks AgentBoard's own tool code, not Google's answers.
- ``"clear"``: this suite's own wording (JSON results, explanatory errors, a described function list).

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

Also different from AgentBoard, by design: progress is this suite's (golden outputs of our backend, sheet cell
match), and the suite's checks on empty/huge/control-character input come first.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import TOOL_HELP_ACTION, InvalidReason
from agentgym_text.core.progress import Progress, Subgoal, SubgoalTracker
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.tools.backend import FINISH_SPEC, Toolkit
from agentgym_text.envs.tools import agentboard_text as words
from agentgym_text.envs.tools.actions import Call, is_bare_name, parse_call
from agentgym_text.envs.tools.agentboard_mode import AgentBoardStep, StepResult
from agentgym_text.envs.tools.expert import next_call
from agentgym_text.envs.tools.task_builder import toolkit_class
from agentgym_text.envs.tools.grading import AnswerRule, grade_answer
from agentgym_text.envs.tools.render import render_output, round_floats, subgoal_key
from agentgym_text.envs.tools.schema import ArgumentError, check_arguments, describe_functions
from agentgym_text.envs.tools.tasks import family_tasks

__all__ = ["ToolEnv", "ToolQueryEnv", "ToolOperationEnv", "TEXT_FORMATS"]

TEXT_FORMATS = ("agentboard", "clear")
_AB_REASONS = {
    "format": InvalidReason.UNPARSABLE,
    "input": InvalidReason.UNPARSABLE,
    "invalid": InvalidReason.UNKNOWN_ACTION,
    "error": InvalidReason.BAD_ARGUMENT,
    "failed": InvalidReason.PRECONDITION,
}

_TODO_WRITES = ("update_project", "complete_task", "update_task", "delete_task")


@dataclass
class _Ledger:
    """What the agent has obtained so far: canonical outputs (a multiset) and whether it succeeded."""

    obtained: Counter = field(default_factory=Counter)
    success: bool = False


def _obtained_predicate(key: str, count: int):
    return lambda ledger: ledger.success or ledger.obtained[key] >= count


class ToolEnv(TextEnv):
    """A tool env over ``family`` ("query" or "operation"), optionally restricted to one ``tool``.

    ``text_format``: "agentboard" (default, AgentBoard's words) or "clear" (ours); ``agentboard_fixes=False``
    restores AgentBoard's buggy behaviours listed in the module docstring (agentboard format only).

    >>> env = ToolEnv("query", tool="academia")
    >>> obs, info = env.reset(options={"task_index": 0})
    >>> while not env.episode_over:
    ...     obs, reward, terminated, truncated, info = env.step(env.expert_action())
    >>> info["success"], info["progress_rate"]
    (True, 1.0)
    """

    help_action = TOOL_HELP_ACTION
    cheap_admissible_actions = True

    def __init__(self, family: str = "query", tool: str | None = None, text_format: str = "agentboard",
                 agentboard_fixes: bool = True, **kwargs: Any):
        if text_format not in TEXT_FORMATS:
            raise ValueError(f"text_format must be one of {TEXT_FORMATS}, not {text_format!r}")
        super().__init__(family_tasks(family, tool), **kwargs)
        self.family = family
        self.text_format = text_format
        self.agentboard_fixes = agentboard_fixes
        self._agentboard: AgentBoardStep | None = None
        if text_format == "agentboard":
            self.unwrap_actions = False  # AgentBoard's own agent parser reads the message (agentboard_text)
            self.action_example = TOOL_HELP_ACTION  # a name AgentBoard's check_valid_actions answer lists
        self._toolkit: Toolkit | None = None
        self._tracker: SubgoalTracker | None = None
        self._ledger = _Ledger()
        self._golden: list[Call] = []
        self._golden_args: list[dict[str, Any]] = []
        self._expert_index = 0
        self._params: dict[str, Any] = {}
        self._rule = AnswerRule()
        self._sheet_baseline = 0.0
        self._score_cache: tuple[int | None, float] = (None, 0.0)

    # ---- episode ---------------------------------------------------------------------------------------
    def _start(self, task: TaskSpec, seed: int) -> Start:
        self.close()
        params = task.params
        self._params = dict(params)
        self._toolkit = toolkit_class(params["tool"])(params["config"])
        self._rule = AnswerRule.from_params(params["rule"])
        self._golden = [Call(name, dict(args)) for name, args in params["calls"]]
        self._golden_args = [
            round_floats(check_arguments(self._spec(call.name), call.args)) for call in self._golden
        ]
        self._expert_index = 0
        self._ledger = _Ledger()
        self._score_cache = (None, 0.0)
        keys = list(params["subgoal_keys"])
        if keys:
            subgoals = [
                Subgoal(call.text(), predicate=_obtained_predicate(key, keys[: index + 1].count(key)))
                for index, (call, key) in enumerate(zip(self._golden, keys))
            ]
            subgoals.append(Subgoal("finish with the correct answer", predicate=lambda ledger: ledger.success))
            self._tracker = SubgoalTracker(subgoals, ordered=False)
        else:
            self._tracker = None
            self._sheet_baseline = self._sheet_score()
        tool = params["tool"]
        if self.text_format == "agentboard":
            self._agentboard = AgentBoardStep(self._toolkit, params["config"], self.agentboard_fixes)
            first = words.first_observation(tool)
            if tool == "sheet":  # AgentBoard's harness opens the goal's sheet first and shows it
                first += f"\nYou are now in {self._toolkit.sheet.title}\n{self._toolkit.sheet.values()}"
            return Start(observation=first, goal=task.goal)
        intro = (
            f"You are using the {tool} tool. Goal: {task.goal}\n"
            "Call one function per turn as '<function> with Action Input: {\"arg\": value}'. "
            "check_valid_actions lists the functions; call finish with Action Input: {\"answer\": ...} "
            "when you are done."
        )
        extra = self._toolkit.intro()
        return Start(observation=intro + ("\n" + extra if extra else ""), goal=task.goal)

    def close(self) -> None:
        if self._toolkit is not None:
            self._toolkit.close()
            self._toolkit = None

    def _spec(self, name: str):
        if name == "finish":
            return FINISH_SPEC
        assert self._toolkit is not None
        return self._toolkit.spec(name)

    # ---- one action ------------------------------------------------------------------------------------
    def _act(self, action: str) -> Outcome:
        assert self._toolkit is not None
        if self._agentboard is not None and self.text_format == "agentboard":
            return self._act_agentboard(action)
        try:
            call = parse_call(action)
        except ActionError:
            word = action.strip()
            if is_bare_name(word) and self._spec(word) is not None:
                return Outcome.invalid(
                    f"Format error: '{word}' needs its input, e.g. '{word} with Action Input: {{}}'.",
                    InvalidReason.UNPARSABLE,
                )
            raise
        if call.name == TOOL_HELP_ACTION and not call.args:  # the call form AgentBoard's prompts teach
            return Outcome(observation=self._help_text())
        spec = self._spec(call.name)
        if spec is None:
            names = ", ".join(spec.name for spec in (*self._toolkit.functions, FINISH_SPEC))
            return Outcome.invalid(
                f"Invalid action: {call.name[:60]} is not a function of the {self._toolkit.name} tool. "
                f"Functions: {names}.",
                InvalidReason.UNKNOWN_ACTION,
            )
        try:
            args = check_arguments(spec, call.args)
        except ArgumentError as error:
            return Outcome.invalid(f"ERROR | {error}", InvalidReason.BAD_ARGUMENT)
        if call.name == "finish":
            return self._finish(args["answer"])
        try:
            output = self._toolkit.call(call.name, args)
        except ActionError as error:  # the backend's refusal, in this format's words
            return Outcome.invalid(f"ERROR | {error}", error.reason)
        self._ledger.obtained[subgoal_key(call.name, output)] += 1
        if (
            self._expert_index < len(self._golden)
            and call.name == self._golden[self._expert_index].name
            and round_floats(args) == self._golden_args[self._expert_index]
        ):
            self._expert_index += 1
        return Outcome(observation=render_output(output))

    def _act_agentboard(self, action: str) -> Outcome:
        assert self._toolkit is not None and self._agentboard is not None
        self._toolkit.ab_output = None
        step = self._agentboard.run(action)
        if step.kind == "finish":
            if self.agentboard_fixes or step.ends_episode:
                answer = step.params["answer"] if self._params["tool"] != "sheet" else self._params["answer"]
                outcome = self._finish(answer)
                return Outcome(observation=step.observation, terminated=True, success=outcome.success)
            return Outcome(observation=step.observation)
        if step.kind == "ok":
            self._credit(step)
        ends = step.ends_episode and not self.agentboard_fixes  # AgentBoard: "finish" anywhere in the action
        if step.kind in ("ok", "help") or (step.kind == "failed" and not self.agentboard_fixes):
            return Outcome(observation=step.observation, terminated=ends)
        # a failing tool call may have changed the data before failing (e.g. the first of several deletions)
        outcome = Outcome.invalid(step.observation, _AB_REASONS[step.kind], changed=step.kind == "failed")
        if ends:  # an unknown name containing "finish" (AgentBoard's grounding still counts it invalid)
            outcome = dataclasses.replace(outcome, terminated=True)
        return outcome

    def _credit(self, step: StepResult) -> None:
        """Credit the call on our backend (mutations already ran there through the API view)."""
        assert self._toolkit is not None
        output = getattr(self._toolkit, "ab_output", None)
        spec = self._spec(step.name) if step.name not in ("neighborCheck",) else self._spec("neighbourCheck")
        if spec is None:
            return
        name = spec.name
        try:
            args = check_arguments(spec, step.params)
            writes = _TODO_WRITES if self._params["tool"] == "todo" else ()
            if output is None and self._params["tool"] != "sheet" and name not in writes:
                output = self._toolkit.call(name, args)
        except (ArgumentError, ActionError, TypeError, ValueError):
            return
        if output is not None and self._params["tool"] != "sheet":
            self._ledger.obtained[subgoal_key(name, output)] += 1
        if (
            self._expert_index < len(self._golden)
            and name == self._golden[self._expert_index].name
            and round_floats(args) == self._golden_args[self._expert_index]
        ):
            self._expert_index += 1

    def _finish(self, answer: Any) -> Outcome:
        assert self._toolkit is not None
        params = self._params
        try:
            correct = grade_answer(answer, params["answer"], self._rule)
        except (TypeError, ValueError, AttributeError):
            correct = False
        state_ok = True
        if params["graded_state"]:
            state_ok = self._toolkit.state() == params["golden_state"]
        success = correct and state_ok
        self._ledger.success = success
        if success:
            verdict = "The task is complete." if params["graded_state"] else "That is the correct answer."
        elif not correct:
            verdict = "That is not the correct answer."
        else:
            verdict = "The data does not match what the task asked for."
        return Outcome(
            observation=f"You finished with the answer {render_output(answer)[:200]}. {verdict}",
            terminated=True,
            success=success,
        )

    # ---- progress, listings, expert -------------------------------------------------------------------
    def _sheet_score(self) -> float:
        from agentgym_text.envs.tools.sheet.matching import match_ratio

        assert self._toolkit is not None
        revision = self._toolkit.revision()
        if revision is None or revision != self._score_cache[0]:
            self._score_cache = (revision, match_ratio(self._toolkit.state(), self._params["golden_state"]))
        return self._score_cache[1]

    def _progress(self) -> Progress:
        if self._tracker is not None:
            return self._tracker.update("", self._ledger)
        if self._ledger.success:
            return Progress(now=1.0)
        score = self._sheet_score()
        baseline = self._sheet_baseline
        now = 0.0 if baseline >= 1.0 else max(0.0, (score - baseline) / (1.0 - baseline))
        return Progress(now=now)

    def _admissible_actions(self) -> list[str]:
        assert self._toolkit is not None
        # Golden calls up to the next one the expert would make: those are known to succeed now.
        calls: list[Call] = [] if self._params.get("graded_state") else self._golden[: self._expert_index + 1]
        calls += self._toolkit.example_calls()
        placeholder = "done" if self._params.get("graded_state") else "I do not know"
        calls.append(Call("finish", {"answer": placeholder}))
        if self.text_format == "agentboard":
            return list(dict.fromkeys(words.python_call(call.name, call.args) for call in calls))
        return list(dict.fromkeys(call.text() for call in calls))

    def _help_text(self) -> str:
        assert self._toolkit is not None
        if self.text_format == "agentboard":
            return words.help_text(self._toolkit.name)
        listing = describe_functions(self._toolkit.name, (*self._toolkit.functions, FINISH_SPEC))
        return f"{listing}\nFor example: {self._admissible_actions()[0]}"

    def _expert_action(self) -> str:
        text = next_call(self._golden, self._expert_index, self._params["answer"])
        if self.text_format == "agentboard":
            call = parse_call(text)
            return words.python_call(call.name, call.args)
        return text

    # ---- for tests and tools ---------------------------------------------------------------------------
    @property
    def toolkit(self) -> Toolkit | None:
        """The live backend of the current episode (None before reset)."""
        return self._toolkit


class ToolQueryEnv(ToolEnv):
    """``AgentBoard/ToolQuery-v0``: weather, movie and academia (or one of them with ``tool=``)."""

    def __init__(self, tool: str | None = None, **kwargs: Any):
        super().__init__("query", tool, **kwargs)


class ToolOperationEnv(ToolEnv):
    """``AgentBoard/ToolOperation-v0``: todo and sheet (or one of them with ``tool=``)."""

    def __init__(self, tool: str | None = None, **kwargs: Any):
        super().__init__("operation", tool, **kwargs)
