"""Writes the shipped PDDL task file: every problem with its goal literals, plan length and difficulty.

Run ``python -m agentgym_text.envs.pddl.build_tasks`` (needs the pddl extra).
"""

from agentgym_text.envs.pddl.tasks import write_shipped

if __name__ == "__main__":
    for entry in write_shipped():
        print(
            f"{entry['task_id']:28s} goal={entry['goal_literals']:2d} plan={entry['plan_length']:3d} {entry['difficulty']}"
        )
