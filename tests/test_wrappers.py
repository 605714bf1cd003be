"""Wrappers: repetition rate against a brute-force reference, step limit, history window, recorder."""

import json

import gymnasium as gym
import numpy as np
import pytest

import agentgym_text  # noqa: F401
from agentgym_text.core.text_space import UTF8Text
from agentgym_text.wrappers import HistoryWindow, RepetitionTracker, StepLimit, TrajectoryRecorder


class EchoEnv(gym.Env):
    """A text env from outside this suite: echoes the action, never ends."""

    observation_space = UTF8Text(1000)
    action_space = UTF8Text(1000)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        return "ready", {"goal": "say things"}

    def step(self, action):
        return f"you said {action}", 0.0, False, False, {}


def _edit_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _similarity(a: str, b: str) -> float:
    longest = max(len(a), len(b))
    return 1.0 if longest == 0 else 1.0 - _edit_distance(a, b) / longest


def _brute_force_rates(actions, similarity, threshold):
    """AgentQuest's definition recomputed from scratch at every step (O(N^2) per step)."""
    rates = []
    for t in range(1, len(actions) + 1):
        unique = []
        for action in actions[:t]:
            if not any(similarity(action, earlier) >= threshold for earlier in unique):
                unique.append(action)
        rates.append(0.0 if t < 2 else (t - len(unique)) / (t - 1))
    return rates


def _random_actions(rng, n):
    vocabulary = ["go north", "go south", "go nort", "open door", "open the door", "take key", "", "x"]
    return [vocabulary[int(rng.integers(len(vocabulary)))] + ("!" if rng.random() < 0.2 else "") for _ in range(n)]


@pytest.mark.parametrize(
    "similarity,threshold",
    [
        ("exact", 1.0),
        ("levenshtein", 1.0),
        ("levenshtein", 0.9),
        ("levenshtein", 0.7),
        ("levenshtein", 0.4),
        ("exact", 0.0),
    ],
)
def test_repetition_rate_equals_brute_force_reference(similarity, threshold):
    reference_similarity = (lambda a, b: float(a == b)) if similarity == "exact" else _similarity
    for seed in range(5):
        actions = _random_actions(np.random.default_rng(seed), 40)
        env = RepetitionTracker(EchoEnv(), similarity=similarity, threshold=threshold)
        env.reset()
        rates = [env.step(action)[4]["repetition_rate"] for action in actions]
        assert rates == pytest.approx(_brute_force_rates(actions, reference_similarity, threshold))


def test_repetition_tracker_accepts_a_callable_and_counts_invalid_actions():
    env = RepetitionTracker(
        gym.make("AgentQuest/Mastermind-v0"), similarity=lambda a, b: float(a[:3] == b[:3]), threshold=1.0
    )
    env.reset(seed=0)
    infos = [env.step(action)[4] for action in ["zzz1", "zzz2", "guess 0123"]]
    assert [info["repeated"] for info in infos] == [False, True, False]
    assert infos[-1]["repetition_rate"] == pytest.approx(0.5)


def test_repetition_stop_after_truncates_with_reason():
    env = RepetitionTracker(EchoEnv(), stop_after=2)
    env.reset()
    results = [env.step("same") for _ in range(3)]
    assert [r[3] for r in results] == [False, False, True]
    assert results[-1][4]["finish_reason"] == "repetition"


def test_step_limit_on_a_foreign_env_and_per_task_default():
    env = StepLimit(EchoEnv(), max_steps=2)
    env.reset()
    assert env.step("a")[3] is False
    _, _, _, truncated, info = env.step("b")
    assert truncated and info["finish_reason"] == "step_limit"
    sudoku = gym.make("AgentQuest/Sudoku-v0")
    sudoku.reset(seed=0)
    budget = sudoku.unwrapped.current_task.max_steps
    results = [sudoku.step("check valid actions") for _ in range(budget)]
    assert not any(r[3] for r in results[:-1]) and results[-1][3]


def test_history_window_keeps_goal_newest_turns_and_marks_omissions():
    env = HistoryWindow(EchoEnv(), max_turns=2)
    obs, info = env.reset()
    assert obs == "Goal: say things\nObservation: ready"
    for word in ["one", "two", "three"]:
        obs, *_, info = env.step(word)
    assert obs.splitlines() == [
        "Goal: say things",
        "[2 earlier turns omitted]",
        "Action: two",
        "Observation: you said two",
        "Action: three",
        "Observation: you said three",
    ]
    assert info["raw_observation"] == "you said three"


def test_history_window_token_budget_and_newest_observation_always_kept():
    env = HistoryWindow(EchoEnv(), max_tokens=20)
    env.reset()
    for word in ["alpha " * 5, "beta " * 5, "gamma " * 30]:
        obs, *_ = env.step(word)
    assert "gamma" in obs and "alpha" not in obs and "omitted]" in obs


def test_recorder_writes_one_flushed_json_line_per_event(tmp_path):
    path = tmp_path / "run" / "t.jsonl"
    env = TrajectoryRecorder(gym.make("AgentQuest/Mastermind-v0"), path)
    env.reset(seed=0)
    env.step("guess 0123")
    lines = path.read_text().splitlines()  # read before close: lines are flushed as written
    assert len(lines) == 2
    step = json.loads(lines[1])
    assert step["event"] == "step" and step["action"] == "guess 0123" and "progress_rate" in step["info"]
    env.close()


def test_all_wrappers_stack_on_a_suite_env():
    env = TrajectoryRecorder(
        HistoryWindow(RepetitionTracker(gym.make("AgentQuest/Sudoku-v0")), max_turns=3), "/dev/null"
    )
    env.reset(seed=1)
    for _ in range(5):
        obs, _, _, _, info = env.step(env.unwrapped.expert_action())
    assert info["progress_rate"] > 0 and info["repetition_rate"] == 0.0 and obs.startswith("Goal:")
    assert env.spec is not None
