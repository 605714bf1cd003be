"""AgentQuest's Sudoku: fill a 9x9 grid with textual placement actions."""
