"""AgentBench v0.2's lateral-thinking task server (``src/server/tasks/ltp/task.py``,
``LateralThinkingPuzzle.start_sample``).

- Every round is one user turn (the host's words) and the reply; the first is
  ``ENPrompter().solver_instruction(story)`` (the story from the env's reset info ``story``).
- The move is the reply's first line, stripped (the whole reply stays in the history); the env plays it
  (``LateralThinkingEnv`` with ``host_protocol="agentbench"``). An empty reply ends the episode (the server breaks
  with ``COMPLETED``; here ``failure``).
- The next user turn is the host model's reply (the env's step info ``host_reply``), else the server's hint for a
  refused move: the invalid-move hint when ``check_solver_valid`` refuses it, the in-the-story hint otherwise. (The
  shipped puzzles' own host, not AgentBench's, is shown in its own words.)
  ``round_limit``: 25 (``configs/tasks/ltp.yaml``).

``ENPrompter``'s methods (and its base ``Prompter``'s) are read from their definitions in the checkout and
interpreted (``interpret.ClassReader``): nothing of the checkout runs, the module (pandas, nltk, the client) is not
imported.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentgym_text.agents.protocols.agentbench.session import AgentBenchTask
from agentgym_text.agents.protocols.agentbench.source import TaskSource
from agentgym_text.agents.protocols.base import CheckoutError, Opening, Reading
from agentgym_text.core.info import FinishReason

__all__ = ["LTPTask", "MODULE", "locate"]

MODULE = "src/server/tasks/ltp/task.py"
ROUNDS = 25


def locate(source: TaskSource) -> dict[str, ast.AST]:
    """The node holding the texts: the ``ENPrompter`` class."""
    return {"ENPrompter": source.klass("ENPrompter")}


class LTPTask(AgentBenchTask):
    round_limit = ROUNDS

    def __init__(self, checkout: Path):
        super().__init__(checkout)
        source = TaskSource(checkout, MODULE)
        try:
            self.prompter = source.instance("ENPrompter", bases=("Prompter",))
            self.hint_invalid: str = self.prompter.solver_hint_invalid()
            self.hint_in_story: str = self.prompter.solver_hint_appeared_in_story()
            self.prompter.solver_instruction("")
        except CheckoutError:
            raise
        except Exception as error:  # a class that does not run as v0.2's does
            raise source.missing(f"working ENPrompter ({type(error).__name__}: {error})") from None

    def opening(self, opening: Opening) -> list[dict[str, str]]:
        story = opening.info.get("story", opening.bare_observation)
        return [{"role": "user", "content": self.prompter.solver_instruction(story)}]

    def read(self, reply: str, history: list[dict[str, str]]) -> Reading:
        if not reply:
            return Reading(None, finish_reason=FinishReason.FAILURE.value, note="an empty reply ends the game")
        return Reading(reply.split("\n")[0].strip())

    def observe(self, observation: str, info: Mapping[str, Any], history: list[dict[str, str]]) -> list[dict[str, str]]:
        reply = info.get("host_reply")
        if reply is not None:
            return [{"role": "user", "content": str(reply)}]
        if info.get("valid", False):  # a host that is not AgentBench's (the shipped puzzles' own): its words
            return [{"role": "user", "content": observation}]
        move = history[-1]["content"].split("\n")[0].strip()
        hint = self.hint_in_story if self.prompter.check_solver_valid(move) else self.hint_invalid
        return [{"role": "user", "content": hint}]
