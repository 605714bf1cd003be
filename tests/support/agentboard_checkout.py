"""A small stand-in for a checkout of hkust-nlp/AgentBoard, written by the tests: the files the ``agentboard`` protocol
reads, in AgentBoard's layout and formats, with wording of our own (AgentBoard's prompt texts are never stored in
this repository). ``write_checkout(root)`` writes it; ``FILES`` maps each relative path to its text, so a test (or
another runner's module) can add or replace files with ``extra``.

The two agent files are our own minimal Python with the literals in the places the protocol's ``ast`` reader looks
(the text added before ``self.goal``, before ``check_actions``, ...); the reference recorder
(``tests/reference/record_agentboard_protocol.py``) puts these literals into AgentBoard's unmodified agent code.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

__all__ = ["FILES", "LITERALS", "REACT_LITERALS", "write_checkout", "JERICHO_GAMES"]

LITERALS = {
    "examples": "\n== Worked examples ==\n",
    "goal": "Your goal for this episode: ",
    "help": "If your action is not understood, this command may help: ",
    "inventory": "If your action is not understood, this command may help: inventory\n",
    "action": "\nYour next action: ",
}
"""The fake ``VanillaAgent.make_prompt``'s literals (keys as ``AgentLiterals``'s fields)."""
REACT_LITERALS = {
    **{key: value for key, value in LITERALS.items() if key != "action"},
    "stop_thinking": "\nYou have thought enough; reply with an action now.",
    "take_action": "\nReply with an action for the task.",
}

_VANILLA = f'''"""A stand-in for agentboard/agents/vanilla_agent.py (written by agentgym-text's tests)."""


class VanillaAgent:
    def make_prompt(self, need_goal=False, check_actions=None, check_inventory=None, system_message=""):
        query = self.instruction
        if len(self.examples) > 0:
            query += {LITERALS["examples"]!r} + self.split["example"][0]
        if need_goal:
            query += {LITERALS["goal"]!r} + self.goal + "\\n"
        if check_actions is not None:
            query += {LITERALS["help"]!r} + check_actions + "\\n"
        if check_inventory is not None:
            query += {LITERALS["inventory"]!r}
        input_prompt = query
        input_prompt += {LITERALS["action"]!r}
        return input_prompt
'''

_REACT = f'''"""A stand-in for agentboard/agents/react_agent.py (written by agentgym-text's tests)."""


class ReactAgent:
    def make_prompt(self, need_goal=False, check_actions=None, check_inventory=None, system_message=""):
        query = self.instruction
        if len(self.examples) > 0:
            query += {REACT_LITERALS["examples"]!r} + self.split["example"][0]
        if need_goal:
            query += {REACT_LITERALS["goal"]!r} + self.goal + "\\n"
        if check_actions is not None:
            query += {REACT_LITERALS["help"]!r} + check_actions + "\\n"
        if check_inventory is not None:
            query += {REACT_LITERALS["inventory"]!r}
        input_prompt = query
        if self.think_count >= self.max_think_iters:
            input_prompt += {REACT_LITERALS["stop_thinking"]!r}
        elif self.force_action:
            input_prompt += {REACT_LITERALS["take_action"]!r}
        return input_prompt
'''

JERICHO_GAMES = {
    "zork1": ("Find the treasure hidden under the old house.", "You stand by a white house. A mailbox is here."),
    "905": ("Get to your appointment on time.", "The phone rings. You are in bed."),
    "acorncourt": ("Climb out of the courtyard.", "A stone courtyard with a well and an oak tree."),
}
"""Three games' goals and first observations in the fake Jericho env's dicts."""

_JERICHO_ENV = (
    '"""A stand-in for agentboard/environment/jericho_env.py (written by agentgym-text\'s tests)."""\n\n'
    f"game_goals = {json.dumps({game: texts[0] for game, texts in JERICHO_GAMES.items()}, indent=4)}\n\n"
    f"game_init_obs = {json.dumps({game: texts[1] for game, texts in JERICHO_GAMES.items()}, indent=4)}\n"
)


def _prompt(topic: str, examples: list[str] | str) -> dict:
    return {
        "instruction": f"You play a text game about {topic}. Reply with one action per turn.",
        "examples": examples,
        "system_msg": f"You are an agent that solves {topic} tasks.",
    }


_ALFWORLD_TYPES = ("put", "clean", "heat", "cool", "puttwo", "examine")
_PDDL_GAMES = ("blockworld", "barman", "gripper", "tyreworld")

_CONFIG = """# A stand-in for eval_configs/main_results_all_tasks.yaml (written by agentgym-text's tests)
run:
  max_num_steps: 30

agent:
  name: VanillaAgent
  memory_size: 100
  need_goal: True

llm:
  gpt-3.5-turbo-0613:
      name: gpt
      engine: gpt-3.5-turbo-0613
      context_length: 4096
      use_azure: False
      temperature: 0.
      top_p: 1
      stop: "\\n"
      use_parser: False
  small-local:
      name: gpt
      engine: small-local
      context_length: 2048
      use_azure: False
      temperature: 0.5
      max_tokens: 64
      stop: "\\n"
      use_parser: False

env:
  pddl:
    name: pddl
    check_actions: "check valid actions"
    init_prompt_path: ${PROJECT_PATH}/agentboard/prompts/VanillaAgent/pddl_vanilla_prompt.json
  jericho:
    name: jericho
    check_actions: "check valid actions"
    check_inventory: "inventory"
    init_prompt_path: ${PROJECT_PATH}/agentboard/prompts/VanillaAgent/jericho_vanilla_prompt.json
  babyai:
    name: babyai
    check_actions: "check valid actions"
    check_inventory: "inventory"
    init_prompt_path: ${PROJECT_PATH}/agentboard/prompts/VanillaAgent/babyai_vanilla_prompt.json
  scienceworld:
    name: scienceworld
    check_inventory: True
    check_actions: check valid actions
    init_prompt_path: ${PROJECT_PATH}/agentboard/prompts/VanillaAgent/scienceworld_base.json
  alfworld:
    name: alfworld
    check_inventory: True
    check_actions: check valid actions
    init_prompt_path: ${PROJECT_PATH}/agentboard/prompts/VanillaAgent/alfworld_base.json
"""

_PROMPTS = "agentboard/prompts/VanillaAgent/"

FILES: dict[str, str] = {
    "eval_configs/main_results_all_tasks.yaml": _CONFIG,
    "agentboard/agents/vanilla_agent.py": _VANILLA,
    "agentboard/agents/react_agent.py": _REACT,
    "agentboard/environment/jericho_env.py": _JERICHO_ENV,
    _PROMPTS + "babyai_vanilla_prompt.json": json.dumps(
        _prompt("grid rooms", ["Observation: a red ball is 2 steps ahead.\nAction: move forward"])
    ),
    _PROMPTS + "scienceworld_base.json": json.dumps(
        _prompt("science experiments", "Observation: You are in the kitchen.\nAction: open fridge\n")
    ),
    _PROMPTS + "jericho_vanilla_prompt.json": json.dumps(
        _prompt(
            "interactive fiction",
            ["Observation: A dark cave.\nAction: light lamp", "Observation: A door.\nAction: open door"],
        )
    ),
    _PROMPTS + "alfworld_base.json": json.dumps(
        {
            **_prompt("household chores", []),
            "examples": {kind: [f"Example of a {kind} task.\n", "Action: go to shelf 1\n"] for kind in _ALFWORLD_TYPES},
        }
    ),
    _PROMPTS + "pddl_vanilla_prompt.json": json.dumps(
        {
            game: _prompt(f"the {game} planning domain", [f"Observation: a {game} state.\nAction: look around"])
            for game in _PDDL_GAMES
        }
    ),
}
"""Relative path -> text of every file of the fake checkout."""


def write_checkout(root: Path, extra: Mapping[str, str] | None = None) -> Path:
    """Write ``FILES`` (and ``extra``, which may replace them; an empty text leaves a file out) under ``root``."""
    for relative, text in {**FILES, **(extra or {})}.items():
        if text == "":
            continue
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
