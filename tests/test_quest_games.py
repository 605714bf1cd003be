"""Mastermind and Sudoku (AgentQuest): experts, rules, parsing and the shipped task sets."""

import json

import numpy as np
import pytest

from agentgym_text.core import ActionError
from agentgym_text.envs.mastermind.actions import parse_guess
from agentgym_text.envs.mastermind.env import MastermindEnv
from agentgym_text.envs.mastermind.expert import consistent_guess
from agentgym_text.envs.mastermind.game import CodeRules, feedback
from agentgym_text.envs.sudoku.backtracking import count_solutions
from agentgym_text.envs.sudoku.env import SudokuEnv
from agentgym_text.envs.sudoku.generator import generate_puzzle
from agentgym_text.envs.sudoku.tasks import PUZZLE_FILE, TASK_COUNT
from agentgym_text.testing import random_valid_rollout


@pytest.mark.parametrize("env_class", [MastermindEnv, SudokuEnv])
def test_random_agent_mean_progress_is_strictly_lower(env_class):
    env = env_class()
    finals = []
    for index in range(0, len(env.tasks), 3):
        records = random_valid_rollout(
            env, seed=index, max_steps=env.tasks[index].max_steps, options={"task_index": index}
        )
        finals.append(records[-1]["info"]["progress_rate"])
    assert np.mean(finals) < 1.0
    assert sum(f == 1.0 for f in finals) < len(finals)


def test_mastermind_feedback_counts_place_and_symbol_matches():
    assert feedback("5618", "5618") == (4, 0)
    assert feedback("5618", "8165") == (0, 4)
    assert feedback("1122", "1212") == (2, 2)
    assert feedback("1122", "3333") == (0, 0)


@pytest.mark.parametrize("text", ["1234", "guess 1234", "Guess: 1 2 3 4", "1,2,3,4", "'1234'"])
def test_mastermind_guess_forms_are_accepted(text):
    assert parse_guess(text, CodeRules()) == "1234"


@pytest.mark.parametrize(
    "text,reason",
    [("123", "bad_argument"), ("1123", "bad_argument"), ("abcd", "bad_argument"), ("go north please", "unparsable")],
)
def test_mastermind_bad_guesses_say_why(text, reason):
    with pytest.raises(ActionError) as caught:
        parse_guess(text, CodeRules())
    assert caught.value.reason == reason


def test_mastermind_expert_finishes_from_any_history_and_custom_rules():
    rules = CodeRules(length=3, alphabet="abcdef", repeats=True)
    env = MastermindEnv(length=3, alphabet="abcdef", repeats=True, num_tasks=10)
    for index in range(10):
        env.reset(options={"task_index": index})
        env.step("guess aaa")
        env.step("guess fed")
        steps = 0
        while not env.episode_over:
            env.step(env.expert_action())
            steps += 1
            assert steps <= len(list(rules.codes()))
    # the consistent guess never repeats an earlier guess
    history = [("aab", feedback("cab", "aab"))]
    assert consistent_guess(rules, history) != "aab"


def test_mastermind_progress_is_right_place_share_of_latest_guess():
    env = MastermindEnv()
    env.reset(options={"task_index": 0})
    secret = env.current_task.params["secret"]
    near_miss = secret[:2] + secret[3] + secret[2]
    info = env.step(f"guess {near_miss}")[4]
    assert info["progress_now"] == 0.5 and info["progress_rate"] == 0.5


def test_shipped_sudoku_puzzles_have_unique_solutions_and_regenerate_from_seed():
    entries = json.loads(PUZZLE_FILE.read_text())
    assert len(entries) == TASK_COUNT
    for entry in entries:
        assert count_solutions(entry["puzzle"], limit=2) == 1
        assert all(p in (".", s) for p, s in zip(entry["puzzle"], entry["solution"]))
    for entry in entries[::15]:
        assert generate_puzzle(entry["seed"], entry["target_clues"]) == (entry["puzzle"], entry["solution"])


def test_sudoku_difficulty_follows_clue_count():
    env = SudokuEnv()
    for task in env.tasks:
        clues = 81 - task.params["puzzle"].count(".")
        assert task.difficulty == ("hard" if clues <= 31 else "easy")
        assert task.max_steps >= 81 - clues


@pytest.mark.parametrize(
    "text", ["put 5 at row 3 column 7", "Place 5 in row 3, column 7.", "r3c7=5", "row 3 col 7: 5", "5 at (3, 7)"]
)
def test_sudoku_placement_forms_are_accepted(text):
    from agentgym_text.envs.sudoku.actions import Placement, parse_action

    assert parse_action(text) == Placement(3, 7, 5)


def test_sudoku_refuses_clashes_and_clue_edits_and_keeps_grid():
    env = SudokuEnv()
    env.reset(options={"task_index": 0})
    clues = env.current_task.params["puzzle"]
    clue_index = next(i for i, ch in enumerate(clues) if ch != ".")
    row, col = divmod(clue_index, 9)
    info = env.step(f"put 1 at row {row + 1} column {col + 1}")[4]
    assert not info["valid"] and info["invalid_reason"] == "precondition_failed"
    empty = clues.index(".")
    row_digits = {clues[(empty // 9) * 9 + c] for c in range(9)} - {"."}
    clash = sorted(row_digits)[0]
    obs, _, _, _, info = env.step(f"put {clash} at row {empty // 9 + 1} column {empty % 9 + 1}")
    assert not info["valid"] and "already holds" in obs
    assert info["progress_rate"] == 0.0
    assert env.step("put 0 at row 1 column 1")[4]["invalid_reason"] == "bad_argument"
    assert env.step("put 5 at row 10 column 1")[4]["invalid_reason"] == "bad_argument"


def test_sudoku_admissible_actions_are_exactly_the_accepted_ones():
    env = SudokuEnv()
    env.reset(options={"task_index": 31})
    admissible = set(env.admissible_actions())
    grid_before = env._grid
    for index in [i for i, ch in enumerate(grid_before) if ch == "."][:6]:
        for digit in "123456789":
            action = f"put {digit} at row {index // 9 + 1} column {index % 9 + 1}"
            env._grid = grid_before
            accepted = env.step(action)[4]["valid"]
            assert accepted == (action in admissible), action
