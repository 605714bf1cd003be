"""In-context examples as the envs really print them: parse an example into turns, replay it, or record one.

A family's ``prompt.json`` names the ``env_id`` and ``task_id`` its example was played on (from seed 0); the test
suite replays the example's actions there and compares every observation. To write a new example::

    python -m agentgym_text.agents.prompts.examples AgentQuest/Mastermind-v0 mastermind-000 "guess 0123" expert

(``expert`` takes the expert's move; the output is the ``example`` string for ``prompt.json``.)
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence

import gymnasium as gym

__all__ = ["parse_example", "record_example", "replay_example", "normalise"]

_TURN = re.compile(r"^(Observation|Thought|Action): ?", re.MULTILINE)


def normalise(text: str) -> str:
    """Whitespace-insensitive form for comparing observations."""
    return " ".join(text.split())


def parse_example(example: str) -> list[tuple[str, str]]:
    """The example as ``[("Observation", text), ("Action", text), ...]`` (``Thought`` turns kept apart).

    >>> parse_example("Observation: a\\nb\\nAction: go\\nObservation: c")
    [('Observation', 'a\\nb'), ('Action', 'go'), ('Observation', 'c')]
    """
    marks = list(_TURN.finditer(example))
    turns = []
    for mark, following in zip(marks, marks[1:] + [None]):
        end = following.start() if following else len(example)
        turns.append((mark.group(1), example[mark.end() : end].strip()))
    return turns


def _display(action: str) -> str:
    """An action as the example shows it after its ``Action:`` marker."""
    return action[len("Action:") :].strip() if action.startswith("Action:") else action


def record_example(
    env_id: str, task_id: str, actions: Sequence[str], seed: int = 0, env_kwargs: dict | None = None
) -> str:
    """Play ``actions`` (``"expert"`` = the expert's move) on the task and write the example text."""
    import agentgym_text  # noqa: F401  (registers the ids)

    env = gym.make(env_id, **(env_kwargs or {}))
    try:
        obs, _ = env.reset(seed=seed, options={"task_id": task_id})
        lines = [f"Observation: {obs}"]
        for action in actions:
            if action == "expert":
                action = env.unwrapped.expert_action() or ""
            obs, _, terminated, truncated, _ = env.step(action)
            lines += [f"Action: {_display(action)}", f"Observation: {obs}"]
            if terminated or truncated:
                break
        return "\n".join(lines)
    finally:
        env.close()


def replay_example(
    env_id: str, task_id: str, example: str, seed: int = 0, env_kwargs: dict | None = None
) -> list[tuple[str, str]]:
    """Replay the example's actions (each sent as the model would: ``Action: ...``); returns (expected, got) for
    every observation that differs."""
    import agentgym_text  # noqa: F401

    turns = parse_example(example)
    env = gym.make(env_id, **(env_kwargs or {}))
    differences = []
    try:
        obs, _ = env.reset(seed=seed, options={"task_id": task_id})
        for kind, text in turns:
            if kind == "Action":
                obs, *_ = env.step(f"Action: {text}")
            elif kind == "Observation" and normalise(text) != normalise(obs):
                differences.append((text, obs))
        return differences
    finally:
        env.close()


if __name__ == "__main__":
    env_id, task_id, *moves = sys.argv[1:]
    print(json.dumps(record_example(env_id, task_id, moves), ensure_ascii=False))
