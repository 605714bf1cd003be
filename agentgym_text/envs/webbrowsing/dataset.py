"""The annotations played: recorded on the served sites at first use (cached), or read from a Mind2Web json file.

An annotation is Mind2Web's record of one task (its released ``train/test_*.json`` files hold lists of them).
What the env reads of it:

- ``confirmed_task`` (the task), ``annotation_id`` (else its index), ``website`` (optional);
- ``actions``: one per step, each with ``cleaned_html`` (elements carrying ``backend_node_id``),
  ``operation`` ``{"op": "CLICK" | "TYPE" | "SELECT", "value"}`` and ``pos_candidates`` (the gold elements,
  ``[{"backend_node_id"}]``); ``neg_candidates`` when present limits the distractors to those elements;
- ``action_reprs`` (optional): the steps as shown under "Previous actions" (else written from the operations).

Recording (``recorded``) needs the sites and Chromium: each task is an entry of its own in the cache
(``webbrowsing/<key>-<task>``, SHA-256 manifest, file lock), built at its first reset; ``record_all`` builds
them all with one browser (``python -m agentgym_text.envs.webbrowsing.build_tasks``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from agentgym_text.core.cache import build_cached, progress_bar, source_key

__all__ = ["Step", "Annotation", "read_annotation", "load_task_file", "recorded", "record_all", "Recorder"]

_FILE = "annotation.json"


@dataclass(frozen=True)
class Step:
    html: str
    op: str
    value: str
    gold: tuple[str, ...]
    allowed: tuple[str, ...] | None
    repr: str

    @property
    def target(self) -> str:
        return f"{self.op} {self.value}".strip() if self.op != "CLICK" else self.op


@dataclass(frozen=True)
class Annotation:
    annotation_id: str
    website: str
    task: str
    steps: tuple[Step, ...]


def _ids(candidates: Any) -> tuple[str, ...]:
    return tuple(str(item["backend_node_id"]) for item in candidates or () if "backend_node_id" in item)


def read_annotation(record: dict[str, Any], index: int = 0) -> Annotation:
    """One Mind2Web annotation (see the module docstring); a ValueError names what is missing."""
    try:
        task = str(record["confirmed_task"])
        actions = list(record["actions"])
    except (KeyError, TypeError) as error:
        raise ValueError(f"annotation {index}: needs 'confirmed_task' and 'actions' ({error})") from None
    reprs = list(record.get("action_reprs") or [])
    steps = []
    for number, action in enumerate(actions):
        try:
            operation = action["operation"]
            op = str(operation["op"]).upper()
            html = str(action["cleaned_html"])
        except (KeyError, TypeError) as error:
            raise ValueError(f"annotation {index}, action {number}: missing {error}") from None
        if op not in ("CLICK", "TYPE", "SELECT"):
            raise ValueError(f"annotation {index}, action {number}: operation {op!r} is not CLICK, TYPE or SELECT")
        value = str(operation.get("value") or "")
        negatives = action.get("neg_candidates")
        shown = reprs[number] if number < len(reprs) else f"{op}{': ' + value if op != 'CLICK' else ''}"
        steps.append(
            Step(
                html=html,
                op=op,
                value=value,
                gold=_ids(action.get("pos_candidates")),
                allowed=None if negatives is None else _ids(negatives),
                repr=str(shown),
            )
        )
    if not steps:
        raise ValueError(f"annotation {index}: no actions")
    return Annotation(str(record.get("annotation_id", index)), str(record.get("website", "")), task, tuple(steps))


def load_task_file(path: str | Path) -> list[Annotation]:
    """The annotations of a Mind2Web json file (a list of annotations, or one)."""
    data = json.loads(Path(path).read_text())
    records = data if isinstance(data, list) else [data]
    return [read_annotation(record, index) for index, record in enumerate(records)]


class Recorder:
    """The served sites and one Chromium, started on first use, for recording tasks (close it after)."""

    def __init__(self) -> None:
        self._server = None
        self._browser = None
        self._urls: dict[str, str] = {}

    def record(self, config: dict[str, Any]) -> dict[str, Any]:
        from agentgym_text.envs.webarena.browser import Browser
        from agentgym_text.envs.webarena.sites import SiteServer
        from agentgym_text.envs.webarena.urls import UrlMap
        from agentgym_text.envs.webbrowsing.recorder import record_task

        if self._server is None:
            self._server = SiteServer()
            self._urls = self._server.start()
        if self._browser is None:
            self._browser = Browser()
        self._server.reset()
        session = self._browser.new_session(list(self._urls.values()))
        try:
            urls = UrlMap(self._urls)
            return session.run(lambda inner: record_task(inner, urls, config, str(config["sites"][0])))
        finally:
            session.close()

    def close(self) -> None:
        from agentgym_text.envs.webarena.browser import close_parts

        close_parts(self._browser, self._server)
        self._browser = self._server = None

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@lru_cache(maxsize=1)
def _key() -> str:
    """The recordings' cache key: the recorder, WebArena's task file, the sites' code and their data."""
    from agentgym_text.envs.webarena import tasks as webarena_tasks
    from agentgym_text.envs.webarena.sites import admin, gitlab, reddit, shop, template_dir, web, wiki
    from agentgym_text.envs.webbrowsing import recorder

    return source_key(
        recorder, webarena_tasks.TASKS_FILE, web, shop, admin, reddit, gitlab, wiki, template_dir().name, length=12
    )


def _entry_name(config: dict[str, Any]) -> str:
    """A shipped task's recording is keyed by its number; any other config (a training task) by its own text, so
    that a regenerated training pool never reads an older recording."""
    from agentgym_text.envs.webarena.tasks import TASKS

    number = int(config["task_id"])
    if number < len(TASKS) and TASKS[number].params == config:
        return f"{_key()}-{number:03d}"
    return f"{_key()}-train-{source_key(json.dumps(config, sort_keys=True), length=12)}"


def recorded(config: dict[str, Any], recorder: Recorder | None = None) -> Annotation:
    """The annotation of a WebArena task config, recorded into the cache at first use."""
    own = recorder is None
    active = recorder or Recorder()

    def build(folder: Path) -> None:
        (folder / _FILE).write_text(json.dumps(active.record(config), ensure_ascii=False))

    try:
        entry = build_cached("webbrowsing", _entry_name(config), build, quiet=True)
    finally:
        if own:
            active.close()
    return read_annotation(json.loads((entry / _FILE).read_text()))


def record_all(configs: list[dict[str, Any]], quiet: bool = False) -> list[Annotation]:
    """Every task recorded (those already in the cache read back), with one browser and a progress bar."""
    with Recorder() as recorder:
        return [
            recorded(config, recorder)
            for config in progress_bar(configs, desc="recording WebBrowsing tasks", quiet=quiet)
        ]
