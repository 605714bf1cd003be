"""``AgentQuest/Sudoku-v0``."""

from __future__ import annotations

from agentgym_text.core.info import InvalidReason
from agentgym_text.core.progress import Progress
from agentgym_text.core.tasks import TaskSpec
from agentgym_text.core.text_env import Outcome, Start, TextEnv
from agentgym_text.envs.sudoku.actions import parse_action
from agentgym_text.envs.sudoku.expert import expert_move
from agentgym_text.envs.sudoku.grid import EMPTY, SIZE, cell_index, cell_name, conflicts, is_solved, render
from agentgym_text.envs.sudoku.tasks import load_tasks, puzzle_of, training_tasks

__all__ = ["SudokuEnv"]

_FORMAT_HELP = "Use 'put <digit> at row <r> column <c>' or 'clear row <r> column <c>' (rows, columns, digits 1-9)."


class SudokuEnv(TextEnv):
    """Fill the grid. Progress = correctly filled cells / cells to fill (AgentQuest's milestones).

    Placements that clash with a digit already in the row, column or box are refused (``valid=False``) and
    leave the grid unchanged; clue cells cannot be changed.

    >>> env = SudokuEnv()
    >>> obs, info = env.reset(options={"task_index": 0})
    >>> env.step("put 9 at row 1 column 1")[4]["invalid_reason"] in (None, "precondition_failed")
    True
    """

    action_format = "'put <digit> at row <r> column <c>' or 'clear row <r> column <c>' (1-9 each)"
    action_example = "put 5 at row 3 column 7"

    def __init__(self, split: str = "test", num_tasks: int = 200, **kwargs):
        if split not in ("test", "train"):
            raise ValueError(f"split must be 'test' (the 60 shipped puzzles) or 'train', not {split!r}")
        super().__init__(load_tasks() if split == "test" else training_tasks(num_tasks), **kwargs)
        self._clues = ""
        self._solution = ""
        self._grid = ""

    def _start(self, task: TaskSpec, seed: int) -> Start:
        self._clues, self._solution = puzzle_of(task.params)
        self._grid = self._clues
        empty = self._clues.count(EMPTY)
        return Start(observation=f"The puzzle ({empty} cells to fill):\n{render(self._grid)}", goal=task.goal)

    def _act(self, action: str) -> Outcome:
        placement = parse_action(action)
        if placement is None:
            return Outcome.invalid(f"Could not read a Sudoku action in that. {_FORMAT_HELP}", InvalidReason.UNPARSABLE)
        if not (1 <= placement.row <= SIZE and 1 <= placement.column <= SIZE):
            return Outcome.invalid("Rows and columns run from 1 to 9.", InvalidReason.BAD_ARGUMENT)
        if placement.digit is not None and not 1 <= placement.digit <= SIZE:
            return Outcome.invalid("Digits run from 1 to 9.", InvalidReason.BAD_ARGUMENT)
        index = cell_index(placement.row, placement.column)
        where = cell_name(index)
        if self._clues[index] != EMPTY:
            return Outcome.invalid(
                f"{where.capitalize()} is a given clue and cannot change.", InvalidReason.PRECONDITION
            )
        if placement.digit is None:
            if self._grid[index] == EMPTY:
                return Outcome.invalid(f"{where.capitalize()} is already empty.", InvalidReason.PRECONDITION)
            self._set(index, EMPTY)
            return Outcome(observation=f"Cleared {where}.\n{render(self._grid)}")
        digit = str(placement.digit)
        clashes = conflicts(self._grid, index, digit)
        if clashes:
            return Outcome.invalid(
                f"{digit} cannot go at {where}: {cell_name(clashes[0])} already holds {digit}.",
                InvalidReason.PRECONDITION,
            )
        self._set(index, digit)
        if is_solved(self._grid):
            return Outcome(
                observation=f"Placed {digit} at {where}. The puzzle is solved!\n{render(self._grid)}",
                terminated=True,
                success=True,
            )
        return Outcome(observation=f"Placed {digit} at {where}.\n{render(self._grid)}")

    def _set(self, index: int, value: str) -> None:
        self._grid = self._grid[:index] + value + self._grid[index + 1 :]

    def _progress(self) -> Progress:
        to_fill = [i for i, ch in enumerate(self._clues) if ch == EMPTY]
        correct = sum(self._grid[i] == self._solution[i] for i in to_fill)
        return Progress(now=correct / len(to_fill) if to_fill else 1.0)

    def _admissible_actions(self) -> list[str]:
        actions = []
        for index, clue in enumerate(self._clues):
            if clue != EMPTY:
                continue
            for digit in "123456789":
                if self._grid[index] != digit and not conflicts(self._grid, index, digit):
                    actions.append(f"put {digit} at {cell_name(index)}")
            if self._grid[index] != EMPTY:
                actions.append(f"clear {cell_name(index)}")
        return actions

    def _help_text(self) -> str:
        actions = self._admissible_actions()
        return f"{_FORMAT_HELP} {len(actions)} actions are valid now, e.g.: " + ", ".join(actions[:12])

    def _expert_action(self) -> str:
        return expert_move(self._grid, self._solution)
