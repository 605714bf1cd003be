"""Which tools exist, which env each belongs to, and how many tasks each ships (import-light)."""

from __future__ import annotations

__all__ = ["QUERY_TOOLS", "OPERATION_TOOLS", "TASKS_PER_TOOL", "TOOLKIT_CLASSES", "TASK_MODULES", "tools_of"]

QUERY_TOOLS = ("weather", "movie", "academia")
OPERATION_TOOLS = ("todo", "sheet")
TASKS_PER_TOOL = 20

TOOLKIT_CLASSES = {
    "weather": "agentgym_text.envs.tools.weather.toolkit:WeatherToolkit",
    "movie": "agentgym_text.envs.tools.movie.toolkit:MovieToolkit",
    "academia": "agentgym_text.envs.tools.academia.toolkit:AcademiaToolkit",
    "todo": "agentgym_text.envs.tools.todo.toolkit:TodoToolkit",
    "sheet": "agentgym_text.envs.tools.sheet.toolkit:SheetToolkit",
}
"""``module:Class`` of each tool's offline backend."""

TASK_MODULES = {tool: f"agentgym_text.envs.tools.{tool}.tasks" for tool in TOOLKIT_CLASSES}
"""Each module has ``drafts() -> list[TaskDraft]`` with ``TASKS_PER_TOOL`` entries and ``training_drafts()``, the
stream of training drafts."""


def tools_of(family: str, tool: str | None = None) -> tuple[str, ...]:
    """The tools of ``family`` ("query" or "operation"), or just ``tool`` after checking it belongs."""
    members = {"query": QUERY_TOOLS, "operation": OPERATION_TOOLS}.get(family)
    if members is None:
        raise ValueError(f"family must be 'query' or 'operation', not {family!r}")
    if tool is None:
        return members
    if tool not in members:
        raise ValueError(f"tool must be one of {list(members)} for the {family} env, not {tool!r}")
    return (tool,)
