"""Writes ``tasks.json``: the 245 tasks in WebArena's config schema, with answers computed from the seeded sites.

Run ``python -m agentgym_text.envs.webarena.build_tasks``.
"""

import json

from agentgym_text.envs.webarena.tasks import TASKS_FILE, generate_configs

if __name__ == "__main__":
    configs = generate_configs()
    TASKS_FILE.write_text(json.dumps(configs, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {len(configs)} tasks to {TASKS_FILE}")
