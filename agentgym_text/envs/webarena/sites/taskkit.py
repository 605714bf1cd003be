"""Helpers for the task generators: a WebArena task config builder and gold-plan steps.

A generator (``tasks_<site>.py``) reads the seeded template database and returns task configs in WebArena's
test.raw.json schema plus our keys ``db_checks``, ``gold`` and ``progress`` (the URL and page text along the
gold path that mark progress for tasks whose evaluator alone gives no partial signal; see progress.py).
"""

from __future__ import annotations

import random
import sqlite3
from typing import Any

__all__ = ["S", "A", "R", "G", "W", "task", "click", "type_", "goto", "stop", "rng_for", "rows", "money_variants"]

S, A, R, G, W = "__SHOPPING__", "__SHOPPING_ADMIN__", "__REDDIT__", "__GITLAB__", "__WIKIPEDIA__"
_SITE_OF = {S: "shopping", A: "shopping_admin", R: "reddit", G: "gitlab", W: "wikipedia"}


def rng_for(template_id: int) -> random.Random:
    return random.Random(f"webarena-template-{template_id}")


def rows(connection: sqlite3.Connection, sql: str, params: tuple = ()) -> list[tuple]:
    return [tuple(r) for r in connection.execute(sql, params).fetchall()]


def money_variants(value: float) -> str:
    """A must_include entry accepting $1,234.50, 1234.50 and 1234.5."""
    variants = dict.fromkeys([f"{value:,.2f}", f"{value:.2f}", f"{value:g}" if value != int(value) else f"{value:.2f}"])
    return " |OR| ".join(variants)


def click(role: str, name: str, nth: int | None = None) -> dict:
    step: dict[str, Any] = {"action": "click", "role": role, "name": name}
    if nth is not None:
        step["nth"] = nth
    return step


def type_(role: str, name: str, text: str, enter: int = 1) -> dict:
    return {"action": "type", "role": role, "name": name, "text": text, "enter": enter}


def goto(url: str) -> dict:
    return {"action": "goto", "url": url}


def stop(answer: str = "") -> dict:
    return {"action": "stop", "answer": answer}


def task(
    template_id: int,
    intent_template: str,
    inst: dict[str, Any],
    start_url: str,
    gold: list[dict],
    *,
    answer: tuple[str, Any] | None = None,
    url: str | None = None,
    html: list[dict] | None = None,
    db: list[dict] | None = None,
    progress: dict | None = None,
    string_note: str = "",
    also: tuple[str, ...] = (),
) -> dict:
    intent = intent_template
    for key, value in inst.items():
        intent = intent.replace("{{" + key + "}}", str(value))
    eval_types = []
    if answer is not None:
        eval_types.append("string_match")
    if url is not None:
        eval_types.append("url_match")
    if html:
        eval_types.append("program_html")
    sites = [_SITE_OF[start_url.split("/")[0]], *also]  # ``also``: the other sites of a multi-site task
    return {
        "sites": sites,
        "task_id": None,
        "require_login": True,
        "storage_state": f"./.auth/{sites[0]}_state.json",
        "start_url": start_url,
        "geolocation": None,
        "intent_template": intent_template,
        "instantiation_dict": inst,
        "intent": intent,
        "require_reset": bool(db),
        "eval": {
            "eval_types": eval_types,
            "reference_answers": {answer[0]: answer[1]} if answer is not None else None,
            "reference_url": url or "",
            "program_html": html or [],
            "string_note": string_note,
            "url_note": "GOLD in PRED",
            "reference_answer_raw_annotation": "" if answer is None else str(answer[1]),
        },
        "intent_template_id": template_id,
        "db_checks": db or [],
        "gold": gold,
        "progress": progress or {},
    }
