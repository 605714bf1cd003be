"""One episode of an AgentBench KG item: the gold programs, the agent's replies, the final answer and its scores.

The gold actions are replayed symbolically at reset (no query): each variable they make is a program, compared
with the agent's by canonical form (``AND`` operands sorted). Progress is the share of the gold variables the agent
has made, plus the final answer as the last subgoal; 1.0 for an answer whose set equals the gold set.

The final answer is scored as AgentBench v0.2 reports it: the variable's program goes through GrailQA's
lisp-to-SPARQL rules (``sparql.py``) to the endpoint; ``f1`` is the F1 of that set against the gold set (0 when
they share nothing), ``exact_match`` their equality, ``executable`` a non-empty answer. Success is the exact match.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from agentgym_text.core.info import FinishReason, InvalidReason
from agentgym_text.core.progress import Progress
from agentgym_text.core.text_env import Outcome
from agentgym_text.envs.kg.agentbench_actions import Call, read_reply
from agentgym_text.envs.kg.agentbench_file import VARIABLE_TOOLS
from agentgym_text.envs.kg.agentbench_tools import NUMBER_TYPE, ProgramSession, ToolFailure
from agentgym_text.envs.kg.endpoint import EndpointError, SparqlEndpoint
from agentgym_text.envs.kg.lisp import LispError, canonical, parse
from agentgym_text.envs.kg.ontology import Ontology
from agentgym_text.envs.kg.sparql import to_sparql

__all__ = ["GoldReplay", "replay_gold", "answer_scores", "AgentBenchEpisode"]

logger = logging.getLogger(__name__)
_SHOWN_VALUES = 10


@dataclass(frozen=True)
class GoldStep:
    tool: str
    args: tuple[str, ...]
    made: int | None  # the gold variable it makes


@dataclass
class GoldReplay:
    steps: list[GoldStep] = field(default_factory=list)
    programs: list[str] = field(default_factory=list)
    error: str | None = None  # the first gold action that does not run, and why


def replay_gold(
    actions: list[str], ontology: Ontology, entities: dict[str, str], accept_g_ids: bool = False
) -> GoldReplay:
    """The programs the gold actions make (read as AgentBench reads an action line; no endpoint)."""
    session = ProgramSession(ontology, None, entities, accept_g_ids)
    replay = GoldReplay()
    for number, action in enumerate(actions):
        reply = read_reply("Action: " + action)
        call = reply.calls[0] if reply.calls else None
        if call is None or call.args is None:
            replay.error = f"gold action {number} ({action[:80]}) is no tool call"
            return replay
        before = len(session.variables)
        try:
            session.call(call.tool, call.args)
        except (ToolFailure, LispError) as failure:
            replay.error = f"gold action {number} ({action[:80]}): {failure}"
            return replay
        made = before if len(session.variables) > before else None
        replay.steps.append(GoldStep(call.tool, call.args, made))
    replay.programs = [variable.program for variable in session.variables]
    if not replay.programs:
        replay.error = "the gold actions make no variable"
    return replay


def answer_scores(predicted: list[str], gold: list[str]) -> dict[str, Any]:
    """AgentBench v0.2's per-item scores: F1, exact match, executability."""
    mine, right = set(predicted), set(gold)
    shared = len(mine & right)
    f1 = 0.0
    if shared:
        precision, recall = shared / len(mine), shared / len(right)
        f1 = 2 * precision * recall / (precision + recall)
    return {
        "predict": sorted(mine),
        "f1": f1,
        "exact_match": shared == len(right) and shared == len(mine),
        "executable": bool(mine),
    }


def _canonical(program: str) -> str:
    return canonical(parse(program))


class AgentBenchEpisode:
    """The state of one episode on one item."""

    def __init__(self, params: dict[str, Any], ontology: Ontology, endpoint: SparqlEndpoint, accept_g_ids: bool):
        self.params = params
        self.entities: dict[str, str] = dict(params["entities"])
        self.session = ProgramSession(ontology, endpoint, self.entities, accept_g_ids)
        self.gold = replay_gold(params["actions"], ontology, self.entities, accept_g_ids)
        if self.gold.error:
            logger.info("item %s: its gold cannot be replayed: %s", params["qid"], self.gold.error)
        self._gold_forms = [_canonical(program) for program in self.gold.programs]
        self.result: dict[str, Any] | None = None

    # ---- replies -------------------------------------------------------------------------------------
    def act(self, text: str) -> Outcome:
        reply = read_reply(text)
        if reply.answer is not None:
            return self._answer(reply.answer)
        if not reply.action_line:
            return Outcome.invalid(
                "No action found: write one line 'Action: tool(arguments)', e.g. 'Action: get_relations(#0)', "
                "or 'Final Answer: #k'.",
                InvalidReason.UNPARSABLE,
            )
        if not reply.calls:
            return Outcome.invalid(
                "The Action line calls no tool: write e.g. 'Action: get_neighbors(#0, relation)'.",
                InvalidReason.UNPARSABLE,
            )
        failure: ToolFailure | None = None
        for call in reply.calls:  # as AgentBench: the first call on the line that runs
            try:
                return Outcome(observation=self._run(call))
            except ToolFailure as error:
                failure = error
            except EndpointError as error:
                return self._endpoint_failed(error, "The call was not made.")
        assert failure is not None
        return Outcome.invalid(f"{_written(reply.calls[-1])} cannot be executed: {failure.message}", failure.reason)

    def _run(self, call: Call) -> str:
        if call.args is None:
            raise ToolFailure(
                f"the arguments of {call.tool}( could not be read: write {call.tool}(a) or {call.tool}(a, b).",
                InvalidReason.UNPARSABLE,
            )
        try:
            return self.session.call(call.tool, call.args)
        except LispError as error:
            raise ToolFailure(f"its program cannot be translated to SPARQL ({error}).") from error

    def _endpoint_failed(self, error: EndpointError, then: str) -> Outcome:
        if error.unreachable:
            return Outcome(
                observation=f"The episode cannot go on: {error}. It ends unscored (engine_error).",
                valid=False,
                invalid_reason=InvalidReason.PRECONDITION.value,
                terminated=True,
                finish_reason=FinishReason.ENGINE_ERROR.value,
            )
        return Outcome.invalid(f"The query failed: {error}. {then}", InvalidReason.PRECONDITION)

    def _answer(self, index: int) -> Outcome:
        variables = self.session.variables
        if index >= len(variables):
            known = f"#0 to #{len(variables) - 1}" if variables else "none yet"
            return Outcome.invalid(
                f"Variable #{index} does not exist (variables so far: {known}); answer with one of them.",
                InvalidReason.UNKNOWN_OBJECT,
            )
        endpoint = self.session.endpoint
        assert endpoint is not None
        note = ""
        try:
            predicted = endpoint.select(to_sparql(parse(variables[index].program)))
        except EndpointError as error:
            if error.unreachable:
                return self._endpoint_failed(error, "")
            predicted, note = [], f" Its query failed ({error}); it counts as an empty answer, as AgentBench counts it."
        except LispError as error:
            predicted, note = [], f" Its program has no SPARQL ({error}); it counts as an empty answer."
        self.result = answer_scores(predicted, self.params["answer"])
        shown = ", ".join(self.result["predict"][:_SHOWN_VALUES])
        more = len(self.result["predict"]) - _SHOWN_VALUES
        values = f"[{shown}{f', ... {more} more' if more > 0 else ''}]"
        right = self.result["exact_match"]
        return Outcome(
            observation=f"Final answer #{index}: {values}.{note} F1 {self.result['f1']:.2f}, exact match: "
            f"{'yes' if right else 'no'}. " + ("Your answer is correct." if right else "Your answer is wrong."),
            terminated=True,
            success=right,
            info={"f1": float(self.result["f1"])},
        )

    # ---- progress and the expert ---------------------------------------------------------------------
    def matched(self) -> list[int | None]:
        """For each gold variable, the first of the agent's variables with the same canonical program."""
        mine = [_canonical(variable.program) for variable in self.session.variables]
        return [next((i for i, form in enumerate(mine) if form == gold), None) for gold in self._gold_forms]

    def progress(self) -> Progress:
        names = tuple(f"#{i} = {program}" for i, program in enumerate(self.gold.programs)) + ("final answer",)
        done = tuple(m is not None for m in self.matched())
        right = bool(self.result and self.result["exact_match"])
        done += (right,)
        return Progress(now=1.0 if right else sum(done) / len(done), subgoals=names, subgoals_done=done)

    def expert_action(self) -> str | None:
        if self.gold.error:
            logger.warning("item %s: no expert: %s", self.params["qid"], self.gold.error)
            return None
        matched = self.matched()
        if matched[-1] is not None:
            return f"Final Answer: #{matched[-1]}"
        for step in self.gold.steps:
            if step.tool not in VARIABLE_TOOLS or matched[step.made or 0] is not None:
                continue
            args = []
            for arg in step.args:
                if arg.startswith("#"):
                    mine = matched[int(arg[1:])]
                    if mine is None:
                        break
                    args.append(f"#{mine}")
                else:
                    args.append(arg)
            else:
                return self._next_call(step.tool, args)
        logger.warning("item %s: no gold step is ready", self.params["qid"])  # pragma: no cover
        return None

    def _next_call(self, tool: str, args: list[str]) -> str:
        first = self.session.argument(args[0])
        key = first if isinstance(first, str) else first.program
        if tool == "get_neighbors" and key not in self.session.relations:
            return f"Action: get_relations({args[0]})"
        if tool in ("argmax", "argmin") and key not in self.session.attributes:
            return f"Action: get_attributes({args[0]})"
        return f"Action: {tool}({', '.join(args)})"

    def admissible_actions(self) -> list[str]:
        """Calls that the lists fetched so far allow (no query is sent to make this list)."""
        session = self.session
        arguments = [
            (name if "," not in name and ")" not in name else entity, entity) for name, entity in self.entities.items()
        ]
        arguments += [(f"#{i}", v.program) for i, v in enumerate(session.variables) if v.type != NUMBER_TYPE]
        actions: list[str] = []
        for shown, key in arguments:
            actions.append(f"Action: get_relations({shown})")
            actions += [f"Action: get_neighbors({shown}, {r})" for r in session.relations.get(key, [])]
            if shown.startswith("#"):
                actions += [f"Action: get_attributes({shown})", f"Action: count({shown})"]
                for attribute in session.attributes.get(key, []):
                    actions += [f"Action: argmax({shown}, {attribute})", f"Action: argmin({shown}, {attribute})"]
        typed = [(f"#{i}", v.type) for i, v in enumerate(session.variables) if v.type != NUMBER_TYPE]
        for i, (first, kind) in enumerate(typed):
            actions += [f"Action: intersection({first}, {second})" for second, other in typed[i + 1 :] if other == kind]
        actions += [f"Final Answer: #{i}" for i in range(len(session.variables))]
        return actions


def _written(call: Call) -> str:
    return f"{call.tool}({', '.join(call.args or ())})"
