"""AgentBench/LateralThinking-v0 on AgentBench's own puzzles (task_file=, an .xlsx written here in AgentBench's
layout) with AgentBench's host protocol, the host being the scripted chat server."""

from __future__ import annotations

import re

import gymnasium as gym
import pytest

from agentgym_text.envs.lateral.agentbench_file import TaskFileError, load_xlsx
from agentgym_text.envs.lateral.env import NEEDS_HOST, LateralThinkingEnv
from agentgym_text.testing.chat_server import ScriptedChatServer

openpyxl = pytest.importorskip("openpyxl")

STORY = "A man walks into a bar and asks for a glass of water. The barman points a gun at him. The man says thanks."
TRUTH = "The man had hiccups. The gun scared them away, so he no longer needed the water."
STORY_KEYS = "1. A man asks a barman for water.\n2. The barman points a gun at him."
# a blank line among the truth keys (it counts as a hint, as in AgentBench) and one line without a number
TRUTH_KEYS = "1. The man had hiccups.\n\n2. The fright cured him.\nHe no longer needed water."


def write_workbook(path, rows):
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["story", "answer", "Story keys", "Answer keys"])
    for row in rows:
        sheet.append(row)
    workbook.save(path)
    return path


@pytest.fixture
def workbook(tmp_path):
    return write_workbook(
        tmp_path / "standard.xlsx",
        [[STORY, TRUTH, STORY_KEYS, TRUTH_KEYS], ["A story.", "A truth.", "1. s", "1. One key."]],
    )


def scripted_host(messages):
    """Yes to every question; a restatement repeats the move; a merge joins; a key is held when its words are."""
    prompt = str(messages[-1]["content"])
    if prompt.startswith("Restate the following"):
        return prompt.split("\n", 1)[1].replace("Is it true that ", "").rstrip("?") + "."
    if prompt.startswith("Simplify the following"):
        return prompt.split("\n", 1)[1]
    if prompt.startswith("Does Sentence 2 contain"):
        key = re.search(r"Sentence 1: (.*)\n", prompt).group(1).rstrip(".").lower()
        merged = re.search(r"Sentence 2: (.*)", prompt).group(1).lower()
        return "yes" if key in merged else "no"
    return "Yes."


def test_the_workbook_loads_as_agentbench_reads_it(workbook):
    first, second = load_xlsx(workbook)
    assert first.puzzle_id == "ltp-standard-000" and second.puzzle_id == "ltp-standard-001"
    assert first.key_points == ("The man had hiccups.", "The fright cured him.", "He no longer needed water.")
    assert first.hints == 4 and first.progress_total == 4  # the blank line counts, as in AgentBench
    assert first.story_keys == ("A man asks a barman for water.", "The barman points a gun at him.")


def test_key_points_asked_back_through_the_host_give_agentbenchs_gp(workbook):
    with ScriptedChatServer(scripted_host) as server:
        env = gym.make(
            "AgentBench/LateralThinking-v0",
            task_file=str(workbook),
            host_model="scripted",
            host_base_url=server.base_url,
        )
        assert env.unwrapped.host_name == "llm-agentbench"
        _, info = env.reset(options={"task_index": 0})
        progress = []
        while not (info.get("terminated") or env.unwrapped.episode_over):
            _, _, terminated, _, info = env.step(env.unwrapped.expert_action())
            progress.append(info["progress_rate"])
        # one key point per question, out of 4 hints: the blank line keeps the best reachable GP at 3/4
        assert progress == [0.25, 0.5, 0.75]
        assert terminated and not info["success"]
        # the second puzzle has no blank line: its one key point is the whole truth
        env.reset(options={"task_index": 1})
        _, _, terminated, _, info = env.step(env.unwrapped.expert_action())
        assert terminated and info["success"] and info["progress_rate"] == 1.0
        env.close()


def test_a_wrong_guess_hits_nothing_and_a_short_one_is_not_compared(workbook):
    with ScriptedChatServer(scripted_host) as server:
        env = LateralThinkingEnv(task_file=str(workbook), host_model="scripted", host_base_url=server.base_url)
        env.reset(options={"task_index": 0})
        obs, _, _, _, info = env.step("Was the man a spy working for the barman?\nA second line is ignored.")
        assert obs == "Yes." and info["progress_rate"] == 0.0
        calls = server.stats["calls"]
        env.step("Hiccups?")  # shorter than every key point: the host answers, no key point is compared
        assert server.stats["calls"] == calls + 3  # answer, restatement, merge; no comparison


def test_abort_points_and_the_story_filter(workbook):
    with ScriptedChatServer(scripted_host) as server:
        env = LateralThinkingEnv(task_file=str(workbook), host_model="scripted", host_base_url=server.base_url)
        env.reset(options={"task_index": 0})
        obs, _, _, _, info = env.step("The barman points a gun at him.")
        assert not info["valid"] and "already in the story" in obs and server.stats["calls"] == 0
        for expected_end in (False, False, True):
            obs, _, terminated, _, info = env.step("Can we play a new game instead?")
            assert not info["valid"] and terminated is expected_end
        assert info["finish_reason"] == "invalid_action" and "6 abort points" in obs


def test_without_a_host_model_make_and_reset_work_and_a_step_explains(workbook):
    env = LateralThinkingEnv(task_file=str(workbook))
    obs, info = env.reset(options={"task_index": 0})
    assert STORY in obs and env.expert_action() is None
    obs, _, terminated, _, info = env.step("Did the man have hiccups?")
    assert obs == NEEDS_HOST and not info["valid"] and not terminated


def test_bad_files_and_options(tmp_path, workbook):
    with pytest.raises(TaskFileError, match="does not exist"):
        LateralThinkingEnv(task_file=str(tmp_path / "none.xlsx"))
    (tmp_path / "text.xlsx").write_text("not a workbook")
    with pytest.raises(TaskFileError, match="not an .xlsx workbook"):
        LateralThinkingEnv(task_file=str(tmp_path / "text.xlsx"))
    short = write_workbook(tmp_path / "short.xlsx", [[STORY, TRUTH]])
    with pytest.raises(TaskFileError, match="short.xlsx, row 2: a puzzle needs"):
        LateralThinkingEnv(task_file=str(short))
    with pytest.raises(ValueError, match="split="):
        LateralThinkingEnv(task_file=str(workbook), split="dev")
    with pytest.raises(ValueError, match="host_protocol must be one of"):
        LateralThinkingEnv(task_file=str(workbook), host_protocol="v3")
