"""Writes ``puzzles.json``: the shipped unique-solution puzzles.

Run ``python -m agentgym_text.envs.sudoku.build_tasks``.
"""

from agentgym_text.envs.sudoku.tasks import write_puzzles

if __name__ == "__main__":
    write_puzzles()
