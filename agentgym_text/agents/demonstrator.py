"""The demonstrator: the family expert speaking an agent protocol, for supervised demonstrations.

It drives a protocol's ``Dialogue`` exactly as ``LLMAgent`` does (``request``, ``read``, ``observe``), but answers
each request with the expert's next action written in the protocol's reply format (``reply_text``), and checks that
``dialogue.read`` reads that reply back as the same action. Each answered request is kept as a ``DemoTurn``; at
the episode's end the turns go to ``sink(episode_key, record)``. With ``detours=p`` a step, with probability p
(seeded per episode), sends a random admissible action other than the expert's instead: the turn is marked as a
detour, and the expert recovers from the state it leaves.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from agentgym_text.agents.base import Decision, ProtocolAgent, Turn
from agentgym_text.agents.protocols import AgentProtocol, Dialogue
from agentgym_text.core.actions import unwrap_action
from agentgym_text.core.info import HELP_ACTION, FinishReason
from agentgym_text.core.registry import get_entry, reads_whole_replies

__all__ = ["DemonstratorAgent", "DemoTurn", "reply_text", "reads_as", "REPLY_MISMATCH", "AGENTBENCH_MARKERS"]

REPLY_MISMATCH = "reply_mismatch"
"""A ``Decision.error``: the protocol did not read the expert's reply back as the expert's action (the episode ends
with ``invalid_format`` and is not a demonstration)."""


AGENTBENCH_MARKERS = {"webshop": "Action: ", "alfworld": "ACTION: "}
"""AgentBench task servers whose replies mark the action and whose envs' actions do not carry the marker (the
others' env actions are already in their reply format: DB's and OS's blocks, KG's calls, LTP's questions)."""


@dataclass(frozen=True)
class DemoTurn:
    """One answered request: the messages sent, the reply, the action the env got, and whether it was a detour."""

    messages: list[dict[str, str]]
    reply: str
    action: str
    detour: bool = False


def reply_text(protocol: str, action: str, *, whole: bool = False, agentbench_task: str | None = None) -> str:
    """The reply a model speaking ``protocol`` writes to take ``action``: under ``agentbench``, the action with its
    task server's marker where the env's action lacks it (``AGENTBENCH_MARKERS``), else the action itself (the
    env's actions are in the servers' formats); the action itself for ids that read whole replies; else
    ``Action: <action>`` (ours: the format line of every request; AgentBoard: its parser's marker, which ReAct
    replies must start with). The expert gives no thought, so ReAct-style replies have none either.

    >>> reply_text("ours", "guess 0123"), reply_text("agentbench", "Act: finish", agentbench_task="os_interaction")
    ('Action: guess 0123', 'Act: finish')
    >>> reply_text("agentbench", "search[red shoes]", agentbench_task="webshop")
    'Action: search[red shoes]'
    """
    if protocol == "agentbench":
        marker = AGENTBENCH_MARKERS.get(agentbench_task or "", "")
        return action if action.startswith(marker) else marker + action
    if whole:
        return action
    return f"Action: {action}"


def reads_as(read: str | None, action: str) -> bool:
    """Whether the action a protocol read (``read``) is ``action`` as the env takes it (the env unwraps an
    ``Action:`` marker, quotes and a final period itself).

    >>> reads_as("Action: go north", "go north"), reads_as("go south", "go north"), reads_as(None, "x")
    (True, False, False)
    """
    if read is None:
        return False
    return read == action or unwrap_action(read) == unwrap_action(action)


class _Episode:
    def __init__(self, dialogue: Dialogue, rng: np.random.Generator):
        self.dialogue = dialogue
        self.rng = rng
        self.turns: list[DemoTurn] = []
        self.mismatch: str | None = None


class DemonstratorAgent(ProtocolAgent):
    """The expert's actions as ``protocol``'s replies (see the module docstring). ``sink`` receives, once per
    episode, ``(episode_key, {"turns": [DemoTurn as dict, ...], "mismatch": str | None})``."""

    name = "demonstrator"

    def __init__(
        self,
        protocol: AgentProtocol,
        *,
        detours: float = 0.0,
        seed: int = 0,
        sink: Callable[[str, dict[str, Any]], None] | None = None,
    ):
        if not 0.0 <= detours < 1.0:
            raise ValueError(f"--detours is a probability in [0, 1), not {detours}")
        self.protocol = protocol
        self.detours = float(detours)
        self.seed = int(seed)
        self.sink = sink
        self.needs = frozenset({"expert_action", "admissible_actions"} if detours else {"expert_action"})
        self._episodes: dict[tuple[int, str], _Episode] = {}
        self._lock = threading.Lock()

    def describe(self) -> dict[str, Any]:
        return {"agent": self.name, **self.protocol.describe(), "detours": self.detours, "detour_seed": self.seed}

    def begin_episode(self, turn: Turn) -> None:
        episode = _Episode(self.protocol.begin(self.opening(turn)), np.random.default_rng([self.seed, turn.seed]))
        with self._lock:
            self._episodes[(turn.slot, turn.episode_key)] = episode

    def _episode(self, turn: Turn) -> _Episode:
        with self._lock:
            return self._episodes[(turn.slot, turn.episode_key)]

    def act(self, turns: Sequence[Turn]) -> list[Decision]:
        return [self._answer(turn) for turn in turns]

    def _answer(self, turn: Turn) -> Decision:
        episode = self._episode(turn)
        request = episode.dialogue.request()
        if request.finish_reason:
            return Decision(action="", error=request.note or request.finish_reason, finish_reason=request.finish_reason)
        action, detour = self._choose(turn, episode.rng)
        reply = reply_text(
            self.protocol.name,
            action,
            whole=reads_whole_replies(turn.env_id),
            agentbench_task=get_entry(turn.env_id).agentbench_task,
        )
        reading = episode.dialogue.read(reply)
        if reading.again or reading.finish_reason or not reads_as(reading.action, action):
            episode.mismatch = f"{reply!r} was read as {reading}"
            return Decision(action="", error=REPLY_MISMATCH, finish_reason=FinishReason.INVALID_FORMAT.value)
        episode.turns.append(DemoTurn([dict(m) for m in request.messages], reply, action, detour))
        return Decision(action=str(reading.action), reply=reply)

    def _choose(self, turn: Turn, rng: np.random.Generator) -> tuple[str, bool]:
        expert = turn.expert_action or HELP_ACTION
        if not self.detours or rng.random() >= self.detours:
            return expert, False
        others = [action for action in turn.admissible_actions or () if action != expert]
        if not others:
            return expert, False
        return others[int(rng.integers(len(others)))], True

    def observe(self, turn: Turn) -> str | None:
        seen = self._episode(turn).dialogue.observe(turn.observation, turn.info)
        return None if seen == turn.info.get("raw_observation", turn.observation) else seen

    def end_episode(self, turn: Turn) -> None:
        with self._lock:
            episode = self._episodes.pop((turn.slot, turn.episode_key), None)
        if episode is not None and self.sink is not None:
            self.sink(turn.episode_key, {"turns": [asdict(t) for t in episode.turns], "mismatch": episode.mismatch})
