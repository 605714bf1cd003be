"""Registers ``AgentBench/OS-v0`` (string entry point: importing this module imports nothing of the family).

The counts are literals so that ``import agentgym_text`` does not build the task generators; the shared registry
test checks ``task_count`` against the env and ``tests/test_os.py`` checks ``max_steps`` against ``tasks.py``.
"""

from agentgym_text.core.registry import register_env

register_env(
    "AgentBench/OS-v0",
    "agentgym_text.envs.os.env:OsEnv",
    family="os",
    category="tool",
    task_count=144,
    programs=("bwrap",),
    whole_replies=True,
    description="Answer questions about, or operate on, a Linux machine through bash in a bubblewrap sandbox "
    "(AgentBench's OS interaction; needs the bwrap binary).",
    subskill_weights={"Memory": 1, "Planning": 2, "World Modeling": 2, "Self-Reflection": 2, "Grounding": 3,
                      "Spatial Navigation": 0},
    max_steps=8,
    thread_safe=True,
)
