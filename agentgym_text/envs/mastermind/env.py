"""``AgentQuest/Mastermind-v0``."""

from __future__ import annotations

from agentgym_text.core.progress import Progress
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.mastermind.actions import parse_guess
from agentgym_text.envs.mastermind.expert import consistent_guess
from agentgym_text.envs.mastermind.game import CodeRules, feedback
from agentgym_text.envs.mastermind.tasks import TASK_COUNT, make_tasks

__all__ = ["MastermindEnv"]


class MastermindEnv(TextEnv):
    """Guess the secret code. Progress = symbols of the latest guess in the right place (AgentQuest's PR_t).

    >>> env = MastermindEnv()
    >>> obs, info = env.reset(options={"task_index": 0})
    >>> while not env.episode_over:
    ...     obs, reward, terminated, truncated, info = env.step(env.expert_action())
    >>> info["success"], info["progress_rate"]
    (True, 1.0)
    """

    action_format = "'guess <code>', one code per step"
    action_example = "guess 0123"

    def __init__(
        self,
        length: int = 4,
        alphabet: str = "0123456789",
        repeats: bool = False,
        num_tasks: int = TASK_COUNT,
        **kwargs,
    ):
        self.rules = CodeRules(length=length, alphabet=alphabet, repeats=repeats)
        super().__init__(make_tasks(self.rules, num_tasks), **kwargs)
        self._secret = ""
        self._history: list[tuple[str, tuple[int, int]]] = []

    def _start(self, task: TaskSpec, seed: int) -> Start:
        self._secret = str(task.params["secret"])
        self._history = []
        return Start(observation=f"I have chosen {self.rules.describe()}.", goal=task.goal)

    def _act(self, action: str) -> Outcome:
        guess = parse_guess(action, self.rules)  # an ActionError is the step's invalid outcome
        exact, near = feedback(self._secret, guess)
        self._history.append((guess, (exact, near)))
        if guess == self._secret:
            return Outcome(
                observation=f"{guess}: all {exact} symbols in the right place. You cracked the code!",
                terminated=True,
                success=True,
            )
        return Outcome(observation=f"{guess}: {exact} in the right place, {near} right but in the wrong place.")

    def _progress(self) -> Progress:
        if not self._history:
            return Progress(now=0.0)
        exact = self._history[-1][1][0]
        return Progress(now=exact / self.rules.length)

    def _admissible_actions(self) -> list[str]:
        return [f"guess {code}" for code in self.rules.codes()]

    def _help_text(self) -> str:
        return (
            f"Valid actions: 'guess <code>' where <code> is {self.rules.describe()}, "
            f"e.g. 'guess {next(self.rules.codes())}'."
        )

    def _expert_action(self) -> str:
        return f"guess {consistent_guess(self.rules, self._history)}"
