"""AgentBoard/BabyAI-v0: expert, description, high-level actions, admissible actions, subgoals, quietness."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
from collections import Counter

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("minigrid")

from minigrid.envs.babyai.core.verifier import PutNextInstr  # noqa: E402

import agentgym_text  # noqa: E402,F401
from agentgym_text.envs.babyai import env as env_module  # noqa: E402
from agentgym_text.envs.babyai.actions import parse_command  # noqa: E402
from agentgym_text.envs.babyai.env import BabyAIEnv  # noqa: E402
from agentgym_text.envs.babyai.events import Event  # noqa: E402
from agentgym_text.envs.babyai.instructions import clauses  # noqa: E402
from agentgym_text.envs.babyai.levels import AGENTBOARD_LEVELS, all_levels, engine_id  # noqa: E402
from agentgym_text.envs.babyai.navigation import FORWARD  # noqa: E402
from agentgym_text.envs.babyai.render import describe_view, event_text  # noqa: E402
from agentgym_text.envs.babyai.tasks import agentboard_tasks  # noqa: E402
from agentgym_text.eval.plan import select_tasks  # noqa: E402
from agentgym_text.testing import assert_info_contract  # noqa: E402

ENV_ID = "AgentBoard/BabyAI-v0"
SWEEP_SEEDS = range(20)
FAST_LEVELS = ("BossLevel", "PutNextLocal", "KeyCorridorS3R3", "UnlockToUnlock", "SynthSeq", "KeyInBox")


def play_expert(env: BabyAIEnv, max_steps: int) -> tuple[dict, int]:
    info: dict = {}
    steps = 0
    while not env.episode_over and steps < max_steps:
        _, _, _, _, info = env.step(env.expert_action())
        steps += 1
        assert info["valid"], f"expert sent an invalid action in {info['task_id']}"
    return info, steps


# ---- expert ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text_format", ["agentboard", "clear"])
def test_expert_solves_every_shipped_task(text_format):
    env = BabyAIEnv(text_format=text_format)
    assert len(env.task_ids) == 112
    for task_id in env.task_ids:
        _, start = env.reset(options={"task_id": task_id})
        info, steps = play_expert(env, env.current_task.max_steps)
        assert info["success"] and info["progress_rate"] == 1.0, (task_id, start["goal"], info["progress_rate"])
        assert steps <= 30, (task_id, steps)


def test_random_valid_agent_makes_less_progress_than_the_expert():
    env = BabyAIEnv()
    rng = np.random.default_rng(0)
    finals = []
    for index in range(len(env.task_ids)):
        _, info = env.reset(seed=index, options={"task_index": index})
        for _ in range(30):
            actions = env.admissible_actions()
            _, _, terminated, _, info = env.step(actions[int(rng.integers(len(actions)))])
            if terminated:
                break
        finals.append(info["progress_rate"])
    assert np.mean(finals) < 0.9  # the expert's mean is 1.0


@pytest.mark.parametrize("level", FAST_LEVELS)
def test_expert_solves_representative_levels(level):
    env = BabyAIEnv(level=level)
    for seed in range(5):
        env.reset(seed=seed)
        info, _ = play_expert(env, 200)
        assert info["success"] and info["progress_rate"] == 1.0, (level, seed, info["goal"])


@pytest.mark.slow
def test_expert_solves_98_percent_of_every_level():
    shortfalls = {}
    for level in all_levels():
        env = BabyAIEnv(level=level)
        solved = 0
        for seed in SWEEP_SEEDS:
            env.reset(seed=seed)
            info, _ = play_expert(env, 200)
            solved += bool(info["success"] and info["progress_rate"] == 1.0)
        if solved < 0.98 * len(SWEEP_SEEDS):
            shortfalls[level] = solved
    assert not shortfalls, f"levels below 98% (solved of {len(SWEEP_SEEDS)}): {shortfalls}"


# ---- the shipped task data: difficulty known before reset ------------------------------------------


def test_shipped_goal_subgoals_and_difficulty_equal_what_reset_reports():
    env = BabyAIEnv()
    for task in env.tasks:
        _, info = env.reset(options={"task_id": task.task_id})
        assert (info["goal"], info["difficulty"], len(info["subgoals"])) == (
            task.goal,
            task.difficulty,
            task.params["subgoals"],
        ), task.task_id


def test_difficulty_is_in_the_task_set_so_the_quick_split_has_hard_tasks():
    tasks = agentboard_tasks()
    counts = Counter(task.difficulty for task in tasks)
    assert counts["hard"] >= 20 and counts["easy"] >= 20 and sum(counts.values()) == 112
    quick = select_tasks(tasks, "quick")
    assert Counter(task.difficulty for task in quick) == {"easy": 2, "hard": 2}


def test_random_agent_falls_short_of_the_expert_on_the_hard_tasks():
    env = BabyAIEnv()
    rng = np.random.default_rng(1)
    hard = [task.task_id for task in env.tasks if task.difficulty == "hard"]
    finals = []
    for task_id in hard:
        _, info = env.reset(seed=0, options={"task_id": task_id})
        while not env.episode_over and info["step"] < env.step_budget:
            actions = env.admissible_actions()
            _, _, _, _, info = env.step(actions[int(rng.integers(len(actions)))])
        finals.append(info["progress_rate"])
    assert np.mean(finals) < 0.75  # the expert's mean is 1.0 (test_expert_solves_every_shipped_task)


# ---- the first observation ---------------------------------------------------------------------------


@pytest.mark.parametrize("text_format", ["agentboard", "clear"])
def test_first_observation_states_goal_action_format_and_budget_once(text_format):
    env = gym.make(ENV_ID, text_format=text_format)
    for index in (0, 30, 111):
        obs, info = env.reset(options={"task_index": index})
        assert obs.count(info["goal"]) == 1
        if text_format == "clear":
            assert obs.startswith(f"Your goal: {info['goal']}.")
        else:  # AgentBoard's description first, then the core's footer with the goal
            assert obs.startswith("In front of you in this room") and f"\nYour goal: {info['goal']}\n" in obs
        assert obs.count("Actions: ") == 1 and obs.count("check valid actions") == 1
        assert obs.count(f"You have {info['max_steps']} steps.") == 1 and info["max_steps"] == 30
        example = re.search(r"e\.g\. '([^']+)'", obs)[1]
        assert example in info["admissible_actions"]
        _, _, _, _, step_info = env.step(example)
        assert step_info["valid"]


# ---- events and their text ---------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["BossLevel", "UnlockPickup", "PutNextLocal"])
def test_each_observation_is_the_rendered_event_and_view(level):
    checked = 0
    for seed in range(3):
        ours, mirror = BabyAIEnv(level=level), BabyAIEnv(level=level)
        ours.reset(seed=seed)
        mirror.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(25):
            actions = ours.admissible_actions()
            action = actions[int(rng.integers(len(actions)))]
            event = mirror.world.execute(parse_command(action))
            assert isinstance(event, Event)
            obs, _, terminated, _, info = ours.step(action)
            lines = obs.splitlines()
            assert lines[0] == event_text(event) and lines[1] == describe_view(mirror.world.view())
            assert (terminated, info["success"]) == (event.terminated, event.success)
            checked += 1
            if terminated:
                break
    assert checked > 30


def test_the_env_reads_no_minigrid_state_itself():
    source = inspect.getsource(env_module)
    assert "world.env" not in source and ".carrying" not in source and "front(" not in source


# ---- descriptions ------------------------------------------------------------------------------------

_ENTRY = re.compile(
    r"(?P<name>[a-z]+ [a-z]+ \d+)(?: \((?:open|closed|locked)\))?: (?:(?P<ahead>\d+) steps? "
    r"(?:straight ahead|ahead(?: and (?P<side1>\d+) steps? to your (?P<dir1>left|right))?)|"
    r"(?P<side2>\d+) steps? to your (?P<dir2>left|right))"
)


def _random_states(level: str, seeds, steps: int):
    """Yield envs in states reached by random valid actions."""
    env = BabyAIEnv(level=level)
    for seed in seeds:
        rng = np.random.default_rng(seed)
        obs, _ = env.reset(seed=seed)
        yield env, obs
        for _ in range(steps):
            actions = env.admissible_actions()
            obs, _, terminated, _, _ = env.step(actions[int(rng.integers(len(actions)))])
            if terminated:
                break
            yield env, obs


def _named_positions(env: BabyAIEnv, observation: str) -> dict[str, tuple[int, int]]:
    world = env.world
    line = next(line for line in observation.splitlines() if line.startswith("You see"))
    agent = np.array(world.env.agent_pos)
    forward_vec = np.array(world.env.dir_vec)
    right_vec = np.array(world.env.right_vec)
    found = {}
    for match in _ENTRY.finditer(line):
        ahead = int(match["ahead"] or 0)
        side = int(match["side1"] or match["side2"] or 0)
        direction = match["dir1"] or match["dir2"]
        right = -side if direction == "left" else side
        found[match["name"]] = tuple(int(v) for v in agent + ahead * forward_vec + right * right_vec)
    return found


@pytest.mark.parametrize("level", ["GoToLocalS8N7", "BossLevel", "KeyCorridorS4R3", "PutNextLocal"])
def test_description_names_every_visible_object_at_its_stated_position(level):
    checked = 0
    for env, obs in _random_states(level, range(6), 25):
        world = env.world
        named = _named_positions(env, obs)
        for name, pos in named.items():
            assert world.env.grid.get(*pos) is world.perception.names.get(name), (name, pos, obs)
        # Independently: every object minigrid says the agent sees must be named.
        agent = tuple(int(v) for v in world.env.agent_pos)
        for obj in world.env.grid.grid:
            pos = None if obj is None or obj.type == "wall" else world.position_of(obj)
            if pos is not None and pos != agent and world.env.agent_sees(*pos):
                assert world.perception.names.known(obj) in named, (obj.type, obj.color, obs)
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("level", ["BossLevel", "KeyCorridorS4R3", "UnlockPickupDist"])
def test_seen_cells_follow_minigrids_own_visibility(level):
    compared = 0
    for env, _ in _random_states(level, range(4), 30):
        minigrid_view = env.world.env.gen_obs()["image"][:, :, 0] != 0
        assert np.array_equal(env.world.perception.visible_mask(), minigrid_view)
        compared += 1
    assert compared > 40


def test_carried_object_and_wall_ahead_are_described():
    env = BabyAIEnv(level="Pickup")
    env.reset(seed=3)
    info, _ = play_expert(env, 50)
    assert info["success"]
    env.reset(seed=3)
    assert "You are not carrying anything." in env.render()


# ---- high-level actions and the valid-action list --------------------------------------------------


def _replay(level: str, seed: int, actions: list[str]) -> BabyAIEnv:
    env = BabyAIEnv(level=level)
    env.reset(seed=seed)
    for action in actions:
        env.step(action)
    return env


def _random_prefixes(level: str, seeds, steps: int):
    for seed in seeds:
        env = BabyAIEnv(level=level)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        prefix: list[str] = []
        for _ in range(steps):
            yield seed, list(prefix)
            actions = env.admissible_actions()
            action = actions[int(rng.integers(len(actions)))]
            _, _, terminated, _, _ = env.step(action)
            prefix.append(action)
            if terminated:
                break


@pytest.mark.parametrize("level", ["GoToObjMazeS4R2", "BlockedUnlockPickup", "BossLevel"])
def test_goto_ends_adjacent_and_facing_the_target(level):
    checked = 0
    for seed, prefix in _random_prefixes(level, range(3), 12):
        env = _replay(level, seed, prefix)
        for action in [a for a in env.admissible_actions() if a.startswith("go to ")]:
            trial = _replay(level, seed, prefix)
            target = trial.world.perception.names.get(action[len("go to ") :])
            position = trial.world.position_of(target)
            _, _, terminated, _, info = trial.step(action)
            assert info["valid"]
            if not terminated:
                assert tuple(int(v) for v in trial.world.env.front_pos) == position, action
                checked += 1
    assert checked > 10


@pytest.mark.parametrize("level", ["GoToObjMazeS4", "KeyCorridorS3R2", "BossLevel"])
def test_go_through_never_crosses_a_closed_door_or_unseen_cell(level):
    checked = 0
    for seed, prefix in _random_prefixes(level, range(3), 15):
        env = _replay(level, seed, prefix)
        for action in [a for a in env.admissible_actions() if "through" in a]:
            trial = _replay(level, seed, prefix)
            world = trial.world
            seen_before = world.perception.seen.copy()
            visited = []
            original = world.step_low_level

            def spy(low_level, world=world, visited=visited, original=original):
                before = tuple(int(v) for v in world.env.agent_pos)
                ahead = world.front()
                original(low_level)
                after = tuple(int(v) for v in world.env.agent_pos)
                if low_level == FORWARD:
                    assert ahead is None or ahead.type != "door" or ahead.is_open, "walked into a closed door"
                    assert after != before, "a planned forward move was blocked"
                    visited.append(after)

            world.step_low_level = spy
            _, _, _, _, info = trial.step(action)
            assert info["valid"]
            # every cell walked on was seen beforehand, except the one beyond the door (seen from the doorway)
            assert all(seen_before[cell] for cell in visited[:-1]), action
            checked += 1
    assert checked > 3


@pytest.mark.parametrize("level", ["UnlockLocal", "BossLevel", "PutNextLocal", "KeyInBox"])
def test_admissible_actions_are_exactly_the_actions_that_succeed(level):
    checked = 0
    for seed, prefix in _random_prefixes(level, range(2), 10):
        env = _replay(level, seed, prefix)
        listed = set(env.admissible_actions())
        candidates = sorted({command.text() for command in env.world.candidate_commands()})
        candidates += ["go to purple ball 9", "pick up green door 1", "toggle and go through red ball 1"]
        for action in candidates:
            trial = _replay(level, seed, prefix)
            _, _, _, _, info = trial.step(action)
            assert info["valid"] == (action in listed), (action, info["invalid_reason"])
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("level", ["UnlockLocal", "KeyInBox", "BossLevel", "PutNextLocal"])
def test_admissible_list_kept_between_steps_equals_one_listed_afresh(level):
    """The listing keeps its candidates and its path search from step to step; after doors open, things are picked
    up and dropped, and the agent turns and walks, it lists what a world with nothing kept lists."""
    rng = np.random.default_rng(0)
    compared = changed_grid = 0
    for seed in range(6):
        env = BabyAIEnv(level=level)
        env.reset(seed=seed)
        for _ in range(60):
            if env.episode_over:
                break
            world = env.world
            kept = env.admissible_actions()
            world._reach = world._candidates = world._admissible = None
            assert env.admissible_actions() == kept, (level, seed, world.low_level_steps)
            compared += 1
            action = kept[int(rng.integers(len(kept)))]
            changed_grid += action in ("pick up", "drop", "toggle") or action.startswith(("pick up ", "toggle and"))
            env.step(action)
    assert compared > 30 and changed_grid > 0


def test_help_lists_the_admissible_actions():
    env = gym.make(ENV_ID)
    env.reset(seed=0)
    obs, _, _, _, info = env.step("check valid actions")
    assert info["valid"]
    for action in env.unwrapped.admissible_actions():
        assert action in obs
    assert info["admissible_actions"] == env.unwrapped.admissible_actions()


# ---- parsing and refusals --------------------------------------------------------------------------


def test_variants_are_accepted_and_bad_actions_rejected_with_a_reason():
    env = BabyAIEnv(level="GoToRedBallGrey")
    env.reset(seed=1)
    names = env.world.perception.names.names()
    target = names[0]
    for variant in (f"Go To The {target.upper()}.", f"  go   to {target}  ", f"go to {target}"):
        env.reset(seed=1)
        _, _, _, _, info = env.step(variant)
        assert info["valid"], variant
    env.reset(seed=1)
    expectations = {
        "go to purple key 7": "unknown_object",
        "fly to the moon": "unparsable",
        "go to the moon": "unknown_action",
        "drop": "precondition_failed",
        "pickup": None,
        "Pick Up": None,
    }
    for action, reason in expectations.items():
        env.reset(seed=1)
        _, _, _, _, info = env.step(action)
        if reason is None:
            assert info["invalid_reason"] in (None, "precondition_failed")
        else:
            assert info["invalid_reason"] == reason, (action, info["invalid_reason"])


def test_locked_door_without_key_is_refused_with_the_reason():
    env = BabyAIEnv(level="UnlockLocal")
    for seed in range(10):
        env.reset(seed=seed)
        for name in env.world.perception.names.names():
            obj = env.world.perception.names.get(name)
            if obj.type == "door" and obj.is_locked:
                obs, _, _, _, info = env.step(f"toggle and go through {name}")
                assert not info["valid"] and info["invalid_reason"] == "precondition_failed"
                assert "locked" in obs and "key" in obs
                return
    pytest.fail("no locked door in sight in 10 seeds")


# ---- subgoals ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["GoToSeqS5R2", "BossLevel", "UnlockToUnlock", "PutNextS5N2", "SynthSeq"])
def test_subgoals_reach_one_exactly_at_success_and_match_the_instructions(level):
    env = BabyAIEnv(level=level)
    for seed in range(4):
        _, info = env.reset(seed=seed)
        leaves = clauses(env.world.env.instrs)
        subgoals = info["subgoals"]
        assert len(subgoals) >= len(leaves)
        assert info["difficulty"] == ("hard" if len(subgoals) > 3 else "easy")
        putnext = sum(isinstance(leaf.instr, PutNextInstr) for leaf in leaves)
        assert sum(name.startswith("put ") for name in subgoals) == putnext
        assert sum(name.endswith(" to move it") for name in subgoals) == putnext
        navigation = [
            name for name in subgoals
            if name.startswith(("see the ", "enter the room ")) or name.endswith((" on the way", " to move it"))
        ]  # fmt: skip
        assert len(subgoals) - len(navigation) == len(leaves)  # one subgoal per instruction clause
        assert info["progress_rate"] == 0.0 and not any(info["subgoals_done"])
        previous = 0.0
        while not env.episode_over:
            _, reward, terminated, _, info = env.step(env.expert_action())
            assert_info_contract(info)
            assert info["progress_rate"] >= previous
            previous = info["progress_rate"]
            if not terminated:
                assert info["progress_rate"] < 1.0
        assert info["success"] and info["progress_rate"] == 1.0 and all(info["subgoals_done"])


def test_agentboard_task_ids_are_level_major_seed_minor():
    env = BabyAIEnv()
    assert env.task_ids[:5] == [
        "babyai-GoToRedBallGrey-1234", "babyai-GoToRedBallGrey-1235", "babyai-GoToRedBallGrey-1236",
        "babyai-GoToRedBallGrey-1237", "babyai-GoToRedBall-1234",
    ]  # fmt: skip
    assert len({task_id.split("-")[1] for task_id in env.task_ids}) == len(AGENTBOARD_LEVELS) == 28
    assert engine_id("GoToObjS6") == "BabyAI-GoToObjS6-v1"


def test_level_keyword_draws_instances_from_the_seed():
    env = gym.make(ENV_ID, level="BossLevel")
    first, _ = env.reset(seed=5)
    again, _ = env.reset(seed=5)
    other, _ = env.reset(seed=6)
    assert first == again and first != other
    assert env.unwrapped.task_ids == ["babyai-BossLevel-random"]


# ---- quiet and light -------------------------------------------------------------------------------


def test_level_generation_prints_nothing(capfd):
    env = BabyAIEnv(level="GoToSeq")
    for seed in range(30):
        env.reset(seed=seed)
    env = BabyAIEnv()
    for index in range(0, 112, 7):
        env.reset(options={"task_index": index})
    out, _ = capfd.readouterr()
    assert out == ""


def test_importing_the_package_does_not_import_minigrid():
    code = "import sys, agentgym_text; agentgym_text.list_envs(); print('minigrid' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip().splitlines()[-1] == "False"
