"""Writes ``tasks.json`` (every AgentBoard instance) and ``train_tasks.json`` (the train split), each task with its
goal, subgoal count and difficulty.

Run ``python -m agentgym_text.envs.babyai.build_tasks`` (needs the babyai extra).
"""

from agentgym_text.envs.babyai.tasks import write_task_file, write_train_file

if __name__ == "__main__":
    for entry in write_task_file():
        print(f"{entry['task_id']:36s} {entry['subgoals']:2d} {entry['difficulty']:4s} {entry['goal']}")
    print(f"train split: {len(write_train_file())} tasks")
