"""``AgentBoardMode``: the tool env's ``"agentboard"`` text, AgentBoard's words (README, "Text formats").

``AgentBoardStep`` (``step.py``) takes each message as AgentBoard's harness and env do; this module turns its
result into the env's outcome, credits successful calls on our backend (progress, the expert's place), keeps
AgentBoard's progress rule for tasks from its data folder and applies the README's FIX list where ``fixes``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import TOOL_HELP_ACTION, InvalidReason
from agentgym_text.core.progress import Progress
from agentgym_text.core.text_env import Outcome
from agentgym_text.core.text_mode import AgentBoardText
from agentgym_text.envs.tools.actions import Call
from agentgym_text.envs.tools.agentboard_text import words
from agentgym_text.envs.tools.agentboard_text.functions import TOOLS
from agentgym_text.envs.tools.agentboard_text.progress import ToolProgress
from agentgym_text.envs.tools.agentboard_text.sheet import SHEET
from agentgym_text.envs.tools.agentboard_text.step import AgentBoardStep, StepResult
from agentgym_text.envs.tools.episode import ToolEpisode
from agentgym_text.envs.tools.schema import ArgumentError, check_arguments

__all__ = ["AgentBoardMode"]

_TODO_WRITES = ("update_project", "complete_task", "update_task", "delete_task")
"""Todo calls whose output the API view already produced on our backend (running them again would fail)."""


class AgentBoardMode(AgentBoardText):
    """AgentBoard's words and dispatch over an episode's backend; ``fixes`` (``agentboard_fixes=``) applies the
    README's FIX list."""

    unwrap_actions: ClassVar[bool] = False  # AgentBoard's own agent parser reads the message (words.agent_parse)
    action_example: ClassVar[str] = TOOL_HELP_ACTION  # a name AgentBoard's check_valid_actions answer lists
    scores_agentboard_data: ClassVar[bool] = True
    """Tasks from AgentBoard's data folder are scored with its progress rule (``annotated_progress``)."""

    def __init__(self, fixes: bool = True):
        super().__init__(fixes)
        self._step: AgentBoardStep | None = None
        self._progress: ToolProgress | None = None

    def start(self, episode: ToolEpisode, goal: str) -> str:
        """The first observation (AgentBoard's; the goal is in the footer the core adds); AgentBoard's progress
        rule starts here for a task from its data folder."""
        toolkit = episode.toolkit
        self._step = AgentBoardStep(toolkit, episode.params["config"], self.fixes)
        note = episode.params.get("agentboard")
        self._progress = None
        if note is not None:
            self._progress = ToolProgress(episode.tool, note["subgoals"], note["answer"], note["goal_type"], self.fixes)
        first = words.first_observation(episode.tool)
        if episode.tool == "sheet":  # AgentBoard's harness opens the goal's sheet first and shows it
            first += f"\nYou are now in {toolkit.sheet.title}\n{toolkit.sheet.values()}"
        return first

    def act(self, episode: ToolEpisode, action: str) -> Outcome:
        """One message as AgentBoard takes it, on the episode's backend."""
        assert self._step is not None
        episode.toolkit.ab_output = None
        step = self._step.run(action)
        if self._progress is None:
            return self._outcome(episode, step)
        before = self._progress.reward
        self._score(episode, step)
        outcome = self._outcome(episode, step)
        if outcome.terminated:
            status = self._todo_status(episode) if self._progress.goal_type == 1 else None
            outcome = dataclasses.replace(outcome, success=self._progress.success(status))
        if self._progress.reward != before and not outcome.changed:  # e.g. sheet: AgentBoard scores after errors
            outcome = dataclasses.replace(outcome, changed=True)
        return outcome

    def _score(self, episode: ToolEpisode, step: StepResult) -> None:
        """AgentBoard's action path and ``update`` for this step (see ``progress``)."""
        progress = self._progress
        assert progress is not None
        sheet = episode.tool == "sheet"
        if step.kind in ("ok", "failed") and not sheet:
            progress.record(step.name, step.params, step.kind == "ok", step.result)
        elif step.kind == "finish" and not sheet:
            progress.record_finish(step.params["answer"])
        if step.kind == "refused" and step.reason == InvalidReason.UNPARSABLE:
            return  # the harness's format error, or parse_action's: AgentBoard's env returns before its update
        if sheet:
            progress.update_sheet(step.observation, SHEET["get_all_values"][1](episode.toolkit)[1])
        elif step.kind != "refused" or step.reason == InvalidReason.UNKNOWN_ACTION:
            progress.update(step.observation)  # a tool's exception returns before the update

    def _todo_status(self, episode: ToolEpisode) -> Any:
        """``EvalTool.get_todo_status``: every project and every project's tasks, "id" fields removed."""
        if episode.tool != "todo" or self._step is None:
            return None
        session = self._step.session
        _, projects = TOOLS["todo"]["get_projects"][1](session)
        tasks = [task for project in projects for task in TOOLS["todo"]["get_tasks"][1](session, project["id"])[1]]
        return {
            "projects": [{k: v for k, v in p.items() if k != "id"} for p in projects],
            "tasks": [{k: v for k, v in t.items() if k != "id"} for t in tasks],
        }

    def _outcome(self, episode: ToolEpisode, step: StepResult) -> Outcome:
        if step.kind == "finish":
            if self.fixes or step.ends_episode:
                answer = step.params["answer"] if episode.tool != "sheet" else episode.params["answer"]
                outcome = episode.finish(answer)
                return Outcome(observation=step.observation, terminated=True, success=outcome.success)
            return Outcome(observation=step.observation)
        if step.kind == "ok":
            self._credit(episode, step)
        ends = step.ends_episode and not self.fixes  # AgentBoard: "finish" anywhere in the action
        if step.kind in ("ok", "help") or (step.kind == "failed" and not self.fixes):
            return Outcome(observation=step.observation, terminated=ends)
        # a failing tool call may have changed the data before failing (e.g. the first of several deletions)
        outcome = Outcome.invalid(step.observation, step.reason, changed=step.kind == "failed")
        if ends:  # an unknown name containing "finish" (AgentBoard's grounding still counts it invalid)
            outcome = dataclasses.replace(outcome, terminated=True)
        return outcome

    def _credit(self, episode: ToolEpisode, step: StepResult) -> None:
        """Credit the call on our backend (mutations already ran there through the API view)."""
        toolkit = episode.toolkit
        output = getattr(toolkit, "ab_output", None)
        spec = episode.spec(step.name) if step.name not in ("neighborCheck",) else episode.spec("neighbourCheck")
        if spec is None:
            return
        name = spec.name
        try:
            args = check_arguments(spec, step.params)
            writes = _TODO_WRITES if episode.tool == "todo" else ()
            if output is None and episode.tool != "sheet" and name not in writes:
                output = toolkit.call(name, args)
        except (ArgumentError, ActionError, TypeError, ValueError):
            return
        if output is not None and episode.tool != "sheet":
            episode.obtain(name, output)
        episode.follow(name, args)

    def annotated_progress(self) -> Progress:
        """AgentBoard's progress over the annotation of a task from its data folder (after ``start``)."""
        assert self._progress is not None
        return Progress(now=self._progress.reward)

    def call_text(self, call: Call) -> str:
        """``call`` as AgentBoard's agents write it (a Python literal input)."""
        return words.python_call(call.name, call.args)

    def help_text(self, episode: ToolEpisode) -> str:
        """AgentBoard's ``check_valid_actions`` answer."""
        return words.help_text(episode.toolkit.name)
