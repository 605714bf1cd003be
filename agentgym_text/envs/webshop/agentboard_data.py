"""AgentBoard's WebShop data (``<folder>/webshop/test.jsonl``) matched to the shipped tasks.

AgentBoard's WebShop task reads only ``difficulty`` from the file, and plays line k as WebShop session ``fixed_k``
(k = 0..250); its server takes goal k from the same line's ``goal`` and ``additional_info``, which name products of
WebShop's own catalogue. Here the catalogue is generated, so line k labels shipped task k: its difficulty is the
file's, its goal and target stay ours. Progress is the same rule either way (``session.py``).
"""

from __future__ import annotations

import dataclasses
import os

from agentgym_text.core.agentboard_data import data_folder, expect_count, read_task_file
from agentgym_text.core.tasks import TaskSet
from agentgym_text.envs.webshop.registration import TASK_COUNT

__all__ = ["TASK", "label_tasks"]

TASK = "webshop"
"""AgentBoard's folder name for WebShop."""


def label_tasks(tasks: TaskSet, option: str | os.PathLike[str] | None) -> tuple[TaskSet, bool]:
    """``tasks`` with the difficulty labels of AgentBoard's file when a data folder is named (by the option or the
    setting), and whether one was; the shipped task k takes line k, as AgentBoard's session ``fixed_k`` does."""
    folder = data_folder(option)
    if folder is None:
        return tasks, False
    lines = read_task_file(folder, TASK)
    expect_count(lines, TASK_COUNT, "WebShop sessions fixed_0 ... fixed_250")
    labelled = [dataclasses.replace(task, difficulty=line.difficulty) for task, line in zip(tasks, lines)]
    return TaskSet(labelled), True
