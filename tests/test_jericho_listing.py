"""Jericho's valid-action listing made faster stays the same listing.

The pool of emulator processes (``filter_pool``) and the background listing (``prefetch``) must give exactly
``_compute_reference``, jericho's filter in the env's own emulator, over recorded states of random play (fixed
seeds): a fast sample here, all 20 games under ``-m slow``. Also: envs listing in threads at once, a worker that
dies, a prefetched state that the game has left, and the settings' bad values.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import textwrap
import time
from collections import OrderedDict
from pathlib import Path

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401
from agentgym_text.envs.jericho import filter_pool
from agentgym_text.envs.jericho import valid_actions as listing
from agentgym_text.envs.jericho.tasks import make_tasks

GAME_DIR = os.environ.get("AGENTGYM_TEXT_JERICHO_DIR")
needs_games = pytest.mark.skipif(not GAME_DIR or not Path(GAME_DIR).is_dir(), reason="no Jericho game files")
ENV_ID = "AgentBoard/Jericho-v0"
GAMES = [task.params["game"] for task in make_tasks()]
FAST_GAMES = ("zork1", "detective", "reverb", "jewel")
"""An Infocom game and three Inform games of few candidates: the sample that runs by default."""
STATES = 4
"""Recorded states a game: its task's start, then a random listed action at a time (seed 0)."""
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def pool():
    made = filter_pool.FilterPool(2)
    yield made
    made.close()


def _states(game: str, seed: int = 0):
    """The env at each recorded state of ``game``, with the reference listing there."""
    env = gym.make(ENV_ID).unwrapped
    env.reset(seed=seed, options={"task_id": f"jericho-{game}"})
    rng = random.Random(seed)
    for _ in range(STATES):
        reference = listing._compute_reference(env._game.frotz, env._game.dictionary())
        yield env, reference
        if not reference:
            break
        *_, terminated, truncated, _ = env.step(rng.choice(reference))
        if terminated or truncated:
            break
    env.close()


def _check_game(game: str, pool: filter_pool.FilterPool) -> int:
    checked = 0
    for env, reference in _states(game):
        game_state = env._game
        assert listing._compute(game_state.frotz, game_state.dictionary(), pool) == reference, game
        checked += 1
    assert checked >= 1
    return checked


@needs_games
@pytest.mark.parametrize("game", FAST_GAMES)
def test_the_pool_lists_what_jerichos_filter_lists_here(game, pool):
    _check_game(game, pool)


@needs_games
@pytest.mark.slow
@pytest.mark.parametrize("game", [g for g in GAMES if g not in FAST_GAMES])
def test_the_pool_lists_what_jerichos_filter_lists_in_every_game(game, pool):
    _check_game(game, pool)


@needs_games
def test_a_prefetched_listing_is_the_reference_and_is_served_without_listing_again(monkeypatch, pool):
    monkeypatch.setattr(listing, "_CACHE", OrderedDict())
    monkeypatch.setattr(listing, "shared_pool", lambda: pool)
    computed = []
    compute = listing._compute

    def counted(*args, **kwargs):
        computed.append(args)
        return compute(*args, **kwargs)

    monkeypatch.setattr(listing, "_compute", counted)
    for env, reference in _states("detective"):
        assert listing.prefetch(env._game)
        assert not listing.prefetch(env._game)  # already under way (or done): not started twice
        assert listing.valid_actions(env._game) == reference
    assert computed == []  # every listing came from the background


@needs_games
def test_a_queued_listing_of_a_state_the_game_has_left_is_dropped(monkeypatch, pool):
    monkeypatch.setattr(listing, "_CACHE", OrderedDict())
    monkeypatch.setattr(listing, "shared_pool", lambda: pool)
    env = gym.make(ENV_ID).unwrapped
    env.reset(seed=0, options={"task_id": "jericho-detective"})
    game = env._game
    first_key = game.listing_key()
    listing._WANTED[game] = ("another", "state")  # as prefetch records it when the game has moved on
    job = listing._listing_in_background(game, first_key, str(game.path), game.frotz.get_state(), [], pool)
    assert job is None and first_key not in listing._CACHE
    env.close()


@needs_games
def test_a_dead_worker_costs_the_listing_nothing(pool):
    env = gym.make(ENV_ID).unwrapped
    env.reset(seed=0, options={"task_id": "jericho-zork1"})
    game = env._game
    reference = listing._compute_reference(game.frotz, game.dictionary())
    assert listing._compute(game.frotz, game.dictionary(), pool) == reference  # the workers are up
    for process in list(pool._executor._processes.values()):
        process.kill()
        process.join()
    assert listing._compute(game.frotz, game.dictionary(), pool) == reference  # listed here, pool closed
    assert pool._executor is None
    assert listing._compute(game.frotz, game.dictionary(), pool) == reference  # a fresh pool
    env.close()


@needs_games
def test_envs_listing_in_threads_at_once_list_as_alone():
    """jericho's C filter keeps libc's one strtok position: unguarded, two threads in it crashed the process, so
    this runs in a child process."""
    script = textwrap.dedent(
        """
        import threading, gymnasium as gym, agentgym_text
        from agentgym_text.envs.jericho.valid_actions import valid_actions

        def run(game, out):
            env = gym.make("AgentBoard/Jericho-v0").unwrapped
            env.reset(seed=0, options={"task_id": "jericho-" + game})
            out[game] = [valid_actions(env._game, use_cache=False) for _ in range(6)]
            env.close()

        games = ["detective", "reverb", "zork1"]
        alone, together = {}, {}
        for game in games:
            run(game, alone)
        threads = [threading.Thread(target=run, args=(game, together)) for game in games]
        [t.start() for t in threads]
        [t.join() for t in threads]
        assert together == alone and all(alone[g][0] for g in games), (together, alone)
        print("same")
        """
    )
    environ = {**os.environ, "PYTHONPATH": str(REPO)}
    environ.pop(filter_pool.WORKERS_VARIABLE, None)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=environ, timeout=600)
    assert result.returncode == 0 and result.stdout.strip() == "same", result.stderr[-2000:]


def test_workers_leave_with_a_killed_parent(tmp_path):
    script = textwrap.dedent(
        """
        import os, sys
        from agentgym_text.envs.jericho.filter_pool import FilterPool

        pool = FilterPool(2)
        print(" ".join(str(p) for p in pool._pool().submit(os.getpid).result() and pool._executor._processes))
        sys.stdout.flush()
        os.kill(os.getpid(), 9)
        """
    )
    environ = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=environ, timeout=120)
    workers = [int(p) for p in result.stdout.split()]
    assert result.returncode == -9 and workers, result.stderr[-2000:]
    deadline = time.monotonic() + 10 * filter_pool.PARENT_CHECK_SECONDS
    while time.monotonic() < deadline and any(_running(p) for p in workers):
        time.sleep(0.1)
    assert not any(_running(p) for p in workers)


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (an exited one nobody has reaped yet is a zombie: not running)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


@pytest.mark.parametrize("value", ["two", "-1", "1.5"])
def test_a_bad_worker_count_is_a_clear_error(monkeypatch, value):
    monkeypatch.setenv(filter_pool.WORKERS_VARIABLE, value)
    with pytest.raises(ValueError, match=filter_pool.WORKERS_VARIABLE):
        filter_pool.shared_pool()


def test_no_pool_unless_asked_for(monkeypatch):
    monkeypatch.delenv(filter_pool.WORKERS_VARIABLE, raising=False)
    assert filter_pool.shared_pool() is None
    monkeypatch.setenv(filter_pool.WORKERS_VARIABLE, "0")
    assert filter_pool.shared_pool() is None


def test_a_bad_prefetch_value_is_a_clear_error(monkeypatch):
    monkeypatch.setenv(listing.PREFETCH_VARIABLE, "sometimes")
    with pytest.raises(ValueError, match=listing.PREFETCH_VARIABLE):
        listing.prefetch_setting()
    monkeypatch.setenv(listing.PREFETCH_VARIABLE, "1")
    assert listing.prefetch_setting()
