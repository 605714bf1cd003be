"""Registers ``AgentBench/LateralThinking-v0`` and its alias ``AgentQuest/LateralThinking-v0`` (no engine import)."""

from agentgym_text.core.registry import register_env

__all__: list[str] = []

_WEIGHTS = {"Memory": 2, "Planning": 1, "World Modeling": 2, "Self-Reflection": 2, "Grounding": 1,
            "Spatial Navigation": 0}

for _env_id, _note in (
    ("AgentBench/LateralThinking-v0", "AgentBench's LTP"),
    ("AgentQuest/LateralThinking-v0", "AgentQuest's LTP (same env as AgentBench/LateralThinking-v0)"),
):
    register_env(
        _env_id,
        "agentgym_text.envs.lateral.env:LateralThinkingEnv",
        family="lateral",
        category="game",
        task_count=50,
        description=f"{_note}: yes/no questions to a host uncover a story's hidden truth; 50 original puzzles "
        "(+20 dev); deterministic fact-matching host or an LLM host (host_model=).",
        subskill_weights=_WEIGHTS,
        max_steps=25,
        thread_safe=True,
    )
