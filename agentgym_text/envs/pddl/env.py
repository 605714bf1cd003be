"""``AgentBoard/PDDL-v0``: PDDL planning problems (Blocksworld, Gripper, Barman, Tyreworld) as a text game."""

from __future__ import annotations

import os
from pathlib import Path

from agentgym_text.core.agentboard_data import AgentBoardDataError, data_folder
from agentgym_text.core.info import FinishReason
from agentgym_text.core.progress import Progress, match_score
from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.pddl.agentboard_data import agentboard_tasks
from agentgym_text.envs.pddl.agentboard_text import AgentBoardMode
from agentgym_text.envs.pddl.clear_text import LOOK_ACTIONS, ClearMode
from agentgym_text.envs.pddl.domain_texts import canonical_domain
from agentgym_text.envs.pddl.expert import expert_key
from agentgym_text.envs.pddl.model import State
from agentgym_text.envs.pddl.problem_files import PROBLEM_DIR, LoadedProblem, load
from agentgym_text.envs.pddl.registration import FAMILY, MAX_STEPS
from agentgym_text.envs.pddl.tasks import shipped_tasks

__all__ = ["PDDLEnv", "LOOK_ACTIONS"]

GOAL_SATISFIED = " The goal is satisfied."
"""Both texts end a won episode with it."""


class PDDLEnv(TextEnv):
    """Reach a PDDL goal by typing actions (Blocksworld, Gripper, Barman, Tyreworld); the family README
    (``envs/pddl/README.md``) describes both texts, the FIX list and how the text compares with AgentBoard's.

    Its texts (``modes``): AgentBoard's words (``agentboard_text.AgentBoardMode``, the default;
    ``agentboard_fixes=False`` restores its bugs) and this package's own (``clear_text.ClearMode``,
    ``text_format="clear"``); the env keeps problem and state and asks its mode for the words. ``domain`` restricts the shipped tasks to one domain; with
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

    modes = (AgentBoardMode, ClearMode)
    mode: AgentBoardMode | ClearMode
    cheap_admissible_actions = True
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
        self.action_format = self.mode.action_format
        self._problem: LoadedProblem | None = None
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
        # an instance attribute: the core's first-observation footer quotes an action of this very problem
        self.action_example = self.mode.action_example(self._problem, self._state) or type(self).action_example
        return self.mode.start(self._problem, self._state)

    def _act(self, action: str) -> Outcome:
        problem, before = self._require_problem(), self._state
        key = self.mode.read_action(problem, before, action)
        if isinstance(key, Outcome):
            return key
        ground = problem.ground.by_key.get(key)
        after = ground.apply(before) if ground is not None and ground.applicable(before) else None
        refusal = self.mode.refusal(problem, before, key, after)
        if refusal is not None:
            return refusal
        self._state = after
        observation = self.mode.after_action(problem, key, before, after)
        if problem.ground.is_goal(after):
            return Outcome(observation=observation + GOAL_SATISFIED, terminated=True, success=True)
        dead_end = self.mode.dead_end(problem, after)
        if dead_end is not None:
            return Outcome(f"{observation} {dead_end}", terminated=True, finish_reason=FinishReason.FAILURE.value)
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
        return self.mode.actions(self._require_problem(), self._state)

    def _help_text(self) -> str:
        return self.mode.help_text(self._require_problem(), self._state)

    def _expert_action(self) -> str | None:
        problem = self._require_problem()
        key = expert_key(problem, self._state)
        return key if key is None or isinstance(key, str) else self.mode.action_text(problem, key)

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
