"""Text for what the agent sees and what its command did: one sentence per named object with its steps
ahead/left/right, and one sentence per :class:`~agentgym_text.envs.babyai.events.Event`."""

from __future__ import annotations

from agentgym_text.envs.babyai.events import Event, View
from agentgym_text.envs.babyai.perception import VisibleObject

__all__ = ["describe_view", "event_text", "step_text", "object_label", "door_state", "steps", "SUCCESS_TEXT",
           "FAILURE_TEXT"]  # fmt: skip

SUCCESS_TEXT = "The task is completed."
FAILURE_TEXT = "The task failed: the mission can no longer be completed."

_LOW_LEVEL_DONE = {"left": "You turned left.", "right": "You turned right.", "forward": "You moved forward."}


def steps(count: int) -> str:
    return f"{count} step" if count == 1 else f"{count} steps"


def door_state(door) -> str:
    if door.is_open:
        return "open"
    return "locked" if door.is_locked else "closed"


def object_label(name: str, obj) -> str:
    """ "red ball 1", or "red door 1 (locked)" for doors."""
    if obj.type == "door":
        return f"{name} ({door_state(obj)})"
    return name


def _where(item: VisibleObject) -> str:
    if item.right == 0:
        return f"{steps(item.forward)} straight ahead"
    side = "left" if item.right < 0 else "right"
    sideways = f"{steps(abs(item.right))} to your {side}"
    if item.forward == 0:
        return sideways
    return f"{steps(item.forward)} ahead and {sideways}"


def describe_view(view: View) -> str:
    """The description of the current view (objects, wall ahead, what is carried)."""
    parts = []
    if view.visible:
        parts.append("You see: " + "; ".join(f"{object_label(v.name, v.obj)}: {_where(v)}" for v in view.visible) + ".")
    else:
        parts.append("You see no objects.")
    if view.wall_ahead is not None:
        parts.append(f"There is a wall {steps(view.wall_ahead)} ahead of you.")
    parts.append(f"You are carrying a {view.carrying}." if view.carrying else "You are not carrying anything.")
    return " ".join(parts)


def event_text(event: Event) -> str:
    """One sentence saying what a command did."""
    if event.target is None:
        if event.kind in _LOW_LEVEL_DONE:
            return _LOW_LEVEL_DONE[event.kind]
        verb = {"pickup": "picked up", "drop": "dropped", "toggle": "toggled"}[event.kind]
        return f"You {verb} the {event.thing}." if event.thing else f"You {verb} it."
    name = event.target
    if event.kind == "goto":
        return f"You went to the {name}."
    if event.kind == "pickup":
        return f"You picked up the {name}."
    if event.kind == "go_through":
        return f"You went through the {name}." if event.crossed else f"You are in the doorway of the {name}."
    return (f"You opened the {name} and went through it." if event.crossed
            else f"You opened the {name} and stepped into the doorway.")  # fmt: skip


def step_text(event: Event, view: View) -> str:
    """The observation after a command: what it did, the new view, and the outcome if the episode ended."""
    text = f"{event_text(event)}\n{describe_view(view)}"
    if event.terminated:
        text += "\n" + (SUCCESS_TEXT if event.success else FAILURE_TEXT)
    return text
