"""``AgentBoard/Jericho-v0``: AgentBoard's 20 interactive-fiction games through jericho, on the user's game files."""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

from agentgym_text.core.agentboard_data import AgentBoardDataError, data_folder
from agentgym_text.core.info import InvalidReason
from agentgym_text.core.progress import Progress, Subgoal, SubgoalTracker
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.core.text_mode import AGENTBOARD
from agentgym_text.envs.jericho import agentboard_text
from agentgym_text.envs.jericho.actions import META_COMMANDS, check_command, expand_abbreviations
from agentgym_text.envs.jericho.agentboard_data import agentboard_tasks
from agentgym_text.envs.jericho.engine import GameState, JerichoGame, check_game_file, resolve_game_dir
from agentgym_text.envs.jericho.expert import WalkthroughExpert
from agentgym_text.envs.jericho.parser_errors import ParserErrors, parser_errors
from agentgym_text.envs.jericho.render import game_text
from agentgym_text.envs.jericho.tasks import MAX_STEPS, custom_game_task, load_goals, make_tasks
from agentgym_text.envs.jericho.valid_actions import prefetch, prefetch_setting, valid_actions

__all__ = ["JerichoEnv"]

logger = logging.getLogger(__name__)

_PLAIN_TEXT = re.compile(r"[\x20-\x7e]+")
"""Printable ASCII: what a Z-machine parser reads (AgentBoard sends anything, cut to its first word or two)."""


def _subgoal(spec: dict) -> Subgoal:
    kind = spec["kind"]
    if kind == "room":
        room = spec["id"]
        return Subgoal(spec["text"], predicate=lambda view: room in view["visited"])
    if kind == "item":
        item = spec["id"]
        return Subgoal(spec["text"], predicate=lambda view: item in view["state"].inventory)
    value = spec["value"]
    return Subgoal(spec["text"], predicate=lambda view: view["state"].score >= value)


class JerichoEnv(TextEnv):
    """Play a classic text adventure towards a milestone derived from its walkthrough.

    Game files come from ``game_dir`` or ``$AGENTGYM_TEXT_JERICHO_DIR`` (never shipped). ``game=<file>`` plays
    any other game jericho supports instead (goal: the highest score; progress = score / max score).

    ``text_format="agentboard"`` (the default) speaks as AgentBoard's Jericho env (``agentboard_text``): actions cut
    at the first "," and ".", the help answer "You can take the following actions: ...", every reply on one line,
    an action invalid when the reply holds "[!". ``text_format="clear"`` is this suite's text: commands checked
    against the game's dictionary, replies as the game prints them, a command the parser refused invalid
    (``parser_errors``: a rule learned from the game, not from its wording). ``agentboard_fixes`` (default True) fixes
    AgentBoard's bugs and keeps its words: FIX-VALID (a reply the game's parser refuses is invalid too), FIX-META
    (save, restore, restart, quit and the like are refused), FIX-PLAIN (an action of one character, or with characters
    outside printable ASCII, is refused before AgentBoard's cut, which would send "d" of "d.B&☂" to the game),
    FIX-SEED (the reset seed seeds the emulator, where
    AgentBoard's ``FrotzEnv(game_file)`` plays every episode on jericho's default seed, the one its walkthroughs
    replay on) and, with the data, FIX-SUBGOALS-K (``agentboard_data``); ``agentboard_fixes=False`` restores them.

    ``agentboard_data``: AgentBoard's data folder (else ``$AGENTGYM_TEXT_AGENTBOARD_DATA``): the difficulty labels
    and subgoal patterns of ``jericho/test.jsonl``, scored with AgentBoard's progress rule; None: ours.
    The example needs the game files, so the doctest run skips it:

    >>> env = JerichoEnv()  # doctest: +SKIP
    >>> obs, info = env.reset(seed=0, options={"task_id": "jericho-905"})  # doctest: +SKIP
    >>> while not env.episode_over:  # doctest: +SKIP
    ...     obs, reward, terminated, truncated, info = env.step(env.expert_action())
    >>> info["success"], info["progress_rate"]  # doctest: +SKIP
    (True, 1.0)
    """

    action_format = "one command in plain English, such as 'open mailbox', 'go north' or 'take lamp'"
    action_example = "look"
    text_formats = (AGENTBOARD, "clear")

    def __init__(
        self,
        game_dir: str | os.PathLike | None = None,
        game: str | os.PathLike | None = None,
        max_steps: int = MAX_STEPS,
        agentboard_data: str | os.PathLike | None = None,
        **kwargs,
    ):
        folder = data_folder(agentboard_data)
        if folder is not None and game is not None:
            raise AgentBoardDataError(
                "agentboard_data= scores AgentBoard's 20 games; game= plays another game: pass one or the other"
            )
        if game is not None:
            path = Path(game).expanduser()
            if not path.is_absolute() and game_dir is not None:
                path = Path(game_dir).expanduser() / path
            check_game_file(path)
            self._game_dir = path.parent
            tasks = custom_game_task(path, max_steps)
        else:
            self._game_dir = resolve_game_dir(game_dir)
            tasks = make_tasks() if folder is None else agentboard_tasks(folder, kwargs.get("agentboard_fixes", True))
        super().__init__(tasks, **kwargs)
        self._agentboard = self.text_format == AGENTBOARD
        self._scores: list[agentboard_text.SubgoalScore] = []
        self._game = JerichoGame()
        self._record: dict | None = None
        self._tracker: SubgoalTracker | None = None
        self._visited: set[int] = set()
        self._state: GameState | None = None
        self._expert = WalkthroughExpert([])
        self._max_score = 1
        self._reading = Progress(now=0.0)
        self._cut = 9
        self._turn_taken = False
        self._won = False
        self._prefetch = prefetch_setting()
        self._parser_errors: ParserErrors | None = None

    # ---- TextEnv -------------------------------------------------------------------------------------
    def _start(self, task: TaskSpec, seed: int) -> Start:
        params = task.params
        if "path" in params:
            path, record = Path(params["path"]), None
            md5 = check_game_file(path)
        else:
            record = load_goals()[params["game"]]
            path = self._game_dir / params["file"]
            md5 = check_game_file(path, params["md5"])
        # FIX-SEED: AgentBoard plays every episode on jericho's default seed, the one its walkthroughs replay on.
        exact = self._agentboard and not self.agentboard_fixes
        text = self._game.load(path, md5, None if exact else seed)
        # AgentBoard's validity reads "[!" only: its exact mode never needs the parser's replies.
        self._parser_errors = None if exact else parser_errors(self._game)
        self._record = record
        self._state = self._game.state(inventory=record is not None)  # as _act reads it
        self._visited = {self._state.location}
        self._max_score = max(1, self._game.max_score())
        self._cut = max(len(word) for word in self._game.dictionary())
        commands = [expand_abbreviations(c) for c in self._game.walkthrough()]
        if record is not None:
            skip = set(record["skip"])
            commands = [command for index, command in enumerate(commands) if index not in skip]
            annotation = params.get("agentboard")
            self._scores = (
                [agentboard_text.SubgoalScore(items) for items in annotation["subgoals"]] if annotation else []
            )
            self._tracker = SubgoalTracker([_subgoal(s) for s in record["subgoals"]], ordered=False)
            self._expert = WalkthroughExpert(commands[: record["steps"]], record["trace"])
        else:
            self._tracker = None
            self._scores = []
            self._expert = WalkthroughExpert(commands)
        self._reading = self._read(self._game.victory())
        if self._prefetch:
            prefetch(self._game)
        opening = agentboard_text.flatten(text).strip() if self._agentboard else game_text(text)
        return Start(observation=opening, goal=task.goal)

    def _act(self, action: str) -> Outcome:
        if self._agentboard:
            return self._act_agentboard(action)
        rejection = check_command(action, self._game.dictionary(), self._cut)
        if rejection is not None:
            return Outcome.invalid(rejection.message, rejection.reason)
        command = expand_abbreviations(action.strip().rstrip(".!?"))
        text = self._play(command)
        observation = game_text(text)
        if self._refused(command, text):
            return Outcome.invalid(observation, InvalidReason.UNKNOWN_ACTION, changed=self._turn_taken)
        return self._ending(observation)

    def _act_agentboard(self, action: str) -> Outcome:
        """One step as AgentBoard's harness and env take it (``agentboard_text``)."""
        if self.agentboard_fixes and (len(action) == 1 or not _PLAIN_TEXT.fullmatch(action)):  # FIX-PLAIN
            return Outcome.invalid(
                "Type one command in plain English words (letters, digits, spaces), written out (no one-letter "
                "abbreviations), e.g. 'open mailbox'; 'check valid actions' lists some.",
                InvalidReason.UNPARSABLE,
            )
        command = agentboard_text.clean_action(action)
        if agentboard_text.asks_for_actions(command):
            return Outcome(observation=self._help_text(), changed=False)
        words = command.lower().split()
        if self.agentboard_fixes and words and words[0] in META_COMMANDS:  # FIX-META
            return Outcome.invalid(
                f"'{words[0]}' is a game-system command and is disabled here; play the game itself.",
                InvalidReason.UNKNOWN_ACTION,
            )
        text = self._play(command)
        observation = agentboard_text.flatten(text)
        # FIX-VALID: AgentBoard counts a parser refusal ("I don't know the word ...") as a valid action.
        if agentboard_text.marked_invalid(observation) or (self.agentboard_fixes and self._refused(command, text)):
            outcome = self._ending(observation)
            return Outcome(
                observation=outcome.observation,
                valid=False,
                invalid_reason=InvalidReason.UNKNOWN_ACTION.value,
                terminated=outcome.terminated,
                success=outcome.success,
            )
        return self._ending(observation)

    def _play(self, command: str) -> str:
        """Send ``command`` to the game, read its state and progress; the game's raw reply."""
        before = self._state
        text = self._game.step(command)
        # Carried objects only matter to the subgoals; playing a file for its score reads fewer objects a step.
        self._state = state = self._game.state(inventory=self._tracker is not None)
        self._visited.add(state.location)
        self._turn_taken = turn_taken = before is None or state.moves != before.moves or state != before
        self._expert.observe(
            expand_abbreviations(command), score=state.score, location=state.location, turn_taken=turn_taken
        )
        self._won = self._game.victory()
        if self._scores:  # AgentBoard's rule reads the flattened reply, whatever the text format
            observation = agentboard_text.flatten(text)
            for score in self._scores:
                score.update(observation)
        self._reading = self._read(self._won)
        if self._prefetch:
            prefetch(self._game)
        return text

    def _refused(self, command: str, text: str) -> bool:
        """Whether the game's parser refused ``command`` (``parser_errors``), right after ``_play``."""
        assert self._parser_errors is not None
        return self._parser_errors.refused(command, text, self._game, turn_taken=self._turn_taken)

    def _ending(self, observation: str) -> Outcome:
        """The outcome of a game step: over on death or victory, a success when progress is complete."""
        if self._scores:  # AgentBoard: done when progress is 1 or the game is over; success only at progress 1
            done = self._reading.now == 1.0
            if done or self._game.game_over() or self._won:
                return Outcome(observation=observation, terminated=True, success=done)
            return Outcome(observation=observation)
        if self._game.game_over():
            return Outcome(observation=observation, terminated=True, success=False)
        done = self._reading.best == 1.0
        if self._won or done:
            return Outcome(observation=observation, terminated=True, success=done)
        return Outcome(observation=observation)

    def _read(self, won: bool) -> Progress:
        state = self._state
        assert state is not None
        if self._scores:
            return Progress(now=max(score.reward for score in self._scores))
        if self._tracker is not None:
            return self._tracker.update("", {"state": state, "visited": self._visited})
        return Progress(now=max(0.0, state.score / self._max_score), best=1.0 if won else None)

    def _progress(self) -> Progress:
        return self._reading

    def _admissible_actions(self) -> list[str]:
        return valid_actions(self._game)

    def _help_text(self) -> str:
        actions = self._admissible_actions()
        if self._agentboard:
            return agentboard_text.help_text(actions)
        return (
            "Valid actions (commands that change the world here; 'look', 'inventory' and 'examine <thing>' "
            "work too): " + ", ".join(actions)
        )

    def _expert_action(self) -> str | None:
        return self._expert.next_command()

    @property
    def expert_off_reason(self) -> str | None:
        """Why the expert has no move (None while it is on the walkthrough)."""
        return self._expert.off_reason

    def close(self) -> None:
        self._game.close()
        super().close()
