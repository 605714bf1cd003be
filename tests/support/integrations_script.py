"""One scripted play for the framework adapters' tests: the action at step i is ``SCRIPT[i % 6]`` whatever the task,
so on ``AgentQuest/Mastermind-v0`` mastermind-003 is solved at step 3 and the other tasks are not; ``run_eval`` with
``ScriptedAgent`` gives the per-episode figures an adapter must reproduce."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agentgym_text.agents.base import Agent, Decision, Turn
from agentgym_text.eval import EvalConfig, run_eval

ENV_ID = "AgentQuest/Mastermind-v0"
SCRIPT = ["guess 0123", "I am not sure.", "guess 0573", "guess 4567", "check valid actions", "guess 8901"]


def scripted_action(steps_taken: int) -> str:
    return SCRIPT[steps_taken % len(SCRIPT)]


def chat_policy(messages: list[dict[str, Any]]) -> str:
    """The script as a chat policy (for ``ScriptedChatServer``): the step is the count of assistant messages."""
    return f"Action: {scripted_action(sum(1 for m in messages if m.get('role') == 'assistant'))}"


class ScriptedAgent(Agent):
    name = "scripted"

    def act(self, turns: Sequence[Turn]) -> list[Decision]:
        return [Decision(action=scripted_action(turn.step)) for turn in turns]


def run_eval_rows(out: Path, tasks: str, max_steps: int) -> dict[str, dict[str, Any]]:
    """``run_eval``'s episode rows of the scripted play, by task id."""
    run_eval(ScriptedAgent(), EvalConfig(envs=ENV_ID, tasks=tasks, max_steps=max_steps, progress_bar=False), out)
    rows = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
    return {row["task_id"]: row for row in rows}
