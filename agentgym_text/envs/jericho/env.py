"""``AgentBoard/Jericho-v0``: AgentBoard's 20 interactive-fiction games through jericho, on the user's game files."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from agentgym_text.core.agentboard_data import AgentBoardDataError, data_folder
from agentgym_text.core.progress import Progress, Subgoal, SubgoalTracker
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.jericho.actions import expand_abbreviations
from agentgym_text.envs.jericho.agentboard_data import PatternProgress
from agentgym_text.envs.jericho.agentboard_text import AgentBoardMode
from agentgym_text.envs.jericho.clear_text import ClearMode
from agentgym_text.envs.jericho.engine import GameState, JerichoGame, check_game_file, resolve_game_dir
from agentgym_text.envs.jericho.expert import WalkthroughExpert
from agentgym_text.envs.jericho.parser_errors import ParserErrors, parser_errors
from agentgym_text.envs.jericho.tasks import MAX_STEPS, custom_game_task, load_goals, make_tasks
from agentgym_text.envs.jericho.turn import Turn
from agentgym_text.envs.jericho.valid_actions import prefetch, prefetch_setting, valid_actions

__all__ = ["JerichoEnv"]

logger = logging.getLogger(__name__)


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

    Texts (``modes``): AgentBoard's words (``agentboard_text``, the default; ``agentboard_fixes=False`` restores
    AgentBoard's bugs) and ours (``clear_text``). ``agentboard_data``: AgentBoard's data folder (else
    ``$AGENTGYM_TEXT_AGENTBOARD_DATA``), whose difficulty labels and subgoal patterns are scored with AgentBoard's
    progress rule; None: ours. The family README describes both texts, the fixes and the data.
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
    modes = (AgentBoardMode, ClearMode)
    mode: AgentBoardMode | ClearMode

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
            tasks = make_tasks()
        super().__init__(tasks, **kwargs)
        if folder is not None:
            self.tasks = self.mode.scored_tasks(folder)
        self._patterns: PatternProgress | None = None
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
        text = self._game.load(path, md5, None if self.mode.exact_seed else seed)
        self._parser_errors = parser_errors(self._game) if self.mode.judges_refusals else None
        self._record = record
        self._state = self._game.state(inventory=record is not None)  # as _act reads it
        self._visited = {self._state.location}
        self._max_score = max(1, self._game.max_score())
        self._cut = self._game.longest_word()
        commands = self._game.walkthrough()
        if record is not None:
            skip = set(record["skip"])
            commands = [command for index, command in enumerate(commands) if index not in skip]
            annotation = params.get("agentboard")
            self._patterns = PatternProgress(annotation["subgoals"]) if annotation else None
            self._tracker = SubgoalTracker([_subgoal(s) for s in record["subgoals"]], ordered=False)
            self._expert = WalkthroughExpert(commands[: record["steps"]], record["trace"])
        else:
            self._tracker = None
            self._patterns = None
            self._expert = WalkthroughExpert(commands)
        self._reading = self._read(self._game.victory())
        if self._prefetch:
            prefetch(self._game)
        return Start(observation=self.mode.opening(text), goal=task.goal)

    def _act(self, action: str) -> Outcome:
        command = self.mode.command(action, self._game.dictionary(), self._cut)
        if command is None:
            return self._help_outcome()
        reply = self._play(command)
        terminated, success = self._ending()
        turn = Turn(command, reply, self._game, self._parser_errors, self._turn_taken, terminated, success)
        return self.mode.reply(turn)

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
        if self._patterns is not None:  # AgentBoard's rule, whatever the text
            self._patterns.update(text)
        self._reading = self._read(self._won)
        if self._prefetch:
            prefetch(self._game)
        return text

    def _ending(self) -> tuple[bool, bool]:
        """(terminated, success) after a game step: over on death or victory, a success when progress is complete."""
        if self._patterns is not None:  # AgentBoard: done at progress 1 or when the game is over; success at 1 only
            done = self._reading.now == 1.0
            return done or self._game.game_over() or self._won, done
        if self._game.game_over():
            return True, False
        done = self._reading.best == 1.0
        return self._won or done, done

    def _read(self, won: bool) -> Progress:
        state = self._state
        assert state is not None
        if self._patterns is not None:
            return Progress(now=self._patterns.now)
        if self._tracker is not None:
            return self._tracker.update("", {"state": state, "visited": self._visited})
        return Progress(now=max(0.0, state.score / self._max_score), best=1.0 if won else None)

    def _progress(self) -> Progress:
        return self._reading

    def _admissible_actions(self) -> list[str]:
        return valid_actions(self._game)

    def _help_text(self) -> str:
        return self.mode.help_text(self._admissible_actions())

    def _expert_action(self) -> str | None:
        return self._expert.next_command()

    @property
    def expert_off_reason(self) -> str | None:
        """Why the expert has no move (None while it is on the walkthrough)."""
        return self._expert.off_reason

    def close(self) -> None:
        self._game.close()
        super().close()
