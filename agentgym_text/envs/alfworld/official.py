"""ALFWorld's official text stack on a generated game: textworld's ``PddlEnv`` wrapped in ``AlfredDemangler``.

Used as the reference by the fidelity test and the benchmark (it is 0.1-2 s per reset and tens to hundreds of
ms per step); the env itself never needs it. Note that Fast Downward's translator overwrites ``sys.argv``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from agentgym_text.envs.alfworld.gamefile import tw_pddl_game

__all__ = ["OfficialGame"]


class OfficialGame:
    """One game in the official stack: ``reset()`` and ``step(command)`` return (feedback, admissible, won)."""

    def __init__(self, world: dict[str, Any] | None = None, *, game: dict[str, Any] | None = None):
        import textworld
        from alfworld.agents.environment.alfred_tw_env import AlfredDemangler
        from textworld.envs.pddl import PddlEnv

        infos = textworld.EnvInfos(won=True, admissible_commands=True)
        self.env = AlfredDemangler(PddlEnv(infos), shuffle=False)
        argv = list(sys.argv)
        try:
            self.env.load(game if game is not None else tw_pddl_game(world))
        finally:
            sys.argv[:] = argv

    @classmethod
    def from_file(cls, game_file: str | Path) -> OfficialGame:
        """A downloaded (or exported) ``game.tw-pddl``."""
        return cls(game=json.loads(Path(game_file).read_text()))

    def reset(self) -> tuple[str, list[str], bool]:
        argv = list(sys.argv)
        try:
            state = self.env.reset()
        finally:
            sys.argv[:] = argv
        return state.feedback, list(state["admissible_commands"]), bool(state["won"])

    def step(self, command: str) -> tuple[str, list[str], bool]:
        state, _, _ = self.env.step(command)
        return state.feedback, list(state["admissible_commands"]), bool(state["won"])

    def close(self) -> None:
        self.env.close()
