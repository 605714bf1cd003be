"""Subgoals and goal text for one task instance, derived from a replay of the simulator's gold path.

AgentBoard re-annotated ScienceWorld with evenly weighted "necessary observations" (paper, appendix H.2): entering
the room where the work happens, opening what must be opened, picking up and moving the objects, focusing,
the measurements and state changes, then completion. Here they are read off the gold path's own observations, so
each pattern matches what the simulator prints when the agent does that step itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from agentgym_text.envs.scienceworld.actions import is_ambiguity_prompt, refusal_kind

__all__ = ["GoldStep", "derive_subgoals", "rewrite_goal", "COMPLETION_SUBGOAL", "MAX_OBSERVATION_SUBGOALS"]

COMPLETION_SUBGOAL = "Complete the task."
MAX_OBSERVATION_SUBGOALS = 10
"""At most this many observation subgoals per instance (plus completion); focus steps are always kept."""

_WORK_VERBS = (
    "open",
    "focus on",
    "pick up",
    "move",
    "pour",
    "dunk",
    "mix",
    "connect",
    "activate",
    "deactivate",
    "use",
    "put down",
    "drop",
    "eat",
    "flush",
    "disconnect",
)
_MEASUREMENT = re.compile(r"degrees|measures|temperature", re.IGNORECASE)
_ROOM_ENTRY = re.compile(r"^You move to the (.+)\.$")
_START_ROOM = re.compile(r"This room is called the ([^.]+)\.")


@dataclass(frozen=True)
class GoldStep:
    """One gold action and the observation the simulator answered it with."""

    action: str
    observation: str


def _verb(action: str) -> str:
    for verb in sorted(_WORK_VERBS + ("go to",), key=len, reverse=True):
        if action == verb or action.startswith(verb + " "):
            return verb
    return ""


def _effective_verbs(steps: Sequence[GoldStep]) -> list[str]:
    """The verb of each step; a numeric answer to an ambiguity question takes the verb of the question."""
    verbs: list[str] = []
    for index, step in enumerate(steps):
        if step.action.isdigit() and index > 0 and is_ambiguity_prompt(steps[index - 1].observation):
            verbs.append(verbs[-1])
        else:
            verbs.append(_verb(step.action))
    return verbs


def observation_pattern(observation: str) -> str:
    """A regex for the first line of ``observation``; numbers in measurements become wildcards.

    >>> observation_pattern("the thermometer measures a temperature of 23 degrees celsius")
    'the\\\\ thermometer\\\\ measures\\\\ a\\\\ temperature\\\\ of\\\\ \\\\-?\\\\d+(?:\\\\.\\\\d+)?\\\\ degrees\\\\ celsius'
    """
    line = observation.strip().split("\n", 1)[0].strip()
    escaped = re.escape(line)
    if _MEASUREMENT.search(line):
        escaped = re.sub(r"(?:\\-)?\d+(?:\\\.\d+)?", lambda _: r"\-?\d+(?:\.\d+)?", escaped)
    return escaped


def _is_event(step: GoldStep) -> bool:
    text = step.observation.strip()
    return (
        bool(text)
        and "\n" not in text
        and len(text) <= 200
        and refusal_kind(text) is None
        and not (is_ambiguity_prompt(text))
    )


def derive_subgoals(steps: Sequence[GoldStep], limit: int = MAX_OBSERVATION_SUBGOALS) -> list[tuple[str, str]]:
    """(name, pattern) pairs in gold-path order, without duplicates; completion is not included.

    A room entry counts only when work (a non-movement action) happens in that room before the next move.
    """
    verbs = _effective_verbs(steps)
    chosen: list[tuple[int, str, bool]] = []  # (step index, observation line, is focus)
    for index, (step, verb) in enumerate(zip(steps, verbs)):
        if not verb or not _is_event(step):
            continue
        if verb == "go to":
            if not _ROOM_ENTRY.match(step.observation.strip()):
                continue
            later = verbs[index + 1 :]
            next_move = next((i for i, v in enumerate(later) if v == "go to"), len(later))
            if not any(v and v != "go to" and _is_event(s) for v, s in zip(later[:next_move], steps[index + 1 :])):
                continue
        chosen.append((index, step.observation.strip(), verb == "focus on"))
    unique: list[tuple[int, str, bool]] = []
    seen: set[str] = set()
    for index, line, focus in chosen:
        pattern = observation_pattern(line)
        if pattern not in seen:
            seen.add(pattern)
            unique.append((index, line, focus))
    if len(unique) > limit:
        focus_positions = [i for i, item in enumerate(unique) if item[2]]
        others = [i for i, item in enumerate(unique) if not item[2]]
        room = max(0, limit - len(focus_positions))
        keep_others = (
            [others[round(k * (len(others) - 1) / (room - 1))] for k in range(room)]
            if room > 1
            else others[-1:]
            if room == 1
            else []
        )
        keep = sorted(set(focus_positions) | set(keep_others))
        unique = [unique[i] for i in keep]
    return [(line, observation_pattern(line)) for _, line, _ in unique]


_ROOM_WORDS = {
    "hallway",
    "kitchen",
    "bathroom",
    "bedroom",
    "living room",
    "art studio",
    "workshop",
    "greenhouse",
    "foundry",
    "outside",
    "inventory",
    "agent",
    "air",
}


def _object_names(action: str) -> list[str]:
    """The objects a gold action names, without location qualifiers ("thermometer in inventory" -> thermometer)."""
    verb = _verb(action)
    if not verb or verb == "go to":
        return []
    rest = action[len(verb) :].strip()
    parts = (
        re.split(r" (?:to|into|in|on) (?=[a-z])", rest)
        if verb in ("move", "pour", "dunk", "use", "connect")
        else [rest]
    )
    names = []
    for part in parts:
        name = part.split(" in ", 1)[0].strip()
        name = re.sub(r"^(?:door to|the) ", "", name)
        if name and name not in _ROOM_WORDS and not name.startswith("door") and not name.startswith("substance"):
            names.append(name)
    return names


def _rooms_with_work(steps: Sequence[GoldStep], start_room: str) -> list[str]:
    room, rooms = start_room, []
    verbs = _effective_verbs(steps)
    for step, verb in zip(steps, verbs):
        entry = _ROOM_ENTRY.match(step.observation.strip())
        if verb == "go to" and entry:
            room = entry.group(1)
        elif verb and verb != "go to" and _is_event(step) and room and room not in rooms:
            rooms.append(room)
    return rooms


def _join(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def rewrite_goal(description: str, steps: Sequence[GoldStep], first_observation: str) -> str:
    """The task description with the rooms and objects of the gold path pinned (AgentBoard's rewrite).

    >>> rewrite_goal("Your task is to boil water. First, focus on the substance.",
    ...              [GoldStep("go to kitchen", "You move to the kitchen."),
    ...               GoldStep("pick up metal pot", "You move the metal pot to the inventory.")],
    ...              "This room is called the hallway.")
    'Your task is to boil water. First, focus on the substance. Do the task in the kitchen. The objects you need are: metal pot.'
    """
    text = re.sub(r"^\s*Task Description:\s*", "", description.strip(), flags=re.IGNORECASE).strip()
    start = _START_ROOM.search(first_observation)
    rooms = _rooms_with_work(steps, start.group(1) if start else "")
    objects: list[str] = []
    for step in steps:
        for name in _object_names(step.action):
            if name not in objects:
                objects.append(name)
    extra = []
    if rooms:
        extra.append(f"Do the task in the {_join(rooms)}.")
    if objects:
        extra.append(f"The objects you need are: {', '.join(objects[:8])}.")
    return " ".join([text] + extra)
