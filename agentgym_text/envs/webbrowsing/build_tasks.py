"""Records every shipped task into the cache now (otherwise each is recorded at its first reset).

Run ``python -m agentgym_text.envs.webbrowsing.build_tasks`` (needs the ``webarena`` extra and Chromium).
"""

from agentgym_text.envs.webbrowsing.dataset import record_all
from agentgym_text.envs.webbrowsing.tasks import default_tasks, webarena_config

if __name__ == "__main__":
    tasks = default_tasks()
    annotations = record_all([webarena_config(task.params) for task in tasks])
    steps = sum(len(item.steps) for item in annotations)
    print(f"recorded {len(annotations)} tasks, {steps} steps")
