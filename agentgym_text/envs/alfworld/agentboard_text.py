"""AgentBoard's words where its ALFWorld env (``environment/alfworld/alfworld_env.py``) and harness
(``tasks/alfworld.py``) change ALFWorld's text; ``agentboard_fixes=False`` speaks them, the default keeps ALFWorld's.
``AgentBoardAlfWorld`` is the text mode of ``AgentBoard/AlfWorld-v0``, each episode an ``AgentBoardEpisode``.

- FIX (look): AgentBoard answers ``look`` with the text of the last successful action whose words hold "go to" or
  "open" (the room description before any), so it can show objects already taken; the fix answers with the
  engine's own ``look``.
- FIX (listing): the harness appends "check valid actions" to the engine's admissible list in place before each
  step, so ``check valid actions`` lists itself last; the fix lists the engine's commands only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from agentgym_text.core.text_env import Outcome
from agentgym_text.core.text_mode import AgentBoardText
from agentgym_text.envs.alfworld import render
from agentgym_text.envs.alfworld.actions import normalise, why_invalid

if TYPE_CHECKING:
    from agentgym_text.envs.alfworld.engine import World

__all__ = ["AgentBoardAlfWorld", "AgentBoardEpisode", "LISTING_PREFIX", "updates_look", "listing"]

LISTING_PREFIX = "Choose an action from these valid actions: "


def updates_look(action: str, feedback: str) -> bool:
    """Whether AgentBoard keeps ``feedback`` as its answer to later ``look`` actions (its substring test)."""
    return ("go to" in action or "open" in action) and "Nothing happens" not in feedback


def listing(admissible: Sequence[str], *, fixes: bool) -> str:
    """The answer to ``check valid actions``."""
    commands = list(admissible)
    if not fixes and "check valid actions" not in commands:
        commands.append("check valid actions")
    return LISTING_PREFIX + ", ".join(commands)


class AgentBoardAlfWorld(AgentBoardText):
    """AgentBoard's words: ALFWorld's commands as they are, AgentBoard's listing; ``fixes=False`` its quirks."""

    def open(self, world: World, intro: str, read: Callable[[str], bool]) -> AgentBoardEpisode:
        """One episode on ``world`` (just reset, ``intro`` its text); ``read`` searches a text for subgoals."""
        return AgentBoardEpisode(world, intro, read, self.fixes)


class AgentBoardEpisode:
    """How one episode reads commands and answers them."""

    def __init__(self, world: World, intro: str, read: Callable[[str], bool], fixes: bool):
        self.world = world
        self.read = read
        self.fixes = fixes
        self.room = intro.split("\n\n")[1]
        self.look_text = self.room
        """AgentBoard's answer to ``look`` (fixes off)."""

    def first_observation(self) -> str:
        return self.room

    def act(self, action: str) -> Outcome:
        world = self.world
        command = normalise(action)
        known = world.commands().get(command)
        if known is None:
            feedback = render.NOTHING_HAPPENS
            # AgentBoard searches this reply too; a new match must be read as progress
            return Outcome.invalid(feedback, why_invalid(command, set(world.by_name)), changed=self.read(feedback))
        feedback = world.apply(known)
        if not self.fixes:
            if action == "look":  # AgentBoard's exact test: "Look" reaches the engine's own look
                feedback = self.look_text
            elif updates_look(action, feedback):
                self.look_text = feedback
        self.read(feedback)
        if world.won():
            return Outcome(observation=feedback, terminated=True, success=True)
        return Outcome(observation=feedback)

    def help_text(self) -> str:
        return listing(self.world.admissible(), fixes=self.fixes)

    def help_read(self, text: str) -> bool:
        """Whether the listing newly credits a subgoal."""
        # FIX: AgentBoard searches its subgoal patterns in the listing too (a listed "take apple 1 from ..." can
        # credit a subgoal); the fix searches only what the game says
        return not self.fixes and self.read(text)
