from agentgym_text.core.registry import register_env
from agentgym_text.envs.mastermind.tasks import MAX_STEPS, TASK_COUNT

register_env(
    "AgentQuest/Mastermind-v0",
    "agentgym_text.envs.mastermind.env:MastermindEnv",
    family="mastermind",
    category="game",
    task_count=TASK_COUNT,
    description="Guess a 4-digit code (digits 0-9, no repeats) from right-place/right-digit feedback.",
    subskill_weights={"Memory": 2, "Planning": 2, "World Modeling": 1, "Self-Reflection": 1, "Grounding": 2, "Spatial Navigation": 0},
    subskill_source="ours",
    max_steps=MAX_STEPS,
    thread_safe=True,
)
