"""``AgentBench/KG-v0``: answer a question over the knowledge graph with AgentBench's seven tools."""

from __future__ import annotations

from typing import Any

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import FinishReason, InvalidReason
from agentgym_text.core.progress import Progress
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.kg.actions import TOOLS, Answer, parse_action
from agentgym_text.envs.kg.expert import expert_action, match_variables
from agentgym_text.envs.kg.graph import KnowledgeGraph
from agentgym_text.envs.kg.tasks import TASK_COUNT, graph_folder, make_tasks, run_program
from agentgym_text.envs.kg.tools import ToolSession, Variable

__all__ = ["KgEnv"]

_STRICT_ENDINGS = {
    InvalidReason.UNPARSABLE: FinishReason.INVALID_FORMAT,
    InvalidReason.UNKNOWN_ACTION: FinishReason.INVALID_ACTION,
}
"""The invalid actions that end an episode under ``strict=True``, and how it finishes."""


class KgEnv(TextEnv):
    """Knowledge-graph question answering with ``get_relations``, ``get_neighbors``, ``intersection``,
    ``get_attributes``, ``argmax``, ``argmin`` and ``count`` over variables ``#0, #1, ...``.

    Progress: the share of the gold program's variables the agent has produced (set-equal), with the final
    answer as the last subgoal; 1.0 on the right ``Final Answer: #n``. ``strict=True`` ends the episode on a
    format error (``invalid_format``) or an unknown tool (``invalid_action``).

    >>> env = KgEnv()
    >>> obs, info = env.reset(options={"task_index": 5})
    >>> while not env.episode_over:
    ...     obs, reward, terminated, truncated, info = env.step(env.expert_action())
    >>> info["success"], info["progress_rate"]
    (True, 1.0)
    """

    unwrap_actions = False
    action_format = "one tool call such as 'get_relations(<entity or #n>)', or 'Final Answer: #n'"
    action_example = "get_relations(#0)"

    def __init__(self, num_tasks: int = TASK_COUNT, strict: bool = False, **kwargs: Any):
        super().__init__(make_tasks(num_tasks), **kwargs)
        self.strict = strict
        self.graph = KnowledgeGraph(graph_folder() / "graph.sqlite")
        self._session: ToolSession | None = None
        self._gold: list[Variable] = []
        self._program: list[str] = []
        self._answered_right = False

    def _start(self, task: TaskSpec, seed: int) -> Start:
        self._program = list(task.params["program"])
        self._gold = list(run_program(ToolSession(self.graph, task.params["entities"]), self._program))
        self._session = ToolSession(self.graph, task.params["entities"])
        self._answered_right = False
        return Start(observation=task.goal, goal=task.goal)

    def _act(self, action: str) -> Outcome:
        assert self._session is not None
        try:
            parsed = parse_action(action)
        except ActionError as error:
            if not self.strict or error.reason not in _STRICT_ENDINGS:
                raise
            return Outcome(
                observation=f"{error} The episode ends.",
                valid=False,
                invalid_reason=error.reason.value,
                terminated=True,
                finish_reason=_STRICT_ENDINGS[error.reason].value,
            )
        if isinstance(parsed, Answer):
            return self._answer(parsed.variable)
        return Outcome(observation=self._session.run(parsed))  # an ActionError is the step's invalid outcome

    def _answer(self, index: int) -> Outcome:
        assert self._session is not None
        if index >= len(self._session.variables):
            return Outcome.invalid(f"Variable #{index} does not exist.", InvalidReason.UNKNOWN_OBJECT)
        mine, gold = self._session.variables[index], self._gold[-1]
        right = (mine.number == gold.number) if gold.number is not None else mine.same_as(gold)
        self._answered_right = right
        return Outcome(
            observation="Your answer is correct." if right else "Your answer is wrong.", terminated=True, success=right
        )

    def _progress(self) -> Progress:
        names = tuple(f"#{i} = {step}" for i, step in enumerate(self._program)) + ("final answer",)
        if self._session is None:
            return Progress(now=0.0, subgoals=names, subgoals_done=(False,) * len(names))
        done = tuple(m is not None for m in match_variables(self._gold, self._session.variables))
        done += (self._answered_right,)
        return Progress(now=sum(done) / len(done), subgoals=names, subgoals_done=done)

    def _arguments(self) -> list[str]:
        assert self._session is not None
        return list(self._session.entity_names) + [
            f"#{i}" for i, v in enumerate(self._session.variables) if v.number is None and v.ids
        ]

    def _admissible_actions(self) -> list[str]:
        session = self._session
        assert session is not None
        actions: list[str] = []
        arguments = self._arguments()
        for arg in arguments:
            variable = session.resolve(arg)
            actions.append(f"get_relations({arg})")
            actions += [f"get_neighbors({arg}, {rel})" for rel in session.relations_of(variable)]
            actions.append(f"get_attributes({arg})")
            if arg.startswith("#"):
                actions.append(f"count({arg})")
                for attribute in session.attributes_of(variable):
                    actions += [f"argmax({arg}, {attribute})", f"argmin({arg}, {attribute})"]
        for i, first in enumerate(arguments):
            for second in arguments[i + 1 :]:
                if session.resolve(first).type == session.resolve(second).type:
                    actions.append(f"intersection({first}, {second})")
        actions += [f"Final Answer: #{i}" for i in range(len(session.variables))]
        return actions

    def _help_text(self) -> str:
        return (
            "Valid actions: one tool call per step, "
            + ", ".join(f"{tool}(...)" for tool in TOOLS)
            + "; arguments are the question's entities or variables #0, #1, ...; answer with 'Final Answer: #n'. "
            "Examples: " + "; ".join(self._admissible_actions()[:4])
        )

    def _expert_action(self) -> str:
        assert self._session is not None
        return expert_action(self._program, self._gold, self._session.variables)

    def close(self) -> None:
        self.graph.close()
        super().close()
