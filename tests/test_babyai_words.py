"""AgentBoard/BabyAI-v0 speaks AgentBoard's words: replay of AgentBoard's own trajectories, and each listed FIX.

``tests/reference/babyai_agentboard.json`` was written by ``tests/reference/record_babyai.py``, which runs
AgentBoard's unmodified BabyAI env (minigrid 2.3, gymnasium 0.29, gym 0.24 in a separate venv) on the 112 shipped
instances with seeded random actions.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("minigrid")

from minigrid.core.world_object import Ball, Door, Lava, Wall  # noqa: E402
from minigrid.envs import EmptyEnv  # noqa: E402

from agentgym_text.envs.babyai.agentboard_text.view import agentboard_view  # noqa: E402
from agentgym_text.envs.babyai.env import BabyAIEnv  # noqa: E402

REFERENCE = Path(__file__).resolve().parent / "reference" / "babyai_agentboard.json"
EPISODES = json.loads(REFERENCE.read_text())["episodes"]


def norm(text: str) -> str:
    return " ".join(text.split())


def replay(env: BabyAIEnv, episode: dict) -> list[tuple[str, str, list[str], list[str], dict]]:
    """(our observation, theirs, our action list, theirs, our info) per compared state, until our episode ends."""
    obs, info = env.reset(options={"task_id": episode["task_id"]})
    # the action table itself (info["admissible_actions"] is empty once the episode is over)
    rows = [(obs.split("\n")[0], episode["observation"], env._admissible_actions(), episode["actions"], info)]
    for step in episode["steps"]:
        if env.episode_over:
            break
        obs, _, _, _, info = env.step(step["action"])
        rows.append((obs, step["observation"], env._admissible_actions(), step["actions"], info))
    return rows


def test_reference_covers_every_shipped_instance():
    assert [episode["task_id"] for episode in EPISODES] == BabyAIEnv().task_ids
    assert sum(len(episode["steps"]) for episode in EPISODES) > 900


def test_all_112_worlds_are_agentboards_object_for_object():
    env = BabyAIEnv()
    for episode in EPISODES:
        env.reset(options={"task_id": episode["task_id"]})
        level = env.world.env
        cells = [
            [x, y, *(int(v) for v in level.grid.get(x, y).encode())]
            for y in range(level.grid.height)
            for x in range(level.grid.width)
            if level.grid.get(x, y) is not None and level.grid.get(x, y).type != "wall"
        ]
        world = {
            "size": [level.grid.width, level.grid.height],
            "agent": [*map(int, level.agent_pos), int(level.agent_dir)],
            "mission": level.mission,
            "cells": cells,
        }
        assert world == episode["world"], episode["task_id"]


def test_without_fixes_every_observation_and_action_set_is_agentboards():
    env = BabyAIEnv(agentboard_fixes=False)
    compared = 0
    for episode in EPISODES:
        rows = replay(env, episode)
        assert rows[0][4]["goal"] == episode["goal"], episode["task_id"]
        for index, (ours, theirs, our_actions, their_actions, info) in enumerate(rows):
            assert norm(ours) == norm(theirs), (episode["task_id"], index)
            assert our_actions == their_actions, (episode["task_id"], index)
            if index and theirs != "No change in state.":  # AgentBoard leaves a stale flag after that one
                assert info["valid"] == episode["steps"][index - 1]["valid"], (episode["task_id"], index)
            compared += 1
    assert compared == sum(len(episode["steps"]) + 1 for episode in EPISODES)


def test_with_fixes_at_least_95_percent_identical_and_every_difference_is_a_fix():
    fixed, raw = BabyAIEnv(), BabyAIEnv(agentboard_fixes=False)
    counts = {"obs": 0, "actions": 0, "total": 0}
    explained = []
    for episode in EPISODES:
        raw_rows = replay(raw, episode)
        for index, (ours, theirs, our_actions, their_actions, _) in enumerate(replay(fixed, episode)):
            counts["total"] += 1
            same_obs, same_actions = norm(ours) == norm(theirs), our_actions == their_actions
            counts["obs"] += same_obs
            counts["actions"] += same_actions
            if not (same_obs and same_actions):
                # the same step without the fixes is AgentBoard's exactly, so the fixes made the difference
                raw_ours, _, raw_actions, _, _ = raw_rows[index]
                assert norm(raw_ours) == norm(theirs) and raw_actions == their_actions, (episode["task_id"], index)
                explained.append((episode["task_id"], index, ours, theirs))
    assert counts["obs"] >= 0.95 * counts["total"] and counts["actions"] >= 0.95 * counts["total"], counts
    for _, _, ours, theirs in explained:  # which fix: a mid-action ending, a Debug failure, or the door message
        assert ("completed" in ours) != ("completed" in theirs) or "{" in theirs, (ours, theirs)


def test_observation_and_action_names_in_agentboards_grammar():
    env = BabyAIEnv()
    obs, info = env.reset(options={"task_index": 0})
    assert obs.startswith(
        "In front of you in this room, you can see several objects: The room has walls around "
        "you. You are facing a wall 1 steps away. You are not carrying anything."
    )
    obs, _, _, _, info = env.step("turn left")
    assert "There is a red ball 1 right in front of you 4 steps away." in obs
    assert {"pickup red ball 1", "go to red ball 1", "check available actions"} <= set(info["admissible_actions"])
    obs, _, _, _, info = env.step("check valid actions")
    assert obs.startswith("You can take the following actions: turn left, turn right, move forward, pickup")
    obs, _, _, _, info = env.step("fly away")
    assert obs == "The action is not recognized. Please check valid actions." and not info["valid"]


def test_pick_up_is_read_as_pickup_only_with_fixes():
    for fixes, valid in ((True, True), (False, False)):
        env = BabyAIEnv(agentboard_fixes=fixes)
        env.reset(options={"task_index": 0})
        env.step("turn left")
        _, _, _, _, info = env.step("pick up grey key 1")
        assert info["valid"] is valid


def test_clear_format_keeps_the_packages_own_text():
    env = BabyAIEnv(text_format="clear")
    obs, info = env.reset(options={"task_index": 0})
    assert obs.startswith("Your goal: go to the red ball.") and "In front of you" not in obs

    def listed_now() -> list[str]:
        """The first line of the help text: what can be done in this state (the rest is the fixed grammar)."""
        first = env.step("check valid actions")[0].split("\n")[0]
        assert first.startswith("Valid actions now: ") and first.endswith("."), first
        return first.removeprefix("Valid actions now: ").removesuffix(".").split(", ")

    assert listed_now() == info["admissible_actions"] == ["turn left", "turn right"]  # facing a wall: nothing to take
    _, _, _, _, info = env.step("turn left")
    assert {"pick up grey ball 1", "pick up red ball 1"} <= set(info["admissible_actions"])
    assert listed_now() == info["admissible_actions"]
    assert not any("pickup" in action for action in info["admissible_actions"])  # the clear words, not AgentBoard's
    obs, _, _, _, info = env.step("pick up grey ball 1")
    assert info["valid"] and obs.startswith("You picked up the grey ball 1.") and "carrying a grey ball 1" in obs
    with pytest.raises(ValueError):
        BabyAIEnv(text_format="agentbench")


def _empty_room() -> EmptyEnv:
    env = EmptyEnv(size=9)
    env.reset(seed=0)
    return env


def test_fix_numbering_and_lava():
    env = _empty_room()  # agent at (1, 1) facing east; red ball 1 walled in, red ball 2 reachable; lava
    for cell in ((3, 2), (5, 2), (4, 1), (4, 3)):
        env.grid.set(*cell, Wall())
    env.grid.set(4, 2, Ball("red"))
    env.grid.set(3, 4, Ball("red"))
    env.grid.set(1, 3, Lava())
    fixed, raw = agentboard_view(env, True), agentboard_view(env, False)
    assert fixed.description == raw.description
    assert "There is a red ball 1 3 steps in front of you and 1 steps to your right." in fixed.description
    assert "pickup red ball 2" in fixed.actions and "pickup red ball 1" not in fixed.actions
    assert fixed.errors["go to red ball 1"] == "You cannot go to red ball 1, as there is no path leading to it."
    # AgentBoard names the reachable ball "red ball 1" in its actions though the description calls it 2
    assert raw.actions["pickup red ball 1"] == fixed.actions["pickup red ball 2"]
    assert "pickup red lava 1" in raw.actions and "pickup red lava 1" not in fixed.actions


def test_fix_closed_doors_block_paths():
    env = _empty_room()
    env.agent_pos, env.agent_dir = (1, 4), 0
    for y in range(1, 8):
        env.grid.set(3, y, Wall() if y != 4 else Door("blue", is_open=False))
    fixed, raw = agentboard_view(env, True), agentboard_view(env, False)
    assert "go to goal" in raw.actions  # AgentBoard's path runs through the closed door
    assert fixed.errors["go to goal"] == "You cannot go to the goal, as there is no path leading to it."
    assert fixed.actions["toggle and go through blue closed door 1"] == [2, 5, 2]
    assert fixed.errors["go through blue closed door 1"].endswith("as it is closed. You should toggle it first.")


def test_expert_solves_sample_in_agentboard_words():
    env = BabyAIEnv()
    for index in (0, 30, 57, 83, 111):
        env.reset(options={"task_index": index})
        while not env.episode_over:
            _, _, _, _, info = env.step(env.expert_action())
            assert info["valid"]
        assert info["success"] and info["progress_rate"] == 1.0, index
