"""Declares the lateral-thinking family: ``AgentBench/LateralThinking-v0`` and its alias
``AgentQuest/LateralThinking-v0`` (no engine import)."""

from agentgym_text.core.family import DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.registry import declare

TASK_COUNT = 50
_WEIGHTS = {
    "Memory": 2,
    "Planning": 1,
    "World Modeling": 2,
    "Self-Reflection": 2,
    "Grounding": 1,
    "Spatial Navigation": 0,
}


def _lateral_id(env_id: str, note: str, agentbench_task: str | None = None) -> EnvId:
    return EnvId(
        env_id,
        "agentgym_text.envs.lateral.env:LateralThinkingEnv",
        task_count=TASK_COUNT,
        description=f"{note}: yes/no questions to a host uncover a story's hidden truth; 50 original puzzles "
        "(+20 dev); deterministic fact-matching host or an LLM host (host_model=); task_file= plays AgentBench's "
        "own puzzles with its host protocol.",
        subskill_weights=_WEIGHTS,
        max_steps=25,
        agentbench_task=agentbench_task,
    )


FAMILY = Family(
    name="lateral",
    category="game",
    ids=(
        _lateral_id("AgentBench/LateralThinking-v0", "AgentBench's LTP", "ltp"),
        _lateral_id("AgentQuest/LateralThinking-v0", "AgentQuest's LTP (same env as AgentBench/LateralThinking-v0)"),
    ),
    difficulty=DifficultyRule("key points to uncover", 3),
    # the puzzles are authored, not generated: the 20 dev puzzles are all there is apart from the 50 test ones
    train_split=TrainSplit(
        env_kwargs={"split": "dev"},
        size=20,
        repeated_goals="the goal is the game's rule (find the hidden truth), the same for every puzzle",
    ),
    thread_safe=True,  # tests/test_thread_safety.py
    outside_data=("task_file",),
)
declare(FAMILY)
