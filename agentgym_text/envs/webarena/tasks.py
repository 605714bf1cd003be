"""The 245 shipped WebArena tasks: WebArena task configs instantiated on the seeded sites.

``TASKS`` reads ``tasks.json`` (shipped). Each ``TaskSpec.params`` is one task config in WebArena's
test.raw.json schema (start_url with "__SHOPPING__"-style placeholders, intent, eval with string_match /
url_match / program_html) plus three keys of ours:

- ``db_checks``: ``[{"site", "sql", "expected"}]``, program checks on the site's database after the episode;
- ``gold``: the expert's plan, steps resolved on the live page by role and accessible name (``nth`` picks an
  occurrence when a name repeats);
- ``progress``: ``{"url", "contents"}``, the page holding the answer and text seen there, so that tasks judged
  only on the answer string still have progress subgoals (see progress.py).

``generate_configs()`` rebuilds the configs from the seeded databases (answers computed by SQL, never typed);
``python -m agentgym_text.envs.webarena.build_tasks`` rewrites tasks.json, and a test checks that the shipped file
matches a fresh generation.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.webarena.registration import FAMILY, MAX_STEPS

__all__ = ["TASKS", "TASKS_FILE", "generate_configs", "tasks_file_text", "config_spec", "load_tasks", "MAX_STEPS"]

TASKS_FILE = Path(__file__).with_name("tasks.json")


def generate_configs() -> list[dict]:
    """The task configs, freshly generated from the seeded template databases."""
    from agentgym_text.envs.webarena.sites import (
        tasks_admin,
        tasks_gitlab,
        tasks_reddit,
        tasks_shop,
        tasks_wiki,
        template_dir,
    )

    folder = template_dir()
    databases = {
        name: sqlite3.connect(f"file:{folder / (name + '.sqlite')}?mode=ro", uri=True)
        for name in ("shop", "reddit", "gitlab", "wiki")
    }
    try:
        configs = [
            *tasks_shop.generate(databases["shop"]),
            *tasks_admin.generate(databases["shop"]),  # the admin of the same shop
            *tasks_reddit.generate(databases["reddit"]),
            *tasks_gitlab.generate(databases["gitlab"], databases["reddit"]),
            *tasks_wiki.generate(databases["wiki"]),
        ]
    finally:
        for connection in databases.values():
            connection.close()
    for index, config in enumerate(configs):
        config["task_id"] = index
    return configs


def tasks_file_text(configs: list[dict]) -> str:
    """``tasks.json``'s text for ``configs``."""
    return json.dumps(configs, indent=1, ensure_ascii=False) + "\n"


def config_spec(config: dict, task_id: str | None = None) -> TaskSpec:
    """The task of one generated config (its id ``webarena-NNN`` from the config's number unless given)."""
    steps = sum(1 for step in config["gold"] if step["action"] != "stop")
    return TaskSpec(
        task_id or f"webarena-{config['task_id']:03d}",
        config,
        goal=config["intent"],
        difficulty=FAMILY.difficulty.label(steps),
        max_steps=MAX_STEPS,
    )


def load_tasks(path: Path = TASKS_FILE) -> TaskSet:
    return TaskSet([config_spec(config) for config in json.loads(path.read_text())])


TASKS = load_tasks()
