"""The tool tasks from AgentBoard's data folder (``<folder>/tool-query/test.jsonl``, ``tool-operation/test.jsonl``).

AgentBoard's loader (``utils/tool/data_utils.ToolDataset``) takes one instance per line, in line order: ``goal``,
``subgoals`` (the golden Subgoals of its progress rule), ``difficulty`` and ``additional_info`` {``answer``,
``tool``, ``goal_type``, ``init_config`` {``current_date``, ``current_location``}}; the world is whatever the live
service answers. Here the world is this suite's offline backend, so a line is played only when it is one of this
suite's instances: the same tool and the same goal as one of our tasks (and, where the task sets them, the same
current date and location). That task's world, golden calls and id are kept; the line gives the subgoals, the
answer, ``goal_type``, the difficulty label and the goal. A line about any other world (AgentBoard's released lines
query live TMDB, open-meteo, Todoist and Google Sheets, or its academia pickles) is refused with an error naming the
line: playing it on our data would give a wrong score.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agentgym_text.core.agentboard_data import AgentBoardDataError, LabelLine, read_task_file
from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.tools.agentboard_text.progress import SUBGOAL_TOOLS
from agentgym_text.envs.tools.catalog import tools_of
from agentgym_text.envs.tools.tasks import tool_tasks
from agentgym_text.envs.tools.todo.seed_data import CURRENT_DATE, CURRENT_LOCATION

__all__ = ["TASK_FILES", "agentboard_tasks", "annotation"]

TASK_FILES = {"query": "tool-query", "operation": "tool-operation"}
"""AgentBoard's task folder of each family."""

_CONFIG_KEYS = ("current_date", "current_location")
_TODO_DEFAULTS = {"current_date": CURRENT_DATE, "current_location": CURRENT_LOCATION}
"""The date and place AgentBoard's harness gives the todo toolkit where our task's config names none."""


def _config_clash(line: LabelLine, task: TaskSpec, tool: str, config: dict[str, Any]) -> str | None:
    """Why the line's ``init_config`` is another world than ``task``'s (None when it is the same)."""
    for key in _CONFIG_KEYS:
        ours = task.params["config"].get(key) or (_TODO_DEFAULTS[key] if tool == "todo" else None)
        if ours is not None and key in config and config[key] != ours:
            return f"init_config.{key} is {config[key]!r}, but the instance {task.task_id} has {ours!r}"
    return None


def _our_task(line: LabelLine, tool: str, goal: str, seen: dict[str, str]) -> TaskSpec:
    """Our instance for the line: same tool, same goal, same current date and location; the first not yet taken."""
    matches = [task for task in tool_tasks(tool) if task.goal == goal]
    if not matches:
        raise line.error(
            f"its {tool} goal {goal[:80]!r} is not one of this suite's {tool} instances: the tool envs play "
            "offline worlds of their own, so only lines written for them can be scored (AgentBoard's released "
            "lines ask live TMDB, open-meteo, Todoist, Google Sheets or its academia pickles)"
        )
    info = line.get("additional_info", dict)
    config = line.get("additional_info.init_config", dict) if "init_config" in info else {}
    clashes = [_config_clash(line, task, tool, config) for task in matches]
    same_world = [task for task, clash in zip(matches, clashes) if clash is None]
    if not same_world:
        raise line.error(f"{clashes[0]} (another world than this suite's)")
    free = [task for task in same_world if task.task_id not in seen]
    if not free:
        first = same_world[0].task_id
        raise line.error(f"it is the instance {first} again (first at {seen[first]})")
    return free[0]


def annotation(line: LabelLine, tool: str) -> dict[str, Any]:
    """What AgentBoard's progress rule reads from a line: subgoals (or the sheet's answer table), answer, goal_type."""
    answer = line.get("additional_info.answer", object)
    goal_type = line.get("additional_info.goal_type", int) if "goal_type" in line.get("additional_info", dict) else 0
    if tool in SUBGOAL_TOOLS:
        subgoals = line.get("subgoals", list)
        if not subgoals:
            raise line.error("'subgoals' is empty (AgentBoard divides by their number)")
        return {"subgoals": subgoals, "answer": answer, "goal_type": goal_type, "where": line.where}
    if not isinstance(answer, str):
        raise line.error("a sheet line's additional_info.answer must be the answer table as JSON text")
    try:
        table = json.loads(answer)
    except json.JSONDecodeError as error:
        raise line.error(f"additional_info.answer is not JSON ({error.msg})") from None
    if not isinstance(table, list) or not all(isinstance(row, list) for row in table):
        raise line.error("additional_info.answer must be a table: a JSON list of rows (lists)")
    return {"subgoals": [], "answer": table, "goal_type": goal_type, "where": line.where}


def agentboard_tasks(folder: Path, family: str, tool: str | None = None) -> TaskSet:
    """The family's task set from AgentBoard's file, in line order (with ``tool=``, that tool's lines only)."""
    tools = tools_of(family, tool)
    members = tools_of(family)
    tasks: list[TaskSpec] = []
    seen: dict[str, str] = {}
    for line in read_task_file(folder, TASK_FILES[family]):
        line_tool = line.get("additional_info.tool")
        if line_tool not in members:
            raise line.error(f"additional_info.tool is {line_tool!r}, not a tool of {TASK_FILES[family]} {members}")
        if line_tool not in tools:
            continue
        goal, difficulty = line.goal, line.difficulty
        task = _our_task(line, line_tool, goal, seen)
        seen[task.task_id] = line.where
        params = {**task.params, "agentboard": annotation(line, line_tool)}
        tasks.append(TaskSpec(task.task_id, params, goal, difficulty, task.max_steps))
    if not tasks:
        raise AgentBoardDataError(
            f"AgentBoard data: {folder / TASK_FILES[family] / 'test.jsonl'} has no {' or '.join(tools)} lines"
        )
    return TaskSet(tasks)
