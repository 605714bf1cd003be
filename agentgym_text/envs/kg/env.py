"""``AgentBench/KG-v0``: answer a question over the knowledge graph with AgentBench's seven tools."""

from __future__ import annotations

from typing import Any

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import FinishReason, InvalidReason
from agentgym_text.core.progress import Progress
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.kg.actions import TOOLS, Answer, parse_action
from agentgym_text.envs.kg.agentbench_file import load_task_file
from agentgym_text.envs.kg.agentbench_play import AgentBenchEpisode
from agentgym_text.envs.kg.endpoint import SparqlEndpoint, endpoint_url
from agentgym_text.envs.kg.expert import expert_action, match_variables
from agentgym_text.envs.kg.graph import KnowledgeGraph
from agentgym_text.envs.kg.ontology import load_ontology
from agentgym_text.envs.kg.tasks import (
    DEFAULT_TRAIN_COUNT,
    MAX_STEPS,
    TASK_COUNT,
    graph_folder,
    make_tasks,
    run_program,
    training_tasks,
)
from agentgym_text.envs.kg.tools import ToolSession, Variable

__all__ = ["KgEnv", "SPLITS"]

SPLITS = ("test", "train")
"""The shipped 150 questions, or the training questions (``tasks.training_tasks``: other seeds, other topics)."""

_STRICT_ENDINGS = {
    InvalidReason.UNPARSABLE: FinishReason.INVALID_FORMAT,
    InvalidReason.UNKNOWN_ACTION: FinishReason.INVALID_ACTION,
}
"""The invalid actions that end an episode under ``strict=True``, and how it finishes."""


QUESTION = "question"
ENTITIES = "entities"


def _question_info(task: TaskSpec) -> dict[str, Any]:
    """Reset info: the question as written and its entities' names (the ``agentbench`` agent protocol words its
    opening from them, as AgentBench's server does)."""
    return {QUESTION: task.params["question"], ENTITIES: list(task.params["entities"])}


class KgEnv(TextEnv):
    """Knowledge-graph question answering with ``get_relations``, ``get_neighbors``, ``intersection``,
    ``get_attributes``, ``argmax``, ``argmin`` and ``count`` over variables ``#0, #1, ...``.

    Progress: the share of the gold program's variables the agent has produced (set-equal), with the final
    answer as the last subgoal; 1.0 on the right ``Final Answer: #n``. ``strict=True`` ends the episode on a
    format error (``invalid_format``) or an unknown tool (``invalid_action``). ``split="train"`` gives ``num_tasks``
    (default 1,000) training questions on the same graph, about entities no shipped question names or reaches.

    ``task_file`` plays AgentBench's own items (``data/knowledgegraph/std.json``, ``dev.json``; task ids are their
    ``qid``) against the user's Freebase endpoint (``sparql_url``, or the setting ``AGENTGYM_TEXT_SPARQL_URL``) with
    AgentBench's ontology folder (``ontology_dir``), as AgentBench v0.2 plays them: its reply format, its tools over
    program variables (``agentbench_tools.py``), the answer through GrailQA's lisp-to-SPARQL rules, F1 and exact
    match (success). Nothing is sent at make or reset; tool calls and the final answer query the endpoint.
    ``agentbench_fixes=True`` accepts ``g.`` ids as entities (AgentBench's check refuses them; 3 of its 150 test
    golds need one). See the family README.

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

    def __init__(
        self,
        num_tasks: int | None = None,
        strict: bool = False,
        split: str = "test",
        task_file: str | None = None,
        sparql_url: str | None = None,
        ontology_dir: str | None = None,
        agentbench_fixes: bool = False,
        **kwargs: Any,
    ):
        self.from_file = bool(task_file)
        self.agentbench_fixes = bool(agentbench_fixes)
        self.episode: AgentBenchEpisode | None = None
        if split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
        if self.from_file:
            if num_tasks is not None or split != "test":
                raise ValueError(
                    "num_tasks= and split= choose among the generated questions; with task_file= every item is a task"
                )
            if strict:
                raise ValueError("strict= ends shipped episodes on a format error; AgentBench's KG task goes on")
            if not ontology_dir:
                raise ValueError(
                    "task_file= needs ontology_dir=: AgentBench's ontology folder "
                    "(src/server/tasks/knowledgegraph/ontology in your AgentBench checkout)"
                )
            url = endpoint_url(sparql_url)
            tasks = load_task_file(str(task_file), MAX_STEPS)
            self.ontology = load_ontology(str(ontology_dir))
            self.endpoint = SparqlEndpoint(url)
            self.action_format = "one line 'Action: tool(arguments)', or 'Final Answer: #n'"
            self.action_example = "Action: get_relations(#0)"
        else:
            if sparql_url or ontology_dir or agentbench_fixes:
                raise ValueError(
                    "sparql_url=, ontology_dir= and agentbench_fixes= play AgentBench's items: give task_file="
                )
            if split == "train":
                tasks = training_tasks(DEFAULT_TRAIN_COUNT if num_tasks is None else num_tasks)
            else:
                tasks = make_tasks(TASK_COUNT if num_tasks is None else num_tasks)
        super().__init__(tasks, **kwargs)
        self.strict = strict
        self.graph = None if self.from_file else KnowledgeGraph(graph_folder() / "graph.sqlite")
        self._session: ToolSession | None = None
        self._gold: list[Variable] = []
        self._program: list[str] = []
        self._answered_right = False

    def _start(self, task: TaskSpec, seed: int) -> Start:
        if self.from_file:
            self.episode = AgentBenchEpisode(task.params, self.ontology, self.endpoint, self.agentbench_fixes)
            return Start(observation="A new question: " + task.goal, goal=task.goal, info=_question_info(task))
        assert self.graph is not None
        self._program = list(task.params["program"])
        self._gold = list(run_program(ToolSession(self.graph, task.params["entities"]), self._program))
        self._session = ToolSession(self.graph, task.params["entities"])
        self._answered_right = False
        return Start(observation=task.goal, goal=task.goal, info=_question_info(task))

    def _act(self, action: str) -> Outcome:
        if self.episode is not None:
            return self.episode.act(action)
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
            observation="Your answer is correct." if right else "Your answer is wrong.",
            terminated=True,
            success=right,
            info={"f1": 1.0 if right else _set_f1(mine.ids, gold.ids) if gold.number is None else 0.0},
        )

    def _progress(self) -> Progress:
        if self.episode is not None:
            return self.episode.progress()
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
        if self.episode is not None:
            return self.episode.admissible_actions()
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
        if self.episode is not None:
            return (
                "One line 'Action: tool(arguments)' per reply, tools: " + ", ".join(TOOLS) + "; arguments are the "
                "question's entities (by name or Freebase id) or variables #0, #1, ...; answer with 'Final Answer: "
                "#k'. Now possible: " + "; ".join(self._admissible_actions()[:6])
            )
        return (
            "Valid actions: one tool call per step, "
            + ", ".join(f"{tool}(...)" for tool in TOOLS)
            + "; arguments are the question's entities or variables #0, #1, ...; answer with 'Final Answer: #n'. "
            "Examples: " + "; ".join(self._admissible_actions()[:4])
        )

    def _expert_action(self) -> str | None:
        if self.episode is not None:
            return self.episode.expert_action()
        assert self._session is not None
        return expert_action(self._program, self._gold, self._session.variables)

    def close(self) -> None:
        if self.graph is not None:
            self.graph.close()
        super().close()


def _set_f1(predicted: frozenset[int], gold: frozenset[int]) -> float:
    """AgentBench's answer F1 over entity sets (0 when they share nothing)."""
    shared = len(predicted & gold)
    if not shared:
        return 0.0
    precision, recall = shared / len(predicted), shared / len(gold)
    return 2 * precision * recall / (precision + recall)
