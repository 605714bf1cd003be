"""The runner's one slot pool for the whole run: every planned episode of several ids played exactly once whatever
the number of slots, a slot keeping its env while its id has work, an id whose env cannot open stopping alone, a
killed worker's episode recorded once and replayed once, and an interrupted run resumed with only the rest."""

import threading
from collections import Counter
from pathlib import Path

import gymnasium as gym
import pytest

from agentgym_text.agents import make_agent
from agentgym_text.agents.expert import ExpertAgent
from agentgym_text.eval import EvalConfig, run_eval
from agentgym_text.eval.episode_queue import EpisodeQueue
from agentgym_text.eval.plan import EpisodePlan, plan_env, resolve_env_ids
from agentgym_text.eval.store import read_jsonl
from tests.support.dying_worker import ExpertKillingOneWorker, exit_without_cleanup

MASTERMIND = "AgentQuest/Mastermind-v0"
SUDOKU = "AgentQuest/Sudoku-v0"
BABYAI = "AgentBoard/BabyAI-v0"
ENV_IDS = [MASTERMIND, SUDOKU, BABYAI]
TASKS = 3  # per id: 9 episodes in all


def _planned_keys(env_ids: list[str], tasks: int) -> set[str]:
    return {plan.key for entry in resolve_env_ids(env_ids) for plan in plan_env(entry, str(tasks))}


def _check_files(out: Path, keys: set[str]) -> list[dict]:
    """Each planned episode has one row, each of its steps one row (1, 2, ... with no gap); returns the rows."""
    rows = list(read_jsonl(out / "episodes.jsonl"))
    assert sorted(row["key"] for row in rows) == sorted(keys)
    steps = Counter(row["episode"] for row in read_jsonl(out / "trajectories.jsonl"))
    numbers: dict[str, list[int]] = {}
    for row in read_jsonl(out / "trajectories.jsonl"):
        numbers.setdefault(row["episode"], []).append(row["step"])
    for row in rows:
        assert steps[row["key"]] == row["steps"], row["key"]
        assert sorted(numbers.get(row["key"], [])) == list(range(1, row["steps"] + 1)), row["key"]
    return rows


def _comparable(rows: list[dict]) -> list[dict]:
    return sorted(({k: v for k, v in row.items() if k != "wall_s"} for row in rows), key=lambda row: row["key"])


@pytest.mark.parametrize("slots", [2, 3 * TASKS, 16], ids=["fewer-slots", "as-many", "more-slots"])
def test_every_planned_episode_of_several_ids_is_played_once(slots, tmp_path):
    config = EvalConfig(envs=ENV_IDS, tasks=str(TASKS), num_envs=slots, progress_bar=False)
    result = run_eval(make_agent("expert"), config, tmp_path)
    assert result.complete and (result.planned, result.finished) == (9, 9)
    assert result.by_env == {
        env_id: {"planned": TASKS, "skipped": 0, "finished": TASKS, "unplayed": 0} for env_id in ENV_IDS
    }
    rows = _check_files(tmp_path, _planned_keys(ENV_IDS, TASKS))
    assert all(row["success"] for row in rows)


def test_the_files_do_not_depend_on_the_number_of_slots(tmp_path):
    config = dict(envs=ENV_IDS, tasks=str(TASKS), max_steps=6, progress_bar=False)
    run_eval(make_agent("random", seed=3), EvalConfig(num_envs=1, **config), tmp_path / "one")
    run_eval(make_agent("random", seed=3), EvalConfig(num_envs=4, **config), tmp_path / "four")
    one = _check_files(tmp_path / "one", _planned_keys(ENV_IDS, TASKS))
    four = _check_files(tmp_path / "four", _planned_keys(ENV_IDS, TASKS))
    assert _comparable(one) == _comparable(four)


class _Counting(gym.Wrapper):
    """Counts the envs opened per id, and which ids each slot played in which order."""

    def __init__(self, env: gym.Env, opened: Counter, lock: threading.Lock):
        super().__init__(env)
        with lock:
            opened[env.unwrapped.spec.id] += 1


class _ExpertCountingOpens(ExpertAgent):
    def __init__(self):
        super().__init__()
        self.opened: Counter[str] = Counter()
        self.played: dict[int, list[str]] = {}
        self._lock = threading.Lock()

    def env_wrappers(self):
        return [lambda env: _Counting(env, self.opened, self._lock)]

    def begin_episode(self, turn):
        with self._lock:
            self.played.setdefault(turn.slot, []).append(turn.env_id)


def test_a_slot_keeps_its_env_while_its_id_has_work(tmp_path):
    agent = _ExpertCountingOpens()
    config = EvalConfig(envs=[MASTERMIND, SUDOKU], tasks="8", num_envs=3, progress_bar=False)
    result = run_eval(agent, config, tmp_path)
    assert result.complete and result.finished == 16
    # each id's env opens at most once per slot, not once per episode
    assert set(agent.opened) == {MASTERMIND, SUDOKU} and max(agent.opened.values()) <= 3, agent.opened
    # a slot leaves an id only for good (its id had no work left), and every slot took work
    assert len(agent.played) == 3
    for ids in agent.played.values():
        switches = [env_id for i, env_id in enumerate(ids) if i == 0 or ids[i - 1] != env_id]
        assert len(switches) == len(set(switches)), ids
    # the ids ran side by side: the three slots' first episodes were of both ids (their work is about equal)
    assert {ids[0] for ids in agent.played.values()} == {MASTERMIND, SUDOKU}, agent.played


def _plans(env_id: str, count: int, budget: int) -> list[EpisodePlan]:
    return [
        EpisodePlan(i, f"{env_id}-{i}", env_id, "family", "category", f"task-{i}", "easy", 0, i, budget)
        for i in range(count)
    ]


def test_a_free_slot_takes_the_id_with_the_most_work_per_slot_holding_it():
    queue = EpisodeQueue({"long": _plans("long", 6, 30), "short": _plans("short", 6, 10)})
    # work left / (slots holding it + 1): long 180/1, then 150/2 against short 60/1, then 120/3 against 60/1, ...
    assert [queue.take(slot).env_id for slot in range(4)] == ["long", "long", "short", "long"]
    assert [queue.take(2).env_id for _ in range(5)] == ["short"] * 5  # a slot keeps its id while it has work
    assert queue.take(2).env_id == "long"  # then takes what is left
    assert [queue.take(0).env_id, queue.take(1).env_id] == ["long", "long"]
    assert queue.take(3) is None and queue.take(0) is None


class _ExpertHoldingOneEpisode(ExpertAgent):
    """Holds one episode of the first id at its start until an episode of the second id begins (at most 30 s)."""

    def __init__(self, held_key: str, second_id: str):
        super().__init__()
        self.held_key, self.second_id = held_key, second_id
        self.second_began = threading.Event()
        self.overlapped = False

    def begin_episode(self, turn):
        if turn.env_id == self.second_id:
            self.second_began.set()
        elif turn.episode_key == self.held_key:
            self.overlapped = self.second_began.wait(timeout=30)


def test_a_free_slot_takes_the_next_ids_work_while_the_last_episode_of_an_id_plays(tmp_path):
    held = plan_env(resolve_env_ids(MASTERMIND)[0], "2")[1]
    agent = _ExpertHoldingOneEpisode(held.key, SUDOKU)
    config = EvalConfig(envs=[MASTERMIND, SUDOKU], tasks="2", num_envs=2, progress_bar=False)
    result = run_eval(agent, config, tmp_path)
    assert result.complete and agent.overlapped


class _CannotOpen(gym.Wrapper):
    def __init__(self, env: gym.Env):
        raise RuntimeError("no engine for this one")


class _ExpertFailingOn(ExpertAgent):
    """Its wrapper refuses the envs of one id: they plan (no wrapper then) but cannot be opened."""

    def __init__(self, env_id: str):
        super().__init__()
        self.env_id = env_id

    def env_wrappers(self):
        return [lambda env: _CannotOpen(env) if env.unwrapped.spec.id == self.env_id else env]


def test_an_id_whose_env_cannot_open_stops_alone(tmp_path):
    config = EvalConfig(envs=ENV_IDS, tasks=str(TASKS), num_envs=2, progress_bar=False)
    result = run_eval(_ExpertFailingOn(SUDOKU), config, tmp_path)
    assert not result.complete and result.finished == 6
    assert result.errors == [f"{SUDOKU}: RuntimeError: no engine for this one"]
    assert sorted(row["task_id"] for row in result.unplayed) == sorted(
        plan.task_id for plan in plan_env(resolve_env_ids(SUDOKU)[0], str(TASKS))
    )
    assert {(row["env_id"], row["reason"]) for row in result.unplayed} == {
        (SUDOKU, "RuntimeError: no engine for this one")
    }
    assert result.by_env[SUDOKU] == {"planned": TASKS, "skipped": 0, "finished": 0, "unplayed": TASKS}
    _check_files(tmp_path, _planned_keys([MASTERMIND, BABYAI], TASKS))

    again = run_eval(make_agent("expert"), config, tmp_path)  # the next run plays the rest
    assert again.complete and (again.skipped, again.finished) == (6, 3)
    _check_files(tmp_path, _planned_keys(ENV_IDS, TASKS))


def test_a_killed_worker_is_one_engine_error_replayed_once(tmp_path):
    ids, marker = [MASTERMIND, SUDOKU], tmp_path / "exited"
    victim = plan_env(resolve_env_ids(SUDOKU)[0], "4")[1]
    config = EvalConfig(envs=ids, tasks="4", num_envs=3, vector_mode="async", progress_bar=False)
    first = run_eval(ExpertKillingOneWorker(victim.task_id, marker, die=exit_without_cleanup), config, tmp_path / "run")
    assert marker.exists() and first.engine_errors == 1 and not first.complete
    rows = _check_files(tmp_path / "run", _planned_keys(ids, 4))
    lost = [row for row in rows if row["finish_reason"] == "engine_error"]
    assert [row["key"] for row in lost] == [victim.key] and lost[0]["steps"] == 1
    assert all(row["success"] for row in rows if row["key"] != victim.key)  # the slot went on with a new worker

    again = run_eval(ExpertKillingOneWorker(victim.task_id, marker, die=exit_without_cleanup), config, tmp_path / "run")
    assert again.complete and (again.finished, again.replayed) == (1, 1)
    rows = _check_files(tmp_path / "run", _planned_keys(ids, 4))
    assert all(row["success"] for row in rows)


class _ExpertInterrupted(ExpertAgent):
    """Ctrl-C (a ``KeyboardInterrupt``) at the start of its ``at``-th episode."""

    def __init__(self, at: int):
        super().__init__()
        self.at, self.begun = at, 0
        self._lock = threading.Lock()

    def begin_episode(self, turn):
        with self._lock:
            self.begun += 1
            if self.begun == self.at:
                raise KeyboardInterrupt


def test_an_interrupted_run_stops_and_the_next_run_plays_only_the_rest(tmp_path):
    config = EvalConfig(envs=ENV_IDS, tasks=str(TASKS), num_envs=2, progress_bar=False)
    with pytest.raises(KeyboardInterrupt):
        run_eval(_ExpertInterrupted(at=4), config, tmp_path)
    before = list(read_jsonl(tmp_path / "episodes.jsonl"))
    assert 3 <= len(before) <= 4  # the other slot ends its current episode, and takes no other
    again = run_eval(make_agent("expert"), config, tmp_path)
    assert again.complete and (again.skipped, again.finished) == (len(before), 9 - len(before))
    rows = _check_files(tmp_path, _planned_keys(ENV_IDS, TASKS))
    assert all(row["success"] for row in rows)
