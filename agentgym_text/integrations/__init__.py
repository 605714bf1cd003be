"""Adapters to the tools people train and evaluate LLM agents with: chat messages and tool calls (``ChatEnv``),
groups of rollouts on one task (``make_group``), task datasets (``datasets``), an OpenEnv 0.10 server with its task
API (``openenv_server``, extra ``openenv``), TRL's ``GRPOTrainer(environment_factory=...)`` (``trl``, extra
``trl``), Ray (``ray``: ``RayVectorEnv``, extra ``ray``), SkyRL's ``BaseTextEnv`` (``skyrl``, extra ``skyrl``) and
an Inspect AI task (``inspect``, extra ``inspect``). The verifiers v1 taskset is a package of its own,
``integrations/agentgym-vf`` in the repository. Each takes one env id or a multi-task set of several ids with
weights, mixed in one place (``mixture``, through ``datasets.tasks``).

Only the light parts are imported here; the others import their frameworks when used (``inspect`` on import: it is
an Inspect task file).
"""

from agentgym_text.integrations.chat import ChatEnv, action_from_message, system_prompt
from agentgym_text.integrations.group import GroupEnv, make_group
from agentgym_text.integrations.tool_schemas import action_from_tool_call, tool_call_from_action, tool_schemas

__all__ = [
    "ChatEnv",
    "GroupEnv",
    "make_group",
    "system_prompt",
    "action_from_message",
    "tool_schemas",
    "action_from_tool_call",
    "tool_call_from_action",
]
