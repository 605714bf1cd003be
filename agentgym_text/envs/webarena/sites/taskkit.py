"""Helpers for the task generators: templates and their instances, gold-plan steps, evaluator parts.

A generator (``tasks_<site>.py``) is a table of ``Template``s: one of WebArena's intent templates (its id and
intent with ``{{slot}}`` marks) and a function reading the seeded template database that returns the template's
``Instance``s: slot values, the expert's plan, and how each task is judged. ``make_tasks`` turns a table into task
configs in WebArena's test.raw.json schema plus our keys ``db_checks``, ``gold`` and ``progress`` (the URL and page
text along the gold path that mark progress for tasks whose evaluator alone gives no partial signal; see
progress.py).
"""

from __future__ import annotations

import calendar
import random
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

__all__ = [
    "SHOPPING",
    "SHOPPING_ADMIN",
    "REDDIT",
    "GITLAB",
    "WIKIPEDIA",
    "SeededDatabase",
    "Instance",
    "Template",
    "make_tasks",
    "question",
    "navigation",
    "change",
    "page_includes",
    "page_shows",
    "field_value",
    "db_check",
    "click",
    "type_",
    "fill_in",
    "goto",
    "stop",
    "rng_for",
    "draw_round",
    "money_variants",
    "month_label",
    "order_number",
]

# WebArena's placeholders for the sites' base URLs in a task config.
SHOPPING = "__SHOPPING__"
SHOPPING_ADMIN = "__SHOPPING_ADMIN__"
REDDIT = "__REDDIT__"
GITLAB = "__GITLAB__"
WIKIPEDIA = "__WIKIPEDIA__"
Result = TypeVar("Result")
_SITE_OF_PLACEHOLDER = {
    SHOPPING: "shopping",
    SHOPPING_ADMIN: "shopping_admin",
    REDDIT: "reddit",
    GITLAB: "gitlab",
    WIKIPEDIA: "wikipedia",
}


class SeededDatabase:
    """A site's seeded database as the templates' functions read it. A draw that several templates share (the
    products they pick from, say) runs once per database: ``db.shared(draw)``."""

    def __init__(self, connection: sqlite3.Connection):
        self.connection = connection
        self._shared: dict[Callable, Any] = {}

    def rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        return [tuple(row) for row in self.connection.execute(sql, params).fetchall()]

    def column(self, sql: str, params: tuple = ()) -> list:
        """The first column of a query's rows."""
        return [row[0] for row in self.connection.execute(sql, params).fetchall()]

    def value(self, sql: str, params: tuple = ()) -> Any:
        """The first cell of a query's first row."""
        return self.connection.execute(sql, params).fetchone()[0]

    def shared(self, draw: Callable[[SeededDatabase], Result]) -> Result:
        if draw not in self._shared:
            self._shared[draw] = draw(self)
        return self._shared[draw]


@dataclass(frozen=True)
class Instance:
    """One task of a template: its slot values, the expert's plan and what judges it."""

    slots: dict[str, Any]
    gold: list[dict]
    answer: tuple[str, Any] | None = None  # (kind, reference) for string_match
    url: str | None = None  # for url_match
    html: list[dict] = field(default_factory=list)  # program_html checks
    db: list[dict] = field(default_factory=list)  # db_checks
    progress: dict = field(default_factory=dict)
    string_note: str = ""


@dataclass(frozen=True)
class Template:
    """One of WebArena's intent templates and the function returning its instances on the seeded sites.

    ``instances`` gets the arguments of ``tasks`` (the site's database, and whatever else the template reads).
    ``also`` names the other sites of a multi-site task.
    """

    template_id: int
    intent: str
    start_url: str
    instances: Callable[..., Iterable[Instance]]
    also: tuple[str, ...] = ()

    def tasks(self, *sources: Any) -> list[dict]:
        return [self.config(instance) for instance in self.instances(*sources)]

    def config(self, instance: Instance) -> dict:
        """The task config of one instance (``task_id`` is numbered later, over all sites)."""
        intent = self.intent
        for slot, filling in instance.slots.items():
            intent = intent.replace("{{" + slot + "}}", str(filling))
        eval_types = []
        if instance.answer is not None:
            eval_types.append("string_match")
        if instance.url is not None:
            eval_types.append("url_match")
        if instance.html:
            eval_types.append("program_html")
        sites = [_SITE_OF_PLACEHOLDER[self.start_url.split("/")[0]], *self.also]
        return {
            "sites": sites,
            "task_id": None,
            "require_login": True,
            "storage_state": f"./.auth/{sites[0]}_state.json",
            "start_url": self.start_url,
            "geolocation": None,
            "intent_template": self.intent,
            "instantiation_dict": instance.slots,
            "intent": intent,
            "require_reset": bool(instance.db),
            "eval": {
                "eval_types": eval_types,
                "reference_answers": None if instance.answer is None else {instance.answer[0]: instance.answer[1]},
                "reference_url": instance.url or "",
                "program_html": instance.html,
                "string_note": instance.string_note,
                "url_note": "GOLD in PRED",
                "reference_answer_raw_annotation": "" if instance.answer is None else str(instance.answer[1]),
            },
            "intent_template_id": self.template_id,
            "db_checks": instance.db,
            "gold": instance.gold,
            "progress": instance.progress,
        }


def make_tasks(table: Sequence[Template | tuple[Template, ...]], *sources: Any) -> list[dict]:
    """The task configs of a table's templates, in order. A tuple of templates (questions on the same subjects)
    takes turns: its templates' first instances, then their second ones, and so on."""
    configs: list[dict] = []
    for entry in table:
        if isinstance(entry, Template):
            configs.extend(entry.tasks(*sources))
        else:
            for turn in zip(*(template.tasks(*sources) for template in entry), strict=True):
                configs.extend(turn)
    return configs


def question(
    slots: dict[str, Any],
    steps: list[dict],
    answer: str,
    *,
    reference: tuple[str, Any] | None = None,
    page: str,
    seen: list[str],
    note: str = "",
) -> Instance:
    """A question answered with ``answer`` after ``steps``, judged by ``reference`` (by default the answer exactly);
    progress is ``page`` showing the texts ``seen``."""
    return Instance(
        slots,
        [*steps, stop(answer)],
        answer=reference or ("exact_match", answer),
        progress={"url": page, "contents": seen},
        string_note=note,
    )


def navigation(slots: dict[str, Any], steps: list[dict], url: str) -> Instance:
    """A task solved by reaching ``url``."""
    return Instance(slots, [*steps, stop()], url=url)


def change(slots: dict[str, Any], steps: list[dict], page: dict, check: dict, progress: dict | None = None) -> Instance:
    """A task that changes a site: judged by a page showing the change and by a check of the site's database."""
    return Instance(slots, [*steps, stop()], html=[page], db=[check], progress=progress or {})


def page_includes(url: str, *texts: str) -> dict:
    """A program_html check: the page at ``url`` includes every one of ``texts``."""
    return {"url": url, "locator": "", "required_contents": {"must_include": list(texts)}}


def page_shows(url: str, locator: str, expected: str) -> dict:
    """A program_html check: the script ``locator`` on the page at ``url`` gives exactly ``expected``."""
    return {"url": url, "locator": locator, "required_contents": {"exact_match": expected}}


def field_value(url: str, name: str, expected: str) -> dict:
    """A program_html check: the form field named ``name`` on the page at ``url`` holds exactly ``expected``."""
    return page_shows(url, f"document.querySelector('[name=\"{name}\"]').value", expected)


def db_check(site: str, sql: str, params: Sequence[object], expected: Any) -> dict:
    """A check of ``site``'s database after the episode: ``sql`` with a ``?`` placeholder per value of ``params``
    (the only ``?`` in the text) returns ``expected``. The evaluator runs a config's query as one text, so the
    values go in as SQL literals, quoted by SQLite's own ``quote()``."""
    pieces = sql.split("?")
    if len(pieces) != len(params) + 1:
        raise ValueError(f"{len(pieces) - 1} placeholders for {len(params)} values in {sql!r}")
    with closing(sqlite3.connect(":memory:")) as quoter:
        literals = [quoter.execute("SELECT quote(?)", (param,)).fetchone()[0] for param in params]
    text = "".join(piece + literal for piece, literal in zip(pieces, literals)) + pieces[-1]
    return {"site": site, "sql": text, "expected": expected}


def click(role: str, name: str, nth: int | None = None) -> dict:
    step: dict[str, Any] = {"action": "click", "role": role, "name": name}
    if nth is not None:
        step["nth"] = nth
    return step


def type_(role: str, name: str, text: str, enter: int = 1) -> dict:
    return {"action": "type", "role": role, "name": name, "text": text, "enter": enter}


def fill_in(fields: dict[str, str], button: str) -> list[dict]:
    """Steps typing each text into the box labelled with its key (no Enter), then pressing ``button``."""
    return [*(type_("textbox", label, text, 0) for label, text in fields.items()), click("button", button)]


def goto(url: str) -> dict:
    return {"action": "goto", "url": url}


def stop(answer: str = "") -> dict:
    return {"action": "stop", "answer": answer}


_DRAW_ROUND: ContextVar[int] = ContextVar("webarena_draw_round", default=0)


@contextmanager
def draw_round(number: int) -> Iterator[None]:
    """Inside, every template draws with the seeds of round ``number`` (0, the default, draws the shipped tasks;
    the training split draws rounds 1, 2, ...)."""
    token = _DRAW_ROUND.set(number)
    try:
        yield
    finally:
        _DRAW_ROUND.reset(token)


def rng_for(template_id: int) -> random.Random:
    """The random draws of one template in the current ``draw_round``: the same in every run and independent of
    the other templates' and of the other rounds'."""
    number = _DRAW_ROUND.get()
    return random.Random(f"webarena-template-{template_id}" + (f"-round-{number}" if number else ""))


def money_variants(amount: float) -> str:
    """A must_include entry accepting $1,234.50, 1234.50 and 1234.5."""
    variants = dict.fromkeys(
        [f"{amount:,.2f}", f"{amount:.2f}", f"{amount:g}" if amount != int(amount) else f"{amount:.2f}"]
    )
    return " |OR| ".join(variants)


def month_label(month: str) -> str:
    """ "2023-05" as "May 2023"."""
    return f"{calendar.month_name[int(month[5:])]} {month[:4]}"


def order_number(order_id: int) -> str:
    """An order's number as the shop and its admin show it."""
    return f"{order_id:06d}"
