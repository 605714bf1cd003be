"""AgentBoard-style prompts per family: system prompt, instruction, one in-context example, goal, history.

Each family declares its prompt beside its registration: ``prompt.json`` in the family's folder (found through
its declaration, ``core.registry.family_folder``), with ``system``, ``instruction`` and ``example``; families
without one use ``generic.json`` here. ``build_messages`` turns a prompt plus the history window into chat
messages, in the plain style (reply with an action) or the ReAct style (a thought, then an action).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from agentgym_text.core.registry import family_folder

__all__ = ["FamilyPrompt", "load_prompt", "prompt_variants", "build_messages", "STYLES", "PROMPT_FILE"]

PROMPT_FILE = "prompt.json"

STYLES = ("vanilla", "react")

_VANILLA_FORMAT = "Reply with your next action only, on one line, in the form 'Action: <action>'."
_REACT_FORMAT = (
    "First think about what to do next, then act. Reply in exactly this form:\n"
    "Thought: <your reasoning, one short paragraph>\nAction: <one action>"
)


@dataclass(frozen=True)
class FamilyPrompt:
    family: str
    system: str
    instruction: str
    example: str


@cache
def _prompt_file(family: str) -> tuple[str, dict]:
    """The family whose ``prompt.json`` answers for ``family`` ("generic" when it has none) and the file's data."""
    source = resources.files(__name__).joinpath("generic.json")
    name = "generic"
    folder = family_folder(family)
    if folder is not None and folder.joinpath(PROMPT_FILE).is_file():
        source, name = folder.joinpath(PROMPT_FILE), family
    return name, json.loads(source.read_text(encoding="utf-8"))


def prompt_variants(family: str) -> dict[str | None, dict]:
    """Every replayable prompt of ``family``: the default (key ``None``) and each text format's, as raw dicts."""
    data = _prompt_file(family)[1]
    variants: dict[str | None, dict] = {None: dict(data)}
    for key, value in data.items():
        if isinstance(value, dict) and "example" in value:
            variants[key] = {**data, **value}
    return variants


@cache
def load_prompt(family: str, text_format: str | None = None) -> FamilyPrompt:
    """The prompt of ``family`` (the generic one when the family has none).

    Families whose env speaks more than one text (``text_format=``) keep the default's prompt at the top of
    ``prompt.json`` and each other format's under its name (e.g. ``"clear"``: instruction, example, optionally
    system); ``text_format`` picks one, falling back to the default.

    >>> load_prompt("mastermind").family, load_prompt("no-such-family").family
    ('mastermind', 'generic')
    """
    name = _prompt_file(family)[0]
    variants = prompt_variants(family)
    data = variants.get(text_format, variants[None])
    return FamilyPrompt(name, data["system"], data["instruction"], data["example"])


def build_messages(prompt: FamilyPrompt, goal: str, history: str, style: str = "vanilla") -> list[dict[str, str]]:
    """Chat messages: system prompt, then instruction + example + goal + history window + reply format.

    ``history`` is the ``HistoryWindow`` rendering (its own "Goal:" line is dropped: the goal comes once,
    above the history).

    >>> messages = build_messages(load_prompt("mastermind"), "Find the code.", "Observation: start")
    >>> [m["role"] for m in messages], messages[1]["content"].endswith("'Action: <action>'.")
    (['system', 'user'], True)
    """
    if style not in STYLES:
        raise ValueError(f"style must be one of {STYLES}")
    lines = history.splitlines()
    if lines and lines[0].startswith("Goal: "):
        lines = lines[1:]
    user = "\n\n".join(
        [
            prompt.instruction,
            "Here is an example:\n" + prompt.example,
            "Now it is your turn.\nGoal: " + goal,
            "\n".join(lines),
            _REACT_FORMAT if style == "react" else _VANILLA_FORMAT,
        ]
    )
    return [{"role": "system", "content": prompt.system}, {"role": "user", "content": user}]
