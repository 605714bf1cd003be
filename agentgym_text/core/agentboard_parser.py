"""AgentBoard's reply parser (``action_parser_for_special_llms``), quirks included: one home for the AgentBoard
protocol, which reads the model's reply with it, and the tool envs' AgentBoard text, whose env reads a raw message
with it as AgentBoard's tool runner does."""

from __future__ import annotations

__all__ = ["parse_action", "ParserCrash"]


class ParserCrash(ValueError):
    """``action_parser_for_special_llms`` raises here in AgentBoard (a ``next action:`` line after an ``action:``
    line with nothing after its colon): the task loop has no handler, so the run stops."""


def parse_action(action: str) -> str:
    """The line after "next action ...:", a "<name> with Action Input: ..." line, or the text after "Action:" /
    "... is to", then its first line, stripped of spaces, quotes and slashes.

    >>> parse_action("Action: go north"), parse_action("I think.\\nThe next action is to open door"), parse_action("x")
    ('go north', 'open door', 'x')
    """
    origin_action = action
    if "action" in action.lower():
        lines: list[str] | str = action.split("\n")
        for line in list(lines):
            if "next action" in line and ":" in line:
                if isinstance(lines, str):  # AgentBoard's list was rebound to "" by an empty remainder below
                    raise ParserCrash("'' has no index()")
                index = lines.index(line)
                while index + 1 < len(lines):
                    if lines[index + 1]:
                        action = lines[index + 1]
                        break
                    index += 1
            if line.split(":")[0].lower().endswith("with action input"):
                action = line
                break
            if "action" in line.lower() and ":" in line:
                lines = ":".join(line.split(":")[1:])
                if lines != "":
                    action = lines
                    break
            if "action" in line.lower() and "is to" in line:
                lines = line.split("is to")[1]
                if lines != "":
                    action = lines
                    break
    if action.strip() == "":
        action = origin_action.split("\n")[0]
    action = action.strip()
    action = action.strip("'/")
    return action.split("\n")[0]
