"""`agentgym-text list` and `agentgym-text play` as a person uses them."""

import subprocess
import sys

import agentgym_text


def _cli(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "agentgym_text.cli", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_list_shows_every_registered_id_with_its_task_count():
    result = _cli("list")
    assert result.returncode == 0
    for entry in agentgym_text.list_envs():
        line = next(line for line in result.stdout.splitlines() if line.startswith(entry.env_id))
        assert str(entry.task_count) in line.split()


def test_play_takes_typed_actions_until_the_expert_finishes():
    moves = "guess 0123\n" + "expert\n" * 12
    result = _cli("play", "AgentQuest/Mastermind-v0", "--task", "mastermind-000", stdin=moves)
    assert result.returncode == 0
    assert "Goal:" in result.stdout and "0123:" in result.stdout
    assert "Episode over: success" in result.stdout


def test_play_reports_invalid_input_and_quits_cleanly():
    result = _cli("play", "AgentQuest/Sudoku-v0", "--seed", "1", stdin="hello there\nquit\n")
    assert result.returncode == 0
    assert "[invalid: unparsable]" in result.stdout


def test_every_option_of_every_command_says_what_it_does():
    from agentgym_text.cli import build_parser

    parser = build_parser()
    commands = next(action for action in parser._actions if action.choices and action.dest == "command")
    silent = [
        f"{name} {action.option_strings or action.dest}"
        for name, command in commands.choices.items()
        for action in command._actions
        if action.dest != "help" and not action.help
    ]
    assert silent == []
    assert len(commands.choices) >= 7
