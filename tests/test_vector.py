"""Vector envs with default arguments return exactly what n single envs return, text included."""

import gymnasium as gym
import numpy as np
import pytest

import agentgym_text  # noqa: F401

SEEDS = [3, 11, 42]
NON_ASCII = ["guess 12é4", "guess ½¾⅓⅔", "put 5 at row 3 column 7 — ok?", "check valid actions", "ΩΩ 中文 🚀"]


def _single_envs(env_id):
    return [gym.make(env_id) for _ in SEEDS]


def _compare_infos(vector_info, single_infos):
    """Every sub-env's info in the vector's columns; a key a sub-env's info lacks (reset-only ones such as
    ``first_observation``) is masked off for it."""
    for index, info in enumerate(single_infos):
        for key, want in info.items():
            got = vector_info[key][index]
            if isinstance(want, float):
                assert got == pytest.approx(want), key
            elif isinstance(want, list):
                assert list(got) == want, key
            else:
                assert got == want, key
        for key in vector_info:
            if not key.startswith("_") and key not in info:
                assert not vector_info[f"_{key}"][index], key


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("env_id", ["AgentQuest/Mastermind-v0", "AgentQuest/Sudoku-v0"])
def test_vector_env_equals_single_envs_step_by_step(env_id, mode):
    envs = gym.make_vec(env_id, num_envs=len(SEEDS), vectorization_mode=mode)
    singles = _single_envs(env_id)
    try:
        obs, info = envs.reset(seed=SEEDS)
        single = [env.reset(seed=seed) for env, seed in zip(singles, SEEDS)]
        assert tuple(obs) == tuple(o for o, _ in single)
        _compare_infos(info, [i for _, i in single])
        rng = np.random.default_rng(0)
        just_ended = [False] * len(SEEDS)
        episodes_ended = 0
        for step in range(40):
            actions = []
            for env in singles:
                if step % 4 == 3:
                    actions.append(NON_ASCII[int(rng.integers(len(NON_ASCII)))])
                elif step % 2:
                    actions.append(env.unwrapped.expert_action() or "check valid actions")
                else:
                    options = env.unwrapped.admissible_actions() or ["check valid actions"]
                    actions.append(options[int(rng.integers(len(options)))])
            obs, rewards, terminated, truncated, info = envs.step(actions)
            results = []
            for index, (env, action) in enumerate(zip(singles, actions)):
                if just_ended[index]:  # next-step autoreset: this step resets the sub-env, the action is ignored
                    o, i = env.reset()
                    results.append((o, 0.0, False, False, i))
                else:
                    results.append(env.step(action))
            assert tuple(obs) == tuple(r[0] for r in results)
            assert list(rewards) == pytest.approx([r[1] for r in results])
            assert list(terminated) == [r[2] for r in results]
            assert list(truncated) == [r[3] for r in results]
            _compare_infos(info, [r[4] for r in results])
            just_ended = [bool(t or u) for t, u in zip(terminated, truncated)]
            episodes_ended += sum(just_ended)
        if env_id.endswith("Mastermind-v0"):
            assert episodes_ended > 0, "the run should cover autoreset"
    finally:
        envs.close()
        for env in singles:
            env.close()


def test_async_text_survives_punctuation_unicode_and_long_observations():
    envs = gym.make_vec("AgentQuest/Mastermind-v0", num_envs=2, vectorization_mode="async")
    try:
        envs.reset(seed=[0, 1])
        obs, *_ = envs.step(["guess 12é4", "check valid actions"])
        assert "'é' is not in the alphabet" in obs[0]
        assert obs[1].startswith("Valid actions: 'guess <code>'")
        huge = "ä" * 9_000
        obs, *_ = envs.step([huge, "guess 0123"])
        assert "limit is" in obs[0] and obs[1].startswith("0123:")
    finally:
        envs.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_setting_an_unknown_next_task_names_it(mode):
    envs = gym.make_vec("AgentQuest/Mastermind-v0", num_envs=2, vectorization_mode=mode)
    try:
        envs.reset(seed=0)
        with pytest.raises(Exception, match="unknown task_id 'nope'"):
            envs.set_attr("next_task_id", ["mastermind-001", "nope"])
        if mode == "async":  # gymnasium's async workers end after raising; the error is what counts here
            return
        envs.set_attr("next_task_id", ["mastermind-001", "mastermind-002"])
        _, info = envs.reset(seed=[1, 2])
        assert list(info["task_id"]) == ["mastermind-001", "mastermind-002"]
    finally:
        envs.close()
