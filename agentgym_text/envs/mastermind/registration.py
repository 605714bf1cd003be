"""Declares the Mastermind family: ``AgentQuest/Mastermind-v0`` (pure Python)."""

from agentgym_text.core.family import DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.registry import declare

TASK_COUNT = 60
MAX_STEPS = 60

FAMILY = Family(
    name="mastermind",
    category="game",
    ids=(
        EnvId(
            "AgentQuest/Mastermind-v0",
            "agentgym_text.envs.mastermind.env:MastermindEnv",
            task_count=TASK_COUNT,
            description="Guess a 4-digit code (digits 0-9, no repeats) from right-place/right-digit feedback.",
            subskill_weights={
                "Memory": 2,
                "Planning": 2,
                "World Modeling": 1,
                "Self-Reflection": 1,
                "Grounding": 2,
                "Spatial Navigation": 0,
            },
            max_steps=MAX_STEPS,
        ),
    ),
    difficulty=DifficultyRule("guesses the consistent-guess expert needs", 5),
    train_split=TrainSplit(
        builder="agentgym_text.envs.mastermind.tasks:training_instances",
        size=1_000,
        hidden_world="every game opens with the same rules; the secret code differs",
        repeated_goals="the goal states the rules, the same for every game",
    ),
    thread_safe=True,  # tests/test_thread_safety.py
)
declare(FAMILY)
