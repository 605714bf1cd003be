"""agentgym-text's envs as a verifiers v1 taskset (``vf-eval agentgym-vf``, ``vf.load_environment``)."""

from agentgym_vf.taskset import (
    AgentGymConfig,
    AgentGymData,
    AgentGymEnv,
    AgentGymEnvConfig,
    AgentGymHarness,
    AgentGymTask,
    AgentGymTaskset,
)

__all__ = [
    "AgentGymConfig",
    "AgentGymData",
    "AgentGymEnv",
    "AgentGymEnvConfig",
    "AgentGymHarness",
    "AgentGymTask",
    "AgentGymTaskset",
]
