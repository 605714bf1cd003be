"""``AgentBench/LateralThinking-v0`` (alias ``AgentQuest/LateralThinking-v0``)."""

from __future__ import annotations

from typing import Any

from agentgym_text.core.info import FinishReason, InvalidReason
from agentgym_text.core.progress import Progress
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.lateral.actions import parse_move, repeats_story
from agentgym_text.envs.lateral.agentbench_file import load_xlsx
from agentgym_text.envs.lateral.agentbench_host import (
    ABORT_LIMIT,
    ABORT_PHRASES,
    AgentBenchGame,
    AgentBenchHost,
    repeats_story_key,
)
from agentgym_text.envs.lateral.expert import ask_key_point, next_question
from agentgym_text.envs.lateral.host import HostError, LLMHost, make_host
from agentgym_text.envs.lateral.puzzles import Puzzle, load_puzzles, normalise
from agentgym_text.envs.lateral.render import GENERIC_QUESTIONS, opening_text, reply_text
from agentgym_text.envs.lateral.tasks import make_tasks, tasks_of

__all__ = ["LateralThinkingEnv", "HOST_PROTOCOLS", "NEEDS_HOST", "STORY", "HOST_REPLY"]

STORY = "story"
"""Reset info: the puzzle's story as the puzzle gives it (the ``agentbench`` agent protocol words its opening)."""
HOST_REPLY = "host_reply"
"""Step info under ``host_protocol="agentbench"`` when the host model answered the move: its reply, stripped."""

HOST_PROTOCOLS = ("ours", "agentbench")
NEEDS_HOST = (
    "These puzzles come from a task file and have no stored facts, so only a host model can answer: make the env "
    "with host_model= (an OpenAI-compatible chat model; host_base_url= for a local server)."
)


class LateralThinkingEnv(TextEnv):
    """Ask yes/no questions until every key point of the truth is uncovered (progress = share uncovered).

    ``host_model`` (with ``host_base_url``, ``host_api_key``, ``host_timeout``, ``host_retries``) makes an
    OpenAI-compatible chat model the host; without it the deterministic fact-matching host answers.
    ``host`` takes any object with the host methods (tests, custom judges). ``host_name`` says which judged.

    ``task_file`` plays AgentBench's own puzzles (``standard.xlsx``, ``dev.xlsx``; see ``agentbench_file.py``),
    which need a host model. ``host_protocol`` picks how a host model judges: "agentbench" (the default with a task
    file) is AgentBench v0.2's protocol (``agentbench_host.py``: the first line of each reply, abort points, the
    story-key filter, one key point at most per question, progress = AgentBench's GP); "ours" (the default
    otherwise) is ``LLMHost``'s.

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
        split: str | None = None,
        host_model: str | None = None,
        host_base_url: str | None = None,
        host_api_key: str | None = None,
        host_timeout: float = 30.0,
        host_retries: int = 3,
        host: Any = None,
        task_file: str | None = None,
        host_protocol: str | None = None,
        **kwargs: Any,
    ):
        protocol = host_protocol or ("agentbench" if task_file else "ours")
        if protocol not in HOST_PROTOCOLS:
            raise ValueError(f"host_protocol must be one of {HOST_PROTOCOLS}, not {protocol!r}")
        if task_file:
            if split is not None:
                raise ValueError(
                    "split= chooses among the shipped puzzles; with task_file= every puzzle of the file plays"
                )
            puzzles = load_xlsx(task_file)
            tasks = tasks_of(puzzles)
        else:
            puzzles = load_puzzles()
            tasks = make_tasks(split or "test")
        super().__init__(tasks, **kwargs)
        self.host_protocol = protocol
        self.from_file = bool(task_file)
        if host is None and (host_model or not self.from_file):
            options = {"timeout": host_timeout, "max_retries": host_retries}
            if host_api_key:
                options["api_key"] = host_api_key
            host = make_host(host_model, host_base_url, **options)
        if protocol == "agentbench" and isinstance(host, LLMHost):
            host = AgentBenchHost(host)
        elif protocol == "agentbench" and host is not None and not hasattr(host, "new_game"):
            raise ValueError('host_protocol="agentbench" needs a host model (host_model=)')
        self.host = host
        self.host_name = getattr(host, "name", type(host).__name__) if host is not None else "none"
        self._puzzles = {puzzle.puzzle_id: puzzle for puzzle in puzzles}
        self.puzzle: Puzzle | None = None
        self._asked: set[tuple[str, ...]] = set()
        self._history: list[tuple[str, str]] = []
        self._uncovered: set[int] = set()
        self._game: AgentBenchGame | None = None
        self._aborts = 0

    def _start(self, task: TaskSpec, seed: int) -> Start:
        self.puzzle = self._puzzles[task.params["puzzle_id"]]
        self._asked, self._history, self._uncovered = set(), [], set()
        self._aborts = 0
        self._game = self.host.new_game(self.puzzle) if hasattr(self.host, "new_game") else None
        return Start(observation=opening_text(self.puzzle), goal=task.goal, info={STORY: self.puzzle.story})

    def _act(self, action: str) -> Outcome:
        if self.host is None:
            return Outcome.invalid(NEEDS_HOST, InvalidReason.PRECONDITION)
        if self._game is not None:
            return self._act_agentbench(action.strip().splitlines()[0].strip())
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

    def _act_agentbench(self, move: str) -> Outcome:
        assert self._game is not None and self.puzzle is not None
        if any(phrase in move for phrase in ABORT_PHRASES):
            self._aborts += 2
            if self._aborts >= ABORT_LIMIT:
                return Outcome(
                    f"The game is over: {self._aborts} abort points (a move may not ask for a new game, story, "
                    "question or round).",
                    valid=False,
                    invalid_reason=InvalidReason.PRECONDITION.value,
                    terminated=True,
                    finish_reason=FinishReason.INVALID_ACTION.value,
                )
            return Outcome.invalid(
                'Keep working out the truth of this story: ask a question that can be answered with "yes", "no" or '
                f'"irrelevant" ({self._aborts} abort points of {ABORT_LIMIT}).',
                InvalidReason.PRECONDITION,
            )
        if repeats_story_key(move, self.puzzle.story_keys):
            return Outcome.invalid("That is already in the story; ask a new question.", InvalidReason.PRECONDITION)
        try:
            reply, keys = self._game.ask(move)
        except HostError as error:
            return Outcome(
                f"The host could not answer ({error}); the episode ends with host_error.",
                terminated=True,
                finish_reason=FinishReason.HOST_ERROR.value,
            )
        self._uncovered |= set(keys)
        self._history.append((move, reply))
        if not self._game.open_keys:
            whole = len(self._uncovered) == self.puzzle.progress_total
            return Outcome(
                f"{reply}\nEvery key point of the truth is uncovered: {self.puzzle.truth}",
                terminated=True,
                success=whole,
                info={HOST_REPLY: reply},
            )
        return Outcome(reply, info={HOST_REPLY: reply})

    def _progress(self) -> Progress:
        count = len(self.puzzle.key_points)
        done = tuple(i in self._uncovered for i in range(count))
        return Progress(
            now=len(self._uncovered) / self.puzzle.progress_total,
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

    def _expert_action(self) -> str | None:
        if self.from_file:
            return ask_key_point(self.puzzle, self._uncovered) if self.host is not None else None
        return next_question(self.puzzle, self._asked)
