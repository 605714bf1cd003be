"""The env contract as plain check functions over an env id, so any family (ours, a user's, one written in a
test) gets the whole suite: ``check_all(env_id)`` or one check at a time. Each raises ``AssertionError``.

The test suite parametrizes these over every registered id (``tests/test_contract.py``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.utils.env_checker import check_env

from agentgym_text.core.info import FORMAT_ERRORS, HELP_ACTION, TOOL_HELP_ACTION
from agentgym_text.core.registry import EnvLoader
from agentgym_text.core.text_env import ENGINE_ERROR
from agentgym_text.testing import assert_info_contract, garbage_actions, random_valid_rollout, trajectory_digest

__all__ = [
    "stable_seed",
    "check_gymnasium_checker",
    "check_random_episodes",
    "check_expert_solves",
    "check_garbage_is_invalid",
    "check_non_text_actions",
    "check_help_action",
    "check_reset_options",
    "check_same_trajectory_in_another_process",
    "check_step_limit",
    "check_vector_equals_single",
    "check_random_below_expert",
    "check_all",
]


def stable_seed(*parts: object) -> int:
    """A seed from names that is the same in every process (crc32, unlike ``hash``)."""
    return zlib.crc32("|".join(map(str, parts)).encode()) % 100_000


def _make(env_id: str, **kwargs) -> gym.Env:
    return gym.make(env_id, **kwargs)


def check_gymnasium_checker(env_id: str) -> None:
    env = _make(env_id)
    try:
        check_env(env.unwrapped, skip_render_check=True)
    finally:
        env.close()


def check_random_episodes(
    env_id: str, seeds: Sequence[int] = (0, 1, 2), max_steps: int = 40, options: dict | None = None
) -> None:
    """Info schema on every step, progress never falls, rewards sum to the final progress rate.

    ``options`` (here and below) pins the reset, e.g. ``{"task_index": 0}`` for ids whose tasks are costly."""
    env = _make(env_id)
    try:
        for seed in seeds:
            records = random_valid_rollout(env, seed=seed, max_steps=max_steps, options=options)
            previous = 0.0
            for record in records:
                assert_info_contract(record["info"])
                assert record["info"]["progress_rate"] >= previous
                previous = record["info"]["progress_rate"]
            assert records[0]["info"]["progress_rate"] == 0.0, "progress before the first action must be 0"
            total = sum(record.get("reward", 0.0) for record in records)
            assert abs(total - records[-1]["info"]["progress_rate"]) < 1e-9
            assert all(isinstance(r["observation"], str) and r["observation"] for r in records)
    finally:
        env.close()


EXPERT_BUDGET = 400
"""The step budget the expert checks give themselves: the expert's path may be longer than a task's budget (AgentBoard
gives every task 30 steps; some of its ScienceWorld and PDDL gold paths are longer)."""


def check_expert_solves(
    env_id: str, task_id: str | None = None, seed: int = 0, env_kwargs: Mapping[str, Any] | None = None
) -> int:
    """The expert reaches success with progress 1.0 from reset; rewards sum to 1. Returns the steps taken.
    ``env_kwargs`` make the env (a training instance's, say)."""
    env = _make(env_id, **{**(env_kwargs or {}), "max_episode_steps": EXPERT_BUDGET})
    try:
        options = {"task_id": task_id} if task_id is not None else {"task_index": 0}
        obs, info = env.reset(seed=seed, options=options)
        total, done, steps = 0.0, False, 0
        while not done:
            action = env.unwrapped.expert_action()
            assert action is not None, f"the expert gave up at step {steps} of {info['task_id']}"
            obs, reward, terminated, truncated, info = env.step(action)
            assert_info_contract(info)
            assert info["valid"], f"the expert's action {action!r} was refused: {obs[:300]}"
            total += reward
            steps += 1
            done = terminated or truncated
        assert info["success"] and info["progress_rate"] == 1.0 and info["finish_reason"] == "success", (
            f"{info['task_id']}: finish {info['finish_reason']}, progress {info['progress_rate']}"
        )
        assert abs(total - 1.0) < 1e-9
        assert env.unwrapped.expert_action() is None
        return steps
    finally:
        env.close()


def check_garbage_is_invalid(env_id: str, count: int = 2_000, options: dict | None = None) -> None:
    env = _make(env_id, max_episode_steps=count + 1)
    try:
        env.reset(seed=0, options=options)
        for action in garbage_actions(count, seed=stable_seed(env_id)):
            obs, reward, terminated, truncated, info = env.step(action)
            assert info["valid"] is False, f"garbage accepted: {action[:80]!r}"
            assert info["invalid_reason"] and info["invalid_reason"] != ENGINE_ERROR, info["invalid_reason"]
            assert isinstance(obs, str) and len(obs) > 10
            assert reward == 0.0 and not terminated and not truncated
            assert_info_contract(info)
    finally:
        env.close()


def check_non_text_actions(env_id: str, options: dict | None = None) -> None:
    env = _make(env_id)
    try:
        env.reset(seed=0, options=options)
        for action in (None, 42, 3.5, ["go"], {"a": 1}, b"\xff\xfe"):
            obs, reward, terminated, truncated, info = env.step(action)
            assert not info["valid"] and info["invalid_reason"] in {reason.value for reason in FORMAT_ERRORS}
    finally:
        env.close()


def check_help_action(env_id: str, sample: int = 3, options: dict | None = None) -> None:
    """Every spelling of the help action is valid; what it lists is accepted by the env."""
    env = _make(env_id)
    try:
        env.reset(seed=0, options=options)
        help_text = ""
        for form in (HELP_ACTION, "Check Valid Actions.", TOOL_HELP_ACTION, f"Action: {HELP_ACTION}"):
            help_text, _, _, _, info = env.step(form)
            assert info["valid"] and info["invalid_reason"] is None, form
        listed = env.unwrapped.admissible_actions()
        example = env.unwrapped.action_example
        flat = " ".join(help_text.split())
        shown = [action for action in listed if " ".join(action.split()) in flat]
        assert shown or " ".join(example.split()) in flat, "the help text shows no action the env accepts"
        for action in (shown or [example])[:sample]:
            env.reset(seed=0, options=options)
            obs, _, _, _, info = env.step(action)
            assert info["valid"], f"{action!r}, listed by the help text, was refused: {obs[:300]}"
    finally:
        env.close()


def check_reset_options(env_id: str) -> None:
    """Tasks by id or index; a typo'd option or an unknown id is a ValueError and the env stays usable."""
    env = _make(env_id)
    try:
        task_ids = env.unwrapped.task_ids
        assert len(set(task_ids)) == len(task_ids) > 0
        for bad in ({"task_id": "no-such-task"}, {"tsk_id": task_ids[0]}, {"task_index": len(task_ids)}):
            try:
                env.reset(options=bad)
            except ValueError as error:
                assert str(next(iter(bad.values()))) in str(error) or "tsk_id" in str(error), str(error)
            else:
                raise AssertionError(f"reset(options={bad}) was accepted")
        _, info = env.reset(options={"task_id": task_ids[-1]})
        assert info["task_id"] == task_ids[-1]
        _, info = env.reset(options={"task_index": 0})
        assert info["task_id"] == task_ids[0]
        _, _, _, _, info = env.step(HELP_ACTION)
        assert info["valid"]
    finally:
        env.close()


# The other process makes the env from this one's spec, sent as JSON on stdin (``_spec_json``), so it registers
# nothing itself and loads no pickle.
_DIGEST_SCRIPT = """
import sys, json, hashlib, importlib, gymnasium as gym
from gymnasium.envs.registration import EnvSpec, WrapperSpec
from agentgym_text.core.registry import EnvLoader
for module in sys.argv[4:]:
    importlib.import_module(module)
from agentgym_text.testing import random_valid_rollout, trajectory_digest
fields = json.loads(sys.stdin.read())
entry = fields.pop("entry_point")
fields["entry_point"] = entry if isinstance(entry, str) else EnvLoader(**entry)
fields["additional_wrappers"] = tuple(WrapperSpec(*wrapper) for wrapper in fields["additional_wrappers"])
env = gym.make(EnvSpec(**fields))
records = random_valid_rollout(env, seed=int(sys.argv[1]), max_steps=int(sys.argv[2]), options=json.loads(sys.argv[3]))
print(hashlib.sha256(trajectory_digest(records).encode()).hexdigest())
"""


def _spec_json(env_id: str) -> str:
    """``env_id``'s gymnasium spec as JSON: a string entry point as is, core's lazy ``EnvLoader`` by its fields."""
    spec = gym.spec(env_id)
    entry = spec.entry_point
    if isinstance(entry, EnvLoader):
        entry = {"entry_point": entry.entry_point, "env_id": entry.env_id, "extra": entry.extra}
    elif not isinstance(entry, str):
        raise TypeError(f"{env_id}: the other-process check needs a string or EnvLoader entry point, not {entry!r}")
    return json.dumps(
        {
            "id": spec.id,
            "entry_point": entry,
            "kwargs": spec.kwargs,
            "max_episode_steps": spec.max_episode_steps,
            "disable_env_checker": spec.disable_env_checker,
            "additional_wrappers": [[w.name, w.entry_point, w.kwargs] for w in spec.additional_wrappers],
        }
    )


def check_same_trajectory_in_another_process(
    env_id: str, seed: int = 7, imports: Sequence[str] = (), max_steps: int = 25, options: dict | None = None
) -> None:
    """Same seed, same actions -> the same transcript, here twice and in a process with another hash seed.

    The other process makes the env from this process's spec of ``env_id``; ``imports`` are modules it imports
    first.
    """
    digests = []
    for _ in range(2):
        env = _make(env_id)
        try:
            records = random_valid_rollout(env, seed=seed, max_steps=max_steps, options=options)
            digests.append(hashlib.sha256(trajectory_digest(records).encode()).hexdigest())
        finally:
            env.close()
    assert digests[0] == digests[1]
    other = subprocess.run(
        [sys.executable, "-c", _DIGEST_SCRIPT, str(seed), str(max_steps), json.dumps(options), *imports],
        input=_spec_json(env_id),
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
        timeout=600,
    )
    assert other.returncode == 0, other.stderr[-2000:]
    assert other.stdout.strip().splitlines()[-1] == digests[0]


def stated_budget(observation: str) -> int | None:
    """The budget the first observation states ("You have N steps."), or None."""
    stated = re.findall(r"\bYou have (\d+) steps\b", observation)
    return int(stated[-1]) if stated else None


def check_step_limit(env_id: str, options: dict | None = None) -> None:
    """``max_episode_steps`` truncates with ``step_limit``, and the first observation states the budget enforced,
    as ``info["max_steps"]`` does."""
    env = _make(env_id, max_episode_steps=3)
    try:
        obs, info = env.reset(seed=0, options=options)
        assert info["max_steps"] == 3
        assert stated_budget(obs) == 3, f"first observation states {stated_budget(obs)} steps, enforced 3"
        results = [env.step(HELP_ACTION) for _ in range(3)]
        assert [r[3] for r in results] == [False, False, True]
        assert results[-1][4]["finish_reason"] == "step_limit"
    finally:
        env.close()


def _same(got, want) -> bool:
    if isinstance(want, float):
        return abs(float(got) - want) < 1e-9
    if isinstance(want, list):
        return list(got) == want
    return got == want


def _matches(column, index: int, want) -> bool:
    """Sub-env ``index``'s entry of a vector info column equals ``want`` (a dict value is a nested column there)."""
    if isinstance(want, dict):
        return all(_matches(column[key], index, value) for key, value in want.items())
    return _same(column[index], want)


def check_vector_equals_single(
    env_id: str, mode: str = "sync", seeds: Sequence[int] = (3, 11), steps: int = 12
) -> None:
    """``gym.make_vec`` (default next-step autoreset) returns exactly what single envs return."""
    envs = gym.make_vec(env_id, num_envs=len(seeds), vectorization_mode=mode)
    singles = [_make(env_id) for _ in seeds]
    try:
        obs, infos = envs.reset(seed=list(seeds))
        single = [env.reset(seed=seed) for env, seed in zip(singles, seeds)]
        assert tuple(obs) == tuple(o for o, _ in single)
        rng = np.random.default_rng(stable_seed(env_id, mode))
        just_ended = [False] * len(seeds)
        for step in range(steps):
            actions = []
            for env in singles:
                if step % 2:
                    actions.append(env.unwrapped.expert_action() or HELP_ACTION)
                else:
                    options = env.unwrapped.admissible_actions() or [HELP_ACTION, "ΩΩ 中文 🚀"]
                    actions.append(options[int(rng.integers(len(options)))])
            obs, rewards, terminated, truncated, infos = envs.step(actions)
            for index, (env, action) in enumerate(zip(singles, actions)):
                if just_ended[index]:
                    o, i = env.reset()
                    want = (o, 0.0, False, False, i)
                else:
                    want = env.step(action)
                assert obs[index] == want[0], f"step {step}, sub-env {index}"
                assert abs(float(rewards[index]) - want[1]) < 1e-9
                assert bool(terminated[index]) == want[2] and bool(truncated[index]) == want[3]
                for key, value in want[4].items():
                    assert _matches(infos[key], index, value), f"info[{key!r}] at step {step}"
            just_ended = [bool(t or u) for t, u in zip(terminated, truncated)]
    finally:
        envs.close()
        for env in singles:
            env.close()


def _mean_progress(env_id: str, task_ids: Sequence[str], agent: str) -> float:
    # the random agent plays within each task's own budget
    env = _make(env_id, max_episode_steps=EXPERT_BUDGET) if agent == "expert" else _make(env_id)
    try:
        totals = []
        for index, task_id in enumerate(task_ids):
            rng = np.random.default_rng(stable_seed(env_id, task_id))
            _, info = env.reset(seed=index, options={"task_id": task_id})
            done = False
            while not done:
                if agent == "expert":
                    action = env.unwrapped.expert_action() or HELP_ACTION
                else:
                    options = env.unwrapped.admissible_actions() or [HELP_ACTION]
                    action = options[int(rng.integers(len(options)))]
                _, _, terminated, truncated, info = env.step(action)
                done = terminated or truncated
            totals.append(info["progress_rate"])
        return float(np.mean(totals))
    finally:
        env.close()


def check_random_below_expert(env_id: str, task_ids: Sequence[str]) -> tuple[float, float]:
    """A uniform-random agent over admissible actions makes strictly less mean progress than the expert."""
    expert = _mean_progress(env_id, task_ids, "expert")
    random = _mean_progress(env_id, task_ids, "random")
    assert random < expert, f"random {random:.3f} is not below the expert's {expert:.3f}"
    return random, expert


def check_all(env_id: str, imports: Sequence[str] = ()) -> None:
    """Every check above, on one id (the new-family recipe's "tests you get for free")."""
    check_gymnasium_checker(env_id)
    check_random_episodes(env_id)
    check_expert_solves(env_id)
    check_garbage_is_invalid(env_id, count=400)
    check_non_text_actions(env_id)
    check_help_action(env_id)
    check_reset_options(env_id)
    check_same_trajectory_in_another_process(env_id, imports=imports)
    check_step_limit(env_id)
    check_vector_equals_single(env_id, "sync")
    env = _make(env_id)
    task_ids = env.unwrapped.task_ids[:3]
    env.close()
    check_random_below_expert(env_id, task_ids)
