"""AgentBoard's WebArena data (``<folder>/webarena/test.jsonl``, 245 lines) as WebArena task configs.

Each line holds ``goal`` (the intent), ``original_task_id``, ``difficulty`` and ``additional_info`` with the rest of
WebArena's config; AgentBoard's ``transform_format`` turns a line back into a config, in line order, and so does
``line_config`` here. The tasks are WebArena's, on WebArena's sites: they run with ``sites=`` naming a deployment
(the package's own sites have other data). Their ids are ``webarena-original-<original_task_id>``, apart from the
shipped tasks' ``webarena-NNN`` (other instances).

Every line is checked where AgentBoard's loader or its progress evaluators would fail on it later (a missing
field, an eval type or locator it does not know), so a bad line is one error naming the file and line at make.
"""

from __future__ import annotations

import os
from typing import Any

from agentgym_text.core.agentboard_data import LabelLine, data_folder, expect_count, read_task_file
from agentgym_text.core.tasks import TaskSet, TaskSpec
from agentgym_text.envs.webarena.registration import MAX_STEPS, TASK_COUNT

__all__ = ["TASK", "line_config", "load_lines"]

TASK = "webarena"
"""AgentBoard's folder name for WebArena."""

_INFO_FIELDS: dict[str, type | tuple[type, ...]] = {
    "sites": list,
    "require_login": bool,
    "storage_state": (str, type(None)),
    "start_url": str,
    "geolocation": (str, dict, type(None)),
    "intent_template": str,
    "instantiation_dict": dict,
    "require_reset": bool,
    "eval": dict,
    "intent_template_id": int,
}
_EVAL_TYPES = ("string_match", "url_match", "program_html")


def _check_eval(line: LabelLine, evaluation: dict[str, Any]) -> None:
    types = evaluation.get("eval_types")
    if not isinstance(types, list) or not types:
        raise line.error("additional_info.eval.eval_types must be a non-empty list")
    unknown = [kind for kind in types if kind not in _EVAL_TYPES]
    if unknown:
        raise line.error(f"additional_info.eval.eval_types names {unknown}; AgentBoard knows {list(_EVAL_TYPES)}")
    if "reference_url" not in evaluation:
        raise line.error("additional_info.eval.reference_url is missing (AgentBoard's progress router reads it)")
    for number, target in enumerate(evaluation.get("program_html") or [], start=1):
        where = f"additional_info.eval.program_html[{number}]"
        if not isinstance(target, dict) or not isinstance(target.get("locator"), str) or "url" not in target:
            raise line.error(f"{where} needs 'url' and a 'locator' string")
        locator = target["locator"].strip()
        if locator and not locator.startswith(("document.", "[...document.", "func:")):
            raise line.error(f"{where}.locator {locator[:60]!r} is neither empty, JavaScript nor func:")
        required = target.get("required_contents")
        if not isinstance(required, dict) or not ("must_include" in required or "exact_match" in required):
            raise line.error(f"{where}.required_contents needs 'must_include' or 'exact_match'")
        if "must_include" in required and not isinstance(required["must_include"], list):
            raise line.error(f"{where}.required_contents.must_include must be a list")


def line_config(line: LabelLine) -> dict[str, Any]:
    """The WebArena config of one line (AgentBoard's ``transform_format``), checked."""
    info = line.get("additional_info", dict)
    for name, kind in _INFO_FIELDS.items():
        line.get(f"additional_info.{name}", kind)
    _check_eval(line, info["eval"])
    task_id = line.get("original_task_id", int)
    return {
        "sites": info["sites"],
        "task_id": task_id,
        "require_login": info["require_login"],
        "storage_state": info["storage_state"],
        "start_url": info["start_url"],
        "geolocation": info["geolocation"],
        "intent_template": info["intent_template"],
        "instantiation_dict": info["instantiation_dict"],
        "intent": line.goal,
        "require_reset": info["require_reset"],
        "eval": info["eval"],
        "intent_template_id": info["intent_template_id"],
        "difficulty": line.difficulty,
    }


def load_lines(option: str | os.PathLike[str] | None) -> TaskSet | None:
    """The file's 245 tasks in line order, or None when no data folder is named (option or setting)."""
    folder = data_folder(option)
    if folder is None:
        return None
    lines = read_task_file(folder, TASK)
    expect_count(lines, TASK_COUNT, "WebArena tasks AgentBoard plays")
    tasks, seen = [], {}
    for line in lines:
        config = line_config(line)
        if config["task_id"] in seen:
            raise line.error(f"original_task_id {config['task_id']} repeats line {seen[config['task_id']]}")
        seen[config["task_id"]] = line.number
        tasks.append(
            TaskSpec(
                f"webarena-original-{config['task_id']:03d}",
                params=config,
                goal=config["intent"],
                difficulty=config["difficulty"],
                max_steps=MAX_STEPS,
            )
        )
    return TaskSet(tasks)
