"""AgentBoard/WebArena-v0 envs sharing one Chromium and one Playwright driver: isolation, same trajectories as a
browser of their own, threads (one driver for any number of them), a crash or a close of one env, fork safety."""

from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("playwright")
from agentgym_text.envs.webarena import browser as browser_module  # noqa: E402
from agentgym_text.envs.webarena import chromium as chromium_module  # noqa: E402

try:
    browser_module.find_chromium()
except ImportError as error:  # MissingDependency
    pytest.skip(str(error), allow_module_level=True)

from agentgym_text.envs.webarena.env import WebArenaEnv  # noqa: E402
from agentgym_text.envs.webarena.tasks import TASKS  # noqa: E402
from tests.support.processes import descendants  # noqa: E402

IDS = TASKS.task_ids
SAMPLE = [IDS[round(i * (len(IDS) - 1) / 3)] for i in range(4)]  # shop, admin, forum/gitlab, wiki


def _processes(wanted) -> list[int]:
    """The live processes below this one whose command line (argv joined by NULs) ``wanted`` accepts."""
    found = []
    for pid in descendants(os.getpid()):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if wanted(cmdline):
            found.append(pid)
    return sorted(found)


def _chromium_pids() -> list[int]:
    """The main processes of the Chromiums under this process (a Chromium's helpers carry ``--type=``)."""
    return _processes(lambda cmdline: b"chrom" in cmdline.split(b"\0")[0] and b"--type=" not in cmdline)


def _driver_pids() -> list[int]:
    """The Playwright drivers (Node processes) under this process."""
    return _processes(lambda cmdline: b"run-driver" in cmdline.split(b"\0"))


def _page(env: WebArenaEnv, script: str):
    """``script`` evaluated in ``env``'s active tab (in the browser thread, as every Playwright call)."""
    return env._session.run(lambda session: session.page.evaluate(script))


def _gone(pid: int, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state == "Z":
            return True
        time.sleep(0.05)
    return False


def _episode(env: WebArenaEnv, task_id: str, random_steps: int = 0, seed: int = 0) -> list:
    """(observation, reward, terminated, truncated, progress, valid) of every step: the expert's, or seeded random
    admissible actions when ``random_steps``."""
    obs, info = env.reset(seed=seed, options={"task_id": task_id})
    record = [(obs, info["progress_rate"])]
    rng = np.random.default_rng(seed)
    for _ in range(random_steps or 30):
        if random_steps:
            actions = env.admissible_actions()
            action = actions[int(rng.integers(len(actions)))]
        else:
            action = env.expert_action()
        obs, reward, terminated, truncated, info = env.step(action)
        record.append((action, obs, reward, terminated, truncated, info["progress_rate"], info["valid"]))
        if terminated or truncated:
            break
    return record


def _fresh_context_each_episode(env: WebArenaEnv) -> None:
    """Make the next reset open a new browser context, as every reset did before contexts were restarted."""
    if env._session is not None:
        env._session.close()
        env._session = None


# ---- isolation -------------------------------------------------------------------------------------------------
@pytest.fixture
def pair():
    first, second = WebArenaEnv(), WebArenaEnv()
    yield first, second
    first.close()
    second.close()


_LEAVE_TRACES = "document.cookie = 'visit=1; path=/'; localStorage.setItem('k', 'v'); sessionStorage.setItem('s', 'v');"
_TRACES = (
    "async () => [document.cookie, localStorage.length, sessionStorage.length, window.name, history.length, "
    "(await indexedDB.databases()).length]"
)


def test_envs_of_a_process_share_one_chromium_each_in_its_own_context(pair):
    first, second = pair
    first.reset(options={"task_id": SAMPLE[0]})
    second.reset(options={"task_id": SAMPLE[0]})
    assert first._browser._thread is second._browser._thread and first._browser._thread.users >= 2
    assert first._browser._browser is second._browser._browser  # one Playwright browser, one link to it
    assert first._session._session.context is not second._session._session.context
    assert len(_chromium_pids()) == 1 and len(_driver_pids()) == 1
    _page(first, _LEAVE_TRACES)
    assert _page(first, "[document.cookie, localStorage.length]") == ["visit=1", 1]
    assert _page(second, "[document.cookie, localStorage.length]") == ["", 0]


def test_the_shared_chromium_keeps_playwrights_switches_and_leaves_out_the_address_bar_ui(pair):
    """Chromium keeps the last ``--disable-features``: ours must hold Playwright's list too."""
    env, _ = pair
    env.reset(options={"task_id": SAMPLE[0]})
    (pid,) = _chromium_pids()
    argv = [arg.decode() for arg in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")]
    lists = [set(arg.split("=", 1)[1].split(",")) for arg in argv if arg.startswith("--disable-features=")]
    assert len(lists) == 2 and lists[0] and lists[0] | set(chromium_module._UNUSED_UI) == lists[-1]

    async def target_kinds(session) -> list[str]:
        cdp = await session.context.browser.new_browser_cdp_session()
        kinds = [target["type"] for target in (await cdp.send("Target.getTargets"))["targetInfos"]]
        await cdp.detach()
        return kinds

    kinds = env._session.run(target_kinds)
    assert "browser_ui" not in kinds and "page" in kinds


def test_a_restarted_context_keeps_nothing_of_the_last_episode(pair):
    """Cookies, local and session storage, IndexedDB, the tab's name and its history, on every origin visited."""
    env, _ = pair
    env.reset(options={"task_id": SAMPLE[0]})
    call = env._browser._thread.call  # the page's calls, in the browser thread
    session = env._session._session
    context, page = session.context, session.page
    sites = list(env._site_urls.values())
    for site in sites[:2]:  # two origins: the second's session storage is cleared through the fence's blank page
        call(page.goto, site + "/")
        call(page.evaluate, _LEAVE_TRACES + "window.name = 'left';")
        call(page.evaluate, "new Promise(done => { indexedDB.open('db', 1).onsuccess = () => done(); })")
        assert call(page.evaluate, _TRACES) == ["visit=1", 1, 1, "left", call(page.evaluate, "history.length"), 1]
    env.step("new_tab")
    assert call(page.evaluate, "history.length") >= 2
    obs, _ = env.reset(options={"task_id": SAMPLE[0]})
    assert env._session._session is session and session.context is context and session.page is page  # restarted
    assert "Tab 1" not in obs and env._session.tab_count() == 1 and session.blocked == []
    assert call(page.evaluate, _TRACES) == ["", 0, 0, "", 1, 0]
    for site in sites[:2]:
        call(page.goto, site + "/")
        traces = call(page.evaluate, _TRACES)
        assert traces[:4] == ["", 0, 0, ""] and traces[5] == 0, site


def test_the_fence_holds_after_a_restart(pair):
    env, _ = pair
    env.reset(options={"task_id": SAMPLE[0]})
    obs, *_ = env.step("goto [http://example.com/]")
    assert "Invalid goto" in obs
    _page(env, "location.href = 'http://example.com/'")
    env._session.settle()
    assert env._session.url().startswith(env._site_urls["shopping"])
    assert "http://example.com/" in env._session.run(lambda session: session.blocked)


# ---- same trajectories ----------------------------------------------------------------------------------------
def test_shared_browser_envs_play_as_envs_with_a_browser_of_their_own(pair):
    """Two envs on the shared Chromium, interleaved and restarting their contexts, against one env with its own
    Chromium and a new context each episode: the same observations, rewards and progress, step for step."""
    first, second = pair
    alone = WebArenaEnv(share_browser=False)
    try:
        plays = [(task_id, 0, 0) for task_id in SAMPLE] + [(SAMPLE[1], 8, 1), (SAMPLE[3], 8, 2)]
        for index, (task_id, random_steps, seed) in enumerate(plays):
            shared = (first, second)[index % 2]
            _fresh_context_each_episode(alone)
            expected = _episode(alone, task_id, random_steps, seed)
            assert _episode(shared, task_id, random_steps, seed) == expected, (task_id, random_steps)
        assert not alone._browser.shared and alone._browser._browser is not first._browser._browser
    finally:
        alone.close()


def test_envs_in_threads_share_one_chromium_and_play_as_alone():
    """The eval runner's shape: each env made and used by a thread of its own; all on one Chromium."""
    alone = WebArenaEnv()
    expected = {task_id: _episode(alone, task_id) for task_id in SAMPLE[:3]}
    alone.close()
    results, errors, owners = {}, [], []
    barrier = threading.Barrier(3)

    def play(index: int) -> None:
        env = WebArenaEnv()
        try:
            barrier.wait()
            for task_id in SAMPLE[index:] + SAMPLE[:index]:
                if task_id in expected:
                    results[(index, task_id)] = _episode(env, task_id)
            owners.append((env._browser._thread, _chromium_pids()))
            barrier.wait()  # nobody closes before everyone has looked
        except Exception as error:  # reported below
            errors.append(repr(error))
            barrier.abort()
        finally:
            env.close()

    threads = [threading.Thread(target=play, args=(index,)) for index in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors, errors
    assert len(results) == 9 and all(record == expected[task_id] for (_, task_id), record in results.items())
    assert len({id(owner) for owner, _ in owners}) == 1 and all(len(pids) == 1 for _, pids in owners)
    assert len({pids[0] for _, pids in owners}) == 1
    assert not chromium_module._THREADS and not _chromium_pids() and not _driver_pids()  # the last close ended them


# ---- one driver for any number of threads ----------------------------------------------------------------------
def _all_gone(pids: list[int]) -> bool:
    return all(_gone(pid) for pid in pids)


@pytest.mark.parametrize("count", [8, pytest.param(64, marks=[pytest.mark.slow, pytest.mark.timeout(1800)])])
def test_envs_in_many_threads_share_one_driver_and_play_as_each_env_alone(count):
    """The eval runner's slots: ``count`` envs, each made, played and closed by a thread of its own, all at once,
    cost one Playwright driver and one Chromium, and every episode is the one the same task gives an env played
    alone (a Chromium of its own, a new context, nothing else running); the last close leaves no driver or
    Chromium behind."""
    tasks = [IDS[round(i * (len(IDS) - 1) / (count - 1))] for i in range(count)]
    alone = WebArenaEnv(share_browser=False)
    try:
        expected = {}
        for task_id in tasks:
            _fresh_context_each_episode(alone)
            expected[task_id] = _episode(alone, task_id)
    finally:
        alone.close()
    assert not _driver_pids()
    results, errors = {}, []
    barrier = threading.Barrier(count + 1)  # the slots and this thread, which counts the processes

    def play(task_id: str) -> None:
        env = WebArenaEnv()
        try:
            barrier.wait()
            results[task_id] = _episode(env, task_id)
            barrier.wait()  # everyone has played; all envs are open
            barrier.wait()  # counted
        except Exception as error:  # reported below
            errors.append(repr(error))
            barrier.abort()
        finally:
            env.close()

    threads = [threading.Thread(target=play, args=(task_id,)) for task_id in tasks]
    for thread in threads:
        thread.start()
    try:
        barrier.wait()
        barrier.wait()
        drivers, chromiums = _driver_pids(), _chromium_pids()
        barrier.wait()
    except threading.BrokenBarrierError:
        drivers = chromiums = []
    for thread in threads:
        thread.join(timeout=600)
    assert not errors, errors
    assert len(drivers) == 1 and len(chromiums) == 1, (drivers, chromiums)
    assert results == expected
    assert not chromium_module._THREADS and _all_gone(drivers + chromiums) and not _chromium_pids()


def test_an_error_in_the_browser_thread_is_raised_in_the_calling_thread(pair):
    """The browser thread hands an exception back to the env's thread, as the call would have raised it there,
    and serves the next call."""
    from playwright.sync_api import Error as PlaywrightError

    env, _ = pair
    env.reset(options={"task_id": SAMPLE[0]})
    with pytest.raises(ZeroDivisionError):
        env._session.run(lambda session: 1 / 0)
    with pytest.raises(PlaywrightError, match="thrown here"):
        _page(env, "(() => { throw new Error('thrown here'); })()")
    assert _page(env, "1 + 1") == 2


# ---- a crash, a close ---------------------------------------------------------------------------------------
def test_a_crashed_chromium_ends_episodes_with_an_engine_error_and_the_next_reset_relaunches():
    first, second = WebArenaEnv(), WebArenaEnv()
    try:
        first.reset(options={"task_id": SAMPLE[0]})
        second.reset(options={"task_id": SAMPLE[0]})
        (pid,) = _chromium_pids()
        launches = first._browser.generation
        os.kill(pid, signal.SIGKILL)
        assert _gone(pid)
        obs, reward, terminated, truncated, info = first.step(first.expert_action())
        assert terminated and info["finish_reason"] == "engine_error" and not info["success"], obs
        assert "browser exited" in obs
        record = _episode(second, SAMPLE[0])  # the other env: a new Chromium at its next reset
        assert record[-1][3] and record[-1][5] == 1.0
        assert second._browser.generation == launches + 1 and len(_chromium_pids()) == 1
        record = _episode(first, SAMPLE[1])
        assert record[-1][3] and record[-1][5] == 1.0 and first._browser.generation == launches + 1
    finally:
        first.close()
        second.close()


@pytest.mark.parametrize("closer", ["same thread", "other thread"])
def test_closing_one_env_leaves_the_others_episode_intact(closer):
    """Closing an env mid-way through another's episode, from the same thread or from another: the episode plays on
    as it would have and the Chromium lives until the last close."""
    expected_env = WebArenaEnv(share_browser=False)
    expected = _episode(expected_env, SAMPLE[2])
    expected_env.close()
    second, others = WebArenaEnv(), []
    worker = ThreadPoolExecutor(max_workers=1)  # one thread: an env is used by the thread that made it
    try:
        obs, _ = second.reset(options={"task_id": SAMPLE[2]})
        (pid,) = _chromium_pids()

        def open_one() -> None:
            env = WebArenaEnv()
            env.reset(options={"task_id": SAMPLE[0]})
            assert _chromium_pids() == [pid]
            others.append(env)

        def close_it() -> None:
            others[0].close()

        run = (lambda work: work()) if closer == "same thread" else (lambda work: worker.submit(work).result())
        run(open_one)
        record = [(obs, 0.0)]
        for step in range(30):
            if step == 1:
                run(close_it)
            action = second.expert_action()
            obs, reward, terminated, truncated, info = second.step(action)
            record.append((action, obs, reward, terminated, truncated, info["progress_rate"], info["valid"]))
            if terminated or truncated:
                break
        assert len(record) > 2 and record[1:] == expected[1:] and record[-1][5] == 1.0  # closed mid-episode
        assert _chromium_pids() == [pid]
    finally:
        second.close()
        worker.shutdown()
    assert _gone(pid) and not chromium_module._THREADS


def test_vector_env_workers_launch_their_own_chromium_beside_the_parents():
    """Forked workers of an async vector env must not use or close the Chromium of the process they came from."""
    parent = WebArenaEnv()
    try:
        parent.reset(options={"task_id": SAMPLE[0]})
        (pid,) = _chromium_pids()
        envs = gym.vector.AsyncVectorEnv([lambda: WebArenaEnv()] * 2, context="fork")
        try:
            envs.set_attr("next_task_id", [SAMPLE[0], SAMPLE[3]])
            obs, _ = envs.reset(seed=0)
            assert all(o.startswith("WINDOWED PAGE:") for o in obs)
        finally:
            envs.close()
        assert _chromium_pids() == [pid]
        record = _episode(parent, SAMPLE[3])
        assert record[-1][3] and record[-1][5] == 1.0
    finally:
        parent.close()
