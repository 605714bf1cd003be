"""The interface every tool backend implements, so a live-API adapter could replace an offline one.

A ``Toolkit`` is built fresh for each episode from the task's ``config``; ``call`` runs one function whose
arguments ``schema.check_arguments`` has already converted, and returns plain JSON-like data. A call the backend
cannot serve raises core's ``ActionError``: ``unknown_object`` (no such id or name), ``precondition_failed`` (e.g. a
date range in the future for a historical query) or ``bad_argument``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from agentgym_text.envs.tools.actions import Call
from agentgym_text.envs.tools.schema import FunctionSpec, Param

__all__ = ["Toolkit", "FINISH_SPEC", "USER_DATE_SPECS"]

FINISH_SPEC = FunctionSpec(
    "finish",
    "End the task. For a question give the answer; for an operation task give 'done'.",
    (Param("answer", "any", description="the answer: text, number or list"),),
    "the answer you gave",
)

USER_DATE_SPECS = (
    FunctionSpec("get_user_current_date", "Get the user's current date.", (), "the date as 'YYYY-MM-DD'"),
    FunctionSpec("get_user_current_location", "Get the user's current city.", (), "the city name"),
)


class Toolkit:
    """Base class: subclasses set ``name`` and ``functions`` and define a method per function name.

    ``state()`` is the part of the world an operation task grades (None for read-only tools);
    ``example_calls()`` lists concrete calls that would succeed now (for random agents and listings).
    """

    name: ClassVar[str] = ""
    functions: ClassVar[tuple[FunctionSpec, ...]] = ()

    def __init__(self, config: dict[str, Any]):
        self.config = dict(config)

    @classmethod
    def spec(cls, name: str) -> FunctionSpec | None:
        for spec in cls.functions:
            if spec.name == name:
                return spec
        return None

    def call(self, name: str, args: dict[str, Any]) -> Any:
        method: Callable[..., Any] = getattr(self, f"do_{name}")
        return method(**args)

    def state(self) -> Any:
        return None

    def revision(self) -> int | None:
        """A counter that changes whenever ``state()`` may have changed (None: unknown, always recompute)."""
        return None

    def example_calls(self) -> list[Call]:
        return []

    def intro(self) -> str:
        """Extra text for the first observation (e.g. the open sheet)."""
        return ""

    def close(self) -> None:
        """Release what the episode held (a database connection)."""
