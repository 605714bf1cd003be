"""AgentBench v0.2's protocol: the conversation each task server builds and its OpenAI client sends.

Each of AgentBench's task servers (``src/server/tasks/<task>``) injects its own opening turns and wraps every
observation in its own words; the client sends the session's history, cut by ``filter_messages``, as user/assistant
messages with no system message, temperature 0 and 512 tokens (``configs/agents/openai-chat.yaml``). One module
here per task server (``TASKS``: an id's ``EnvId.agentbench_task`` -> the module's ``AgentBenchTask``) reads the
texts it needs from the user's checkout of THUDM/AgentBench at v0.2 at run time; ``session`` holds what all tasks
share.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentgym_text.agents.protocols.agentbench.session import AgentBenchDialogue, AgentBenchTask
from agentgym_text.agents.protocols.base import AgentProtocol, CheckoutError, Dialogue, Opening
from agentgym_text.core.registry import get_entry

__all__ = ["AgentBenchProtocol", "TASKS", "CHECKOUT", "SETTING"]

CHECKOUT = "a checkout of THUDM/AgentBench at v0.2"
SETTING = "AGENTGYM_TEXT_AGENTBENCH_DIR"

TASKS: Mapping[str, str] = {
    "dbbench": "agentgym_text.agents.protocols.agentbench.dbbench:DBBenchTask",
    "os_interaction": "agentgym_text.agents.protocols.agentbench.os_interaction:OSTask",
    "knowledgegraph": "agentgym_text.agents.protocols.agentbench.knowledgegraph:KnowledgeGraphTask",
    "ltp": "agentgym_text.agents.protocols.agentbench.ltp:LTPTask",
    "webshop": "agentgym_text.agents.protocols.agentbench.webshop:WebShopTask",
    "alfworld": "agentgym_text.agents.protocols.agentbench.alfworld:AlfWorldTask",
    "mind2web": "agentgym_text.agents.protocols.agentbench.mind2web:MindWebTask",
    "card_game": "agentgym_text.agents.protocols.agentbench.card_game:CardGameTask",
}
"""AgentBench's task name (``EnvId.agentbench_task``) -> the module here that speaks it (``module:Class``)."""


class AgentBenchProtocol(AgentProtocol):
    """AgentBench v0.2's conversations for its eight environments, texts from ``checkout``."""

    name = "agentbench"

    def __init__(self, checkout: str | Path | None):
        if checkout is None or str(checkout) == "":
            raise CheckoutError(f"--protocol agentbench needs {CHECKOUT} (pass --agentbench-dir, or set {SETTING})")
        self.checkout = Path(checkout).expanduser()
        if not self.checkout.is_dir():
            raise CheckoutError(f"{self.checkout} is not a folder: expected {CHECKOUT}")
        self._tasks: dict[str, AgentBenchTask] = {}

    def _task_name(self, env_id: str) -> str | None:
        try:
            return get_entry(env_id).agentbench_task
        except (KeyError, ValueError):
            return None

    def covers(self, env_id: str) -> bool:
        return self._task_name(env_id) in TASKS

    def task(self, env_id: str) -> AgentBenchTask:
        """The task server's rules for ``env_id``, its texts read once from the checkout."""
        name = self._task_name(env_id)
        if name not in TASKS:
            raise ValueError(f"the 'agentbench' protocol does not cover {env_id}")
        if name not in self._tasks:
            module, _, cls = TASKS[name].partition(":")
            self._tasks[name] = getattr(importlib.import_module(module), cls)(self.checkout)
        return self._tasks[name]

    def check(self, env_ids) -> None:
        super().check(env_ids)
        for env_id in env_ids:
            self.task(env_id)  # reads the checkout's texts now: a missing file fails before anything is played

    def begin(self, opening: Opening) -> Dialogue:
        task = self.task(opening.env_id)
        return getattr(task, "dialogue", AgentBenchDialogue)(task, opening)  # a task's own history rules, if any

    def max_steps(self, env_id: str) -> int | None:
        return self.task(env_id).round_limit

    def env_kwargs(self, env_id: str) -> dict[str, Any]:
        return self.task(env_id).env_kwargs()

    def describe(self) -> dict[str, Any]:
        return {"protocol": self.name, "agentbench_dir": str(self.checkout)}
