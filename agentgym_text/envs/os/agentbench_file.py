"""AgentBench's own OS items (``data/os_interaction/data/<g>/*.json``, ``data/dev.json``) as a task set.

``task_file=`` is either AgentBench's ``data_config["files"]`` list (entries ``{problem_file: glob, script_dir,
index_prefix}``, paths relative to the current directory as in AgentBench) or one path or glob, whose script folder
is ``script_dir=`` or, by default, AgentBench's layout (``.../data/<g>/x.json`` -> ``.../scripts/<g>/``,
``.../data/dev.json`` -> ``.../scripts/dev/``). A problem file holds a JSON object, a JSON list, or JSON Lines.
Task ids are AgentBench v0.2's sample names: ``<index_prefix><file stem>-<index:05d>`` (``std-001-stock-00000``).

An item's fields as AgentBench v0.2 reads them:

- ``description``: the question; ``start``: a bash line sent to the agent's shell before its first turn;
- ``create.init``: one script or a list, each run in its own process before the episode (any failure makes the
  item unplayable). A ``create`` that is not an object (two shipped items have a list) gives no init;
  ``create.local`` and ``create.image`` name Docker images and are ignored (v0.2 runs every item on one image);
- ``evaluation.match``: a string (compared stripped) or ``{answer | regex, strip}`` (``strip`` defaults to true);
- ``evaluation.check``: one script or a list, ``null`` standing for ``evaluation.example``: the checker chain.

A script is bash code (a string) or ``{language: bash | python, file: <under the script folder> | code: ...}``.
A loaded script is ``[language, code]``; every file is read at load time, so a task's params are self-contained.
"""

from __future__ import annotations

import glob
import json
import re
from pathlib import Path
from typing import Any

from agentgym_text.core.tasks import TaskSet, TaskSpec

__all__ = ["TaskFileError", "load_task_file", "entries_for", "LANGUAGES"]

LANGUAGES = ("bash", "python")
"""Script languages played here (AgentBench also names c and c++, which no item of its files uses)."""


class TaskFileError(ValueError):
    """An AgentBench OS file or item that cannot be played (the message names the file and item)."""


def _default_script_dir(path: Path) -> Path:
    """AgentBench's layout: ``.../data/<g>/x.json`` -> ``.../scripts/<g>/``; ``.../data/x.json`` -> ``scripts/dev``."""
    if path.parent.parent.name == "data":
        return path.parent.parent.parent / "scripts" / path.parent.name
    if path.parent.name == "data":
        return path.parent.parent / "scripts" / "dev"
    return path.parent


def _default_prefix(path: Path) -> str:
    """v0.2's prefixes for its own layout (``std-00<g>-``, ``dev-001-``); none elsewhere."""
    if path.parent.parent.name == "data" and path.parent.name.isdigit():
        return f"std-{int(path.parent.name):03d}-"
    if path.parent.name == "data" and path.stem == "dev":
        return "dev-001-"
    return ""


def entries_for(task_file: Any, script_dir: str | None = None) -> list[tuple[Path, Path, str]]:
    """(problem file, script folder, id prefix) for every file that ``task_file`` names, in a stable order."""
    if isinstance(task_file, (str, Path)):
        pattern = str(Path(task_file).expanduser())
        paths = sorted(Path(p) for p in glob.glob(pattern)) if glob.has_magic(pattern) else [Path(pattern)]
        if not paths or not all(p.is_file() for p in paths):
            missing = next((p for p in paths if not p.is_file()), pattern)
            raise TaskFileError(f"AgentBench OS file {missing} does not exist")
        return [
            (p, Path(script_dir).expanduser() if script_dir else _default_script_dir(p), _default_prefix(p))
            for p in paths
        ]
    if script_dir is not None:
        raise TaskFileError("script_dir= goes with a task_file= path; data_config entries name their own script_dir")
    if not isinstance(task_file, (list, tuple)) or not task_file:
        raise TaskFileError(
            "task_file= must be a path or glob, or AgentBench's data_config file list "
            "([{problem_file, script_dir, index_prefix}, ...])"
        )
    found = []
    for number, entry in enumerate(task_file):
        if not isinstance(entry, dict) or not isinstance(entry.get("problem_file"), str):
            raise TaskFileError(f"task_file entry {number} must be an object with a problem_file glob")
        matches = sorted(
            Path(p) for p in glob.glob(str(Path(entry["problem_file"]).expanduser())) if p.endswith((".json", ".jsonl"))
        )
        if not matches:
            raise TaskFileError(f"task_file entry {number}: no .json or .jsonl file matches {entry['problem_file']!r}")
        folder = Path(str(entry.get("script_dir", "."))).expanduser()
        found += [(p, folder, str(entry.get("index_prefix", ""))) for p in matches]
    return found


def _read_items(path: Path) -> list[Any]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        items = []
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    items.append(json.loads(line))
                except json.JSONDecodeError as error:
                    raise TaskFileError(f"AgentBench OS file {path}, line {number}: not JSON ({error.msg})") from None
        return items
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise TaskFileError(f"AgentBench OS file {path}: not JSON ({error.msg}, line {error.lineno})") from None
    if isinstance(data, dict):
        return [data]
    if not isinstance(data, list):
        raise TaskFileError(f"AgentBench OS file {path}: holds an object, a list of objects, or JSON Lines")
    return data


class _Item:
    """Reads one item's fields, naming the file and index in every error."""

    def __init__(self, path: Path, index: int, scripts: Path):
        self.where = f"AgentBench OS file {path}, item {index}"
        self.scripts = scripts

    def fail(self, what: str) -> TaskFileError:
        return TaskFileError(f"{self.where}: {what}")

    def script(self, value: Any, field: str) -> list[str]:
        if isinstance(value, str):
            return ["bash", value]
        if not isinstance(value, dict):
            raise self.fail(f"{field} must be bash code or an object with file or code")
        language = value.get("language", "bash")
        if language not in LANGUAGES:
            raise self.fail(f"{field} is in {language!r}; the scripts played here are {', '.join(LANGUAGES)}")
        if isinstance(value.get("file"), str):
            path = self.scripts / value["file"]
            if not path.is_file():
                raise self.fail(f"{field} names {value['file']!r}, which is not in the script folder {self.scripts}")
            return [language, path.read_text(encoding="utf-8")]
        if isinstance(value.get("code"), str):
            return [language, value["code"]]
        raise self.fail(f"{field} must have a file or code")


def _item(path: Path, scripts: Path, index: int, raw: Any) -> dict[str, Any]:
    item = _Item(path, index, scripts)
    if not isinstance(raw, dict):
        raise item.fail("an item must be an object")
    if not isinstance(raw.get("description"), str):
        raise item.fail("the description is missing")
    create = raw.get("create")
    init: list[list[str]] = []
    if isinstance(create, dict) and create.get("init") is not None:
        scripts_given = create["init"] if isinstance(create["init"], list) else [create["init"]]
        init = [item.script(s, f"create.init[{n}]") for n, s in enumerate(scripts_given)]
    start = raw.get("start")
    if start is not None:
        start = item.script(start, "start")
        if start[0] != "bash":
            raise item.fail("start is sent to the agent's bash shell: it must be bash")
    evaluation = raw.get("evaluation")
    if not isinstance(evaluation, dict):
        raise item.fail("the evaluation is missing")
    params: dict[str, Any] = {"description": raw["description"], "init": init, "start": start and start[1]}
    example = evaluation.get("example")  # v0.2 runs it for check items only; the expert plays it in either kind
    params["example"] = None if example is None else item.script(example, "evaluation.example")
    if "match" in evaluation:
        params["match"] = _match(item, evaluation["match"])
    elif "check" in evaluation:
        chain = evaluation["check"] if isinstance(evaluation["check"], list) else [evaluation["check"]]
        params["check"] = [None if s is None else item.script(s, f"evaluation.check[{n}]") for n, s in enumerate(chain)]
        if None in params["check"] and params["example"] is None:
            raise item.fail("a null checker stands for the example, and the item has none")
    else:
        raise item.fail("the evaluation needs match or check")
    return params


def _match(item: _Item, value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        return {"answer": value, "strip": True}
    if isinstance(value, dict) and isinstance(value.get("answer"), str):
        return {"answer": value["answer"], "strip": bool(value.get("strip", True))}
    if isinstance(value, dict) and isinstance(value.get("regex"), str):
        try:
            re.compile(value["regex"])
        except re.error as error:
            raise item.fail(f"the match regex does not compile ({error})") from None
        return {"regex": value["regex"], "strip": bool(value.get("strip", True))}
    raise item.fail("evaluation.match must be a string or an object with answer or regex")


def load_task_file(task_file: Any, script_dir: str | None, max_steps: int) -> TaskSet:
    """Every item of the files that ``task_file`` names (see the module's docstring), as ``TaskSpec``s."""
    specs = []
    for path, scripts, prefix in entries_for(task_file, script_dir):
        items = _read_items(path)
        stem = path.name.removesuffix(".json").removesuffix(".jsonl")
        for index, raw in enumerate(items):
            params = _item(path, scripts, index, raw)
            params.update(source="agentbench", file=str(path), index=index, group=prefix.rstrip("-") or stem)
            hard = params.get("start") is not None or len(params.get("check") or ()) > 2
            specs.append(
                TaskSpec(
                    f"{prefix}{stem}-{index:05d}", params, params["description"], "hard" if hard else "easy", max_steps
                )
            )
    if not specs:
        raise TaskFileError(f"AgentBench OS task_file {task_file!r} holds no items")
    ids = [spec.task_id for spec in specs]
    if len(set(ids)) != len(ids):
        raise TaskFileError("two AgentBench OS items have the same id; give each file entry its own index_prefix")
    return TaskSet(specs)
