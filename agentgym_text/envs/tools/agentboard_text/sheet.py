"""AgentBoard's sheet tool (``utils/sheet/sheets_tools.py`` + ``environment/sheet_env.py``) over our spreadsheet.

AgentBoard's sheet tool drives Google Sheets through gspread; the reference recorder runs it with gspread replaced by
a stand-in over our spreadsheet (Google's API is not emulated), so what is checked is AgentBoard's own code.
Reproduced: the dispatch and its parameter order, the success texts
("You have successfully freeze the rows 1", "Updated! the A1's note is ...", the sheet as ``str`` of the list of
rows), AgentBoard's own failure texts (``repr`` of its messages, so they print in quotes), its checks (operator
list, the one-letter A1 check of the formula functions, "cannot delete/update whole sheet"), ``del_sheet`` always
failing (AgentBoard passes a name where gspread wants a worksheet), the invalid-action text listing the actions,
and ``finish`` answering with the sheet (its answer is ignored). Failures raised by our backend (where Google's
API would answer with an ``APIError``) print as ``repr`` of our own error.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from agentgym_text.envs.tools.sheet.cells import PositionError, a1, format_value, parse_position
from agentgym_text.envs.tools.sheet.spreadsheet import apply_formula

__all__ = ["SHEET", "worksheet_text", "invalid_sheet_action"]

_OPERATORS = ["SUM", "AVERAGE", "COUNT", "MAX", "MIN", "MINUS", "PRODUCT"]
_OPERATOR_ERROR = 'the operator should be one of the ["SUM", "AVERAGE", "COUNT", "MAX", "MIN", "MINUS", "PRODUCT"]'
_A1_ERROR = (
    "In the sheet formula, you should use A1 notation to display all positions in the sheet and you can use "
    "get_A1_annotation(row, col) to get its A1 address."
)
_A1_START_END_ERROR = (
    "In the sheet formula, you should use A1 notation to display the start and end cell address in "
    "the sheet and you can use get_A1_annotation(row, col) to get its A1 address."
)
_WHOLE_DELETE = "Warning: You cannot delete whole sheet at once, please try other functions"
_WHOLE_UPDATE = "Warning: You cannot update whole sheet at once, please try other functions"


class IncorrectCellLabel(Exception):
    """gspread's error for a label that is not a cell (``repr`` is what AgentBoard prints)."""


def worksheet_text(title: str) -> str:
    """``str`` of a gspread Worksheet (AgentBoard's open_sheet answer); our sheets have no Google id."""
    return f"<Worksheet {title!r} id:0>"


def invalid_sheet_action(name: str, names: list[str]) -> str:
    return f"ERROR | Invalid action: {name}. Please choose another valid action from {names}"


def _valid_a1(text: Any) -> bool:
    return bool(re.match(r"^[A-Z]{1}[0-9]+$", text))


def _is_numeric(value: Any) -> bool:
    try:
        float(value)
        return True
    except ValueError:
        return False


def _to_float(value: Any) -> Any:
    return float(value) if _is_numeric(value) else value


def _cell(label: Any) -> tuple[int, int]:
    try:
        return parse_position(label)
    except (PositionError, TypeError):
        raise IncorrectCellLabel(label) from None


def _values(t) -> list[list[str]]:
    return t.sheet.values()


def _guard(function: Callable) -> Callable:
    def run(t, *args, **kwargs):
        try:
            return function(t, *args, **kwargs)
        except Exception as error:  # AgentBoard: ``except Exception as error: return False, repr(error)``
            return False, repr(error)

    return run


@_guard
def _open_sheet(t, name):
    if name != t.sheet.title:
        return False, f"WorksheetNotFound({name!r})"
    return True, worksheet_text(t.sheet.title)


def _del_sheet(t, name):
    return False, repr(AttributeError("'str' object has no attribute 'id'"))


@_guard
def _freeze_data(t, dimension, num):
    num = int(num)
    if dimension == "rows":
        t.sheet.frozen["rows"] = num
    elif dimension == "columns":
        t.sheet.frozen["cols"] = num
    else:
        return False, repr("Error: the dimension should be one of the rows/columns")
    return True, f"You have successfully freeze the {dimension} {num}"


@_guard
def _get_a1(t, row, col):
    row, col = int(row), int(col)
    if row < 1 or col < 1:
        raise IncorrectCellLabel(f"({row}, {col})")  # gspread.utils.rowcol_to_a1
    return True, a1(row, col)


def _rows(values_list: Any) -> list:
    return [[_to_float(value) for value in row] for row in values_list]


@_guard
def _insert_cols(t, values_list, col_idx):
    values_list = _rows(values_list)
    int(col_idx)  # AgentBoard compares int(col_idx) with the width first; gspread then computes col_idx - 1
    t.sheet.insert_cols(values_list, col_idx - 1 + 1)
    return True, _values(t)


@_guard
def _insert_rows(t, values_list, row_idx):
    values_list = _rows(values_list)
    int(row_idx)
    t.sheet.insert_rows(values_list, row_idx - 1 + 1)
    return True, _values(t)


@_guard
def _delete_batch_data(t, dimension, index_list):
    ordered = sorted(index_list, key=lambda x: int(x), reverse=True)
    height, width = len(_values(t)), len(_values(t)[0])
    if dimension == "row":
        if len(index_list) >= height - 1:
            return False, repr(_WHOLE_DELETE)
    elif dimension == "col":
        if len(index_list) == width:
            return False, repr(_WHOLE_DELETE)
    else:
        return False, repr("Wrong dimension, please choose from row/col")
    for index in ordered:  # one delete_dimension call per index, last first
        t.sheet.delete(dimension, [index - 1 + 1])
    return True, _values(t)


@_guard
def _update_cell(t, position, value):
    value = _to_float(value)
    t.sheet.set(*_cell(position), value)
    return True, _values(t)


def _formula_cells(t, start_position, end_position, position_list) -> list[str]:
    if position_list is None:
        return [cell for row in t.sheet.block(_cell(start_position), _cell(end_position)) for cell in row]
    return [t.sheet.get(*_cell(position)) for position in position_list]


@_guard
def _update_cell_by_formula(
    t, start_position="B1", end_position="D2", position_list=None, result_position="G2", operator=""
):
    if operator not in _OPERATORS:
        return False, repr(_OPERATOR_ERROR)
    positions = [start_position, end_position] if position_list is None else list(position_list)
    if not (all(_valid_a1(p) for p in positions) and _valid_a1(result_position)):
        return False, repr(_A1_ERROR)
    t.sheet.set(
        *_cell(result_position), apply_formula(operator, _formula_cells(t, start_position, end_position, position_list))
    )
    return True, _values(t)


@_guard
def _update_range(t, start_position, end_position, values_list):
    height, width = len(_values(t)), len(_values(t)[0])
    if start_position == "A1" and end_position == a1(height, width):
        return False, repr(_WHOLE_UPDATE)
    t.sheet.set_block(_cell(start_position), _cell(end_position), _rows(values_list))
    return True, _values(t)


@_guard
def _sort(t, col_num, order):
    col = int(col_num)
    if order not in ("asc", "des"):
        raise ValueError("Either 'asc' or 'des' should be specified as sort order.")
    t.sheet.sort_by_column(col, descending=order == "des")
    return True, _values(t)


@_guard
def _merge_cells(t, start_position, end_position):
    t.sheet.merge(_cell(start_position), _cell(end_position))
    return True, _values(t)


@_guard
def _update_note(t, position, content):
    row, col = _cell(position)
    if not isinstance(content, str):
        raise TypeError("Only string value is accepted as content.")  # gspread's update_note
    t.sheet.notes[a1(row, col)] = content
    return True, f"Updated! the {position}'s note is {t.sheet.notes[a1(row, col)]}"


@_guard
def _get_range_values(t, start_position, end_position):
    return True, t.sheet.block(_cell(start_position), _cell(end_position))


@_guard
def _get_cell_value(t, position):
    return True, t.sheet.get(*_cell(position))


def _get_value_by_formula(t, start_position="B1", end_position="D2", position_list=None, operator=""):
    """AgentBoard computes in a scratch column it inserts after the last one and deletes afterwards, except when
    the A1 check fails or the formula raises: then the column (a "1" on row 1) stays in the sheet. FIX: it never
    stays (``scratch_column_stays``, set without the fixes, leaves it, as AgentBoard does)."""
    width = len(_values(t)[0])
    try:
        if operator not in _OPERATORS:
            return False, repr(_OPERATOR_ERROR)
        if position_list is None:
            if not (_valid_a1(start_position) and _valid_a1(end_position)):
                _leave_scratch_column(t, width)
                return False, repr(_A1_START_END_ERROR)
        elif not all(_valid_a1(position) for position in position_list):
            _leave_scratch_column(t, width)
            return False, repr(_A1_ERROR)
        cells = _formula_cells(t, start_position, end_position, position_list)
        return True, format_value(apply_formula(operator, cells))
    except Exception as error:
        _leave_scratch_column(t, width)
        return False, repr(error)


def _leave_scratch_column(t, width: int) -> None:
    if getattr(t, "scratch_column_stays", False):
        t.sheet.insert_cols([[1.0]], width + 1)


@_guard
def _filter_cells(t, query, in_row=None, in_column=None):
    in_row = int(in_row) if in_row is not None else None
    in_column = int(in_column) if in_column is not None else None
    return True, t.sheet.find(query, in_row, in_column)


@_guard
def _get_note(t, position):
    row, col = _cell(position)
    return True, t.sheet.notes.get(a1(row, col), "")


def _formula_keys(params: Any, with_result: bool) -> tuple[str, ...]:
    if "position_list" in params:
        return ("position_list", "operator", "result_position") if with_result else ("position_list", "operator")
    if with_result:
        return ("start_position", "end_position", "result_position", "operator")
    return ("start_position", "end_position", "operator")


SHEET: dict[str, tuple[Any, Callable]] = {
    "open_sheet": (("name",), _open_sheet),
    "del_sheet": (("name",), _del_sheet),
    "freeze_data": (("dimension", "num"), _freeze_data),
    "get_A1_annotation": (("row", "col"), _get_a1),
    "insert_cols": (("values_list", "col_idx"), _insert_cols),
    "insert_rows": (("values_list", "row_idx"), _insert_rows),
    "delete_batch_data": (("dimension", "index_list"), _delete_batch_data),
    "update_cell": (("position", "value"), _update_cell),
    "update_cell_by_formula": (
        lambda params: _formula_keys(params, True),
        lambda t, **k: _update_cell_by_formula(t, **k),
    ),
    "update_range": (("start_position", "end_position", "values_list"), _update_range),
    "sort_sheet_by_col": (("col_num", "order"), _sort),
    "merge_cells": (("start_position", "end_position"), _merge_cells),
    "update_note": (("position", "content"), _update_note),
    "get_all_values": ((), lambda t: (True, _values(t))),
    "get_range_values": (("start_position", "end_position"), _get_range_values),
    "get_cell_value": (("position",), _get_cell_value),
    "get_value_by_formula": (lambda params: _formula_keys(params, False), lambda t, **k: _get_value_by_formula(t, **k)),
    "filter_cells": (None, _filter_cells),  # reads query/in_row/in_column with params.get
    "get_note": (("position",), _get_note),
}
"""name -> (parameter names in AgentBoard's reading order, or a function of the params giving them; None: the
function reads ``params.get``), function(toolkit, ...) -> (success, result)."""
