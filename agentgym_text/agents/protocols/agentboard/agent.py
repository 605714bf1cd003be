"""AgentBoard's agents as plain logic: the memory (``reset``/``update``), ``make_prompt`` with its context trimming
and ReactAgent's reading of a reply (VanillaAgent and ReactAgent in ``agentboard/agents/``); their reply parser is
``core.agentboard_parser``, which the tool envs' AgentBoard text reads with too."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agentgym_text.agents.protocols.agentboard.checkout import AgentLiterals, AgentSettings

__all__ = ["Memory", "PromptFile", "Head", "make_prompt", "react_reply"]

Counter = Callable[[list[dict[str, str]]], int]
"""``num_tokens_from_messages``: the tokens of a [system, user] message list."""


@dataclass(frozen=True)
class PromptFile:
    """One prompt dict (``init_prompt_dict``): what ``run()`` reads each call."""

    instruction: str
    examples: list[str] | str
    system_msg: str

    @classmethod
    def of(cls, data: dict) -> PromptFile:
        return cls(data["instruction"], data["examples"], data["system_msg"])


class Memory:
    """The agent's ``memory``: (kind, text) entries, kind "Observation", "Action" or (ReactAgent) "Think"."""

    def __init__(self, init_obs: str, init_act: str | None = None):
        self.entries: list[tuple[str, str]] = [("Action", init_act)] if init_act else []
        self.entries.append(("Observation", init_obs))

    def update(self, action: str, state: str) -> None:
        self.entries.append(("Action", action))
        self.entries.append(("Observation", state))

    def think(self, thought: str | None) -> None:
        self.entries.append(("Think", thought))  # type: ignore[arg-type]  # AgentBoard keeps None too


@dataclass(frozen=True)
class Head:
    """What ``make_prompt`` puts before the history: the literals, the agent's settings and the goal."""

    literals: AgentLiterals
    settings: AgentSettings
    goal: str

    def text(self, prompt: PromptFile) -> str:
        query = prompt.instruction
        examples = [prompt.examples] if isinstance(prompt.examples, str) else prompt.examples
        if len(examples) > 0:
            query += self.literals.examples
            for example in examples:
                query += example + "\n"
        if self.settings.need_goal:
            query += self.literals.goal + self.goal + "\n"
        if self.settings.check_actions is not None:
            query += self.literals.help + self.settings.check_actions + "\n"
        if self.settings.check_inventory is not None:
            query += self.literals.inventory
        return query


def _history(entries: list[tuple[str, str]]) -> str:
    return "\n".join(kind + ": " + text for kind, text in entries)


def make_prompt(
    head: str,
    memory: Memory,
    memory_size: int,
    tail: str,
    system: str,
    counter: Counter | None,
    room: int | None,
) -> tuple[str, int]:
    """The user message and how many history entries were dropped: ``head`` + the last ``memory_size`` entries +
    ``tail``, dropping the oldest entry while the [system, user] pair counts more than ``room`` tokens
    (``context_length - max_tokens``; None: no trimming)."""
    history = memory.entries[-memory_size:]
    dropped = 0
    prompt = head + _history(history) + tail
    if counter is None or room is None:
        return prompt, dropped
    while counter([{"role": "system", "content": system}, {"role": "user", "content": prompt}]) > room:
        if not history:
            raise ValueError(f"AgentBoard's prompt head alone is over {room} tokens; its loop would never end")
        history = history[1:]
        dropped += 1
        prompt = head + _history(history) + tail
    return prompt, dropped


def react_reply(reply: str) -> tuple[str, str | None]:
    """ReactAgent's reading of a reply: ("Action", the text after the last "Action: ", first line), ("Think", the text
    after the last "Think: ", first line) or ("", None) for anything else (it then forces an action)."""
    if reply.startswith("Action"):
        return "Action", reply.split("Action: ")[-1].split("\n")[0]
    if reply.startswith("Think"):
        return "Think", reply.split("Think: ")[-1].split("\n")[0]
    return "", None
