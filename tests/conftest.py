"""Shared fixtures and the per-id settings of the contract suite, read from the families' declarations (which
ids are heavy, how many expert runs the fast suite samples)."""

import os
from pathlib import Path

import gymnasium as gym
import pytest

import agentgym_text
from agentgym_text.core.registry import entry_status
from tests.support.ci_skip_guard import pytest_make_collect_report, pytest_runtest_makereport  # noqa: F401  (hooks)

_JERICHO_GAMES = Path(__file__).resolve().parents[2] / "shared" / "jericho-game-suite"
if _JERICHO_GAMES.is_dir():
    os.environ.setdefault("AGENTGYM_TEXT_JERICHO_DIR", str(_JERICHO_GAMES))

ENTRIES = {entry.env_id: entry for entry in agentgym_text.list_envs()}
ALL_ENV_IDS = sorted(ENTRIES)
USABLE_ENV_IDS = [env_id for env_id in ALL_ENV_IDS if entry_status(ENTRIES[env_id]) == "installed"]

HEAVY_ENV_IDS = {env_id for env_id, entry in ENTRIES.items() if entry.declaration.heavy}
"""Ids whose family declares itself heavy (``Family.heavy``): the fast suite plays their first task only and
shorter random episodes; the vector checks and the rest run under -m slow."""

PINNED_TASK = {"task_index": 0}

FAST_EXPERT_SAMPLE = {
    env_id: entry.declaration.expert_sample
    for env_id, entry in ENTRIES.items()
    if entry.declaration.expert_sample is not None
}
"""How many evenly spread tasks per id the fast suite runs the expert on (``Family.expert_sample``; default:
every task)."""


def env_param(env_id: str):
    """A pytest param for ``env_id``, skipped (with the reason) when its extra or setting is missing."""
    status = entry_status(ENTRIES[env_id])
    if status != "installed":
        return pytest.param(env_id, marks=pytest.mark.skip(reason=f"{env_id}: {status}"), id=env_id)
    return pytest.param(env_id, id=env_id)


def expert_task_params():
    """(env id, task id) for every shipped task; those outside the fast sample are marked slow."""
    params = []
    for env_id in ALL_ENV_IDS:
        if env_id not in USABLE_ENV_IDS:
            reason = entry_status(ENTRIES[env_id])
            params.append(pytest.param(env_id, None, marks=pytest.mark.skip(reason=f"{env_id}: {reason}"), id=env_id))
            continue
        env = gym.make(env_id)
        task_ids = list(env.unwrapped.task_ids)
        env.close()
        sample = FAST_EXPERT_SAMPLE.get(env_id, len(task_ids))
        chosen = {round(i * (len(task_ids) - 1) / max(sample - 1, 1)) for i in range(sample)} if sample else set()
        for index, task_id in enumerate(task_ids):
            marks = () if index in chosen else (pytest.mark.slow,)
            params.append(pytest.param(env_id, task_id, marks=marks, id=f"{env_id}::{task_id}"))
    return params


@pytest.fixture
def make_env():
    """gym.make that closes what it made at the end of the test."""
    made: list[gym.Env] = []

    def factory(env_id: str, **kwargs) -> gym.Env:
        env = gym.make(env_id, **kwargs)
        made.append(env)
        return env

    yield factory
    for env in made:
        env.close()
