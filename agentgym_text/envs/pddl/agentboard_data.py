"""The PDDL tasks labelled from AgentBoard's data folder (``<folder>/pddl/test.jsonl``).

AgentBoard's loader (``tasks/pddl.py``) reads only ``difficulty`` from each line and gives the lines, in order, to
its games in its config's order (``gripper, blockworld, barman, tyreworld``), 20 problems a game at most: Gripper's
20, Blockworld's 10, Barman's 20, Tyreworld's 10. Within a game a line's problem is pddlgym's problem index, the
index into the game's problem files sorted by name: Blockworld's ``problem1, problem10, problem2, ..., problem9``,
so its second line labels ``problem10``. Here line k labels our instance with the number of AgentBoard's k-th
problem (our ``pddl-blocksworld-p10`` for the 22nd line): the shipped problems are generated here in AgentBoard's
counts and sizes, so the file's difficulty labels AgentBoard's problem of that number and our instance in its place.

The goal and the progress rule do not come from the file (AgentBoard's PDDL env derives both from the problem):
progress stays the fraction of goal facts true, best over the states reached by actions, as AgentBoard computes it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from agentgym_text.core.agentboard_data import expect_count, read_task_file
from agentgym_text.core.tasks import TaskSet
from agentgym_text.envs.pddl.tasks import shipped_tasks

__all__ = ["TASK", "GAMES", "agentboard_order", "agentboard_tasks"]

TASK = "pddl"
"""AgentBoard's task folder."""
GAMES: dict[str, tuple[str, str, int]] = {
    "gripper": ("gripper", "prob{:02d}", 20),
    "blockworld": ("blocksworld", "problem{}", 10),
    "barman": ("barman", "p{:02d}", 20),
    "tyreworld": ("tyreworld", "p{:02d}", 10),
}
"""AgentBoard's games in its config's order: (our domain, its problem file names, problem count)."""


def agentboard_order() -> list[str]:
    """Our task ids in the order AgentBoard gives its lines to problems (60)."""
    order = []
    for domain, name, count in GAMES.values():
        numbers = {name.format(number): number for number in range(1, count + 1)}
        order.extend(f"pddl-{domain}-p{numbers[file]:02d}" for file in sorted(numbers))
    return order


def agentboard_tasks(folder: Path, domain: str | None = None) -> TaskSet:
    """The shipped tasks (of ``domain``, or all) in AgentBoard's order, each labelled with its line's difficulty
    (``params["agentboard_line"]`` says which line)."""
    lines = read_task_file(folder, TASK)
    order = agentboard_order()
    expect_count(lines, len(order), "PDDL problems (gripper 20, blockworld 10, barman 20, tyreworld 10)")
    labels = [line.difficulty for line in lines]  # every line is checked, whichever domain is played
    shipped = {task.task_id: task for task in shipped_tasks(domain)}
    return TaskSet(
        [
            replace(
                shipped[task_id], difficulty=label, params={**shipped[task_id].params, "agentboard_line": line.where}
            )
            for task_id, line, label in zip(order, lines, labels, strict=True)
            if task_id in shipped
        ]
    )
