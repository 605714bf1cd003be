"""ScienceWorld envs sharing a JVM (``jvm=JvmPool()`` / ``jvm="shared"``) against envs in JVMs of their own.

Every trajectory here is compared with the same env alone in its own JVM: observations, rewards, validity,
progress and (in AgentBoard's text, whose listings rename ambiguous objects) the action lists."""

import functools
import os
import signal
import threading
import time

import gymnasium as gym
import numpy as np
import pytest

import agentgym_text  # noqa: F401  (registers the ids)
from agentgym_text.core.info import FinishReason
from agentgym_text.envs.scienceworld import pool as pool_module
from agentgym_text.envs.scienceworld.engine import find_java
from agentgym_text.envs.scienceworld.pool import JvmPool, default_pool
from agentgym_text.envs.scienceworld.tasks import load_instances, task_id_for

ENV_ID = "AgentBoard/ScienceWorld-v0"
STEPS = 12

pytestmark = pytest.mark.skipif(find_java() is None, reason="ScienceWorld needs Java")

_IDS = [task_id_for(inst["task_name"], inst["variation"]) for inst in load_instances()]


def _task(prefix: str) -> str:
    return next(t for t in _IDS if t.startswith("scienceworld-" + prefix))


# two envs on one task whose listings rename the cups of paint at every listing (AgentBoard's text shows the names),
# bees that wander and plants that grow (the global random generator), an electrical task (loaded without
# noElectricalAction: other simplifications)
TASKS = [_task("chemistry-mix-paint-"), _task("chemistry-mix-paint-"), _task("grow-fruit-"), _task("power-component-")]


class _Player:
    """One env playing seeded random admissible actions, one step at a time, recording what it sees."""

    def __init__(self, env: gym.Env, task_id: str, seed: int) -> None:
        self.env, self.task_id, self.seed = env, task_id, seed
        self.trace: list = []
        self.done = False

    def reset(self) -> None:
        self.rng = np.random.default_rng(self.seed)
        obs, info = self.env.reset(options={"task_id": self.task_id})
        self.trace = [obs, info["progress_rate"]]
        self.done = False

    def step(self) -> None:
        actions = self.env.unwrapped.admissible_actions()
        action = actions[int(self.rng.integers(len(actions)))]
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.trace += [actions, action, obs, reward, info["valid"], info["progress_rate"], info["finish_reason"]]
        self.done = terminated or truncated

    def play(self, steps: int = STEPS) -> list:
        self.reset()
        for _ in range(steps):
            if self.done:
                break
            self.step()
        return self.trace


def _interleave(players: list[_Player], steps: int = STEPS) -> list[list]:
    for player in players:
        player.reset()
    for _ in range(steps):
        for player in players:
            if not player.done:
                player.step()
    return [player.trace for player in players]


@functools.cache
def _alone(text_format: str) -> list[list]:
    """The trajectory of each of TASKS played alone in a JVM of its own with seed = its index."""
    own = gym.make(ENV_ID, text_format=text_format, jvm="own")
    try:
        return [_Player(own, task, seed).play() for seed, task in enumerate(TASKS)]
    finally:
        own.close()


@pytest.fixture(params=["agentboard", "clear"])
def reference(request):
    """(text format, the trajectories alone) in both text formats."""
    return request.param, _alone(request.param)


@pytest.fixture
def agentboard_reference():
    """(text format, the trajectories alone) in the default text only (for the tests of failures and recycling)."""
    return "agentboard", _alone("agentboard")


def _players(pool, text_format: str, **kwargs) -> list[_Player]:
    return [
        _Player(gym.make(ENV_ID, text_format=text_format, jvm=pool, **kwargs), task, seed)
        for seed, task in enumerate(TASKS)
    ]


def _close(players: list[_Player]) -> None:
    for player in players:
        player.env.close()


def _paint_names(actions: list[str]) -> set[str]:
    return {action for action in actions if action.startswith("focus on") and "paint" in action}


def test_envs_sharing_a_jvm_play_step_by_step_interleaved_as_in_jvms_of_their_own(reference):
    text_format, expected = reference
    if text_format == "agentboard":  # the names of the cups of paint change from one listing to the next
        listings = [item for item in expected[0] if isinstance(item, list)]
        assert any(_paint_names(a) != _paint_names(b) for a, b in zip(listings, listings[1:]))
    pool = JvmPool()
    players = _players(pool, text_format)
    try:
        traces = _interleave(players)
        (pid,) = pool.jvm_pids
        assert {p.env.unwrapped.jvm_pid for p in players} == {pid}
    finally:
        _close(players)
    assert traces == expected
    assert pool.jvm_pids == [] and _ends(pid)  # the JVM stopped with its last simulator


def test_without_swapping_the_simulators_globals_shared_envs_would_disturb_each_other(reference, monkeypatch):
    """The control: the same interleaving with the pool's swap of the Scala globals turned off differs."""
    text_format, expected = reference
    monkeypatch.setattr(pool_module._Jvm, "activate", lambda jvm, simulator: setattr(jvm, "active", simulator))
    players = _players(JvmPool(), text_format)
    try:
        traces = _interleave(players)
    finally:
        _close(players)
    assert traces != expected


def test_envs_sharing_a_jvm_step_from_several_threads(reference):
    text_format, expected = reference
    pool = JvmPool()
    players = _players(pool, text_format)
    barrier = threading.Barrier(len(players))
    traces: dict[int, list] = {}
    errors: list[BaseException] = []

    def run(index: int, player: _Player) -> None:
        try:
            player.reset()
            barrier.wait()
            for _ in range(STEPS):
                if not player.done:
                    player.step()
            traces[index] = player.trace
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i, p)) for i, p in enumerate(players)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
        assert len(pool.jvm_pids) == 1
    finally:
        _close(players)
    assert not errors and [traces[i] for i in range(len(players))] == expected


def test_a_java_exception_ends_only_its_own_episode(agentboard_reference):
    text_format, expected = agentboard_reference
    pool = JvmPool()
    players = _players(pool, text_format)
    try:
        for player in players:
            player.reset()
        for player in players:
            player.step()
        crashing = players[0]
        sim = crashing.env.unwrapped._engine._sim
        real_step = sim.server.step
        sim.server.step = lambda text: real_step(None)  # a NullPointerException in that simulator
        obs, reward, terminated, truncated, info = crashing.env.step("look around")
        assert terminated and not info["valid"] and info["finish_reason"] == FinishReason.ENGINE_ERROR.value
        assert "simulator failed" in obs and reward == 0
        pid = pool.jvm_pids
        for _ in range(STEPS - 1):  # the others play on, undisturbed
            for player in players[1:]:
                if not player.done:
                    player.step()
        assert [p.trace for p in players[1:]] == expected[1:]
        assert crashing.play() == expected[0]  # a new simulator at the reset, in the same JVM
        assert pool.jvm_pids == pid and crashing.env.unwrapped.jvm_restarts == 1
    finally:
        _close(players)


def test_a_lost_jvm_ends_every_episode_on_it_and_the_next_resets_start_a_new_one(agentboard_reference):
    text_format, expected = agentboard_reference
    pool = JvmPool()
    players = _players(pool, text_format)[:2]
    try:
        for player in players:
            player.reset()
            player.step()
        (pid,) = pool.jvm_pids
        os.kill(pid, signal.SIGKILL)
        for player in players:
            obs, reward, terminated, truncated, info = player.env.step("look around")
            assert terminated and info["finish_reason"] == FinishReason.ENGINE_ERROR.value and not info["valid"]
        assert [p.play() for p in players] == expected[:2]
        assert len(pool.jvm_pids) == 1 and pool.jvm_pids != [pid]
    finally:
        _close(players)


@pytest.mark.parametrize("jvm", ["shared", "own"])
def test_the_proxies_of_a_lost_jvm_are_let_go_without_trying_to_reach_it(jvm, caplog):
    """A proxy's finalizer would connect to the dead JVM and log a traceback whenever the collector runs it (on
    Python 3.11 before 3.11.8 a traceback formatted inside ``ast.parse`` makes that parse fail: CPython gh-106905)."""
    import gc
    import logging

    env = gym.make(ENV_ID, jvm=JvmPool() if jvm == "shared" else "own", text_format="clear")
    try:
        env.reset(seed=0)
        os.kill(env.unwrapped._engine.jvm_pid, signal.SIGKILL)
        time.sleep(0.5)
        assert env.step("look around")[4]["finish_reason"] == FinishReason.ENGINE_ERROR.value
        env.reset(seed=0)
        with caplog.at_level(logging.DEBUG, logger="py4j"):
            caplog.clear()
            gc.collect()
            assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    finally:
        env.close()


def test_recycling_one_envs_simulator_leaves_the_others_episode_intact(agentboard_reference):
    text_format, expected = agentboard_reference
    pool = JvmPool()
    recycling = _Player(gym.make(ENV_ID, text_format=text_format, jvm=pool, jvm_restart_every=1), TASKS[0], 0)
    other = _Player(gym.make(ENV_ID, text_format=text_format, jvm=pool), TASKS[3], 3)
    try:
        recycling.play(2)
        other.reset()
        for _ in range(STEPS):  # a new simulator for `recycling` at each of its resets, amid `other`'s episode
            if not other.done:
                other.step()
            recycling.play(1)
        assert other.trace == expected[3]
        assert recycling.play() == expected[0]
        assert recycling.env.unwrapped.jvm_restarts == STEPS + 1 and len(pool.jvm_pids) == 1
    finally:
        _close([recycling, other])


def test_a_jvm_too_big_is_retired_and_stops_when_its_last_env_has_moved(agentboard_reference):
    text_format, expected = agentboard_reference
    pool = JvmPool()
    big = _Player(gym.make(ENV_ID, text_format=text_format, jvm=pool, jvm_max_rss_mib=1), TASKS[0], 0)
    other = _Player(gym.make(ENV_ID, text_format=text_format, jvm=pool), TASKS[3], 3)
    try:
        big.play(1)
        other.reset()
        other.step()
        (first,) = pool.jvm_pids
        assert big.play() == expected[0]  # every share is above 1 MiB: `big` moves to a new JVM
        assert len(pool.jvm_pids) == 2 and first in pool.jvm_pids
        for _ in range(STEPS - 1):
            if not other.done:
                other.step()
        assert other.trace == expected[3]
        assert other.play() == expected[3]  # `other` moves at its reset; the old JVM stops
        assert first not in pool.jvm_pids and _ends(first)
    finally:
        _close([big, other])


def _ends(pid: int, seconds: float = 10.0) -> bool:
    """Whether process ``pid`` is gone (or a zombie) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


def test_a_pool_bounds_its_simulators_per_jvm():
    pool = JvmPool(simulators_per_jvm=2)
    envs = [gym.make(ENV_ID, jvm=pool) for _ in range(3)]
    try:
        for env in envs:
            env.reset(options={"task_index": 0})
        pids = [env.unwrapped.jvm_pid for env in envs]
        assert pids[0] == pids[1] != pids[2] and sorted(pool.jvm_pids) == sorted(set(pids))
    finally:
        for env in envs:
            env.close()
    assert pool.jvm_pids == []
    with pytest.raises(ValueError, match="simulators_per_jvm"):
        JvmPool(simulators_per_jvm=0)


def test_shared_is_the_processs_pool_and_bad_values_are_refused():
    env = gym.make(ENV_ID, jvm="shared")
    try:
        assert env.unwrapped._engine._pool is default_pool()
    finally:
        env.close()
    with pytest.raises(ValueError, match="jvm must be one of"):
        gym.make(ENV_ID, jvm="pooled")


def test_a_forked_child_leaves_the_pools_jvm_to_the_parent():
    from agentgym_text.envs.scienceworld.engine import INHERITED

    pool = JvmPool()
    env = gym.make(ENV_ID, jvm=pool, text_format="clear")
    try:
        env.reset(options={"task_index": 0})
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: report what it sees, then leave without running any cleanup
            try:
                jvm = next(item for item in reversed(INHERITED) if isinstance(item, pool_module._Jvm))
                ok = pool.jvm_pids == [] and not env.unwrapped._engine.started
                ok = ok and not jvm.gateway._gateway_client.is_connected
                os.write(write, b"1" if ok else b"0")
            finally:
                os._exit(0)
        os.close(write)
        answer = os.read(read, 1)
        os.waitpid(pid, 0)
        os.close(read)
        assert answer == b"1"
        obs, *_ = env.step("look around")  # the parent's JVM still answers the parent
        assert obs.startswith("This room is called")
    finally:
        env.close()


class _RecordingJvm(gym.Wrapper):
    """Notes the JVM each reset played on."""

    def __init__(self, env: gym.Env, pids: list, lock: threading.Lock):
        super().__init__(env)
        self._pids, self._lock = pids, lock

    def reset(self, **kwargs):
        result = self.env.reset(**kwargs)
        with self._lock:
            self._pids.append(self.env.unwrapped.jvm_pid)
        return result


def test_the_runners_slots_share_one_jvm_and_play_as_a_lone_slot_does(tmp_path):
    """The runner's thread slots take ScienceWorld's ``threads_share`` (``jvm="shared"``): three slots, one JVM, and
    the same files as one slot in a JVM of its own."""
    from agentgym_text.agents.expert import ExpertAgent
    from agentgym_text.eval import EvalConfig, run_eval
    from agentgym_text.eval.store import read_jsonl

    pids: list[int] = []
    lock = threading.Lock()

    class Recording(ExpertAgent):
        def env_wrappers(self):
            return [lambda env: _RecordingJvm(env, pids, lock)]

    config = dict(envs=[ENV_ID], tasks="3", max_steps=6, progress_bar=False)
    run_eval(Recording(), EvalConfig(num_envs=3, **config), tmp_path / "three")
    assert len(pids) == 3 and len(set(pids)) == 1
    run_eval(ExpertAgent(), EvalConfig(num_envs=1, **config), tmp_path / "one")

    def rows(folder: str, name: str) -> list[dict]:
        found = [{k: v for k, v in row.items() if k != "wall_s"} for row in read_jsonl(tmp_path / folder / name)]
        return sorted(found, key=lambda row: (row.get("episode", row.get("key")), row.get("step", 0)))

    for name in ("episodes.jsonl", "trajectories.jsonl"):
        assert rows("three", name) == rows("one", name)
