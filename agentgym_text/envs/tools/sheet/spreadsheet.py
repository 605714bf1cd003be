"""The in-memory spreadsheet: a grid of text cells plus notes, merges and frozen rows/columns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agentgym_text.envs.tools.sheet.cells import MAX_COLS, MAX_ROWS, a1, format_value, read_numeric

__all__ = ["Spreadsheet", "SheetError", "FORMULAS", "apply_formula"]

FORMULAS = ("SUM", "AVERAGE", "COUNT", "MAX", "MIN", "PRODUCT", "MINUS")


class SheetError(ValueError):
    """An operation the sheet cannot do (out of range, wrong shape, nothing to compute)."""


def apply_formula(operator: str, cells: Sequence[str]) -> float:
    """SUM/AVERAGE/MAX/MIN/PRODUCT over the numeric cells, COUNT of them, MINUS = first - second."""
    numbers = [number for number in map(read_numeric, cells) if number is not None]
    if operator == "COUNT":
        return float(len(numbers))
    if not numbers:
        raise SheetError(f"{operator} needs cells holding numbers; the selected cells hold none.")
    if operator == "SUM":
        return sum(numbers)
    if operator == "AVERAGE":
        return sum(numbers) / len(numbers)
    if operator == "MAX":
        return max(numbers)
    if operator == "MIN":
        return min(numbers)
    if operator == "PRODUCT":
        product = 1.0
        for number in numbers:
            product *= number
        return product
    if len(numbers) != 2:
        raise SheetError(f"MINUS takes exactly two numeric cells (first - second), not {len(numbers)}.")
    return numbers[0] - numbers[1]


class Spreadsheet:
    """Cells are text; the graded ``values()`` trims empty trailing rows and columns."""

    def __init__(self, title: str, rows: Sequence[Sequence[Any]]):
        self.title = title
        self.grid: list[list[str]] = [[format_value(cell) for cell in row] for row in rows]
        self.notes: dict[str, str] = {}
        self.merges: list[str] = []
        self.frozen = {"rows": 0, "cols": 0}
        self.revision = 0
        """Bumped by every change of the cell values, so scores can be cached per revision."""
        self._square()

    # ---- shape ---------------------------------------------------------------------------------------
    def _square(self) -> None:
        width = max((len(row) for row in self.grid), default=0)
        for row in self.grid:
            row.extend([""] * (width - len(row)))

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.grid), (len(self.grid[0]) if self.grid else 0)

    def _grow(self, rows: int, cols: int) -> None:
        if rows > MAX_ROWS or cols > MAX_COLS:
            raise SheetError(f"The sheet holds at most {MAX_ROWS} rows and {MAX_COLS} columns.")
        height, width = self.shape
        width = max(width, cols)
        for row in self.grid:
            row.extend([""] * (width - len(row)))
        while len(self.grid) < rows:
            self.grid.append([""] * width)

    def values(self) -> list[list[str]]:
        grid = self.grid
        height = len(grid)
        while height and not any(grid[height - 1]):
            height -= 1
        width = 0
        for row in grid[:height]:
            for index in range(len(row) - 1, width - 1, -1):
                if row[index]:
                    width = index + 1
                    break
        return [row[:width] for row in grid[:height]]

    # ---- reading -------------------------------------------------------------------------------------
    def get(self, row: int, col: int) -> str:
        if row <= len(self.grid) and col <= len(self.grid[row - 1]):
            return self.grid[row - 1][col - 1]
        return ""

    def block(self, start: tuple[int, int], end: tuple[int, int]) -> list[list[str]]:
        (r1, c1), (r2, c2) = start, end
        if r1 > r2 or c1 > c2:
            raise SheetError("The start position must be above and left of the end position.")
        return [[self.get(r, c) for c in range(c1, c2 + 1)] for r in range(r1, r2 + 1)]

    def find(self, query: str, in_row: int | None, in_column: int | None) -> list[str]:
        wanted = format_value(query).casefold()
        hits = []
        for r, row in enumerate(self.grid, start=1):
            if in_row is not None and r != in_row:
                continue
            for c, cell in enumerate(row, start=1):
                if in_column is not None and c != in_column:
                    continue
                if cell and cell.casefold() == wanted:
                    hits.append(a1(r, c))
        return hits

    # ---- writing -------------------------------------------------------------------------------------
    def set(self, row: int, col: int, value: Any) -> None:
        self.revision += 1
        self._grow(row, col)
        self.grid[row - 1][col - 1] = format_value(value)

    def set_block(self, start: tuple[int, int], end: tuple[int, int], values: Sequence[Sequence[Any]]) -> None:
        self.revision += 1
        (r1, c1), (r2, c2) = start, end
        if r1 > r2 or c1 > c2:
            raise SheetError("The start position must be above and left of the end position.")
        if len(values) != r2 - r1 + 1 or any(len(row) != c2 - c1 + 1 for row in values):
            raise SheetError(f"values_list must have {r2 - r1 + 1} rows of {c2 - c1 + 1} values for this range.")
        self._grow(r2, c2)
        for dr, row in enumerate(values):
            for dc, value in enumerate(row):
                self.grid[r1 - 1 + dr][c1 - 1 + dc] = format_value(value)

    def insert_rows(self, rows: Sequence[Sequence[Any]], before: int) -> None:
        self.revision += 1
        height, width = self.shape
        if not 1 <= before <= height + 1:
            raise SheetError(f"row_idx must be between 1 and {height + 1}.")
        new = [[format_value(cell) for cell in row] for row in rows]
        self.grid[before - 1 : before - 1] = new
        self._square()

    def insert_cols(self, cols: Sequence[Sequence[Any]], before: int) -> None:
        self.revision += 1
        height, width = self.shape
        if not 1 <= before <= width + 1:
            raise SheetError(f"col_idx must be between 1 and {width + 1}.")
        self._grow(max((len(col) for col in cols), default=0), width)
        for offset, col in enumerate(cols):
            for r, row in enumerate(self.grid):
                row.insert(before - 1 + offset, format_value(col[r]) if r < len(col) else "")

    def delete(self, dimension: str, indexes: Sequence[int]) -> None:
        self.revision += 1
        height, width = self.shape
        limit = height if dimension == "row" else width
        bad = sorted({index for index in indexes if not 1 <= index <= limit})
        if bad:
            raise SheetError(f"No {dimension} {bad[0]} (the sheet has {limit}).")
        for index in sorted(set(indexes), reverse=True):
            if dimension == "row":
                del self.grid[index - 1]
            else:
                for row in self.grid:
                    del row[index - 1]

    def sort_by_column(self, col: int, descending: bool) -> None:
        """Sort the rows below the header by one column: numbers first (by value), then text."""
        self.revision += 1
        height, width = self.shape
        if not 1 <= col <= width:
            raise SheetError(f"col_num must be between 1 and {width}.")

        def key(row: list[str]) -> tuple[int, float, str]:
            number = read_numeric(row[col - 1])
            return (0, number, "") if number is not None else (1, 0.0, row[col - 1].casefold())

        self.grid[1:] = sorted(self.grid[1:], key=key, reverse=descending)

    def merge(self, start: tuple[int, int], end: tuple[int, int]) -> None:
        self.revision += 1
        (r1, c1), (r2, c2) = start, end
        if r1 > r2 or c1 > c2 or (r1, c1) == (r2, c2):
            raise SheetError("A merge needs a range of at least two cells, start above and left of end.")
        self._grow(r2, c2)
        for r in range(r1, r2 + 1):
            for c in range(c1, c2 + 1):
                if (r, c) != (r1, c1):
                    self.grid[r - 1][c - 1] = ""
        self.merges.append(f"{a1(r1, c1)}:{a1(r2, c2)}")
