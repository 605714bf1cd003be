"""Declares the card game family: ``AgentBench/CardGame-v0`` (Aquawar; pure Python)."""

from agentgym_text.core.family import DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.registry import declare

TASK_COUNT = 20

FAMILY = Family(
    name="cardgame",
    category="game",
    ids=(
        EnvId(
            "AgentBench/CardGame-v0",
            "agentgym_text.envs.cardgame.env:CardGameEnv",
            task_count=TASK_COUNT,
            description="Aquawar (AgentBench DCG): guess the hidden enemy fish, then attack; win against a "
            "rule-based opponent.",
            subskill_weights={
                "Memory": 1,
                "Planning": 2,
                "World Modeling": 2,
                "Self-Reflection": 1,
                "Grounding": 2,
                "Spatial Navigation": 0,
            },
            max_steps=60,
            agentbench_task="card_game",
        ),
    ),
    # One opponent and one rule set: every game is alike (the expert wins each in 8-9 steps, a random agent's
    # progress does not depend on the lineups), so every task is "easy" until harder opponents exist.
    difficulty=DifficultyRule("opponent levels", 1),
    train_split=TrainSplit(
        env_kwargs={"split": "train"},
        size_kwarg="num_tasks",
        size=2_000,
        hidden_world="the opening shows the rules and your own lineup (24 orders); the enemy's hidden lineup and "
        "the opponent's seed differ",
        repeated_goals="the goal is the rules of the battle, the same for every game",
    ),
    thread_safe=True,  # tests/test_thread_safety.py
)
declare(FAMILY)
