"""WebArena's evaluators on what the caller saw, plus our database checks.

``evaluate(config, answer, url, page_content, db_paths, sites, llm=None)`` returns the product of the
evaluators the config lists (WebArena's semantics):

- ``string_match`` on the ``stop`` answer: ``exact_match`` (cleaned: stripped, outer quotes removed, lower
  case), ``must_include`` (each reference a substring; a one-character reference must be a whole token when it
  is the only one; " |OR| " alternatives accepted, an extension), ``fuzzy_match`` (with ``llm``: WebArena's
  grading question; without: rules, see ``fuzzy_by_rules``; "N/A" references need an "N/A" answer or, with an
  llm, a matching reason);
- ``url_match``: "GOLD in PRED": some reference's host+path is a substring of the final URL's, and every
  reference query key has one of its reference values in the final URL's query;
- ``program_html``: for each target, ``page_content(url, locator)`` (url "last" = the page the episode ended
  on; other urls with the site placeholders resolved; locator "" = the page's text, else a JavaScript
  expression the caller evaluates there) must exact-match or include the required contents;
- ``db_checks`` (ours): each SQL query on the site's live database returns the expected value (one cell ->
  that value, else a list of rows as lists).

``llm``, when given, is a callable ``llm(messages) -> str`` on OpenAI-style chat messages.
"""

from __future__ import annotations

import re
import sqlite3
import urllib.parse
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = [
    "evaluate",
    "resolve",
    "clean_answer",
    "exact_match",
    "must_include",
    "fuzzy_by_rules",
    "url_match",
    "program_html",
    "db_checks",
    "PLACEHOLDERS",
]

PLACEHOLDERS = {
    "__SHOPPING__": "shopping",
    "__SHOPPING_ADMIN__": "shopping_admin",
    "__REDDIT__": "reddit",
    "__GITLAB__": "gitlab",
    "__WIKIPEDIA__": "wikipedia",
    "__MAP__": "map",
    "__HOMEPAGE__": "homepage",
}
LLM = Callable[[list[dict]], str]


def resolve(text: str, sites: dict[str, str]) -> str:
    """``text`` with the site placeholders replaced by the sites' base URLs (longest placeholder first)."""
    for placeholder in sorted(PLACEHOLDERS, key=len, reverse=True):
        site = PLACEHOLDERS[placeholder]
        if placeholder in text and site in sites:
            text = text.replace(placeholder, sites[site].rstrip("/"))
    return text


def clean_answer(answer: str) -> str:
    answer = answer.strip()
    if len(answer) >= 2 and answer[0] == answer[-1] and answer[0] in "'\"":
        answer = answer[1:-1]
    return answer.lower()


def exact_match(ref: str, pred: str) -> float:
    return float(clean_answer(pred) == clean_answer(str(ref)))


def _tokens(text: str) -> list[str]:
    return re.findall(r"\w+|[^\w\s]", text)


def must_include(ref: str, pred: str, tokenize: bool = False) -> float:
    clean_pred = clean_answer(pred)
    for alternative in str(ref).split(" |OR| "):
        clean_ref = clean_answer(alternative)
        if tokenize and len(clean_ref) == 1:
            if clean_ref in _tokens(clean_pred):
                return 1.0
        elif clean_ref in clean_pred:
            return 1.0
    return 0.0


def _normal(text: str) -> str:
    text = clean_answer(text).replace(",", "")
    return " ".join(re.sub(r"[^\w.$%/-]+", " ", text).split()).strip(" .")


def fuzzy_by_rules(ref: str, pred: str) -> float:
    """1.0 when the normalised reference (lower case, no thousands separators or punctuation) is contained in the
    normalised answer, when every reference word is an answer word, or when rapidfuzz's ratio is at least 90."""
    n_ref, n_pred = _normal(ref), _normal(pred)
    if not n_ref:
        return float(not n_pred)
    if n_ref in n_pred or set(n_ref.split()) <= set(n_pred.split()):
        return 1.0
    try:
        from rapidfuzz import fuzz
    except ImportError:  # pragma: no cover - rapidfuzz is a core dependency
        return 0.0
    return float(fuzz.ratio(n_ref, n_pred) >= 90)


def _llm_fuzzy(llm: LLM, intent: str, ref: str, pred: str) -> float:
    prompt = (
        "Help a teacher to grade the answer of a student given a question. Keep in mind that the student may "
        "use different phrasing or wording to answer the question. The goal is to evaluate whether the answer "
        f"is semantically equivalent to the reference answer.\nquestion: {intent}\nreference answer: {ref}\n"
        "all the string 'N/A' that you see is a special sequence that means 'not achievable'\n"
        f"student answer: {pred}\nConclude the judgement by correct/incorrect/partially correct."
    )
    reply = llm(
        [{"role": "system", "content": "You are a helpful assistant"}, {"role": "user", "content": prompt}]
    ).lower()
    if "partially correct" in reply or "incorrect" in reply:
        return 0.0
    return float("correct" in reply)


def _llm_unachievable(llm: LLM, intent: str, reason: str, pred: str) -> float:
    prompt = (
        f"task: {intent}\nactual unachievable reason: {reason}\nreported unachievable reason: {pred}\n"
        "The task described above is inherently unachievable due to the reason specified under 'actual "
        "unachievable reason'. An individual previously attempted this task and was unable to complete it. "
        "They provided a reason for their failure, which is listed under 'reported unachievable reason'. "
        "Your role is to review both the actual and reported reasons. Determine if the reported reason aligns "
        "with the actual reason, even if implicitly. If the stated reasons are in alignment, please respond "
        "with 'same'; otherwise, respond with 'different'."
    )
    reply = llm(
        [{"role": "system", "content": "You are a helpful assistant"}, {"role": "user", "content": prompt}]
    ).lower()
    return 0.0 if "different" in reply else float("same" in reply)


def string_match(config: dict, answer: str, llm: LLM | None = None) -> float:
    score = 1.0
    for approach, value in (config["eval"].get("reference_answers") or {}).items():
        if approach == "exact_match":
            score *= exact_match(value, answer)
        elif approach == "must_include":
            values = value if isinstance(value, list) else [value]
            for item in values:
                score *= must_include(item, answer, tokenize=len(values) == 1)
        elif approach == "fuzzy_match":
            if value == "N/A":
                score *= exact_match("N/A", answer)
                if score != 1 and llm is not None:
                    score = _llm_unachievable(llm, config["intent"], config["eval"].get("string_note", ""), answer)
            else:
                for item in value if isinstance(value, list) else [value]:
                    score *= (
                        _llm_fuzzy(llm, config["intent"], item, answer)
                        if llm is not None
                        else fuzzy_by_rules(item, answer)
                    )
    return score


def _parse(url: str) -> tuple[str, dict[str, list[str]]]:
    parsed = urllib.parse.urlparse(url)
    return parsed.netloc + parsed.path, urllib.parse.parse_qs(parsed.query)


def url_match(reference_url: str, url: str, sites: dict[str, str]) -> float:
    refs = [resolve(r, sites).rstrip("/") for r in reference_url.split(" |OR| ")]
    pred_path, pred_query = _parse(url.rstrip("/"))
    ref_paths, ref_query = [], defaultdict(set)
    for ref in refs:
        path, query = _parse(ref)
        ref_paths.append(path)
        for key, values in query.items():
            ref_query[key].update(values)
    score = float(any(path in pred_path for path in ref_paths))
    for key, values in ref_query.items():
        score *= float(any(value in pred_query.get(key, []) for value in values))
    return score


def program_html(
    targets: list[dict], url: str, page_content: Callable[[str, str], str], sites: dict[str, str]
) -> float:
    score = 1.0
    for target in targets:
        target_url = target["url"]
        target_url = target_url if target_url == "last" else resolve(target_url.replace("__last_url__", url), sites)
        try:
            content = page_content(target_url, target.get("locator", "")) or ""
        except Exception:
            content = ""
        required = target["required_contents"]
        if "exact_match" in required:
            score *= exact_match(required["exact_match"], content)
        if "must_include" in required:
            for item in required["must_include"]:
                score *= float(any(clean_answer(alt) in clean_answer(content) for alt in item.split(" |OR| ")))
        if score == 0:
            break
    return score


def _same(value: Any, expected: Any) -> bool:
    if isinstance(expected, list) and isinstance(value, list):
        return len(value) == len(expected) and all(_same(v, e) for v, e in zip(value, expected))
    if isinstance(expected, (int, float)) and isinstance(value, (int, float)) and not isinstance(value, bool):
        return abs(value - expected) < 1e-6
    return value == expected


def db_checks(checks: list[dict], db_paths: dict[str, Path]) -> float:
    for check in checks:
        path = db_paths.get(check["site"])
        if path is None:
            return 0.0
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = [list(row) for row in connection.execute(check["sql"]).fetchall()]
        except sqlite3.Error:
            return 0.0
        finally:
            connection.close()
        value: Any = rows[0][0] if len(rows) == 1 and len(rows[0]) == 1 else rows
        if not _same(value, check["expected"]):
            return 0.0
    return 1.0


def evaluate(
    config: dict,
    answer: str | None,
    url: str,
    page_content: Callable[[str, str], str],
    db_paths: dict[str, Path],
    sites: dict[str, str],
    llm: LLM | None = None,
) -> float:
    """WebArena's evaluator product for one finished episode (see the module docstring)."""
    score = 1.0
    evaluation = config["eval"]
    for kind in evaluation["eval_types"]:
        if kind == "string_match":
            score *= string_match(config, answer or "", llm)
        elif kind == "url_match":
            score *= url_match(evaluation["reference_url"], url, sites)
        elif kind == "program_html":
            score *= program_html(evaluation["program_html"], url, page_content, sites)
        else:
            raise ValueError(f"unknown evaluator type {kind!r}")
        if score == 0:
            return 0.0
    if config.get("db_checks"):
        score *= db_checks(config["db_checks"], db_paths)
    return score
