"""``AgentBench/CardGame-v0``: Aquawar against the built-in rule-based opponent."""

from __future__ import annotations

from agentgym_text.core.info import InvalidReason
from agentgym_text.core.progress import Progress
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.cardgame.actions import format_guess, format_move, parse_guess, parse_move, read_object
from agentgym_text.envs.cardgame.expert import expert_input, legal_guesses, legal_moves
from agentgym_text.envs.cardgame.game import FISH_TYPES, MAX_HP, MAX_ROUNDS, broken_rule
from agentgym_text.envs.cardgame.match import PHASE_RULE, Match
from agentgym_text.envs.cardgame.render import rules_text, turn_text
from agentgym_text.envs.cardgame.sdk_view import sdk_view
from agentgym_text.envs.cardgame.tasks import make_tasks

__all__ = ["CardGameEnv"]


class CardGameEnv(TextEnv):
    """Guess the enemy fish and defeat them.

    Progress = mean of three shares: enemy HP removed, enemy fish known (revealed or dead), and the win. Info
    ``dcg_score`` (reset and every played step): AgentBench's DCG reward for this game so far, 0.7 for a win plus
    0.3 x the enemy HP removed / 1,600 (its ``score`` is win rate x 0.7 + min(0.3, damage rate x 0.3), damage
    rate = HP removed over 1,600 a game, which never exceeds 1, so the mean of this field is AgentBench's score).
    The task's own seed drives the opponent; ``reset(seed=...)`` only picks the task. ``split="train"``
    (with ``num_tasks``) gives as many training games as wanted, none of them a test game.

    ``agent_lineup`` (four fish types) puts the agent's fish in that order in every game instead of the task's
    (AgentBench's agent always picks the same order). ``agentbench_sdk=True`` adds info ``aquawar`` (reset and every
    step: the game as AgentBench v0.2's logic reports it to its agent, ``sdk_view.sdk_view``) and lets the agent
    pass its guess with ``{"guess_type": null}``; the observation text is the same either way.

    >>> env = CardGameEnv()
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
        num_tasks: int | None = None,
        expert_depth: int = 1,
        agent_lineup: list[str] | None = None,
        agentbench_sdk: bool = False,
        **kwargs,
    ):
        super().__init__(make_tasks(split, num_tasks), **kwargs)
        if agent_lineup is not None and sorted(agent_lineup) != sorted(FISH_TYPES):
            raise ValueError(f"agent_lineup is the four fish {FISH_TYPES} in some order, not {agent_lineup}")
        self.expert_depth = expert_depth
        self.agent_lineup = None if agent_lineup is None else list(agent_lineup)
        self.agentbench_sdk = agentbench_sdk
        self.match: Match | None = None

    def _start(self, task: TaskSpec, seed: int) -> Start:
        params = task.params
        lineup = self.agent_lineup or list(params["agent_lineup"])
        self.match = Match(lineup, list(params["enemy_lineup"]), int(params["seed"]))
        return Start(
            observation=rules_text(MAX_ROUNDS) + "\n\n" + turn_text(self.match),
            goal=task.goal,
            info=self._sdk_info(),
        )

    def _sdk_info(self) -> dict:
        info = {"dcg_score": self._dcg_score()}
        if self.agentbench_sdk:
            info["aquawar"] = sdk_view(self.match)
        return info

    def _act(self, action: str) -> Outcome:
        match = self.match
        value = read_object(action)
        if value is None:
            return Outcome.invalid(
                'No move found. Send a JSON object: {"guess_type": ..., "target_position": ...} in the guess '
                'phase, {"pick_fish": ..., "action": ..., "target_position": ...} in the action phase.',
                InvalidReason.UNPARSABLE,
            )
        # a move that breaks a rule raises ActionError: the step's invalid outcome
        if match.phase == "guess" and "guess_type" not in value:
            raise broken_rule(f"Rule: {PHASE_RULE['guess']}")
        if match.phase == "action" and "pick_fish" not in value:
            raise broken_rule(f"Rule: {PHASE_RULE['action']}")
        if match.phase == "guess" and self.agentbench_sdk and value.get("guess_type", "") is None:
            match.pass_guess()
        elif match.phase == "guess":
            match.guess(*parse_guess(value))
        else:
            match.act(parse_move(value, self._lineup()))
        observation = turn_text(match)
        score = self._sdk_info()
        if match.phase == "over":
            return Outcome(observation, terminated=True, success=match.result == 0, info=score)
        return Outcome(observation, info=score)

    def _lineup(self) -> list[str]:
        return [fish.kind for fish in self.match.game.teams[0]]

    def _dcg_score(self) -> float:
        enemy = self.match.game.teams[1]
        removed = sum(MAX_HP - max(fish.hp, 0) for fish in enemy)
        return (0.7 if self.match.result == 0 else 0.0) + 0.3 * removed / (MAX_HP * len(enemy))

    def _progress(self) -> Progress:
        enemy = self.match.game.teams[1]
        removed = sum(MAX_HP - fish.hp for fish in enemy) / (MAX_HP * len(enemy))
        known = sum(fish.revealed or not fish.alive for fish in enemy) / len(enemy)
        won = 1.0 if self.match.result == 0 else 0.0
        return Progress(now=(removed + known + won) / 3)

    def _admissible_actions(self) -> list[str]:
        match = self.match
        if match.phase == "guess":
            return [format_guess(pos, kind) for pos, kind in legal_guesses(match)]
        if match.phase == "action":
            lineup = self._lineup()
            return [format_move(lineup[m.fish], m.action, m.target) for m in legal_moves(match.game)]
        return []

    def _help_text(self) -> str:
        return "Valid actions now: " + "; ".join(self._admissible_actions())

    def _expert_action(self) -> str | None:
        choice = expert_input(self.match, self.expert_depth)
        if choice is None:
            return None
        kind, value = choice
        if kind == "guess":
            return format_guess(*value)
        return format_move(self._lineup()[value.fish], value.action, value.target)
