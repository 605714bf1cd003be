"""``TextEnv``: the base class every task family subclasses.

It owns everything the env contract fixes — input hygiene, the help action, step counting, the info schema,
progress bookkeeping (best-so-far ``progress_rate``, current ``progress_now``, reward = progress increase),
validity and finish reasons, the ``ActionError`` a family raises for an action it cannot carry out, and the choice
of text format — so a family implements only its engine: ``_start``, ``_act``, ``_progress``,
``_admissible_actions`` and ``_expert_action``.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

import gymnasium as gym

from agentgym_text.core.actions import ActionError, unwrap_action
from agentgym_text.core.function_tools import FunctionTool, written_call
from agentgym_text.core.info import FIRST_OBSERVATION, HELP_ACTION, TOOL_HELP_ACTION, FinishReason, InvalidReason
from agentgym_text.core.progress import Progress
from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.core.text_mode import TextMode, make_mode
from agentgym_text.core.text_space import MAX_ACTION_CHARS, MAX_OBSERVATION_CHARS, UTF8Text

__all__ = ["TextEnv", "Start", "Outcome", "ENGINE_ERROR", "RESET_OPTIONS"]

logger = logging.getLogger(__name__)

ENGINE_ERROR = "engine_error"
"""``invalid_reason`` when the engine itself failed on an action; always a bug worth reporting."""

RESET_OPTIONS = frozenset({"task_id", "task_index"})
"""Reset options every env accepts."""

_FORBIDDEN_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
"""Unicode's control characters (category Cc: U+0000-001F, U+007F-009F) except tab, newline and return."""
_HELP_FORMS = {HELP_ACTION, TOOL_HELP_ACTION, "check valid action", "valid actions", "help"}


@dataclass(frozen=True)
class Start:
    """What a family returns from ``_start``: the first observation and what only the engine knows.

    ``task`` replaces the task being played when the family completes it at start (a task derived from the
    engine carries its own goal, subgoals and step budget).
    """

    observation: str
    goal: str
    difficulty: str = ""
    task: TaskSpec | None = None
    info: dict[str, Any] | None = None
    """Extra reset-info fields the family documents (e.g. what an original harness's wording needs)."""


@dataclass(slots=True)  # built every step: a frozen dataclass costs ~1 µs more per instance
class Outcome:
    """What a family returns from ``_act`` for one action.

    ``changed=False`` says the engine state did not change, so progress is not read again (invalid actions
    default to it; pass ``changed=True`` where a refused action still moves the world, e.g. time passes).
    """

    observation: str
    valid: bool = True
    invalid_reason: str | None = None
    terminated: bool = False
    success: bool = False
    finish_reason: str | None = None
    changed: bool = True
    info: dict[str, Any] | None = None
    """Extra step-info fields the family documents (e.g. the raw result an original harness shows)."""

    @classmethod
    def invalid(cls, observation: str, reason: str | InvalidReason, *, changed: bool = False) -> Outcome:
        return cls(
            observation=observation,
            valid=False,
            invalid_reason=str(getattr(reason, "value", reason)),
            changed=changed,
        )


_HELP_NORMALISED = {" ".join(form.replace("_", " ").split()) for form in _HELP_FORMS}
_EMPTY_TOOL_INPUT = re.compile(r"\s+with\s+action\s+input\s*:\s*\{\s*\}$")


def _is_help(action: str) -> bool:
    """The help action in any case/spacing, also in the tool-call form 'check_valid_actions with Action Input: {}'."""
    text = action.lower()
    if "valid" not in text and "help" not in text:  # every help form holds one of the two
        return False
    text = _EMPTY_TOOL_INPUT.sub("", text)
    return " ".join(text.replace("_", " ").split()).rstrip(".!?") in _HELP_NORMALISED


def _fit(text: str, limit: int = MAX_OBSERVATION_CHARS) -> str:
    if len(text) <= limit:
        return text
    marker = f"\n[... {len(text) - limit + 64} characters cut ...]"
    return text[: limit - 64 - len(marker)] + marker


class TextEnv(gym.Env[str, str]):
    """Base class of every text env in this suite. Subclasses set ``self.tasks`` via ``super().__init__``.

    ``list_admissible_actions`` puts ``admissible_actions`` in every info (default: the family's
    ``cheap_admissible_actions``); the list is always available from ``admissible_actions()``.

    ``next_task_id``, when set, names the task the next reset without a task option plays (then it clears).
    It lets a vector env give each sub-env its own task: ``envs.set_attr("next_task_id", [id0, id1, ...])``.

    ``text_format`` picks one of the family's ``modes`` (None: the first; refused when the family speaks one text)
    and ``agentboard_fixes`` is the option of AgentBoard's modes (see ``core.text_mode``); the base checks both once
    and makes ``self.mode`` (None for a one-text family), which the family's hooks delegate to.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}
    cheap_admissible_actions: bool = False
    """True where listing admissible actions costs under 1 ms: then every info carries them by default."""
    action_format: str = ""
    """How an action looks, in words (shown in the first observation), e.g. "one command such as 'look'"."""
    action_example: str = HELP_ACTION
    """One well-formed action, quoted after ``action_format``."""
    help_action: str = HELP_ACTION
    """The help action as this family spells it (tool envs: ``check_valid_actions``)."""
    unwrap_actions: bool = True
    """Strip an LLM's ``Action:`` marker, code fence, quotes and final period before ``_act`` (off for families
    whose action format is itself a marked or fenced block)."""
    reset_option_keys: tuple[str, ...] = ()
    """Reset options a family accepts besides ``task_id`` and ``task_index``."""
    modes: tuple[type[TextMode], ...] = ()
    """The texts the family speaks (``core.text_mode``), the default first; empty: one text."""
    text_formats: tuple[str, ...] = ()
    """The names of ``modes``, in order (the same tuple as the family's declaration's)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "modes" in cls.__dict__:
            cls.text_formats = tuple(mode.name for mode in cls.modes)

    def __init__(
        self,
        tasks: TaskSet,
        *,
        render_mode: str | None = None,
        list_admissible_actions: bool | None = None,
        text_format: str | None = None,
        agentboard_fixes: bool = True,
    ):
        self.mode = make_mode(self.modes, text_format, agentboard_fixes, type(self).__name__)
        self.tasks = tasks
        self.render_mode = render_mode
        self.observation_space = UTF8Text(MAX_OBSERVATION_CHARS)
        self.action_space = UTF8Text(MAX_ACTION_CHARS)
        self._list_admissible = (
            self.cheap_admissible_actions if list_admissible_actions is None else list_admissible_actions
        )
        self._next_task_id: str | None = None
        self._pending_budgets: list[int | None] = []
        self._episode_budgets: tuple[int | None, ...] = ()
        self._task: TaskSpec | None = None
        self._goal = ""
        self._difficulty = ""
        self._observation = ""
        self._step = 0
        self._finished = True
        self._success = False
        self._finish_reason: str | None = None
        self._progress_rate = 0.0
        self._reading = Progress(now=0.0)

    # ---- the family's part -------------------------------------------------------------------------
    def _start(self, task: TaskSpec, seed: int) -> Start:
        """Build the task instance in the engine and return the first observation."""
        raise NotImplementedError

    def _act(self, action: str) -> Outcome:
        """Apply one action (stripped, never empty, never a help command); raise ``ActionError`` for one the
        task cannot carry out (it becomes an invalid outcome, state unchanged)."""
        raise NotImplementedError

    def _progress(self) -> Progress:
        """Read progress from the current engine state (after ``_start`` and after every ``_act``).

        It must read 0 right after ``_start``: rewards are progress increases and sum to the final
        ``progress_rate`` only if nothing is credited before the first action (count milestones that already
        hold at the start from the first action on, or leave them out of the subgoals).
        """
        raise NotImplementedError

    def _admissible_actions(self) -> list[str]:
        """Actions that would be accepted now, in a stable order."""
        raise NotImplementedError

    def _expert_action(self) -> str | None:
        """The expert's next action from the current state."""
        raise NotImplementedError

    def _help_text(self) -> str:
        """The answer to ``check valid actions``; families with huge action sets describe them instead."""
        return "Valid actions: " + ", ".join(self._admissible_actions())

    def _help_outcome(self) -> Outcome:
        """The help action's outcome: ``_help_text()``, the state unchanged (a family whose progress rule reads the
        help text, as AgentBoard's ALFWorld does, returns ``changed=True`` so progress is read again)."""
        return Outcome(observation=self._help_text(), changed=False)

    # ---- public API ----------------------------------------------------------------------------------
    @property
    def text_format(self) -> str | None:
        """The name of the text this env speaks (None for a one-text family)."""
        return None if self.mode is None else self.mode.name

    @property
    def agentboard_fixes(self) -> bool:
        """False only in AgentBoard's words with its bugs restored."""
        return True if self.mode is None else self.mode.fixes

    @property
    def task_ids(self) -> list[str]:
        return self.tasks.task_ids

    @property
    def current_task(self) -> TaskSpec | None:
        return self._task

    @property
    def episode_over(self) -> bool:
        return self._finished

    @property
    def next_task_id(self) -> str | None:
        """The task the next reset without a task option plays (then it clears); checked when set."""
        return self._next_task_id

    @next_task_id.setter
    def next_task_id(self, task_id: str | None) -> None:
        if task_id is not None:
            self.tasks.index_of(str(task_id))  # raises ValueError naming the id
            task_id = str(task_id)
        self._next_task_id = task_id

    def limit_budget(self, steps: int | None) -> None:
        """Called by a step-limit wrapper just before it resets this env: the next episode is cut after ``steps``
        steps (None: the task's own budget). The episode's ``step_budget`` is the smallest such limit, so the
        first observation and ``info["max_steps"]`` state the budget the wrappers enforce."""
        self._pending_budgets.append(None if steps is None else int(steps))

    @property
    def step_budget(self) -> int:
        """This episode's step budget: the smallest limit its step-limit wrappers set, else the task's own."""
        task_budget = int(self._task.max_steps) if self._task else 0
        limits = [task_budget if steps is None else steps for steps in self._episode_budgets]
        limits = [steps for steps in limits if steps > 0]
        return min(limits) if limits else task_budget

    def admissible_actions(self) -> list[str]:
        """The actions that would be accepted now (empty once the episode is over)."""
        return [] if self._finished else list(self._admissible_actions())

    def expert_action(self) -> str | None:
        """The expert's next action from the current state, or None once the episode is over."""
        return None if self._finished else self._expert_action()

    def judge_as_ended(self) -> bool:
        """Whether the task counts as solved when its episode ends here without the agent finishing it (an agent
        protocol ended it: an unreadable reply, the harness's round limit): False, unless the family's original
        judges the world as it then stands (AgentBench v0.2's DB modification questions: the table's hash)."""
        return False

    # ---- function tools (core.function_tools): for envs whose actions are function calls -------------
    def tool_functions(self, *, every_task: bool = False) -> list[FunctionTool]:
        """The functions this env offers a model for the current task (``every_task``: for any task of its task
        set, e.g. to give a trainer's env class one method per function). None by default."""
        return []

    def tool_call_action(self, name: str, arguments: dict[str, Any] | str) -> str:
        """The action text of a call of ``name`` (``arguments``: the model's, or its raw text when they are no JSON
        object). By default the call as written (``written_call``), which the env's parser judges."""
        return written_call(name, arguments)

    def action_tool_call(self, action: str) -> tuple[str, dict[str, Any]] | None:
        """The call of one of ``tool_functions()`` that ``action`` stands for; None when it is no call."""
        return None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict]:
        self._episode_budgets, self._pending_budgets = tuple(self._pending_budgets), []
        options = dict(options or {})
        unknown = sorted(set(options) - RESET_OPTIONS - set(self.reset_option_keys))
        if unknown:
            accepted = ", ".join(sorted(RESET_OPTIONS | set(self.reset_option_keys)))
            raise ValueError(f"unknown reset option(s) {', '.join(map(repr, unknown))}; accepted: {accepted}")
        super().reset(seed=seed)
        task = self.tasks.choose(self._with_next_task(options), self.np_random)
        engine_seed = int(self.np_random.integers(2**31 - 1))
        self._task = task
        self._step = 0
        self._finished = False
        self._success = False
        self._finish_reason = None
        self._progress_rate = 0.0
        start = self._start(task, engine_seed)
        if start.task is not None:
            self._task = task = start.task
        self._goal = start.goal or task.goal
        self._difficulty = start.difficulty or task.difficulty or "easy"
        self._observation = _fit(self._first_observation(start.observation))
        self._record_progress(credit=False)
        info = self._info(valid=True, invalid_reason=None)
        info[FIRST_OBSERVATION] = _fit(start.observation)
        if start.info:
            info.update(start.info)
        return self._observation, info

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        if self._finished:
            return self._reply(
                Outcome.invalid("The episode is over: call reset() to start a new one.", InvalidReason.EPISODE_OVER),
                terminated=True,
            )
        self._step += 1
        problem = self._input_problem(action)
        if problem is not None:
            return self._reply(problem)
        text = action.decode("utf-8") if isinstance(action, bytes) else action
        text = unwrap_action(text) if self.unwrap_actions else text.strip()
        if not text:
            return self._reply(
                Outcome.invalid(
                    f"The action is empty once its wrapping is removed. Send one action, e.g. '{self.action_example}'.",
                    InvalidReason.EMPTY,
                )
            )
        if _is_help(text) or (not self.unwrap_actions and _is_help(unwrap_action(text))):
            outcome = self._help_outcome()
        else:
            try:
                outcome = self._act(text)
            except ActionError as error:
                outcome = Outcome.invalid(error.message, error.reason)
            except Exception as error:  # an engine failure must not end a long evaluation run
                logger.exception("engine error on action %r", text[:200])
                outcome = Outcome.invalid(f"The engine failed on this action ({type(error).__name__}).", ENGINE_ERROR)
        previous = self._progress_rate
        if outcome.changed or outcome.terminated:
            self._record_progress(credit=True)
        if outcome.terminated:
            self._finished = True
            self._success = outcome.success
            self._finish_reason = (
                FinishReason.SUCCESS.value if outcome.success else (outcome.finish_reason or FinishReason.FAILURE.value)
            )
        return self._reply(outcome, reward=self._progress_rate - previous, terminated=outcome.terminated)

    def render(self) -> str | None:
        if self.render_mode == "human":
            print(self._observation)
            return None
        return self._observation

    # ---- bookkeeping ---------------------------------------------------------------------------------
    def _input_problem(self, action: Any) -> Outcome | None:
        if isinstance(action, bytes):
            try:
                action = action.decode("utf-8")
            except UnicodeDecodeError:
                return Outcome.invalid("The action is not valid UTF-8 text.", InvalidReason.NOT_TEXT)
        if not isinstance(action, str):
            return Outcome.invalid(
                f"The action must be text (a str), not {type(action).__name__}.", InvalidReason.NOT_TEXT
            )
        if len(action) > MAX_ACTION_CHARS:
            return Outcome.invalid(
                f"The action is {len(action)} characters long; the limit is {MAX_ACTION_CHARS}. "
                f"Send one short action such as '{HELP_ACTION}'.",
                InvalidReason.TOO_LONG,
            )
        if _FORBIDDEN_CONTROL.search(action):
            return Outcome.invalid(
                "The action contains control characters; send plain text.", InvalidReason.CONTROL_CHARACTERS
            )
        if not action.strip():
            return Outcome.invalid(
                f"The action is empty. Type an action, or '{HELP_ACTION}' to list them.", InvalidReason.EMPTY
            )
        return None

    def _with_next_task(self, options: dict[str, Any]) -> dict[str, Any]:
        if self._next_task_id is not None and not options.keys() & {"task_id", "task_index"}:
            options = {**options, "task_id": self._next_task_id}
        self._next_task_id = None
        return options

    def _first_observation(self, observation: str) -> str:
        """The family's first observation plus what a newcomer needs: goal, action format, step budget."""
        lines = [observation.rstrip()]
        if self._goal and self._goal not in observation:
            lines.append(f"Your goal: {self._goal}")
        if self.action_format:
            lines.append(
                f"Actions: {self.action_format}, e.g. '{self.action_example}'. "
                f"'{self.help_action}' lists what you can do."
            )
        budget = self.step_budget
        if budget:
            lines.append(f"You have {budget} steps.")
        return "\n".join(lines)

    def _record_progress(self, *, credit: bool) -> None:
        """Read progress; ``credit=False`` at reset: what holds before the first action earns nothing."""
        reading = self._progress()
        self._reading = reading
        if not credit:
            return
        now = min(1.0, max(0.0, float(reading.now)))
        best = now if reading.best is None else min(1.0, max(0.0, float(reading.best)))
        self._progress_rate = max(self._progress_rate, best)

    def _reply(
        self,
        outcome: Outcome,
        *,
        reward: float = 0.0,
        terminated: bool = False,
    ) -> tuple[str, float, bool, bool, dict]:
        self._observation = _fit(outcome.observation)
        info = self._info(valid=outcome.valid, invalid_reason=outcome.invalid_reason)
        if outcome.info:
            info.update(outcome.info)
        return self._observation, float(reward), bool(terminated), False, info

    def _info(self, *, valid: bool, invalid_reason: str | None) -> dict[str, Any]:
        reading = self._reading
        return {
            "goal": self._goal,
            "task_id": self._task.task_id if self._task else "",
            "difficulty": self._difficulty,
            "progress_rate": float(self._progress_rate),
            "progress_now": float(min(1.0, max(0.0, reading.now))),
            "subgoals": list(reading.subgoals),
            "subgoals_done": list(map(bool, reading.subgoals_done)),
            "success": bool(self._success),
            "valid": bool(valid),
            "invalid_reason": invalid_reason,
            "finish_reason": self._finish_reason,
            "step": int(self._step),
            "max_steps": self.step_budget,
            "admissible_actions": self.admissible_actions() if self._list_admissible else [],
        }
