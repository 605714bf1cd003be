"""Declares the ALFWorld family: ``AgentBoard/AlfWorld-v0``, ``AgentBench/ALFWorld-v0`` (AgentBench v0.2's protocol on
the same engine) and ``AgentQuest/ALFWorld-v0`` (games are generated at first use; no engine import)."""

from agentgym_text.core.family import AGENTBOARD_TABLE_10, DifficultyRule, EnvId, Family, TrainSplit
from agentgym_text.core.registry import declare

TASK_COUNT = 134
"""ALFWorld's valid_unseen size (``tests/test_registry.py`` checks it against the task set)."""
MAX_STEPS = 30
AGENTBENCH_TASK_COUNT = 50
"""AgentBench v0.2's test split size (``data/alfworld/standard.json``)."""
AGENTBENCH_MAX_STEPS = 35
AGENTQUEST_MAX_STEPS = 60
"""AgentQuest's runs: 60 steps per game (the paper's Table 3; 120 in its extended run)."""
_ENTRY = "agentgym_text.envs.alfworld.env:AlfWorldEnv"
_AGENTBENCH_ENTRY = "agentgym_text.envs.alfworld.env:AgentBenchAlfWorldEnv"
_SUBSKILLS = {
    "Memory": 1,
    "Planning": 1,
    "World Modeling": 3,
    "Self-Reflection": 3,
    "Grounding": 2,
    "Spatial Navigation": 1,
}

FAMILY = Family(
    name="alfworld",
    category="embodied",
    ids=(
        EnvId(
            "AgentBoard/AlfWorld-v0",
            _ENTRY,
            task_count=TASK_COUNT,
            description="ALFWorld's 6 household task types on 134 games generated from the alfworld wheel's floor "
            "plans (unseen-split proportions, test floor plans); ALFWorld's exact text, nothing to download.",
            subskill_weights=_SUBSKILLS,
            subskill_source="AgentBoard Table 7",
            agentboard_task="alfworld",
            max_steps=MAX_STEPS,
        ),
        EnvId(
            "AgentBench/ALFWorld-v0",
            _AGENTBENCH_ENTRY,
            task_count=AGENTBENCH_TASK_COUNT,
            description="ALFWorld under AgentBench v0.2's protocol (AVAILABLE ACTIONS, ACTION: replies, BLEU mapping "
            "to an admissible command, three identical replies fail, 35 steps) on 50 of the generated games in "
            "AgentBench's test proportions; task_file= with game_dir= plays AgentBench's own split.",
            subskill_weights=_SUBSKILLS,
            subskill_source="AgentBoard Table 7 (its ALFWorld)",
            max_steps=AGENTBENCH_MAX_STEPS,
            agentbench_task="alfworld",
        ),
        EnvId(
            "AgentQuest/ALFWorld-v0",
            _ENTRY,
            task_count=TASK_COUNT,
            description="AgentQuest's ALFWorld: the same env as AgentBoard/AlfWorld-v0 (ALFWorld's commands sent "
            "as they are) with AgentQuest's 60-step budget.",
            subskill_weights=_SUBSKILLS,
            subskill_source="AgentBoard Table 7 (its ALFWorld)",
            kwargs={"budget": AGENTQUEST_MAX_STEPS},
            max_steps=AGENTQUEST_MAX_STEPS,
        ),
    ),
    difficulty=DifficultyRule("subgoals", 3, AGENTBOARD_TABLE_10),
    # generated on ALFWorld's train floor plans, never the test ones
    train_split=TrainSplit(
        env_kwargs={},
        size_kwarg="num_tasks",
        size=1_200,
        repeated_goals="goals come from ALFWorld's templates over a room's objects (put a clean mug in "
        "coffeemachine); the train floor plans are not the test's",
    ),
    thread_safe=True,  # tests/test_thread_safety.py
    requires="alfworld",
    # AgentBoard's words (AgentBoard/AlfWorld-v0, AgentQuest/ALFWorld-v0; agentboard_fixes=False restores its quirks)
    # and AgentBench's protocol (AgentBench/ALFWorld-v0, agentbench_v02_text.py)
    text_formats=("agentboard", "agentbench_v02"),
    outside_data=("game_dir", "task_file"),
)
declare(FAMILY)
