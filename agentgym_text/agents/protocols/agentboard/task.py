"""The hook class every AgentBoard task runner implements (``AgentBoardTask``) and the dialogue that drives
AgentBoard's agent through it (``AgentBoardDialogue``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agentgym_text.agents.protocols.agentboard.agent import (
    Head,
    Memory,
    PromptFile,
    make_prompt,
    react_reply,
)
from agentgym_text.agents.protocols.agentboard.checkout import AgentSettings, Checkout
from agentgym_text.agents.protocols.base import Dialogue, Opening, Reading, Request
from agentgym_text.core.agentboard_parser import ParserCrash, parse_action
from agentgym_text.core.info import FinishReason

if TYPE_CHECKING:
    from agentgym_text.agents.protocols.agentboard import AgentBoardProtocol

__all__ = ["AgentBoardTask", "AgentBoardDialogue", "Episode", "Start", "Move", "MAX_THINK_ITERS"]

MAX_THINK_ITERS = 3
"""ReactAgent's ``max_think_iters`` (``from_config``'s default; no config sets it)."""


@dataclass(frozen=True)
class Start:
    """What the runner passes to ``agent.reset(goal, init_obs, init_act)``."""

    goal: str
    init_obs: str
    init_act: str | None = None
    updates: tuple[tuple[str, str], ...] = ()
    """(action, observation) pairs the runner adds with ``agent.update`` before the loop (tool.py's sheet)."""


@dataclass(frozen=True)
class Move:
    """What the runner does with the agent's action: the env's action (None: the env is not given one; this suite
    then counts an invalid step), the memory's Action entry, and the memory's Observation entry when it is not the
    env's text (e.g. a runner's literal for an unreadable reply). ``finish_reason`` ends the episode unstepped (a
    runner's own stop rule)."""

    env_action: str | None
    memory_action: str
    memory_observation: str | None = None
    finish_reason: str | None = None
    note: str | None = None


@dataclass
class Episode:
    """One episode as a task runner sees it: the opening, the agent's memory, the moves so far, and ``state`` for
    whatever else a runner keeps between steps (e.g. WebArena's action list)."""

    opening: Opening
    agent_class: str = "VanillaAgent"
    """The agent AgentBoard runs ("VanillaAgent" or "ReactAgent"; tool.py reads prompts from a folder of its name)."""
    memory: Memory | None = None
    moves: list[Move] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)


class AgentBoardTask:
    """One AgentBoard task runner (``agentboard/tasks/<name>.py``): a subclass per runner, made once per run with the
    checkout; it reads its files there at construction (``CheckoutError`` naming a missing one).

    Hooks, in the order the dialogue calls them:

    - ``start(episode)``: the goal, first observation and optional first action the runner gives ``agent.reset``.
    - ``prompt(episode)``: the prompt dict ``run()`` uses for this episode (default: the config's
      ``init_prompt_path``; ALFWorld swaps the examples per game type, PDDL picks a game's entry, tools a file).
    - ``move(episode, reply, action)``: the runner's handling of ``run()``'s result (``action``: after the parser when
      the agent uses it; ``reply``: the model's text): what the env and the memory get.
    - ``observation(episode, observation, info)``: the runner's text for the env's answer (default: the env's text).
    - ``early_stop(episode)``: the runner's own stop rule, checked before each request: (finish reason, note) ends
      the episode there, unsent (default: None, no such rule).

    Class attributes: ``name`` (the config's ``env:`` key), ``use_parser`` (whether ``run()`` parses replies; every
    runner but tool.py leaves ``from_config``'s True; tool.py passes the LLM entry's, ``checkout.llm_entry(model)``),
    ``max_steps`` (the loop's bound), ``asks_after_last_step`` (the loop asks the model once more after the budget's
    last step and drops the reply: WebShop's), ``agent_class`` (None: the
    run's style picks VanillaAgent or ReactAgent).
    """

    name: str = ""
    asks_after_last_step: bool = False
    use_parser: bool = True
    max_steps: int = 30
    agent_class: str | None = None

    def __init__(self, checkout: Checkout, model: str = ""):
        self.checkout = checkout
        self.model = model
        self.settings: AgentSettings = checkout.agent_settings(self.name)
        self._prompt: dict[str, Any] | None = None
        if self.settings.init_prompt_path:
            self._prompt = self.load_prompt(self.settings.init_prompt_path)

    def load_prompt(self, relative: str) -> dict[str, Any]:
        """A prompt JSON file of the checkout."""
        return self.checkout.json(relative)

    def env_kwargs(self) -> dict[str, Any]:
        """What the env needs to speak this runner's words."""
        return {}

    def start(self, episode: Episode) -> Start:
        opening = episode.opening
        return Start(opening.goal, opening.bare_observation)

    def prompt(self, episode: Episode) -> PromptFile:
        if self._prompt is None:
            raise NotImplementedError(f"{type(self).__name__} has no init_prompt_path and no prompt() of its own")
        return PromptFile.of(self._prompt)

    def move(self, episode: Episode, reply: str, action: str) -> Move:
        return Move(action, action)

    def early_stop(self, episode: Episode) -> tuple[str, str] | None:
        return None

    def observation(self, episode: Episode, observation: str, info: Mapping[str, Any]) -> str:
        return str(info.get("raw_observation", observation))


class AgentBoardDialogue(Dialogue):
    """One episode: AgentBoard's agent (``react``: ReactAgent) driven by a task runner's hooks."""

    def __init__(self, protocol: AgentBoardProtocol, task: AgentBoardTask, opening: Opening):
        self.protocol = protocol
        self.task = task
        self.react = task.agent_class == "ReactAgent" if task.agent_class else protocol.style == "react"
        self.literals = protocol.checkout.literals(self.react)
        self.episode = Episode(opening, "ReactAgent" if self.react else "VanillaAgent")
        start = task.start(self.episode)
        self.prompt = task.prompt(self.episode)
        self.head = Head(self.literals, task.settings, start.goal).text(self.prompt)
        self.memory = self.episode.memory = Memory(start.init_obs, start.init_act)
        for action, state in start.updates:
            self.memory.update(action, state)
        self.think_count = 0
        self.force_action = False
        self.dropped = 0
        """History entries the last request left out to fit the context."""
        self._move: Move | None = None

    def _tail(self) -> str:
        if not self.react:
            return self.literals.action
        if self.think_count >= MAX_THINK_ITERS:
            return self.literals.stop_thinking
        return self.literals.take_action if self.force_action else ""

    def request(self) -> Request:
        stop = self.task.early_stop(self.episode)
        if stop is not None:
            return Request([], finish_reason=stop[0], note=stop[1])
        protocol = self.protocol
        system = self.prompt.system_msg
        try:
            user, self.dropped = make_prompt(
                self.head,
                self.memory,
                self.task.settings.memory_size,
                self._tail(),
                system,
                protocol.counter,
                protocol.room,
            )
        except ValueError:
            return Request([], finish_reason=FinishReason.CONTEXT_LIMIT.value)
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        return Request(messages, temperature=protocol.temperature, max_tokens=protocol.max_tokens, stop=protocol.stop)

    def read(self, reply: str | None) -> Reading:
        if reply is None:
            return Reading(None, note="no reply text")
        thought = None
        if self.react:
            kind, text = react_reply(reply)
            if kind == "Think":
                self.think_count += 1
                self.force_action = False
                self.memory.think(text)
                return Reading(None, again=True, thought=text)
            if kind != "Action":
                self.think_count = 0
                self.force_action = True
                return Reading(None, again=True)
            self.think_count = 0
            self.force_action = False
            action = text or ""
        else:
            action = reply
        if self.task.use_parser:
            try:
                action = parse_action(action)
            except ParserCrash as crash:
                return Reading(
                    None, finish_reason=FinishReason.INVALID_FORMAT.value, note=f"AgentBoard's parser: {crash}"
                )
        move = self.task.move(self.episode, reply, action)
        self._move = move
        self.episode.moves.append(move)
        if move.finish_reason:
            return Reading(None, finish_reason=move.finish_reason, note=move.note, thought=thought)
        return Reading(move.env_action, note=move.note, thought=thought)

    def trailing_request(self, finish_reason: str) -> Request | None:
        if not self.task.asks_after_last_step or finish_reason != FinishReason.STEP_LIMIT.value:
            return None
        request = self.request()
        return None if request.finish_reason else request

    def observe(self, observation: str, info: Mapping[str, Any]) -> str:
        text = self.task.observation(self.episode, observation, info)
        move = self._move
        if move is not None:
            seen = text if move.memory_observation is None else move.memory_observation
            self.memory.update(move.memory_action, seen)
            self._move = None
            return seen
        return text
