"""``AgentBoard/PDDL-v0``: PDDL planning problems (Blocksworld, Gripper, Barman, Tyreworld) as a text game."""

from __future__ import annotations

import os
from pathlib import Path

from agentgym_text.core.agentboard_data import AgentBoardDataError, data_folder
from agentgym_text.core.info import FinishReason, InvalidReason
from agentgym_text.core.progress import Progress, match_score
from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.core.text_mode import AGENTBOARD
from agentgym_text.envs.pddl.actions import ParseFailure, normalise
from agentgym_text.envs.pddl.agentboard_data import agentboard_tasks
from agentgym_text.envs.pddl.agentboard_text import GOAL_SATISFIED, NO_EFFECT, NOT_VALID, AgentBoardText
from agentgym_text.envs.pddl.deadends import proven_dead_end
from agentgym_text.envs.pddl.domain_texts import canonical_domain
from agentgym_text.envs.pddl.expert import expert_action, expert_key
from agentgym_text.envs.pddl.model import State
from agentgym_text.envs.pddl.problem_files import PROBLEM_DIR, LoadedProblem, load
from agentgym_text.envs.pddl.registration import FAMILY, MAX_STEPS
from agentgym_text.envs.pddl.tasks import shipped_tasks

__all__ = ["PDDLEnv", "LOOK_ACTIONS"]

LOOK_ACTIONS = frozenset({"look around", "look", "look at the state", "observe", "state"})

_AGENTBOARD_FORMAT = "one action per step, written as in the valid-action list"


class PDDLEnv(TextEnv):
    """Reach a PDDL goal by typing actions (Blocksworld, Gripper, Barman, Tyreworld); the family README
    (``envs/pddl/README.md``) describes both texts, the FIX list and how the text compares with AgentBoard's.

    ``text_format="agentboard"`` (the default) speaks AgentBoard's words (``agentboard_fixes=False`` restores its
    bugs); ``"clear"`` is this package's own text. ``domain`` restricts the shipped tasks to one domain; with
    ``problem_file`` (and optionally ``domain_file``) it plays any problem file of a supported domain.
    ``agentboard_data`` (else ``AGENTGYM_TEXT_AGENTBOARD_DATA``) labels the 60 shipped problems with AgentBoard's
    difficulty, in its order. Every task has AgentBoard's budget of 30 steps. Progress is the best fraction of goal
    literals reached; the expert replans from the current state.

    >>> env = PDDLEnv()
    >>> obs, info = env.reset(options={"task_id": "pddl-blocksworld-p01"})
    >>> obs.split("\\n")[0]
    'B1 is on the table. B2 is on the table. B3 is on the table. The b1 is clear. The b2 is clear. The b3 is clear. Your arm is empty.'
    >>> while not env.episode_over:
    ...     obs, reward, terminated, truncated, info = env.step(env.expert_action())
    >>> info["success"], info["progress_rate"]
    (True, 1.0)
    """

    cheap_admissible_actions = True
    text_formats = (AGENTBOARD, "clear")
    action_format = "one action per step, in words or in operator form (the PDDL name, then its arguments)"
    action_example = "stack b1 on b2"

    def __init__(
        self,
        domain: str | None = None,
        problem_file: str | Path | None = None,
        max_steps: int | None = None,
        domain_file: str | Path | None = None,
        agentboard_data: str | os.PathLike[str] | None = None,
        **kwargs,
    ):
        if problem_file is not None:
            if domain is None:
                raise ValueError("problem_file needs domain= (one of blocksworld, gripper, barman, tyreworld)")
            if agentboard_data is not None:
                raise AgentBoardDataError(
                    "agentboard_data= labels the 60 shipped PDDL problems by AgentBoard's line order; a "
                    "problem_file= has no line there: pass one or the other"
                )
            tasks = self._user_task(domain, Path(problem_file), max_steps, domain_file)
        elif domain_file is not None:
            raise ValueError("domain_file needs problem_file= (and domain=)")
        else:
            folder = data_folder(agentboard_data)
            tasks = shipped_tasks(domain) if folder is None else agentboard_tasks(folder, domain)
        super().__init__(tasks, **kwargs)
        if self.text_format == AGENTBOARD:
            self.action_format = _AGENTBOARD_FORMAT
        self._problem: LoadedProblem | None = None
        self._agentboard: AgentBoardText | None = None
        self._state: State = frozenset()

    @staticmethod
    def _user_task(domain: str, path: Path, max_steps: int | None, domain_file: str | Path | None) -> TaskSet:
        key = canonical_domain(domain)
        loaded = load(domain, path, domain_file)
        goal_count = len(loaded.ground.goal)
        return TaskSet(
            [
                TaskSpec(
                    task_id=f"pddl-{key}-{path.stem}",
                    params={
                        "domain": domain,
                        "problem": str(path.expanduser().resolve()),
                        "domain_file": str(Path(domain_file).expanduser().resolve()) if domain_file else None,
                    },
                    goal=loaded.renderer.goal(loaded.ground.goal),
                    difficulty=FAMILY.difficulty.label(goal_count),
                    max_steps=MAX_STEPS if max_steps is None else int(max_steps),
                )
            ]
        )

    # ---- engine hooks ------------------------------------------------------------------------------
    def _start(self, task: TaskSpec, seed: int) -> Start:
        path = Path(task.params["problem"])
        self._problem = load(
            task.params["domain"], path if path.is_absolute() else PROBLEM_DIR / path, task.params.get("domain_file")
        )
        self._state = self._problem.ground.init
        if self.text_format == AGENTBOARD:
            self._agentboard = AgentBoardText(self._problem, self.agentboard_fixes)
            listing = self._agentboard.listing(self._state)
            self.action_example = listing[0].strip()
            return Start(
                observation=self._agentboard.facts_text(self._state),
                goal=self._agentboard.goal(self._problem.ground.goal),
            )
        self._agentboard = None
        renderer = self._problem.renderer
        goal = renderer.goal(self._problem.ground.goal)
        applicable = self._admissible_actions()
        # an instance attribute: the core's first-observation footer quotes an action of this very problem
        self.action_example = applicable[0] if applicable else type(self).action_example
        observation = (
            f"{renderer.text.title}. {renderer.text.intro}\n"
            f"Objects: {', '.join(sorted(self._problem.ground.objects))}.\n"
            f"The current state: {renderer.facts_text(self._state)}\n"
            f"{goal}\n"
            "'look around' shows the whole state again."
        )
        return Start(observation=observation, goal=goal)

    def _act(self, action: str) -> Outcome:
        if self._agentboard is not None:
            return self._act_agentboard(action)
        problem = self._require_problem()
        if normalise(action) in LOOK_ACTIONS:
            return Outcome(observation="The current state: " + problem.renderer.facts_text(self._state), changed=False)
        parsed = problem.parser.parse(action)
        if isinstance(parsed, ParseFailure):
            return Outcome.invalid(
                parsed.message + " Type 'check valid actions' to list the actions you can take now.", parsed.reason
            )
        text = problem.renderer.action(parsed.key)
        ground = problem.ground.by_key.get(parsed.key)
        if ground is None or not ground.applicable(self._state):
            failed = problem.ground.failed_preconditions(parsed.operator, parsed.args, self._state)
            missing = " ".join(problem.renderer.fact(atom) + "." for atom in failed) or "(its preconditions)"
            return Outcome.invalid(
                f"You cannot {text} now. It needs these facts, which are not true: {missing} Nothing changed.",
                InvalidReason.PRECONDITION,
            )
        before = self._state
        self._state = ground.apply(before)
        added, removed = self._state - before, before - self._state
        parts = [f"You {text}."]
        parts.append("Now true: " + (problem.renderer.facts_text(added) or "nothing new."))
        if removed:
            parts.append("No longer true: " + problem.renderer.facts_text(removed))
        if problem.ground.is_goal(self._state):
            parts.append("The goal is satisfied.")
            return Outcome(observation=" ".join(parts), terminated=True, success=True)
        if proven_dead_end(problem.domain_key, problem.ground, self._state):
            parts.append(
                "No sequence of actions can reach the goal from this state any more (a dead end), so the "
                "episode is over."
            )
            return Outcome(observation=" ".join(parts), terminated=True, finish_reason=FinishReason.FAILURE.value)
        return Outcome(observation=" ".join(parts))

    def _act_agentboard(self, action: str) -> Outcome:
        text, lowered = self._agentboard, action.lower()
        if "check" in lowered:
            return Outcome(observation=text.help_text(self._state), changed=False)
        if "look around" in lowered:
            return Outcome(observation=text.facts_text(self._state), changed=False)
        key = text.parse(action, self._state)
        if key is None:
            return Outcome.invalid(NOT_VALID, InvalidReason.UNKNOWN_ACTION)
        problem = self._require_problem()
        ground = problem.ground.by_key.get(key)
        after = ground.apply(self._state) if ground is not None and ground.applicable(self._state) else self._state
        if after == self._state:
            return Outcome.invalid(NO_EFFECT, InvalidReason.PRECONDITION)
        before, self._state = self._state, after
        observation = text.after_action(before, after)
        if problem.ground.is_goal(after):
            return Outcome(observation=observation + GOAL_SATISFIED, terminated=True, success=True)
        return Outcome(observation=observation)

    def _progress(self) -> Progress:
        problem = self._require_problem()
        flags = problem.ground.goal_flags(self._state)
        return Progress(
            now=match_score(flags),
            subgoals=tuple(problem.renderer.fact(atom) for atom in problem.ground.goal),
            subgoals_done=tuple(flags),
        )

    def _admissible_actions(self) -> list[str]:
        if self._agentboard is not None:
            return [action.strip() for action in self._agentboard.listing(self._state)]
        problem = self._require_problem()
        return sorted(problem.renderer.action(a.key) for a in problem.ground.applicable(self._state))

    def _help_text(self) -> str:
        if self._agentboard is not None:
            return self._agentboard.help_text(self._state)
        actions = self._admissible_actions()
        listing = ", ".join(actions) if actions else "none (no action applies in this state)"
        return (
            f"Valid actions are: {listing}. You can also type 'look around' or 'check valid actions'. "
            "Operator forms such as 'stack b1 b2' work too."
        )

    def _expert_action(self) -> str | None:
        if self._agentboard is not None:
            key = expert_key(self._require_problem(), self._state)
            return key if key is None or isinstance(key, str) else self._agentboard.action(key).strip()
        return expert_action(self._require_problem(), self._state)

    # ---- public extras -----------------------------------------------------------------------------
    @property
    def state_atoms(self) -> frozenset[tuple[str, ...]]:
        """The current state as ground atoms ``(predicate, *args)`` (static facts included)."""
        return self._state

    @property
    def problem(self) -> LoadedProblem:
        """The loaded problem of the current episode (ground actions, renderer, parser, planner)."""
        return self._require_problem()

    def _require_problem(self) -> LoadedProblem:
        if self._problem is None:
            raise RuntimeError("call reset() first")
        return self._problem
