"""``AgentBench/LateralThinking-v0`` (alias ``AgentQuest/LateralThinking-v0``)."""

from __future__ import annotations

from typing import Any

from agentgym_text.core.info import FinishReason, InvalidReason
from agentgym_text.core.progress import Progress
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.lateral.actions import parse_move, repeats_story
from agentgym_text.envs.lateral.expert import next_question
from agentgym_text.envs.lateral.host import HostError, make_host
from agentgym_text.envs.lateral.puzzles import Puzzle, load_puzzles, normalise
from agentgym_text.envs.lateral.render import GENERIC_QUESTIONS, opening_text, reply_text
from agentgym_text.envs.lateral.tasks import make_tasks

__all__ = ["LateralThinkingEnv"]


class LateralThinkingEnv(TextEnv):
    """Ask yes/no questions until every key point of the truth is uncovered (progress = share uncovered).

    ``host_model`` (with ``host_base_url``, ``host_api_key``, ``host_timeout``, ``host_retries``) makes an
    OpenAI-compatible chat model the host; without it the deterministic fact-matching host answers.
    ``host`` takes any object with the host methods (tests, custom judges). ``host_name`` says which judged.

    >>> env = LateralThinkingEnv()
    >>> obs, info = env.reset(options={"task_index": 0})
    >>> while not env.episode_over:
    ...     obs, reward, terminated, truncated, info = env.step(env.expert_action())
    >>> info["success"], info["progress_rate"]
    (True, 1.0)
    """

    cheap_admissible_actions = True

    def __init__(
        self,
        split: str = "test",
        host_model: str | None = None,
        host_base_url: str | None = None,
        host_api_key: str | None = None,
        host_timeout: float = 30.0,
        host_retries: int = 3,
        host: Any = None,
        **kwargs: Any,
    ):
        super().__init__(make_tasks(split), **kwargs)
        if host is None:
            options = {"timeout": host_timeout, "max_retries": host_retries}
            if host_api_key:
                options["api_key"] = host_api_key
            host = make_host(host_model, host_base_url, **options)
        self.host = host
        self.host_name = getattr(host, "name", type(host).__name__)
        self._puzzles = {puzzle.puzzle_id: puzzle for puzzle in load_puzzles()}
        self.puzzle: Puzzle | None = None
        self._asked: set[tuple[str, ...]] = set()
        self._history: list[tuple[str, str]] = []
        self._uncovered: set[int] = set()

    def _start(self, task: TaskSpec, seed: int) -> Start:
        self.puzzle = self._puzzles[task.params["puzzle_id"]]
        self._asked, self._history, self._uncovered = set(), [], set()
        return Start(observation=opening_text(self.puzzle), goal=task.goal)

    def _act(self, action: str) -> Outcome:
        move = parse_move(action)  # an ActionError is the step's invalid outcome
        words = normalise(move.text)
        if move.kind == "question" and words in self._asked:
            return Outcome.invalid(
                "This question has already been asked. Please ask a new question.", InvalidReason.PRECONDITION
            )
        if move.kind == "question" and repeats_story(move.text, self.puzzle.story):
            return Outcome.invalid(
                "This information is already in the story; please ask a new question.", InvalidReason.PRECONDITION
            )
        try:
            if move.kind == "question":
                reply = self.host.ask(self.puzzle, move.text, self._history, sorted(self._uncovered))
            else:
                reply = self.host.judge_answer(self.puzzle, move.text, sorted(self._uncovered))
        except HostError as error:
            return Outcome(
                f"The host could not answer ({error}); the episode ends with host_error.",
                terminated=True,
                finish_reason=FinishReason.HOST_ERROR.value,
            )
        self._uncovered |= {k for k in reply.key_points if 0 <= k < len(self.puzzle.key_points)}
        if move.kind == "question":
            self._asked.add(words)
            self._history.append((move.text, reply.answer))
            text = reply_text(reply.answer)
        else:
            text = "That is not the whole truth yet; keep asking." if reply.answer != "yes" else "Correct."
        if reply.answer == "yes" and move.kind == "answer":
            self._uncovered = set(range(len(self.puzzle.key_points)))
        if len(self._uncovered) == len(self.puzzle.key_points):
            return Outcome(
                f"{text} You have uncovered the whole truth: {self.puzzle.truth}", terminated=True, success=True
            )
        return Outcome(text)

    def _progress(self) -> Progress:
        count = len(self.puzzle.key_points)
        done = tuple(i in self._uncovered for i in range(count))
        return Progress(
            now=len(self._uncovered) / count,
            subgoals=tuple(f"key point {i + 1}" for i in range(count)),
            subgoals_done=done,
        )

    def _admissible_actions(self) -> list[str]:
        return [q for q in GENERIC_QUESTIONS if normalise(q) not in self._asked]

    def _help_text(self) -> str:
        return (
            "Valid actions: any yes/no question about the story (one per turn, not asked before), e.g. "
            f"'{GENERIC_QUESTIONS[0]}', or 'answer: <the whole truth>'."
        )

    def _expert_action(self) -> str:
        return next_question(self.puzzle, self._asked)
