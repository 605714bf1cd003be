"""AgentBench's lateral-thinking puzzles (``data/lateralthinkingpuzzle/standard.xlsx``, ``dev.xlsx``) as puzzles.

The workbook's first sheet has a header row and one puzzle per row: the story, the truth, the story's key points and
the truth's key points (one per line, usually numbered "1. ..."). As AgentBench reads them: a key cell is split at
newlines, every line counts towards the puzzle's number of hints (a blank line too, which lowers the best reachable
progress), and a key is compared without its numbering (the first word is dropped when the line's second or third
character is "." or it starts with "-"). The puzzles have no stored facts: a host model plays them.
"""

from __future__ import annotations

from pathlib import Path

from agentgym_text.envs.lateral.puzzles import Puzzle

__all__ = ["TaskFileError", "load_xlsx", "key_text"]


class TaskFileError(ValueError):
    """An AgentBench LTP workbook that cannot be read (the message names the file and row)."""


def key_text(line: str) -> str:
    """A key point as AgentBench compares it: stripped, its numbering ("1.", "12.", "-") dropped.

    >>> key_text(" 2. He was blind."), key_text("- a dog"), key_text("No number here")
    ('He was blind.', 'a dog', 'No number here')
    """
    key = line.strip()
    if (len(key) > 1 and key[1] == ".") or (len(key) > 2 and key[2] == ".") or key.startswith("-"):
        return " ".join(key.split(" ")[1:])
    return key


def _cell(value: object) -> str:
    return "" if value is None else str(value)


def load_xlsx(path: str | Path) -> tuple[Puzzle, ...]:
    """The puzzles of an AgentBench LTP workbook, ids ``ltp-<file stem>-<row index>`` (AgentBench's sample index)."""
    path = Path(path).expanduser()
    if not path.is_file():
        raise TaskFileError(f"AgentBench LTP file {path} does not exist")
    try:
        import openpyxl
    except ImportError as error:  # pragma: no cover - depends on the install
        raise ImportError(
            "reading AgentBench's .xlsx puzzles needs openpyxl: pip install 'agentgym-text[llm]'"
        ) from error
    try:
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises several types for a file that is not a workbook
        raise TaskFileError(f"AgentBench LTP file {path} is not an .xlsx workbook ({type(error).__name__})") from None
    try:
        rows = list(workbook.worksheets[0].iter_rows(values_only=True))
    finally:
        workbook.close()
    puzzles = []
    for index, row in enumerate(rows[1:]):
        cells = [_cell(value) for value in (row or ())][:4]
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) < 4 or not cells[0].strip() or not cells[1].strip() or not cells[3].strip():
            raise TaskFileError(
                f"AgentBench LTP file {path}, row {index + 2}: a puzzle needs a story, a truth, story keys and "
                "truth keys (four columns)"
            )
        truth_lines = cells[3].split("\n")
        puzzles.append(
            Puzzle(
                puzzle_id=f"ltp-{path.stem}-{index:03d}",
                split=path.stem,
                title="",
                story=cells[0],
                truth=cells[1],
                key_points=tuple(key_text(line) for line in truth_lines if line.strip()),
                facts=(),
                questions=(),
                story_keys=tuple(key_text(line) for line in cells[2].split("\n") if line.strip()),
                hints=len(truth_lines),
            )
        )
    if not puzzles:
        raise TaskFileError(f"AgentBench LTP file {path} has no puzzles")
    return tuple(puzzles)
