"""One tool episode whatever the text it is played in: the live backend, the golden calls the expert follows, what
the agent has obtained (for progress) and the grading of ``finish``. Both texts act on it: ``ClearMode``
(``clear_text.py``) and ``AgentBoardMode`` (``agentboard_text/mode.py``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from agentgym_text.core.text_env import Outcome
from agentgym_text.envs.tools.actions import Call
from agentgym_text.envs.tools.backend import FINISH_SPEC, Toolkit
from agentgym_text.envs.tools.expert import next_call
from agentgym_text.envs.tools.grading import AnswerRule, grade_answer
from agentgym_text.envs.tools.render import render_output, round_floats, subgoal_key
from agentgym_text.envs.tools.schema import FunctionSpec, check_arguments
from agentgym_text.envs.tools.task_builder import toolkit_class

__all__ = ["Ledger", "ToolEpisode"]


@dataclass
class Ledger:
    """What the agent has obtained so far: canonical outputs (a multiset) and whether it succeeded."""

    obtained: Counter = field(default_factory=Counter)
    success: bool = False


class ToolEpisode:
    """The backend built from a task's ``params`` and the episode's bookkeeping."""

    def __init__(self, params: dict[str, Any]):
        self.params = dict(params)
        self.tool: str = params["tool"]
        self.toolkit: Toolkit = toolkit_class(self.tool)(params["config"])
        self.rule = AnswerRule.from_params(params["rule"])
        self.golden = [Call(name, dict(args)) for name, args in params["calls"]]
        self._golden_args = [round_floats(check_arguments(self.spec(call.name), call.args)) for call in self.golden]
        self._expert_index = 0
        self.ledger = Ledger()

    def spec(self, name: str) -> FunctionSpec | None:
        """The function ``name`` of this tool (``finish`` included), or None."""
        return FINISH_SPEC if name == "finish" else self.toolkit.spec(name)

    def obtain(self, name: str, output: Any) -> None:
        """Count a call's output towards the subgoals (the golden outputs the agent has seen)."""
        self.ledger.obtained[subgoal_key(name, output)] += 1

    def follow(self, name: str, args: dict[str, Any]) -> None:
        """Move the expert on when the call made is its next golden call."""
        index = self._expert_index
        if index == len(self.golden) or name != self.golden[index].name:
            return
        if round_floats(args) == self._golden_args[index]:
            self._expert_index = index + 1

    def next_call(self) -> Call:
        """The expert's next call from here."""
        return next_call(self.golden, self._expert_index, self.params["answer"])

    def candidate_calls(self) -> list[Call]:
        """Calls known to be accepted now: the golden calls up to the expert's next one (read-only tasks), the
        backend's examples, and ``finish``."""
        graded = self.params.get("graded_state")
        calls: list[Call] = [] if graded else self.golden[: self._expert_index + 1]
        calls += self.toolkit.example_calls()
        calls.append(Call("finish", {"answer": "done" if graded else "I do not know"}))
        return calls

    def finish(self, answer: Any) -> Outcome:
        """Grade ``answer`` (and, for an operation task, the backend's state); the episode ends."""
        params = self.params
        try:
            correct = grade_answer(answer, params["answer"], self.rule)
        except (TypeError, ValueError, AttributeError):
            correct = False
        state_ok = True
        if params["graded_state"]:
            state_ok = self.toolkit.state() == params["golden_state"]
        success = correct and state_ok
        self.ledger.success = success
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

    def close(self) -> None:
        self.toolkit.close()
