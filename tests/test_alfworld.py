"""AgentBoard/AlfWorld-v0: task set, expert, random agent, bad input, aliases, prompt example, training sets."""

import json
import re
from collections import Counter

import gymnasium as gym
import numpy as np
import pytest

import agentgym_text  # noqa: F401  (registers the ids)

pytest.importorskip("alfworld")

from agentgym_text.envs.alfworld.engine import World  # noqa: E402
from agentgym_text.envs.alfworld.env import AlfWorldEnv  # noqa: E402
from agentgym_text.envs.alfworld.generator import generate_world  # noqa: E402
from agentgym_text.envs.alfworld.tasks import (  # noqa: E402
    DEFAULT_COUNTS,
    TASK_COUNT,
    load_world,
    task_id_for,
    task_specs,
)

ENV_ID = "AgentBoard/AlfWorld-v0"
ALL_TASK_IDS = [task_id_for(*triple) for triple in task_specs()]
# the first task of each type, plus a second pick-two and look-at (the longest expert paths)
SAMPLE = sorted(
    {next(t for t in ALL_TASK_IDS if t.startswith(f"alfworld-{kind}-")) for kind in DEFAULT_COUNTS}
    | {ALL_TASK_IDS[-1], ALL_TASK_IDS[-20]}
)


@pytest.fixture(scope="module")
def env():
    environment = AlfWorldEnv()
    yield environment
    environment.close()


def _run_expert(env, task_id):
    obs, info = env.reset(options={"task_id": task_id})
    assert info["progress_rate"] == 0.0 and not any(info["subgoals_done"])
    total = 0.0
    while not env.episode_over:
        obs, reward, terminated, truncated, info = env.step(env.expert_action())
        assert info["valid"], obs
        total += reward
    return info, total


@pytest.mark.parametrize("task_id", SAMPLE)
def test_expert_solves_a_sample_of_tasks(env, task_id):
    info, total = _run_expert(env, task_id)
    assert info["success"] and info["progress_rate"] == 1.0 and all(info["subgoals_done"])
    assert total == pytest.approx(1.0) and info["step"] <= info["max_steps"]


def test_task_set_has_alfworld_unseen_proportions_on_test_floor_plans(env):
    import alfworld.gen.constants as constants

    assert len(env.task_ids) == TASK_COUNT == 134 and env.task_ids == ALL_TASK_IDS
    counts = Counter(task_id.split("-")[1] for task_id in env.task_ids)
    assert counts == Counter(DEFAULT_COUNTS)
    for task in env.tasks:
        assert re.fullmatch(r"alfworld-(pick|clean|heat|cool|look|picktwo)-FloorPlan\d+-\d+", task.task_id)
        assert task.params["floorplan"] in constants.TEST_SCENE_NUMBERS
        assert task.difficulty == ("easy" if task.params["task_type"] == "pick" else "hard")
        assert task.goal.endswith(".")


def test_no_goal_holds_at_the_start_and_worlds_are_deterministic(env):
    for task in env.tasks:
        world = load_world(env._games, task.task_id)
        assert not World(world).won(), task.task_id
    assert generate_world(2, "cool", 3) == generate_world(2, "cool", 3)
    assert generate_world(2, "cool", 3) != generate_world(2, "cool", 4)


def test_random_agent_progresses_less_than_expert(env):
    rng = np.random.default_rng(0)
    random_progress = []
    for task_id in SAMPLE:
        env.reset(options={"task_id": task_id})
        while not env.episode_over and env._step < 30:
            actions = env.admissible_actions()
            *_, info = env.step(actions[int(rng.integers(len(actions)))])
        random_progress.append(info["progress_rate"])
    assert np.mean(random_progress) < 1.0
    assert np.mean(random_progress) < np.mean([_run_expert(env, t)[0]["progress_rate"] for t in SAMPLE])


@pytest.mark.parametrize(
    "action, reason",
    [
        ("take apple 99 from nowhere", "unknown_object"),
        ("Please could you tell me what to do next? I think I should look around the room first.", "unknown_action"),
        ("go to " + "x" * 8000, "bad_argument"),
        ("open fridge 7", "unknown_object"),
        ("take", "bad_argument"),
        ("open fridge 1", "precondition_failed"),
    ],
)
def test_bad_actions_are_nothing_happens_not_exceptions(env, action, reason):
    env.reset(options={"task_index": 0})
    obs, reward, terminated, truncated, info = env.step(action)
    assert obs == "Nothing happens." and not info["valid"] and info["invalid_reason"] == reason
    assert reward == 0.0 and not terminated


def test_oversized_action_is_a_format_error(env):
    env.reset(options={"task_index": 0})
    obs, _, _, _, info = env.step("go to " + "x" * 9000)
    assert not info["valid"] and info["invalid_reason"] == "too_long"


def test_older_alfworld_spellings_are_read_as_the_same_commands(env):
    task_id = next(t for t in ALL_TASK_IDS if t.startswith("alfworld-pick-"))
    env.reset(options={"task_id": task_id})
    expert = []
    while not env.episode_over:
        expert.append(env.expert_action())
        env.step(expert[-1])
    env.reset(options={"task_id": task_id})
    for command in expert:
        spelled = re.sub(r"^move (.+) to (.+)$", r"put \1 in/on \2", command).upper() + "."
        *_, info = env.step(spelled)
        assert info["valid"], spelled
    assert info["success"]


def test_help_lists_the_admissible_commands(env):
    env.reset(options={"task_index": 3})
    obs, *_, info = env.step("check valid actions")
    assert obs == "Choose an action from these valid actions: " + ", ".join(env.admissible_actions())
    assert info["valid"] and "look" in env.admissible_actions() and "inventory" in env.admissible_actions()


def test_subgoals_follow_the_task_structure(env):
    env.reset(options={"task_id": next(t for t in ALL_TASK_IDS if t.startswith("alfworld-heat-"))})
    world = env.world
    kind, recep = world.goal_object.lower(), world.goal_receptacle.lower()
    _, info = env.reset(options={"task_id": next(t for t in ALL_TASK_IDS if t.startswith("alfworld-heat-"))})
    assert info["subgoals"] == [
        f"find the {kind}",
        f"pick up the {kind}",
        f"heat the {kind}",
        f"put the {kind} in/on the {recep}",
    ]
    seen = []
    while not env.episode_over:
        *_, info = env.step(env.expert_action())
        seen.append(sum(info["subgoals_done"]))
    assert seen == sorted(seen) and seen[-1] == 4


def test_training_sets_stay_off_the_test_floor_plans():
    import alfworld.gen.constants as constants

    env = gym.make(ENV_ID, task_type="cool", num_tasks=5)
    tasks = env.unwrapped.tasks
    assert len(tasks) == 5 and all(t.params["floorplan"] in constants.TRAIN_SCENE_NUMBERS for t in tasks)
    assert all(t.task_id.startswith("alfworld-cool-") for t in tasks)
    obs, info = env.reset(seed=1)
    assert obs.startswith("You are in the middle of a room.") and info["goal"]
    env.close()
    with pytest.raises(ValueError):
        AlfWorldEnv(task_type="juggle")


def test_games_are_in_the_cache_with_a_manifest(env):
    folder = env._games
    manifest = json.loads((folder / "MANIFEST.json").read_text())
    task_id = env.task_ids[0]
    for name in ("world.json", "problem.pddl", "traj_data.json"):
        assert f"games/{task_id}/{name}" in manifest["files"]
    problem = (folder / "games" / task_id / "problem.pddl").read_text()
    assert "(:domain alfred)" in problem and "(define (domain" not in problem  # the domain is not copied
