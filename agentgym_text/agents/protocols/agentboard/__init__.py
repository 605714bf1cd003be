"""AgentBoard's protocol: the requests AgentBoard's harness (``agentboard/eval_main.py``) sends, with every text read
from the user's checkout of hkust-nlp/AgentBoard at run time.

Layers, one module each:

- ``checkout``: the checkout's files (``Checkout``): ``eval_configs/main_results_all_tasks.yaml`` (per task:
  ``agent_settings(task)`` = the ``agent:`` block + the task's ``check_actions``/``check_inventory``/
  ``init_prompt_path``; the ``llm:`` entries' sampling settings), the prompt JSON files (``json(relative)``), and the
  literals of ``VanillaAgent.make_prompt``/``ReactAgent.make_prompt`` pulled out with ``ast`` (``literals(react)``),
  and the ``llm:`` entry a model name selects (``llm_entry(model)``).
- ``agent``: the agents' logic: ``Memory`` (``reset``/``update``/ReAct's "Think" entries), ``Head`` (instruction,
  examples, goal and help lines), ``make_prompt`` (history + tail, dropping the oldest entry while the
  [system, user] pair counts over ``context_length - max_tokens``) and ``react_reply``; the reply parser
  (``action_parser_for_special_llms``) is ``core.agentboard_parser.parse_action``, shared with the tool envs.
- ``tokens``: ``num_tokens_from_messages`` over a tiktoken encoding (offline only) or a local Hugging Face tokenizer.
- ``task``: the hook class ``AgentBoardTask`` one subclass per task runner implements, and ``AgentBoardDialogue``,
  which drives the agent through it:

  - ``start(episode) -> Start(goal, init_obs, init_act=None, updates=())``: ``agent.reset``'s arguments (WebShop:
    ``init_act="reset[]"``) and any ``agent.update`` pairs the runner adds before its loop (tool.py's sheet).
  - ``prompt(episode) -> PromptFile``: the ``init_prompt_dict`` of every ``run()`` in the episode (default: the
    config's ``init_prompt_path``; ``load_prompt(relative)`` reads another file).
  - ``move(episode, reply, action) -> Move(env_action, memory_action, memory_observation=None, finish_reason=None)``:
    what the runner sends the env and writes to the memory for ``run()``'s result (``action`` is parsed when
    ``use_parser``; ``reply`` is the model's raw text). ``env_action=None``: the env gets no action (an invalid step
    here), ``memory_observation`` then replaces the env's text in the memory; ``finish_reason`` ends the episode.
  - ``observation(episode, observation, info) -> str``: the runner's text for the env's answer (WebArena: its state
    string).
  - ``episode`` (``Episode``) holds the opening, the agent class ("VanillaAgent"/"ReactAgent"), the memory, the
    moves so far and a free ``state`` dict.
  - Class attributes: ``name`` (the config's ``env:`` key), ``use_parser``, ``max_steps`` (30),
    ``agent_class`` (None: ``--style`` picks VanillaAgent or ReactAgent; "ReactAgent" forces it).
- ``<runner>.py`` (named after ``agentboard/tasks/<runner>.py``): one ``AgentBoardTask`` subclass each, registered
  in ``TASKS`` by AgentBoard's task name (``EnvId.agentboard_task``). Runners with literals of their own read
  them with ``ast`` too: ``tool`` from ``tasks/tool.py`` (first observations, format error), ``webbrowse`` from
  ``environment/browser_env/help_function.py`` (``_extract_action``'s splitter and parse-error message).

Requests: [system = the prompt dict's ``system_msg``, user = ``make_prompt``'s text], with the sampling settings of
the config's ``llm:`` entry named by ``model`` when there is one (else gpt-3.5-turbo-0613's: temperature 0, stop
"\\n", and ``from_config``'s default of 100 max tokens). Trimming happens only with ``context_window`` set; it
counts tokens with ``tokenizer`` (``tokens.make_counter``), and ``describe()`` names the counter.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentgym_text.agents.protocols.agentboard.checkout import DEFAULT_LLM, SETTING, WHAT, Checkout
from agentgym_text.agents.protocols.agentboard.task import AgentBoardDialogue, AgentBoardTask
from agentgym_text.agents.protocols.agentboard.tokens import TokenCounter, make_counter
from agentgym_text.agents.protocols.base import AgentProtocol, CheckoutError, Dialogue, Opening
from agentgym_text.core.registry import get_entry

__all__ = ["AgentBoardProtocol", "TASKS", "DEFAULT_LLM", "DEFAULT_MAX_TOKENS"]

TASKS: Mapping[str, str] = {
    "babyai": "agentgym_text.agents.protocols.agentboard.babyai:BabyAITask",
    "alfworld": "agentgym_text.agents.protocols.agentboard.alfworld:AlfWorldTask",
    "scienceworld": "agentgym_text.agents.protocols.agentboard.scienceworld:ScienceWorldTask",
    "jericho": "agentgym_text.agents.protocols.agentboard.jericho:JerichoTask",
    "pddl": "agentgym_text.agents.protocols.agentboard.pddl:PddlTask",
    "webshop": "agentgym_text.agents.protocols.agentboard.webshop:WebShopTask",
    "webarena": "agentgym_text.agents.protocols.agentboard.webbrowse:WebArenaTask",
    "tool-query": "agentgym_text.agents.protocols.agentboard.tool:ToolQueryTask",
    "tool-operation": "agentgym_text.agents.protocols.agentboard.tool:ToolOperationTask",
}
"""AgentBoard's task name (``EnvId.agentboard_task``) -> the runner's hooks here (``module:Class``)."""

DEFAULT_MAX_TOKENS = 100
"""``OPENAI_GPT.from_config``'s default (the GPT entries set none)."""


class AgentBoardProtocol(AgentProtocol):
    """AgentBoard's requests for its nine environments, texts from ``checkout``."""

    name = "agentboard"

    def __init__(
        self,
        checkout: str | Path | None,
        *,
        style: str = "vanilla",
        context_window: int | None = None,
        tokenizer: str | None = None,
        model: str = "",
    ):
        if checkout is None or str(checkout) == "":
            raise CheckoutError(f"--protocol agentboard needs {WHAT} (pass --agentboard-dir, or set {SETTING})")
        self.checkout = Checkout(checkout)
        self.style = style
        self.model = model
        self.context_window = context_window
        self.tokenizer = tokenizer
        self.llm_key, entry = self.checkout.llm_entry(model)
        self.temperature = float(entry.get("temperature", 0) or 0)
        self.max_tokens = int(entry.get("max_tokens", DEFAULT_MAX_TOKENS))
        self.stop = entry.get("stop")
        self.counter: TokenCounter | None = None
        self.room: int | None = None
        if context_window is not None:
            self.counter = make_counter(tokenizer, str(entry.get("engine", model)) if self.llm_key == model else model)
            self.room = context_window - self.max_tokens
        self._tasks: dict[str, AgentBoardTask] = {}

    def _task_name(self, env_id: str) -> str | None:
        try:
            return get_entry(env_id).agentboard_task
        except (KeyError, ValueError):
            return None

    def covers(self, env_id: str) -> bool:
        return self._task_name(env_id) in TASKS

    def task(self, env_id: str) -> AgentBoardTask:
        """The runner's hooks for ``env_id``, its files read once from the checkout."""
        name = self._task_name(env_id)
        if name is None or name not in TASKS:
            raise ValueError(f"the 'agentboard' protocol does not cover {env_id}")
        if name not in self._tasks:
            module, _, cls = TASKS[name].partition(":")
            self._tasks[name] = getattr(importlib.import_module(module), cls)(self.checkout, self.model)
        return self._tasks[name]

    def check(self, env_ids) -> None:
        super().check(env_ids)
        for env_id in env_ids:
            self.task(env_id)  # reads the checkout's files now: a missing one fails before anything is played
        self.checkout.literals(self.style == "react")

    def begin(self, opening: Opening) -> Dialogue:
        return AgentBoardDialogue(self, self.task(opening.env_id), opening)

    def max_steps(self, env_id: str) -> int | None:
        return self.task(env_id).max_steps

    def env_kwargs(self, env_id: str) -> dict[str, Any]:
        return self.task(env_id).env_kwargs()

    def describe(self) -> dict[str, Any]:
        return {
            "protocol": self.name,
            "style": self.style,
            "agentboard_dir": str(self.checkout.root),
            "llm_config": self.llm_key,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "stop": self.stop,
            "context_window": self.context_window,
            "tokenizer": self.counter.name if self.counter is not None else None,
        }
