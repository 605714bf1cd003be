"""Ray: ``RayVectorEnv`` equals the sync vector env, survives a killed actor, steps only active sub-envs; the
runner's ``--backend ray`` replays an episode whose actor died and resumes after the driver is SIGKILLed.

Every test here runs on a local Ray instance started (2 CPUs, no dashboard) and stopped by this module. Starting
Ray takes 5-20 s on this machine, so one test runs by default and the rest are marked slow.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import agentgym_text  # noqa: F401  (registers the ids)
from agentgym_text.agents.expert import ExpertAgent
from agentgym_text.core.info import FinishReason
from agentgym_text.eval import EvalConfig, run_eval
from agentgym_text.eval.store import read_jsonl

ray = pytest.importorskip("ray")

from agentgym_text.eval import ray_slot  # noqa: E402
from agentgym_text.integrations.ray import LOST_OBSERVATION, RayVectorEnv  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MASTERMIND = "AgentQuest/Mastermind-v0"
PDDL = "AgentBoard/PDDL-v0"
SEEDS = [3, 11, 42]


@pytest.mark.slow
def test_eval_backend_ray_resumes_after_sigkill_of_the_driver_without_duplicates(tmp_path):
    """First in the module: the driver starts its own Ray, before this module's instance is up."""
    out = tmp_path / "run"
    command = [
        sys.executable,
        "-m",
        "agentgym_text.cli",
        "eval",
        "--agent",
        "expert",
        "--envs",
        MASTERMIND,
        "--tasks",
        "40",
        "--num-envs",
        "2",
        "--backend",
        "ray",
        "--out",
        str(out),
        "--no-report",
        "--quiet",
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RAY_USAGE_STATS_ENABLED": "0"}
    driver = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    episodes = out / "episodes.jsonl"
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and driver.poll() is None:
        if episodes.exists() and len(list(read_jsonl(episodes))) >= 3:
            break
        time.sleep(0.02)
    assert driver.poll() is None, "the run ended before it could be killed"
    driver.send_signal(signal.SIGKILL)
    driver.wait(timeout=30)
    driver.stderr.close()
    first = len(list(read_jsonl(episodes)))
    assert 3 <= first < 40
    again = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr[-2000:]
    assert f"{40 - first} episodes played" in again.stdout
    rows = list(read_jsonl(episodes))
    assert len(rows) == 40 and len({row["key"] for row in rows}) == 40
    assert all(row["success"] for row in rows)
    _assert_steps_once(out, {row["key"]: row["steps"] for row in rows})
    settings = json.loads((out / "run.json").read_text())
    assert settings["vector_mode"] == "ray"


@pytest.fixture(scope="module")
def local_ray():
    saved = {name: os.environ.get(name) for name in ("RAY_USAGE_STATS_ENABLED", "PYTHONPATH")}
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), saved["PYTHONPATH"]]))  # for the actors
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def _actions(sync, rng, step):
    """Expert moves, random admissible ones, help and garbage, chosen from the sync env's sub-envs."""
    actions = []
    for expert, admissible in zip(sync.call("expert_action"), sync.call("admissible_actions")):
        if step % 5 == 4:
            actions.append("ΩΩ not an action 🚀")
        elif step % 2 or not admissible:
            actions.append(expert or "check valid actions")
        else:
            actions.append(admissible[int(rng.integers(len(admissible)))])
    return actions


def _assert_same(got, want):
    obs, rewards, terminated, truncated, infos = got
    assert tuple(obs) == tuple(want[0])
    assert rewards.tolist() == pytest.approx(want[1].tolist())
    assert terminated.tolist() == want[2].tolist() and truncated.tolist() == want[3].tolist()
    _assert_same_infos(infos, want[4])


def _assert_same_infos(got, want):
    assert sorted(got) == sorted(want)
    for key, column in want.items():
        if isinstance(column, dict):
            _assert_same_infos(got[key], column)
        else:
            assert [str(v) for v in got[key]] == [str(v) for v in column], key


def _compare_with_sync(env_id, steps, make_kwargs=None, **ray_kwargs):
    make_kwargs = make_kwargs or {}
    envs = RayVectorEnv(env_id, len(SEEDS), **ray_kwargs, **make_kwargs)
    sync = gym.make_vec(
        env_id,
        num_envs=len(SEEDS),
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": envs.autoreset_mode},
        **make_kwargs,
    )
    try:
        got, want = envs.reset(seed=SEEDS), sync.reset(seed=SEEDS)
        assert tuple(got[0]) == tuple(want[0])
        _assert_same_infos(got[1], want[1])
        rng = np.random.default_rng(0)
        ended = 0
        for step in range(steps):
            actions = _actions(sync, rng, step)
            want = sync.step(actions)
            _assert_same(envs.step(actions), want)
            ended += int(np.sum(want[2] | want[3]))
        return ended
    finally:
        envs.close()
        sync.close()


def test_ray_vector_env_equals_sync_vector_env_on_mastermind(local_ray):
    ended = _compare_with_sync(MASTERMIND, 30, envs_per_actor=2)
    assert ended > 0, "the run should cover autoreset"


@pytest.mark.slow
@pytest.mark.parametrize("autoreset_mode", ["NextStep", "SameStep"])
def test_ray_vector_env_equals_sync_vector_env_on_pddl(local_ray, autoreset_mode):
    ended = _compare_with_sync(PDDL, 40, make_kwargs={"domain": "blocksworld"}, autoreset_mode=autoreset_mode)
    assert ended > 0, "the run should cover autoreset"


def _kill(actor, timeout: float = 60.0) -> None:
    """Kill ``actor`` and return once it is dead: ``ray.kill`` only asks, and a call sent before the actor dies
    would still be served."""
    ray.kill(actor)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            ray.get(actor.describe.remote(), timeout=10)
        except ray.exceptions.RayActorError:
            return
        except ray.exceptions.GetTimeoutError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"the actor was not dead {timeout} s after ray.kill")


@pytest.mark.slow
def test_killed_actor_is_restarted_and_its_episode_reported_as_engine_error(local_ray):
    envs = RayVectorEnv(MASTERMIND, 3)
    try:
        envs.reset(seed=SEEDS)
        envs.step(["guess 1234"] * 3)
        before = envs.actor_of(1)
        _kill(before)
        obs, rewards, terminated, truncated, infos = envs.step(["guess 5678"] * 3)
        assert envs.restarts == 1 and envs.actor_of(1) is not before
        assert obs[1] == LOST_OBSERVATION and truncated.tolist() == [False, True, False]
        assert list(infos["finish_reason"]) == [None, FinishReason.ENGINE_ERROR.value, None]
        assert infos["step"][1] == 1 and infos["step"][0] == 2  # the lost step did not happen
        obs, _, _, truncated, infos = envs.step(["guess 9012"] * 3)  # next-step autoreset on the new actor
        assert "I have chosen a code" in obs[1] and infos["step"][1] == 0 and not truncated.any()
        obs, _, _, _, infos = envs.step(["guess 1234"] * 3)
        assert infos["step"].tolist() == [4, 1, 4]
    finally:
        envs.close()


@pytest.mark.slow
def test_idle_sub_envs_are_not_stepped_and_ended_ones_wait_without_autoreset(local_ray):
    envs = RayVectorEnv(MASTERMIND, 2, autoreset_mode="Disabled")
    single = gym.make(MASTERMIND)
    try:
        envs.reset(seed=[5, 6])
        single.reset(seed=5)
        _, _, _, _, infos = envs.step([None, "guess 1234"])
        assert infos["_step"].tolist() == [False, True]
        for _ in range(20):
            expert = single.unwrapped.expert_action()
            want = single.step(expert)
            obs, rewards, terminated, truncated, infos = envs.step([expert, None])
            assert (
                obs[0] == want[0] and rewards[0] == pytest.approx(want[1]) and infos["_step"].tolist() == [True, False]
            )
            if want[2] or want[3]:
                break
        assert terminated[0]
        _, _, _, _, infos = envs.step(["guess 1234", None])  # an ended episode stays idle until reset
        assert infos == {} or not infos["_step"].any()
        _, infos = envs.reset(seed=[7, 0], options={"reset_mask": np.array([True, False])})
        assert infos["_step"].tolist() == [True, False]
    finally:
        envs.close()
        single.close()


class _KillingExpert(ExpertAgent):
    """The expert, which kills the Ray actor of its slot at step 2 of episode ``victim``."""

    def __init__(self, remotes, victim):
        self.remotes, self.victim, self.killed = remotes, victim, 0

    def act(self, turns):
        for turn in turns:
            if turn.episode_key == self.victim and turn.step == 2 and not self.killed:
                _kill(self.remotes[-1].actor)
                self.killed += 1
        return super().act(turns)


@pytest.mark.slow
def test_eval_on_ray_replays_an_episode_whose_actor_was_killed(local_ray, tmp_path, monkeypatch):
    remotes = []
    original = ray_slot.RemoteEnv.__init__

    def recording_init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        remotes.append(self)

    monkeypatch.setattr(ray_slot.RemoteEnv, "__init__", recording_init)
    config = EvalConfig(envs=MASTERMIND, tasks="3", num_envs=1, vector_mode="ray", progress_bar=False)
    reference = run_eval(ExpertAgent(), EvalConfig(envs=MASTERMIND, tasks="3", progress_bar=False), tmp_path / "sync")
    want = {row["key"]: row for row in read_jsonl(tmp_path / "sync" / "episodes.jsonl")}
    victim = sorted(want)[1]
    agent = _KillingExpert(remotes, victim)
    result = run_eval(agent, config, tmp_path / "ray")
    assert reference.complete and result.complete and agent.killed == 1
    assert len(remotes) == 1 and remotes[0].restarts == 1
    episodes = list(read_jsonl(tmp_path / "ray" / "episodes.jsonl"))
    assert sorted(row["key"] for row in episodes) == sorted(want)
    for row in episodes:
        assert (row["success"], row["steps"], row["finish_reason"]) == (
            want[row["key"]]["success"],
            want[row["key"]]["steps"],
            want[row["key"]]["finish_reason"],
        )
    _assert_steps_once(tmp_path / "ray", {key: row["steps"] for key, row in want.items()})


def _assert_steps_once(folder, steps_per_episode):
    marks = [(row["episode"], row["step"]) for row in read_jsonl(folder / "trajectories.jsonl")]
    assert len(marks) == len(set(marks)), "a step row is written twice"
    assert sorted(marks) == sorted(
        (key, step) for key, count in steps_per_episode.items() for step in range(1, count + 1)
    )
