"""Playing an env under the ``agentbench`` protocol with scripted replies, as ``LLMAgent`` and the runner do: every
request the protocol would send, every action the env got, and the step info the protocol read."""

from __future__ import annotations

from typing import Any

from agentgym_text.agents.protocols.agentbench import AgentBenchProtocol
from agentgym_text.agents.protocols.base import Opening
from agentgym_text.core.registry import get_entry

INFO_FIELDS = ("sql_result", "os_output", "host_reply", "valid", "aquawar")


def play(protocol: AgentBenchProtocol, env_id: str, env: Any, task_index: int, replies: list[str]) -> dict[str, Any]:
    """One episode on ``env`` (made for ``env_id``) with ``replies`` in turn, until the env or the protocol ends it,
    the replies run out or the protocol's budget is spent."""
    observation, info = env.reset(options={"task_index": task_index})
    entry = get_entry(env_id)
    dialogue = protocol.begin(Opening(env_id, info["goal"], observation, info, entry.family))
    budget = protocol.max_steps(env_id)
    requests, actions, infos, observations, end = [], [], [], [], None
    for step, reply in enumerate(replies):
        if budget is not None and step >= budget:
            end = "step_limit"
            break
        request = dialogue.request()
        requests.append(request.messages)
        reading = dialogue.read(reply)
        if reading.finish_reason:
            end = reading.finish_reason
            break
        if reading.again:  # the protocol asks once more before stepping (the card game's tries)
            continue
        actions.append(reading.action)
        observation, _, terminated, truncated, info = env.step(reading.action or "")
        infos.append({key: info[key] for key in INFO_FIELDS if key in info})
        observations.append(observation)
        dialogue.observe(observation, info)
        if terminated or truncated:
            end = info["finish_reason"] or "truncated"
            break
    if end is None and budget is not None and len(actions) >= budget:
        end = "step_limit"  # what the runner's budget would say on the next step
    return {"requests": requests, "actions": actions, "infos": infos, "observations": observations, "end": end}
