"""Scores of an episode's state against the gold: answer equality, result match score, table closeness.

All values are compared normalised (``engine.normalise_value``: numbers to 2 places, text case-folded).

>>> result_match([("a", 1), ("b", 2)], [("a", 1), ("b", 2)], ordered=False)
1.0
>>> result_match([("a",), ("b",)], [("a", 1), ("b", 2)], ordered=False)
0.25
>>> round(result_match([("a", 1), ("b", 2), ("c", 3)], [("a",), ("b",)], ordered=False), 2)
0.6
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Sequence

from agentgym_text.envs.db.engine import normalise_rows, normalise_value

__all__ = [
    "answer_correct",
    "result_match",
    "rows_f1",
    "table_progress",
    "agentbench_answer_correct",
    "fc_answer_correct",
    "values_f1",
]


def answer_correct(given: Sequence, gold: Sequence, ordered: bool) -> bool:
    """AgentBench's check: the answer list equals the gold values (as a multiset unless order matters)."""
    left = [normalise_value(v) for v in given]
    right = [normalise_value(v) for v in gold]
    if ordered:
        return left == right
    return Counter(map(repr, left)) == Counter(map(repr, right))


def rows_f1(rows: Sequence[Sequence], gold: Sequence[Sequence]) -> float:
    """F1 of the two row multisets (1.0 when both are empty)."""
    if not rows and not gold:
        return 1.0
    mine, theirs = Counter(map(repr, normalise_rows(rows))), Counter(map(repr, normalise_rows(gold)))
    common = sum((mine & theirs).values())
    return 2 * common / (sum(mine.values()) + sum(theirs.values()))


def _contains(row: tuple, part: tuple) -> bool:
    return not (Counter(map(repr, part)) - Counter(map(repr, row)))


def _row_score(rows: list[tuple], gold: list[tuple]) -> float:
    """F1 of row containment: a result row matches a gold row whose values it holds (extra columns allowed)."""
    used = [False] * len(rows)
    matched = 0
    for target in gold:
        for index, row in enumerate(rows):
            if not used[index] and _contains(row, target):
                used[index] = True
                matched += 1
                break
    if not matched:
        return 0.0
    recall, precision = matched / len(gold), matched / len(rows)
    return 2 * recall * precision / (recall + precision)


def _multiset_f1(left: list, right: list) -> float:
    mine, theirs = Counter(map(repr, left)), Counter(map(repr, right))
    common = sum((mine & theirs).values())
    return 2 * common / (len(left) + len(right)) if common else 0.0


def result_match(rows: Sequence[Sequence], gold: Sequence[Sequence], ordered: bool) -> float:
    """Mean of a row match (F1 of gold rows found inside result rows) and a column match (each gold column's
    best value overlap with a result column, over the larger column count); an ordered answer in the wrong
    order keeps half its row match."""
    mine, theirs = normalise_rows(rows), normalise_rows(gold)
    if not mine or not theirs:
        return float(mine == theirs)
    row_score = _row_score(mine, theirs)
    if ordered and mine != theirs:
        row_score *= 0.5
    my_columns, gold_columns = list(zip(*mine)), list(zip(*theirs))
    best = sum(max(_multiset_f1(list(g), list(c)) for c in my_columns) for g in gold_columns)
    column_score = best / max(len(my_columns), len(gold_columns))
    return (row_score + column_score) / 2


def table_progress(current: Sequence[Sequence] | None, start: Sequence[Sequence], gold: Sequence[Sequence]) -> float:
    """How far the table moved from its start towards the gold content: 0 at the start, 1 at the gold."""
    if current is None:
        return 0.0
    baseline = rows_f1(start, gold)
    if baseline >= 1.0:
        return 1.0
    return max(0.0, (rows_f1(current, gold) - baseline) / (1.0 - baseline))


def agentbench_answer_correct(answer_text: str, label: Sequence[str]) -> bool:
    """AgentBench v0.2's check of a question's answer (the text after ``Final Answer:`` on its line, as sent).

    The text is read as a Python literal and turned into a list (v0.2 uses ``eval``; literals only here, which
    differs only for expressions such as ``1+1``); if that fails the answer is the raw text as one value. One value
    on both sides: equal as floats when both parse, else equal as strings; otherwise the sets must be equal.

    >>> agentbench_answer_correct(' ["1.0"]', ["1"]), agentbench_answer_correct(" Tom", ["Tom"])
    (True, False)
    >>> agentbench_answer_correct(' ["b", "a"]', ["a", "b"]), agentbench_answer_correct(" 'ab'", ["ab"])
    (True, False)
    """
    try:
        values = list(ast.literal_eval(answer_text.lstrip(" \t")))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        values = [answer_text]
    gold = list(label)
    if len(values) == 1 and len(gold) == 1:
        try:
            return float(values[0]) == float(gold[0])
        except (ValueError, TypeError):
            return values[0] == gold[0]
    try:
        return set(values) == set(gold)
    except TypeError:  # an unhashable value: AgentBench counts the answer wrong
        return False


_FC_SPECIAL = {"none", "null", "undefined", "nan", "inf", "infinity", "-inf", "-infinity", ""}


def _fc_value(value: object) -> str:
    """AgentBench FC's normalisation of one answer value."""
    if value is None:
        return "0"
    text = str(value).strip().strip("'\"").strip()
    if text.endswith("%"):
        text = text[:-1].strip()
    elif "," in text and not text.startswith("[") and not text.endswith("]"):
        text = text.replace(",", "")
    return "0" if text.lower() in _FC_SPECIAL else text


def _is_float(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def fc_answer_correct(values: Sequence[object], label: Sequence[str]) -> bool:
    """AgentBench FC's check of committed answer values: both sides normalised (None/null/nan/"" -> "0", a final
    "%" dropped, thousands commas removed, quotes stripped); one value each: floats within 0.01, else equal text;
    lists of floats: matched one to one within 0.01; else the sets must be equal.

    >>> fc_answer_correct(["1,234.001"], ["1234"]), fc_answer_correct(["12%", None], ["12", "null"])
    (True, True)
    """
    left = [_fc_value(value.strip() if isinstance(value, str) else value) for value in values]
    right = [_fc_value(value) for value in label]
    if len(left) == 1 and len(right) == 1:
        if left[0] == "0" and right[0] == "0":
            return True
        if _is_float(left[0]) and _is_float(right[0]):
            return abs(float(left[0]) - float(right[0])) <= 1e-2
        return left[0] == right[0]
    if all(map(_is_float, left)) and all(map(_is_float, right)):
        if len(left) != len(right):
            return False
        unmatched = [float(value) for value in right]
        for value in map(float, left):
            match = next((i for i, gold in enumerate(unmatched) if abs(value - gold) <= 1e-2), None)
            if match is None:
                return False
            unmatched.pop(match)
        return True
    return set(left) == set(right)


def values_f1(values: Sequence[object], label: Sequence[str]) -> float:
    """F1 of a query result's values against the answer values, compared as stripped text (progress on
    AgentBench's questions, whose gold rows are not known)."""
    mine = Counter(str(value).strip() for value in values if value is not None)
    theirs = Counter(str(value).strip() for value in label)
    common = sum((mine & theirs).values())
    return 2 * common / (sum(mine.values()) + sum(theirs.values())) if common else 0.0
