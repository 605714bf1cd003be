"""ScienceWorld env against the real simulator. Every env here starts a JVM (~1.5 s), so the module shares one.

The shared env speaks this package's own text (``text_format="clear"``); AgentBoard's text (the default) is tested
in tests/test_scienceworld_words.py."""

import logging
import os
import sys
import time

import gymnasium as gym
import numpy as np
import pytest

import agentgym_text  # noqa: F401  (registers the ids)
from agentgym_text.core.info import FinishReason, InvalidReason
from agentgym_text.envs.scienceworld.engine import (
    JVM_OPTIONS,
    MISSING_PACKAGE_MESSAGE,
    JavaUnavailableError,
    ScienceWorldNotInstalledError,
    find_java,
)
from agentgym_text.envs.scienceworld.tasks import load_instances, task_id_for
from agentgym_text.testing.contract import EXPERT_BUDGET

ENV_ID = "AgentBoard/ScienceWorld-v0"

pytestmark = pytest.mark.skipif(find_java() is None, reason="ScienceWorld needs Java")


def _shortest_per_type(count: int) -> list[str]:
    """Ids of the ``count`` task types with the shortest gold paths (one variation each): a fast subset."""
    best: dict[str, dict] = {}
    for inst in load_instances():
        if inst["task_name"] not in best or len(inst["gold_actions"]) < len(best[inst["task_name"]]["gold_actions"]):
            best[inst["task_name"]] = inst
    chosen = sorted(best.values(), key=lambda inst: (len(inst["gold_actions"]), inst["task_name"]))[:count]
    return [task_id_for(inst["task_name"], inst["variation"]) for inst in chosen]


FAST_SUBSET = _shortest_per_type(6)
ALL_TASK_IDS = [task_id_for(inst["task_name"], inst["variation"]) for inst in load_instances()]


@pytest.fixture(scope="module")
def env():
    # this module tests the package's own text and validity; the expert's paths may be longer than AgentBoard's 30
    made = gym.make(ENV_ID, text_format="clear", max_episode_steps=EXPERT_BUDGET)
    yield made
    made.close()


def _run_expert(env, task_id):
    obs, info = env.reset(options={"task_id": task_id})
    flags_history = [info["subgoals_done"]]
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(env.unwrapped.expert_action())
        # the expert looks at what a gold no-op (an already open door) would refuse, taking the same time step
        assert info["valid"], (task_id, obs)
        flags_history.append(info["subgoals_done"])
        done = terminated or truncated
    return info, flags_history


def _assert_credited_in_order(flags_history):
    for flags in flags_history:
        first_open = flags.index(False) if False in flags else len(flags)
        assert not any(flags[first_open:]), f"subgoal credited out of order: {flags}"
    counts = [sum(flags) for flags in flags_history]
    assert counts == sorted(counts) and counts[-1] == len(flags_history[-1])
    assert counts[0] == 0
    if len(flags_history[-1]) >= 3:
        assert len(set(counts)) >= 3, "subgoals should be credited step by step along the path"


@pytest.mark.parametrize("task_id", FAST_SUBSET)
def test_expert_solves_fast_subset_with_subgoals_credited_in_order(env, task_id):
    info, flags_history = _run_expert(env, task_id)
    assert info["success"] and info["progress_rate"] == 1.0 and info["finish_reason"] == FinishReason.SUCCESS
    _assert_credited_in_order(flags_history)


def test_random_agent_scores_lower_than_expert(env):
    rng = np.random.default_rng(0)
    rates, successes = [], 0
    for task_id in FAST_SUBSET[:4]:
        obs, info = env.reset(options={"task_id": task_id})
        for _ in range(30):
            actions = env.unwrapped.admissible_actions()
            obs, reward, terminated, truncated, info = env.step(actions[int(rng.integers(len(actions)))])
            if terminated or truncated:
                break
        rates.append(info["progress_rate"])
        successes += info["success"]
    assert np.mean(rates) < 0.5 and successes == 0


def _random_trace(env, task_id: str, seed: int, steps: int = 25) -> list[str]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(options={"task_id": task_id})
    trace = [obs]
    for _ in range(steps):
        actions = env.unwrapped.admissible_actions()
        obs, _, terminated, truncated, info = env.step(actions[int(rng.integers(len(actions)))])
        trace += [obs, "\n".join(actions)]
        if terminated or truncated:
            break
    return trace


def test_a_reused_jvm_plays_an_episode_exactly_as_a_fresh_one(env):
    """Bees and animals wander: without pinned identity hashes this differed between JVMs and after reuse."""
    wandering = next(t for t in ALL_TASK_IDS if t.startswith("scienceworld-grow-fruit-"))
    other = next(t for t in ALL_TASK_IDS if t.startswith("scienceworld-find-animal-"))
    _random_trace(env, other, seed=1)
    reused = _random_trace(env, wandering, seed=7)
    fresh_env = gym.make(ENV_ID, text_format="clear", max_episode_steps=EXPERT_BUDGET)  # the same budget line
    try:
        fresh = _random_trace(fresh_env, wandering, seed=7)
    finally:
        fresh_env.close()
    assert reused == fresh


def test_validity_is_judged_on_the_state_before_the_action(env):
    task_id = next(t for t in ALL_TASK_IDS if t.startswith("scienceworld-boil-"))
    obs, info = env.reset(options={"task_id": task_id})
    room = obs.split("This room is called the ", 1)[1].split(".", 1)[0]
    door = next(
        a
        for a in env.unwrapped.admissible_actions()
        if a.startswith("go to ") and "door" not in a and a != f"go to {room}"
    )
    target = door[len("go to ") :]
    obs, _, _, _, info = env.step(door)
    assert info["valid"] and obs == f"You move to the {target}."
    obs, _, _, _, info = env.step(door)  # now we are there: the same command cannot be done again
    assert not info["valid"] and info["invalid_reason"] == InvalidReason.PRECONDITION and "not clear" in obs


def test_invalid_input_is_explained(env):
    env.reset(options={"task_index": 0})
    obs, _, _, _, info = env.step("pick up unicorn")
    assert info["invalid_reason"] == InvalidReason.UNKNOWN_OBJECT
    assert obs.startswith("No known action matches that input.")
    obs, _, _, _, info = env.step("fly to the moon")
    assert info["invalid_reason"] == InvalidReason.UNKNOWN_ACTION and "look around" in obs
    obs, _, _, _, info = env.step("check valid actions")
    assert info["valid"] and obs.startswith("Choose an action from these valid actions: ")
    assert "look around" in env.unwrapped.admissible_actions()


def test_ambiguity_question_can_be_answered_or_left(env):
    inst = next(i for i in load_instances() if i["task_name"] == "grow-plant")
    gold = inst["gold_actions"]
    answer = next(k for k, action in enumerate(gold) if action.isdigit())
    env.reset(options={"task_id": task_id_for(inst["task_name"], inst["variation"])})
    for action in gold[:answer]:
        obs, _, _, _, info = env.step(action)
    assert obs.startswith("Ambiguous request") and info["valid"]
    assert env.unwrapped.admissible_actions()[0] == "0"
    obs, _, _, _, info = env.step("look around")  # leaves the question unanswered: it is cancelled
    assert info["valid"] and obs.startswith("This room is called")
    obs, _, _, _, info = env.step(gold[answer - 1])
    assert obs.startswith("Ambiguous request")
    obs, _, _, _, info = env.step(gold[answer])
    assert info["valid"] and obs.startswith("You move")


def test_a_variation_that_is_not_shipped_is_built_at_reset():
    shipped = {i["variation"] for i in load_instances() if i["task_name"] == "lifespan-longest-lived"}
    variation = next(v for v in range(100) if v not in shipped)
    env = gym.make(ENV_ID, task_name="lifespan-longest-lived", variation=variation)
    try:
        obs, info = env.reset()
        assert info["task_id"] == task_id_for("lifespan-longest-lived", variation)
        assert info["goal"].startswith("Your task is to") and len(info["subgoals"]) >= 2
        assert env.unwrapped.current_task.params["split"] == "train"  # variation 0 is a training variation
        done = False
        while not done:
            obs, reward, terminated, truncated, info = env.step(env.unwrapped.expert_action())
            done = terminated or truncated
        assert info["success"] and info["progress_rate"] == 1.0
    finally:
        env.close()


def test_the_jvm_starts_with_our_java_and_options_as_arguments_and_the_environment_is_untouched(env):
    before = dict(os.environ)
    env.reset(options={"task_index": 0})
    with open(f"/proc/{env.unwrapped.jvm_pid}/cmdline", "rb") as cmdline:
        arguments = [item.decode() for item in cmdline.read().split(b"\0") if item]
    assert os.path.realpath(arguments[0]) == os.path.realpath(find_java())
    assert set(JVM_OPTIONS.split()) <= set(arguments)
    assert dict(os.environ) == before


def test_close_stops_the_jvm():
    env = gym.make(ENV_ID)
    env.reset(options={"task_index": 0})
    pid = env.unwrapped.jvm_pid
    assert pid is not None and os.path.exists(f"/proc/{pid}")
    env.close()
    assert env.unwrapped.jvm_pid is None
    for _ in range(100):
        if not os.path.exists(f"/proc/{pid}") or "Z" in open(f"/proc/{pid}/stat").read().split(")")[1][:3]:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the JVM is still running after close()")


def test_missing_java_is_reported_with_the_install_hint(monkeypatch):
    import agentgym_text.envs.scienceworld.engine as engine_module

    monkeypatch.setattr(engine_module, "find_java", lambda: None)
    env = gym.make(ENV_ID)
    with pytest.raises(JavaUnavailableError, match="apt-get install"):
        env.reset(options={"task_index": 0})
    env.close()


def test_a_forked_child_leaves_the_parents_jvm_alone(env):
    """Async vector workers are forked from a process whose JVM is running: they must never use its socket."""
    from agentgym_text.envs.scienceworld.engine import INHERITED

    env.reset(options={"task_index": 0})
    engine = env.unwrapped._engine
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report what it sees, then leave without running any cleanup
        try:
            client = INHERITED[-1]._gateway._gateway_client if INHERITED else None
            ok = not engine.started and client is not None and not client.is_connected
            os.write(write, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(write)
    answer = os.read(read, 1)
    os.waitpid(pid, 0)
    os.close(read)
    assert answer == b"1"
    obs, *_ = env.step("look around")  # the parent's JVM still answers the parent
    assert obs.startswith("This room is called") and engine.started


def test_two_async_workers_each_run_their_own_jvm():
    ids = FAST_SUBSET[:2]
    envs = gym.make_vec(ENV_ID, num_envs=2, vectorization_mode="async")
    try:
        envs.set_attr("next_task_id", ids)
        obs, infos = envs.reset(seed=0)
        assert list(infos["task_id"]) == ids
        pids = envs.get_attr("jvm_pid")
        assert len(set(pids)) == 2 and all(pid for pid in pids)
        finished = np.zeros(2, dtype=bool)
        for _ in range(200):
            actions = tuple(a or "look around" for a in envs.call("expert_action"))
            obs, rewards, terminated, truncated, infos = envs.step(actions)
            assert all(infos["success"][terminated]), "a worker ended without success"
            finished |= terminated
            if finished.all():
                break
        assert finished.all()
    finally:
        envs.close()


def test_first_observation_states_goal_action_format_and_budget(env):
    obs, info = env.reset(options={"task_index": 0})
    assert obs.count(info["goal"]) == 1
    assert "'go to kitchen'" in obs and "focus on OBJ" in obs and "'check valid actions'" in obs
    assert f"You have {info['max_steps']} steps." in obs
    obs, _, _, _, info = env.step("go to kitchen.")  # wrapping an LLM adds is stripped
    assert info["invalid_reason"] != InvalidReason.UNPARSABLE


def test_rejected_and_refused_commands_earn_nothing_and_keep_progress(env):
    gold_lengths = {task.task_id: len(task.params["gold_actions"]) for task in env.unwrapped.tasks}
    task_id = next(t for t in FAST_SUBSET if gold_lengths[t] > 2)
    env.reset(options={"task_id": task_id})
    for action in env.unwrapped.current_task.params["gold_actions"][:2]:
        *_, info = env.step(action)
    before = info["progress_rate"]
    assert before > 0
    obs, reward, _, _, info = env.step("fly to the moon")  # rejected before the simulator
    assert not info["valid"] and reward == 0.0 and info["progress_rate"] == before
    obs, reward, _, _, info = env.step("pick up unicorn")  # reached the simulator, which refused it
    assert not info["valid"] and info["invalid_reason"] == InvalidReason.UNKNOWN_OBJECT and reward == 0.0
    assert info["progress_rate"] == before and info["step"] == 4


def _takeover(env, task_id: str, seed: int, random_steps: int = 5) -> tuple[str, dict]:
    """Five random admissible actions, then the expert until the end: 'ended' if the random part ended it."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(options={"task_id": task_id})
    for _ in range(random_steps):
        actions = env.unwrapped.admissible_actions()
        obs, _, terminated, truncated, info = env.step(actions[int(rng.integers(len(actions)))])
        if terminated or truncated:
            return "ended", info
    while not (terminated or truncated):
        action = env.unwrapped.expert_action()
        if action is None:
            return "gave_up", info
        obs, _, terminated, truncated, info = env.step(action)
    return ("success" if info["success"] else "failure"), info


# One variation per task type with the shortest gold paths; seeds whose random prefix does not end the episode.
_TAKEOVER_SAMPLE = _shortest_per_type(8)


def test_the_expert_takes_over_after_five_random_actions(env, caplog):
    caplog.set_level(logging.WARNING, logger="agentgym_text.envs.scienceworld.expert")
    outcomes = [_takeover(env, task_id, seed=index)[0] for index, task_id in enumerate(_TAKEOVER_SAMPLE)]
    played = [outcome for outcome in outcomes if outcome != "ended"]
    assert len(played) >= 4, outcomes
    assert played.count("success") >= 0.6 * len(played), outcomes
    assert played.count("gave_up") == sum("expert gives up" in record.message for record in caplog.records)


def test_the_expert_walks_back_reopens_a_door_and_re_aligns(env):
    inst = next(i for i in load_instances() if i["task_name"] == "use-thermometer")
    obs, info = env.reset(options={"task_id": task_id_for(inst["task_name"], inst["variation"])})
    expert = env.unwrapped._expert
    room = expert.room
    door = next(a for a in env.unwrapped.admissible_actions() if a.startswith("close door to "))
    obs, *_ = env.step(door)
    assert obs == "The door is now closed."
    other = next(
        a
        for a in env.unwrapped.admissible_actions()
        if a.startswith("go to ")
        and "door" not in a
        and a != f"go to {room}"
        and a[len("go to ") :] != door[len("close door to ") :]
    )
    env.step(other)
    assert env.unwrapped.expert_action() == f"go to {room}"
    env.step(f"go to {room}")
    assert env.unwrapped.expert_action() == "open " + door[len("close ") :]
    done = False
    while not done:
        obs, _, terminated, truncated, info = env.step(env.unwrapped.expert_action())
        done = terminated or truncated
    assert info["success"] and expert.compromised is None


def test_the_expert_gives_up_with_a_reason_when_the_gold_path_is_spent(env, caplog):
    task_id = FAST_SUBSET[0]
    env.reset(options={"task_id": task_id})
    expert = env.unwrapped._expert
    expert.index = len(expert.gold)  # as if the gold path had been played without success
    with caplog.at_level(logging.WARNING, logger="agentgym_text.envs.scienceworld.expert"):
        assert env.unwrapped.expert_action() is None
    assert "played out" in expert.gave_up and "gives up" in caplog.text


@pytest.mark.parametrize("kwargs", [{"jvm_restart_every": 1}, {"jvm_max_rss_mib": 1}])
def test_a_jvm_restart_between_episodes_leaves_trajectories_unchanged(env, kwargs):
    wandering = next(t for t in ALL_TASK_IDS if t.startswith("scienceworld-grow-fruit-"))
    other = next(t for t in ALL_TASK_IDS if t.startswith("scienceworld-find-animal-"))
    _random_trace(env, other, seed=1)
    reused = _random_trace(env, wandering, seed=7)
    assert env.unwrapped.jvm_restarts == 0
    recycling = gym.make(ENV_ID, text_format="clear", max_episode_steps=EXPERT_BUDGET, **kwargs)
    try:
        _random_trace(recycling, other, seed=1)
        first_pid = recycling.unwrapped.jvm_pid
        restarted = _random_trace(recycling, wandering, seed=7)
        assert recycling.unwrapped.jvm_restarts == 1 and recycling.unwrapped.jvm_pid != first_pid
    finally:
        recycling.close()
    assert restarted == reused


def test_bad_recycling_settings_are_refused():
    with pytest.raises(ValueError, match="jvm_restart_every"):
        gym.make(ENV_ID, jvm_restart_every=0)


def test_a_missing_pip_package_names_the_extra_not_java(monkeypatch):
    monkeypatch.setitem(sys.modules, "scienceworld", None)
    with pytest.raises(ScienceWorldNotInstalledError) as caught:
        gym.make(ENV_ID)
    assert str(caught.value) == MISSING_PACKAGE_MESSAGE
    assert MISSING_PACKAGE_MESSAGE == (
        "AgentBoard/ScienceWorld-v0 needs the 'scienceworld' extra: pip install 'agentgym-text[scienceworld]'"
    )
    assert not isinstance(caught.value, JavaUnavailableError) and "\n" not in str(caught.value)
