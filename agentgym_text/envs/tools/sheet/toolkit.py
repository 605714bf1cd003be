"""The sheet tool: gspread-like functions over the episode's in-memory spreadsheet."""

from __future__ import annotations

from typing import Any

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import InvalidReason
from agentgym_text.envs.tools.actions import Call
from agentgym_text.envs.tools.backend import Toolkit
from agentgym_text.envs.tools.render import render_output
from agentgym_text.envs.tools.schema import FunctionSpec, Param
from agentgym_text.envs.tools.sheet.cells import PositionError, a1, format_value, parse_position
from agentgym_text.envs.tools.sheet.spreadsheet import FORMULAS, SheetError, Spreadsheet, apply_formula

__all__ = ["SheetToolkit"]

_RANGE = (Param("start_position", description="e.g. A1"), Param("end_position", description="e.g. C5"))
_FORMULA_CELLS = (
    Param("start_position", required=False, description="first cell of a range"),
    Param("end_position", required=False, description="last cell of a range"),
    Param("position_list", "array", required=False, description="or a list of cells, e.g. ['C2', 'D2']"),
)
_OPERATOR = Param("operator", choices=FORMULAS)


class SheetToolkit(Toolkit):
    """One open sheet (``config['sheet_name']``, cells from ``config['table']``)."""

    name = "sheet"
    functions = (
        FunctionSpec(
            "open_sheet", "Open a sheet by name (only the task's sheet exists).", (Param("name"),), "a confirmation"
        ),
        FunctionSpec("get_all_values", "All values of the sheet.", (), "list of rows"),
        FunctionSpec("get_range_values", "Values of a range.", _RANGE, "list of rows"),
        FunctionSpec("get_cell_value", "Value of one cell.", (Param("position"),), "the value"),
        FunctionSpec(
            "get_A1_annotation",
            "The A1 name of a cell from its row and column numbers (1-based).",
            (Param("row", "integer"), Param("col", "integer")),
            "e.g. 'B3'",
        ),
        FunctionSpec(
            "update_cell", "Write a value into a cell.", (Param("position"), Param("value", "any")), "the sheet"
        ),
        FunctionSpec(
            "update_range",
            "Write a block of values into a range.",
            (*_RANGE, Param("values_list", "array2d")),
            "the sheet",
        ),
        FunctionSpec(
            "update_cell_by_formula",
            "Compute a formula over cells and write the result.",
            (_OPERATOR, Param("result_position"), *_FORMULA_CELLS),
            "the sheet",
        ),
        FunctionSpec(
            "get_value_by_formula", "Compute a formula over cells.", (_OPERATOR, *_FORMULA_CELLS), "the value"
        ),
        FunctionSpec(
            "sort_sheet_by_col",
            "Sort the rows below the header by a column (1-based).",
            (Param("col_num", "integer"), Param("order", choices=("asc", "des"))),
            "the sheet",
        ),
        FunctionSpec(
            "insert_rows",
            "Insert rows before row_idx (1-based).",
            (Param("values_list", "array2d"), Param("row_idx", "integer")),
            "the sheet",
        ),
        FunctionSpec(
            "insert_cols",
            "Insert columns (each a list of values top to bottom) before col_idx.",
            (Param("values_list", "array2d"), Param("col_idx", "integer")),
            "the sheet",
        ),
        FunctionSpec(
            "delete_batch_data",
            "Delete rows or columns by their 1-based numbers.",
            (Param("dimension", choices=("row", "col")), Param("index_list", "array")),
            "the sheet",
        ),
        FunctionSpec("merge_cells", "Merge a range (keeps the top-left value).", _RANGE, "the sheet"),
        FunctionSpec(
            "update_note", "Attach a note to a cell.", (Param("position"), Param("content")), "a confirmation"
        ),
        FunctionSpec("get_note", "The note of a cell.", (Param("position"),), "the note"),
        FunctionSpec(
            "freeze_data",
            "Freeze the first rows or columns.",
            (Param("dimension", choices=("rows", "cols")), Param("num", "integer")),
            "a confirmation",
        ),
        FunctionSpec(
            "filter_cells",
            "Cells whose value equals the query, optionally in one row/column.",
            (
                Param("query", "any"),
                Param("in_row", "integer", required=False),
                Param("in_column", "integer", required=False),
            ),
            "list of positions",
        ),
    )

    def __init__(self, config: dict[str, Any]):
        super().__init__(config)
        self.sheet = Spreadsheet(config.get("sheet_name", "Sheet1"), config.get("table", []))

    def state(self) -> list[list[str]]:
        return self.sheet.values()

    def revision(self) -> int:
        return self.sheet.revision

    def intro(self) -> str:
        return f"You are now in {self.sheet.title}\n{render_output(self.sheet.values())}"

    # ---- helpers -----------------------------------------------------------------------------------
    @staticmethod
    def _pos(text: str) -> tuple[int, int]:
        try:
            return parse_position(text)
        except PositionError as error:
            raise ActionError(str(error), InvalidReason.BAD_ARGUMENT) from None

    def call(self, name: str, args: dict[str, Any]) -> Any:
        try:
            return super().call(name, args)
        except SheetError as error:
            raise ActionError(str(error), InvalidReason.PRECONDITION) from None

    def _formula_cells(
        self, start_position: str | None, end_position: str | None, position_list: list | None
    ) -> list[str]:
        if position_list is not None:
            if start_position is not None or end_position is not None:
                raise ActionError(
                    "Give either start_position and end_position or position_list, not both.",
                    InvalidReason.BAD_ARGUMENT,
                )
            if not position_list or not all(isinstance(item, str) for item in position_list):
                raise ActionError(
                    "position_list must be a non-empty list of positions like 'C2'.", InvalidReason.BAD_ARGUMENT
                )
            return [self.sheet.get(*self._pos(item)) for item in position_list]
        if start_position is None or end_position is None:
            raise ActionError("Give start_position and end_position, or position_list.", InvalidReason.BAD_ARGUMENT)
        block = self.sheet.block(self._pos(start_position), self._pos(end_position))
        return [cell for row in block for cell in row]

    @staticmethod
    def _scalar(value: Any, name: str) -> Any:
        if isinstance(value, (list, dict)):
            raise ActionError(
                f"{name} must be a single value, not a {type(value).__name__}.", InvalidReason.BAD_ARGUMENT
            )
        return value

    # ---- functions ---------------------------------------------------------------------------------
    def do_open_sheet(self, name: str) -> str:
        if name.strip() != self.sheet.title:
            raise ActionError(
                f"There is no sheet named {name[:40]!r}; this task uses {self.sheet.title}.",
                InvalidReason.UNKNOWN_OBJECT,
            )
        return f"You are now in {self.sheet.title}"

    def do_get_all_values(self) -> list[list[str]]:
        return self.sheet.values()

    def do_get_range_values(self, start_position: str, end_position: str) -> list[list[str]]:
        return self.sheet.block(self._pos(start_position), self._pos(end_position))

    def do_get_cell_value(self, position: str) -> str:
        return self.sheet.get(*self._pos(position))

    def do_get_A1_annotation(self, row: int, col: int) -> str:
        if row < 1 or col < 1:
            raise ActionError("row and col are 1-based: both must be at least 1.", InvalidReason.BAD_ARGUMENT)
        position = a1(row, col)
        self._pos(position)
        return position

    def do_update_cell(self, position: str, value: Any) -> list[list[str]]:
        self.sheet.set(*self._pos(position), self._scalar(value, "value"))
        return self.sheet.values()

    def do_update_range(self, start_position: str, end_position: str, values_list: list) -> list[list[str]]:
        self.sheet.set_block(self._pos(start_position), self._pos(end_position), values_list)
        return self.sheet.values()

    def do_update_cell_by_formula(
        self,
        operator: str,
        result_position: str,
        start_position: str | None = None,
        end_position: str | None = None,
        position_list: list | None = None,
    ) -> list:
        target = self._pos(result_position)
        value = apply_formula(operator, self._formula_cells(start_position, end_position, position_list))
        self.sheet.set(*target, value)
        return self.sheet.values()

    def do_get_value_by_formula(
        self,
        operator: str,
        start_position: str | None = None,
        end_position: str | None = None,
        position_list: list | None = None,
    ) -> str:
        return format_value(apply_formula(operator, self._formula_cells(start_position, end_position, position_list)))

    def do_sort_sheet_by_col(self, col_num: int, order: str) -> list[list[str]]:
        self.sheet.sort_by_column(col_num, descending=order == "des")
        return self.sheet.values()

    def do_insert_rows(self, values_list: list, row_idx: int) -> list[list[str]]:
        self.sheet.insert_rows(values_list, row_idx)
        return self.sheet.values()

    def do_insert_cols(self, values_list: list, col_idx: int) -> list[list[str]]:
        self.sheet.insert_cols(values_list, col_idx)
        return self.sheet.values()

    def do_delete_batch_data(self, dimension: str, index_list: list) -> list[list[str]]:
        if not index_list or not all(isinstance(i, int) and not isinstance(i, bool) for i in index_list):
            raise ActionError("index_list must be a non-empty list of 1-based integers.", InvalidReason.BAD_ARGUMENT)
        self.sheet.delete(dimension, index_list)
        return self.sheet.values()

    def do_merge_cells(self, start_position: str, end_position: str) -> list[list[str]]:
        self.sheet.merge(self._pos(start_position), self._pos(end_position))
        return self.sheet.values()

    def do_update_note(self, position: str, content: str) -> str:
        row, col = self._pos(position)
        self.sheet.notes[a1(row, col)] = content
        return f"Note added to {a1(row, col)}."

    def do_get_note(self, position: str) -> str:
        row, col = self._pos(position)
        return self.sheet.notes.get(a1(row, col), "")

    def do_freeze_data(self, dimension: str, num: int) -> str:
        if num < 0:
            raise ActionError("num cannot be negative.", InvalidReason.BAD_ARGUMENT)
        self.sheet.frozen[dimension] = num
        return f"Froze {num} {dimension}."

    def do_filter_cells(self, query: Any, in_row: int | None = None, in_column: int | None = None) -> list[str]:
        return self.sheet.find(self._scalar(query, "query"), in_row, in_column)

    def example_calls(self) -> list[Call]:
        height, width = self.sheet.shape
        calls = [Call("get_all_values", {}), Call("open_sheet", {"name": self.sheet.title})]
        if height and width:
            corner = a1(height, width)
            calls += [
                Call("get_cell_value", {"position": "A1"}),
                Call("get_range_values", {"start_position": "A1", "end_position": corner}),
                Call("sort_sheet_by_col", {"col_num": 1, "order": "asc"}),
                Call("update_cell", {"position": a1(height, width), "value": "0"}),
                Call("filter_cells", {"query": self.sheet.get(1, 1) or "x"}),
            ]
            if height > 1:
                calls.append(Call("delete_batch_data", {"dimension": "row", "index_list": [height]}))
        return calls
