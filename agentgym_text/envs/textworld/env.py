"""``TextWorld/Coin-v0``, ``TextWorld/Treasure-v0``, ``TextWorld/Cooking-v0``: games built here by textworld."""

from __future__ import annotations

from collections.abc import Iterable

from agentgym_text.core.info import InvalidReason
from agentgym_text.core.progress import Progress, Subgoal, SubgoalTracker
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.textworld.actions import check_command, refused
from agentgym_text.envs.textworld.expert import policy_action
from agentgym_text.envs.textworld.generator import INFOS, build_game
from agentgym_text.envs.textworld.registration import FAMILY
from agentgym_text.envs.textworld.render import game_text
from agentgym_text.envs.textworld.tasks import DEFAULT_TRAIN_COUNT, make_tasks, training_tasks

__all__ = ["TextWorldEnv", "SPLITS"]

SPLITS = ("test", "train")


def _subgoal(spec: dict) -> Subgoal:
    added, removed = frozenset(spec["added"]), frozenset(spec["removed"])
    return Subgoal(spec["text"], predicate=lambda facts: added <= facts and not (removed & facts))


class TextWorldEnv(TextEnv):
    """A TextWorld challenge game; subgoals are the winning policy's world-changing commands, checked on facts.

    ``split="train"`` replaces the 30 test games by ``num_tasks`` (default 1,000) training games from seeds of
    their own (``tasks.training_tasks``); ``seeds`` (any integers) by one game per seed.

    >>> env = TextWorldEnv("coin")
    >>> obs, info = env.reset(options={"task_index": 0})
    >>> while not env.episode_over:
    ...     obs, reward, terminated, truncated, info = env.step(env.expert_action())
    >>> info["success"], info["progress_rate"]
    (True, 1.0)
    """

    cheap_admissible_actions = True
    action_format = "one command such as 'go north', 'open door' or 'take coin'"
    action_example = "look"

    def __init__(
        self,
        challenge: str = "coin",
        seeds: Iterable[int] | None = None,
        split: str = "test",
        num_tasks: int | None = None,
        **kwargs,
    ):
        if split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
        if split == "train" and seeds is not None:
            raise ValueError("seeds= names the games itself: give split='train' (with num_tasks=) or seeds=, not both")
        if split == "test" and num_tasks is not None:
            raise ValueError("num_tasks= sizes the training split (split='train'); the test split has 30 games")
        self.challenge = challenge
        if split == "train":
            tasks = training_tasks(challenge, DEFAULT_TRAIN_COUNT if num_tasks is None else num_tasks)
        else:
            tasks = make_tasks(challenge, seeds)
        super().__init__(tasks, **kwargs)
        self._env = None
        self._path = ""
        self._state = None
        self._tracker: SubgoalTracker | None = None
        self._reading = Progress(now=0.0)

    def _start(self, task: TaskSpec, seed: int) -> Start:
        import textworld

        files = build_game(task.params["challenge"], task.params["settings"], task.params["seed"])
        if self._env is None or self._path != str(files.path):
            self.close_engine()
            self._env = textworld.start(str(files.path), request_infos=textworld.EnvInfos(**INFOS))
            self._path = str(files.path)
        self._state = self._env.reset()
        self._tracker = SubgoalTracker([_subgoal(spec) for spec in files.subgoals], ordered=False)
        self._reading = self._read()
        goal = " ".join(self._state.objective.split())
        return Start(
            observation=game_text(self._state.feedback),
            goal=goal,
            difficulty=FAMILY.difficulty.label(len(files.subgoals)),
        )

    def _read(self) -> Progress:
        assert self._tracker is not None and self._state is not None
        reading = self._tracker.update("", frozenset(str(fact) for fact in self._state.facts))
        if self._state.won:
            self._tracker.done = [True] * len(self._tracker.subgoals)
            return Progress(
                now=1.0, best=1.0, subgoals=reading.subgoals, subgoals_done=tuple(True for _ in reading.subgoals)
            )
        return reading

    def _act(self, action: str) -> Outcome:
        assert self._state is not None
        command = " ".join(action.strip().rstrip(".!?").lower().split())
        admissible = set(self._state.admissible_commands)
        if command not in admissible:
            problem = check_command(command, self._state.verbs)
            if problem is not None:
                return Outcome.invalid(problem[0], problem[1])
        self._state, _, _ = self._env.step(command)
        self._reading = self._read()
        observation = game_text(self._state.feedback)
        if command not in admissible and refused(observation):
            return Outcome.invalid(observation, InvalidReason.UNKNOWN_ACTION, changed=True)
        if self._state.won:
            return Outcome(observation=observation, terminated=True, success=True)
        if self._state.lost:
            return Outcome(observation=observation, terminated=True, success=False)
        return Outcome(observation=observation)

    def _progress(self) -> Progress:
        return self._reading

    def _admissible_actions(self) -> list[str]:
        assert self._state is not None
        return sorted(set(self._state.admissible_commands))

    def _expert_action(self) -> str | None:
        return policy_action(self._state)

    def close_engine(self) -> None:
        if self._env is not None:
            self._env.close()
            self._env = None

    def close(self) -> None:
        self.close_engine()
        super().close()
