"""AgentBoard's ScienceWorld step made inside the JVM (``AgentBoardCalls.java``) against the simulator's own calls.

The in-JVM step shares the work of scienceworld's unread listing and AgentBoard's listing; these tests hold it to
the same observations, the same listings (names included: they depend on the simulator's random draws) and the
same world afterwards, and check the fallback to the Python calls and the py4j connections without Nagle's delay.
"""

from __future__ import annotations

import logging
import random

import gymnasium as gym
import pytest

pytest.importorskip("scienceworld")

import agentgym_text  # noqa: E402,F401  (registers the ids)
from agentgym_text.envs.scienceworld import jvm_calls  # noqa: E402
from agentgym_text.envs.scienceworld.engine import ScienceWorldEngine, find_java  # noqa: E402
from agentgym_text.envs.scienceworld.tasks import load_instances  # noqa: E402

pytestmark = pytest.mark.skipif(find_java() is None, reason="ScienceWorld needs Java")
needs_javac = pytest.mark.skipif(jvm_calls.find_javac() is None, reason="the in-JVM step needs a JDK (javac)")

TASKS = ("chemistry-mix-paint-tertiary-color", "grow-fruit")
"""Paint cups renamed at every listing and an "Ambiguous request" (tertiary colour); bees and plants drawing from
the same random generator as the listings' names (grow-fruit)."""
STEPS = 24


def _play(env, index: int, seed: int) -> list[tuple]:
    """Reset, then gold actions with every third step a listed combination picked at random and every eighth the
    help action; each step's text, validity and the listing after it."""
    rng = random.Random(seed)
    obs, info = env.reset(options={"task_index": index})
    inner = env.unwrapped
    trace = [("reset", obs, tuple(inner._valid_cache))]
    gold = load_instances()[index]["gold_actions"]
    for step in range(STEPS):
        if step % 8 == 7:
            action = "check valid actions"
        elif step % 3 == 2 and inner._combinations:
            action = rng.choice(inner._combinations)["action"]
        else:
            action = gold[step % len(gold)]
        obs, _, terminated, truncated, info = env.step(action)
        listing = tuple(
            (c["action"], c["template_id"], tuple(c["obj_ids"]), tuple(c["type_ids"])) for c in inner._combinations
        )
        trace.append((action, obs, info.get("valid"), listing))
        if terminated or truncated:
            break
    return trace


@needs_javac
def test_the_step_made_in_the_jvm_gives_the_simulators_own_text_listings_and_world(monkeypatch):
    indices = [next(i for i, inst in enumerate(load_instances()) if inst["task_name"] == name) for name in TASKS]
    traces = {}
    for in_jvm in (True, False):
        with monkeypatch.context() as patch:
            if not in_jvm:
                patch.setattr(jvm_calls, "find_javac", lambda: None)
            env = gym.make("AgentBoard/ScienceWorld-v0", max_episode_steps=STEPS + 1)
            try:
                traces[in_jvm] = [_play(env, index, seed=index) for index in indices]
                helper = jvm_calls.helper_for(env.unwrapped._engine._sim)
                assert (helper is not None) is in_jvm
            finally:
                env.close()
    for fast, slow in zip(traces[True], traces[False]):
        assert len(fast) == len(slow) > 10
        for step, (ours, theirs) in enumerate(zip(fast, slow)):
            assert ours == theirs, f"step {step}: {ours[0]!r}"
    asked = [entry for trace in traces[True] for entry in trace if entry[1].startswith("Ambiguous request")]
    assert asked, "the sequence should reach an ambiguous request (the simulator's own calls then)"


def test_py4j_answers_are_sent_without_nagles_delay():
    engine = ScienceWorldEngine()
    try:
        engine.start()
        sim = engine._sim
        server = sim._gateway.java_gateway_server
        field = server.getClass().getDeclaredField("connections")
        field.setAccessible(True)

        def delays() -> list[bool]:
            return [not connection.getSocket().getTcpNoDelay() for connection in list(field.get(server))]

        assert any(delays()), "py4j's own connections use Nagle's algorithm"
        jvm_calls.no_delay(sim)
        assert delays() and not any(delays())
    finally:
        engine.close()


@needs_javac
def test_the_class_is_compiled_once_into_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENTGYM_TEXT_CACHE", str(tmp_path))
    folder = jvm_calls.compiled_classes()
    assert folder is not None and folder.is_relative_to(tmp_path)
    compiled = folder / "agentgymtext" / "scienceworld" / "AgentBoardCalls.class"
    built = compiled.stat().st_mtime_ns
    assert jvm_calls.compiled_classes() == folder
    assert compiled.stat().st_mtime_ns == built


@needs_javac
def test_a_source_that_does_not_compile_leaves_the_python_calls(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("AGENTGYM_TEXT_CACHE", str(tmp_path))
    broken = tmp_path / "AgentBoardCalls.java"
    broken.write_text("package agentgymtext.scienceworld; public final class AgentBoardCalls { oops }\n")
    monkeypatch.setattr(jvm_calls, "JAVA_SOURCES", (broken,))
    with caplog.at_level(logging.WARNING, logger=jvm_calls.__name__):
        assert jvm_calls.compiled_classes() is None
    assert "did not compile" in caplog.text


def test_without_javac_there_is_no_helper(monkeypatch):
    monkeypatch.setattr(jvm_calls, "find_javac", lambda: None)
    assert jvm_calls.compiled_classes() is None


def _collections_agree(task_names: list[str] | None) -> tuple[int, list[str]]:
    """States checked and where the class's collection of objects differs from the simulator's, along gold paths."""
    instances = load_instances()
    indices = [i for i, inst in enumerate(instances) if task_names is None or inst["task_name"] in task_names]
    env = gym.make("AgentBoard/ScienceWorld-v0")
    checked, differ = 0, []
    try:
        for index in indices:
            env.reset(options={"task_index": index})
            inner = env.unwrapped
            calls = jvm_calls.helper_for(inner._engine._sim)._calls
            for step, action in enumerate(instances[index]["gold_actions"]):
                if not inner._session.choice_count:  # a question's listing is the simulator's own
                    checked += 1
                    if not calls.collectsAsTheSimulator(inner._engine._sim.server):
                        differ.append(f"task {index} before step {step}")
                *_, terminated, truncated, _ = env.step(action)
                if terminated or truncated:
                    break
            field = calls.getClass().getDeclaredField("ownCollection")
            field.setAccessible(True)
            assert field.getBoolean(calls), "the first collection differed: the class fell back to the simulator's"
    finally:
        env.close()
    return checked, differ


@needs_javac
def test_objects_are_collected_in_the_order_of_the_simulators_sets():
    """The class's linear-time model of the simulator's sets gives their order (which names the objects and orders
    the listing): a kitchen, a greenhouse with bees, an electrical task, the paint cups."""
    checked, differ = _collections_agree(
        ["boil", "grow-fruit", "power-component", "chemistry-mix-paint-tertiary-color"]
    )
    assert checked > 60 and not differ


@needs_javac
@pytest.mark.slow
def test_objects_are_collected_in_the_order_of_the_simulators_sets_on_every_shipped_task():
    checked, differ = _collections_agree(None)
    assert checked > 1000 and not differ
