"""Writes ``tasks.json``: the 245 tasks in WebArena's config schema, with answers computed from the seeded sites.

Run ``python -m agentgym_text.envs.webarena.build_tasks``.
"""

from agentgym_text.envs.webarena.tasks import TASKS_FILE, generate_configs, tasks_file_text

if __name__ == "__main__":
    configs = generate_configs()
    TASKS_FILE.write_text(tasks_file_text(configs))
    print(f"wrote {len(configs)} tasks to {TASKS_FILE}")
