"""AgentBoard/PDDL-v0: shipped tasks, expert, text round trips, hand-checked domain rules, input errors."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import agentgym_text  # noqa: F401  (registers the ids)
from agentgym_text.envs.pddl.domain_texts import DOMAIN_TEXTS, VARIANT_TEXTS
from agentgym_text.envs.pddl.generator import GENERATORS
from agentgym_text.envs.pddl.problem_files import DOMAIN_DIR, PROBLEM_DIR, load
from agentgym_text.envs.pddl.tasks import SHIPPED_SIZES, shipped_tasks

ENV_ID = "AgentBoard/PDDL-v0"
SHIPPED = shipped_tasks()
AGENTBOARD_GOAL_SIZES = {"blocksworld": (2, 6), "gripper": (4, 12), "barman": (1, 3), "tyreworld": (2, 12)}


def _make(**kwargs) -> gym.Env:
    """The env in this package's own text (these tests read it; tests/test_pddl_words.py has AgentBoard's)."""
    return gym.make(ENV_ID, **{"text_format": "clear", **kwargs})


def _step(env: gym.Env, action: str) -> tuple[str, dict]:
    obs, _, _, _, info = env.step(action)
    return obs, info


# ---- the shipped task set ---------------------------------------------------------------------------
def test_shipped_task_set_matches_agentboard_counts_and_goal_sizes():
    counts = Counter(task.params["domain"] for task in SHIPPED)
    assert counts == {"blocksworld": 10, "gripper": 20, "barman": 20, "tyreworld": 10}
    for task in SHIPPED:
        low, high = AGENTBOARD_GOAL_SIZES[task.params["domain"]]
        goal_count = task.params["goal_literals"]
        assert low <= goal_count <= high, task.task_id
        assert task.difficulty == ("hard" if goal_count > 6 else "easy")
        assert task.max_steps == 30  # AgentBoard's budget, whatever the plan length
        assert (PROBLEM_DIR / task.params["problem"]).is_file()
    assert {task.difficulty for task in SHIPPED} == {"easy", "hard"}


def test_shipped_problem_files_are_what_the_seeded_generator_writes():
    for domain_index, (domain, sizes) in enumerate(SHIPPED_SIZES.items()):
        for index, (size, goal_literals) in enumerate(sizes, start=1):
            rng = np.random.default_rng([2026, domain_index, index])
            text = GENERATORS[domain](f"{domain}-p{index:02d}", size, goal_literals, rng)
            assert (PROBLEM_DIR / domain / f"p{index:02d}.pddl").read_text(encoding="utf-8") == text


def test_no_shipped_problem_starts_solved():
    for task in SHIPPED:
        loaded = load(task.params["domain"], PROBLEM_DIR / task.params["problem"])
        assert not loaded.ground.is_goal(loaded.ground.init), task.task_id


def test_random_valid_action_agent_makes_less_progress_than_the_expert():
    env = _make()
    rng = np.random.default_rng(0)
    finals, successes = [], 0
    for task in SHIPPED:
        obs, info = env.reset(seed=1, options={"task_id": task.task_id})
        done = False
        while not done:
            actions = env.unwrapped.admissible_actions()
            obs, reward, terminated, truncated, info = env.step(actions[int(rng.integers(len(actions)))])
            done = terminated or truncated
        finals.append(info["progress_rate"])
        successes += info["success"]
    assert np.mean(finals) < 0.9
    assert successes < len(SHIPPED) // 2


# ---- text: round trips and observations -------------------------------------------------------------
def _random_states(domain: str, problems: int = 3, walk: int = 25, seed: int = 0):
    rng = np.random.default_rng(seed)
    tasks = [task for task in SHIPPED if task.params["domain"] == domain][-problems:]
    for task in tasks:
        loaded = load(domain, PROBLEM_DIR / task.params["problem"])
        state = loaded.ground.init
        for _ in range(walk):
            yield loaded, state
            applicable = loaded.ground.applicable(state)
            state = applicable[int(rng.integers(len(applicable)))].apply(state)


@pytest.mark.parametrize("domain", sorted(DOMAIN_TEXTS))
def test_every_applicable_action_text_parses_back_to_the_same_ground_action(domain):
    checked = 0
    for loaded, state in _random_states(domain):
        for action in loaded.ground.applicable(state):
            for text in (
                loaded.renderer.action(action.key),
                loaded.renderer.operator_style(action.key),
                loaded.renderer.action(action.key).capitalize() + ".",
            ):
                parsed = loaded.parser.parse(text)
                assert getattr(parsed, "key", None) == action.key, (text, parsed)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("domain", sorted(DOMAIN_TEXTS))
def test_state_text_lists_exactly_the_true_literals(domain):
    for loaded, state in _random_states(domain):
        sentences = loaded.renderer.split_facts(loaded.renderer.facts_text(state))
        assert len(sentences) == len(state)
        assert {loaded.renderer.parse_fact(sentence) for sentence in sentences} == set(state)


@pytest.mark.parametrize("domain", sorted(VARIANT_TEXTS))
def test_templates_are_distinct_within_each_domain(domain):
    text = VARIANT_TEXTS[domain]
    assert len(set(text.facts.values())) == len(text.facts)
    assert len(set(text.actions.values())) == len(text.actions)


def test_look_around_shows_the_full_state_and_actions_show_added_and_removed_facts():
    env = _make()
    env.reset(options={"task_id": "pddl-blocksworld-p03"})
    loaded = env.unwrapped.problem
    obs, info = _step(env, "look around")
    assert info["valid"]
    assert set(map(loaded.renderer.parse_fact, loaded.renderer.split_facts(obs.split(": ", 1)[1]))) == set(
        env.unwrapped.state_atoms
    )
    before = env.unwrapped.state_atoms
    obs, info = _step(env, env.unwrapped.expert_action())
    after = env.unwrapped.state_atoms
    now_true, _, no_longer = obs.partition("No longer true: ")
    for atom in after - before:
        assert loaded.renderer.fact(atom) + "." in now_true
    for atom in before - after:
        assert loaded.renderer.fact(atom) + "." in no_longer
    assert before - after and after - before


def test_help_lists_the_applicable_actions_in_sorted_order():
    env = _make()
    obs, info = env.reset(options={"task_id": "pddl-gripper-p01"})
    listed = info["admissible_actions"]
    assert listed == sorted(listed) and listed
    obs, info = _step(env, "check valid actions")
    assert info["valid"] and all(action in obs for action in listed)


# ---- hand-checked domain rules ---------------------------------------------------------------------
def _expect(env, action, valid=True, reason=None, contains=()):
    obs, info = _step(env, action)
    assert info["valid"] is valid, (action, obs)
    if reason is not None:
        assert info["invalid_reason"] == reason, (action, obs)
    for text in contains:
        assert text in obs, (action, obs)
    return obs


def test_barman_shaker_must_be_clean_before_it_is_filled_again():
    env = _make(domain="barman")
    env.reset(options={"task_id": "pddl-barman-p01"})  # goal: shot1 contains cocktail2 (ingredient3 + ingredient1)
    _expect(env, "grasp shot1 with hand left")
    _expect(env, "fill shot1 with ingredient3 from dispenser3 using hands left and right")
    _expect(env, "pour ingredient3 from shot1 into clean shaker1 with hand left from level l0 to level l1")
    # the shot is dirty now: filling needs a clean shot, refilling the same ingredient does not
    _expect(
        env,
        "fill shot1 with ingredient1 from dispenser1 using hands left and right",
        False,
        "precondition_failed",
        ["shot1 is clean."],
    )
    _expect(env, "clean shot1 of ingredient3 using hands left and right")
    _expect(env, "fill shot1 with ingredient1 from dispenser1 using hands left and right")
    # the shaker is used now: only the used-shaker pour applies
    _expect(
        env,
        "pour ingredient1 from shot1 into clean shaker1 with hand left from level l1 to level l2",
        False,
        "precondition_failed",
        ["shaker1 is empty.", "shaker1 is clean."],
    )
    _expect(env, "pour ingredient1 from shot1 into used shaker1 with hand left from level l1 to level l2")
    _expect(env, "leave shot1 from hand left")
    _expect(env, "grasp shaker1 with hand left")
    _expect(env, "shake cocktail2 from ingredient3 and ingredient1 in shaker1 using hands left and right")
    _expect(env, "empty cocktail2 from shaker1 with hand left from level l2 to level l0")
    _expect(env, "leave shaker1 from hand left")
    _expect(env, "grasp shot1 with hand left")
    _expect(env, "refill shot1 with ingredient1 from dispenser1 using hands left and right")
    _expect(
        env,
        "pour ingredient1 from shot1 into clean shaker1 with hand left from level l0 to level l1",
        False,
        "precondition_failed",
        ["shaker1 is clean."],
    )
    _expect(env, "leave shot1 from hand left")
    _expect(env, "grasp shaker1 with hand right")
    _expect(env, "clean shaker1 using hands right and left", contains=["shaker1 is clean."])
    _expect(env, "leave shaker1 from hand right")
    _expect(env, "grasp shot1 with hand left")
    _expect(env, "pour ingredient1 from shot1 into clean shaker1 with hand left from level l0 to level l1")


def test_barman_dead_end_ends_the_episode_as_a_failure():
    env = _make()
    env.reset(options={"task_id": "pddl-barman-p01"})  # cocktail2 needs ingredient3 and ingredient1
    _expect(env, "grasp shot1 with hand left")
    _expect(env, "fill shot1 with ingredient1 from dispenser1 using hands left and right")
    obs, _, terminated, _, info = env.step(
        "pour ingredient1 from shot1 into clean shaker1 with hand left from level l0 to level l1"
    )
    assert not terminated and env.unwrapped.problem.ground.goal_relaxed_reachable(env.unwrapped.state_atoms)
    _expect(env, "refill shot1 with ingredient1 from dispenser1 using hands left and right")
    # a full shaker holding one ingredient twice can never be shaken, emptied or cleaned
    obs, _, terminated, truncated, info = env.step(
        "pour ingredient1 from shot1 into used shaker1 with hand left from level l1 to level l2"
    )
    assert terminated and not truncated and "dead end" in obs
    assert info["finish_reason"] == "failure" and not info["success"]
    assert env.unwrapped.expert_action() is None


def test_barman_shaker_with_an_ingredient_no_remaining_recipe_uses_is_a_dead_end():
    env = _make()
    env.reset(options={"task_id": "pddl-barman-p01"})  # both recipes: ingredient1 + ingredient3
    _expect(env, "grasp shot1 with hand left")
    _expect(env, "fill shot1 with ingredient2 from dispenser2 using hands left and right")
    obs, _, terminated, _, info = env.step(
        "pour ingredient2 from shot1 into clean shaker1 with hand left from level l0 to level l1"
    )
    # one level is left, a recipe needs two more ingredients: the shaker can never be shaken or emptied;
    # ignoring delete effects the goal still looks reachable, so the Barman rule is what proves it
    assert env.unwrapped.problem.ground.goal_relaxed_reachable(env.unwrapped.state_atoms)
    assert terminated and info["finish_reason"] == "failure" and "dead end" in obs


def test_tyreworld_nut_must_be_loosened_before_the_hub_is_jacked_up():
    env = _make(domain="tyreworld")
    env.reset(options={"task_id": "pddl-tyreworld-p01"})
    _expect(env, "fetch wrench from boot", False, "precondition_failed", ["boot is open."])
    _expect(env, "open boot")
    _expect(env, "fetch wrench from boot")
    _expect(env, "fetch jack from boot")
    _expect(env, "jack up the-hub1", contains=["the-hub1 is not on the ground."])
    _expect(env, "loosen nuts1 on the-hub1", False, "precondition_failed", ["the-hub1 is on the ground."])
    _expect(env, "undo nuts1 from the-hub1", False, "precondition_failed", ["nuts1 on the-hub1 is loose."])
    _expect(env, "jack down the-hub1")
    _expect(env, "loosen nuts1 on the-hub1", contains=["nuts1 on the-hub1 is loose."])
    _expect(env, "jack up the-hub1")
    _expect(env, "undo nuts1 from the-hub1", contains=["the-hub1 is unfastened.", "You have nuts1."])
    _expect(env, "remove w1 from the-hub1")
    assert env.unwrapped.expert_action() is not None


# ---- reading actions -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "task_id, action",
    [
        ("pddl-blocksworld-p03", "pickup {b}"),
        ("pddl-blocksworld-p03", "Pick up {b}."),
        ("pddl-blocksworld-p03", "pick-up {b}"),
        ("pddl-blocksworld-p03", "(pick-up {b})"),
        ("pddl-blocksworld-p03", "Action: pick up the {b}"),
    ],
)
def test_natural_and_operator_forms_are_accepted(task_id, action):
    env = _make()
    env.reset(options={"task_id": task_id})
    loaded = env.unwrapped.problem
    pick = next(a for a in loaded.ground.applicable(env.unwrapped.state_atoms) if a.operator == "pick-up")
    obs, info = _step(env, action.format(b=pick.args[0]))
    assert info["valid"], obs


def test_agentboard_style_gripper_and_stack_forms_are_accepted():
    env = _make()
    env.reset(options={"task_id": "pddl-gripper-p01"})
    robby = next(a[1] for a in env.unwrapped.state_atoms if a[0] == "at-robby")
    ball = next(a[1] for a in sorted(env.unwrapped.state_atoms) if a[0] == "at" and a[2] == robby)
    _expect(env, f"Pick up {ball} at {robby} with arm left.")
    other = "roomb" if robby == "rooma" else "rooma"
    _expect(env, f"Move from {robby} to {other}.")
    _expect(env, f"drop {ball} {other} left")


def test_invalid_actions_say_what_was_wrong():
    env = _make()
    env.reset(options={"task_id": "pddl-barman-p01"})
    _expect(env, "dance wildly", False, "unparsable", ["Could not read an action"])
    _expect(env, "juggle shot1", False, "unknown_action", ["not an action"])
    _expect(env, "grasp shot9 with hand left", False, "unknown_object", ["shot9"])
    _expect(env, "grasp left with hand shot1", False, "bad_argument", ["needs a hand"])
    _expect(env, "grasp shot1", False, "unparsable", ["grasp <container> with hand <hand>"])
    _expect(env, "leave shot1 from hand left", False, "precondition_failed", ["Hand left is holding shot1."])
    env.reset(options={"task_id": "pddl-gripper-p01"})
    _expect(env, "move from ball1 to roomb", False, "precondition_failed", ["ball1 is a room."])


# ---- the expert -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "task_id", ["pddl-blocksworld-p09", "pddl-gripper-p05", "pddl-barman-p09", "pddl-tyreworld-p07"]
)
def test_expert_replans_after_someone_elses_actions(task_id):
    env = _make()
    rng = np.random.default_rng(3)
    obs, info = env.reset(options={"task_id": task_id})
    for _ in range(8):
        actions = env.unwrapped.admissible_actions()
        obs, reward, terminated, truncated, info = env.step(actions[int(rng.integers(len(actions)))])
        if terminated:
            break
    while not (terminated or truncated):
        obs, reward, terminated, truncated, info = env.step(env.unwrapped.expert_action())
        assert info["valid"]
    assert info["success"] and info["progress_rate"] == 1.0


_PLAN_SCRIPT = """
import sys, gymnasium as gym, agentgym_text
env = gym.make("AgentBoard/PDDL-v0")
env.reset(options={"task_id": sys.argv[1]})
actions = []
while not env.unwrapped.episode_over:
    actions.append(env.unwrapped.expert_action()); env.step(actions[-1])
print("|".join(actions))
"""


def test_expert_plan_is_the_same_in_processes_with_different_hash_seeds():
    outputs = {
        subprocess.run(
            [sys.executable, "-c", _PLAN_SCRIPT, "pddl-barman-p11"],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
        )
        .stdout.strip()
        .splitlines()[-1]
        for seed in ("1", "999")
    }
    assert len(outputs) == 1


# ---- user problem files (IPC style) -------------------------------------------------------------------
IPC_TYREWORLD = """(define (problem tireworld-1)
(:domain tyreworld)
(:objects wrench jack pump - tool
          the-hub1 - hub
          nuts1 - nut
          boot - container
          r1 w1 - wheel)
(:init (in jack boot) (in pump boot) (in wrench boot) (unlocked boot) (closed boot) (intact r1) (in r1 boot)
       (not-inflated r1) (on w1 the-hub1) (on-ground the-hub1) (tight nuts1 the-hub1) (fastened the-hub1))
(:goal (and (on r1 the-hub1) (inflated r1) (tight nuts1 the-hub1) (in w1 boot) (in wrench boot) (in jack boot)
            (in pump boot) (closed boot))))
"""

IPC_BLOCKS = """(define (problem BLOCKS-4-0)
(:domain BLOCKS)
(:objects D B A C )
(:INIT (CLEAR C) (CLEAR A) (CLEAR B) (CLEAR D) (ONTABLE C) (ONTABLE A)
 (ONTABLE B) (ONTABLE D) (HANDEMPTY))
(:goal (AND (ON D C) (ON C B) (ON B A)))
)
"""


@pytest.mark.parametrize("domain, text", [("tyreworld", IPC_TYREWORLD), ("blocksworld", IPC_BLOCKS)])
def test_user_supplied_ipc_problem_file_runs_and_the_expert_solves_it(tmp_path: Path, domain, text):
    path = tmp_path / "problem.pddl"
    path.write_text(text)
    env = gym.make(ENV_ID, domain=domain, problem_file=str(path), max_episode_steps=60)
    obs, info = env.reset(seed=0)
    assert info["task_id"] == f"pddl-{domain}-problem" and env.unwrapped.task_ids == [info["task_id"]]
    assert info["progress_rate"] == 0.0
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(env.unwrapped.expert_action())
        done = terminated or truncated
    assert info["success"] and info["progress_rate"] == 1.0


def test_problem_file_without_a_domain_or_of_an_unsupported_domain_is_refused(tmp_path: Path):
    path = tmp_path / "p.pddl"
    path.write_text(IPC_BLOCKS)
    with pytest.raises(ValueError, match="domain"):
        gym.make(ENV_ID, problem_file=str(path))
    with pytest.raises(ValueError, match="unsupported PDDL domain"):
        gym.make(ENV_ID, domain="tireworld", problem_file=str(path))


def test_a_problem_of_another_domain_or_a_broken_file_is_a_clear_error(tmp_path: Path):
    from agentgym_text.envs.pddl.pddl_reader import PDDLError

    path = tmp_path / "p.pddl"
    path.write_text(IPC_BLOCKS)
    with pytest.raises(PDDLError, match="cannot parse problem"):
        gym.make(ENV_ID, domain="barman", problem_file=str(path))
    path.write_text("(define (problem x) (:domain blocks) (:objects a) (:init (on a")
    with pytest.raises(PDDLError):
        gym.make(ENV_ID, domain="blocksworld", problem_file=str(path))
    with pytest.raises(FileNotFoundError):
        gym.make(ENV_ID, domain="blocksworld", problem_file=str(tmp_path / "missing.pddl"))


def _play_to_the_end(env) -> tuple[dict, int]:
    obs, info = env.reset(seed=0)
    steps, done = 0, False
    while not done:
        obs, reward, terminated, truncated, info = env.step(env.unwrapped.expert_action())
        steps += 1
        done = terminated or truncated
    return info, steps


def test_a_users_problem_file_gets_agentboards_budget_unless_max_steps_is_given(tmp_path: Path):
    path = tmp_path / "tyres.pddl"
    path.write_text(IPC_TYREWORLD)
    env = gym.make(ENV_ID, domain="tyreworld", problem_file=str(path))
    assert env.unwrapped.tasks[0].max_steps == 30  # known before reset
    _, info = env.reset(seed=0)
    assert info["max_steps"] == 30
    env = gym.make(ENV_ID, domain="tyreworld", problem_file=str(path), max_episode_steps=60)
    info, _ = _play_to_the_end(env)
    assert info["success"] and info["max_steps"] == 60


AGENTBOARD_BLOCKS = """(define (problem BW-rand-4)
(:domain blocksworld-4ops)
(:objects b1 b2 b3 b4)
(:init (arm-empty) (on-table b1) (on-table b2) (on b3 b1) (on b4 b3) (clear b2) (clear b4))
(:goal (and (on b1 b2) (on b2 b4) (on-table b3))))
"""

AGENTBOARD_TYRES = IPC_TYREWORLD.replace("(closed boot)", "(isopen boot)", 1).replace(
    "(tight nuts1 the-hub1) (fastened", "(loose nuts1 the-hub1) (fastened", 1
)


@pytest.mark.parametrize(
    "domain, text, variant",
    [("blockworld", AGENTBOARD_BLOCKS, "blocksworld-4ops"), ("tyreworld", AGENTBOARD_TYRES, "tyreworld-isopen")],
)
def test_agentboards_domain_spellings_are_recognised(tmp_path: Path, domain, text, variant):
    path = tmp_path / "p.pddl"
    path.write_text(text)
    env = gym.make(ENV_ID, domain=domain, problem_file=str(path))
    obs, info = env.reset(seed=0)
    assert env.unwrapped.problem.variant == variant
    assert "is open" in obs if variant.endswith("isopen") else "b3 is on the table" in obs
    info, _ = _play_to_the_end(env)
    assert info["success"] and info["progress_rate"] == 1.0
    pinned = gym.make(ENV_ID, domain=variant, problem_file=str(path))
    assert pinned.unwrapped.task_ids == env.unwrapped.task_ids


def test_a_users_domain_file_is_read_with_the_domains_sentences_where_names_match(tmp_path: Path):
    own = (DOMAIN_DIR / "blocksworld-4ops.pddl").read_text().replace("(:action pickup", "(:action lift")
    (tmp_path / "domain.pddl").write_text(own)
    (tmp_path / "p.pddl").write_text(AGENTBOARD_BLOCKS)
    env = gym.make(
        ENV_ID, domain="blocksworld", problem_file=str(tmp_path / "p.pddl"), domain_file=str(tmp_path / "domain.pddl")
    )
    obs, info = env.reset(seed=0)
    assert env.unwrapped.problem.variant == "custom" and "b3 is on the table" in obs
    assert "lift b2" in info["admissible_actions"]  # an operator the domain's sentences do not know
    _, info = _step(env, "lift b2")
    assert info["valid"]
    info, _ = _play_to_the_end(env)
    assert info["success"]
    with pytest.raises(ValueError, match="problem_file"):
        gym.make(ENV_ID, domain_file=str(tmp_path / "domain.pddl"))


def test_progress_counts_goal_facts_true_at_the_start_from_the_first_action(tmp_path: Path):
    path = tmp_path / "p.pddl"
    text = AGENTBOARD_BLOCKS.replace("(on b4 b3)", "(on b4 b2)")
    text = text.replace("(clear b2) (clear b4)", "(clear b3) (clear b4)")
    text = text.replace("(on-table b3))", "(on-table b1))")  # b1 is on the table at the start
    path.write_text(text)
    env = gym.make(ENV_ID, domain="blocksworld", problem_file=str(path))
    _, info = env.reset(seed=0)
    assert info["progress_rate"] == 0.0 and info["progress_now"] == pytest.approx(1 / 3)
    _, info = _step(env, "look around")
    assert info["valid"] and info["progress_rate"] == 0.0  # looking changes nothing, credits nothing
    _, reward, _, _, info = env.step("unstack b4 from b2")
    assert info["valid"] and reward == pytest.approx(1 / 3) and info["progress_rate"] == pytest.approx(1 / 3)


def test_first_observation_states_goal_action_format_and_budget_once():
    env = _make()
    for task in SHIPPED[::7]:
        obs, info = env.reset(options={"task_id": task.task_id})
        assert obs.count(info["goal"]) == 1
        assert obs.count("Actions: ") == 1 and obs.count("check valid actions") == 1
        assert obs.count(f"You have {task.max_steps} steps.") == 1
        example = re.search(r"e\.g\. '([^']+)'", obs)[1]
        assert example in info["admissible_actions"]
        _, info = _step(env, example)
        assert info["valid"]


# ---- AgentBoard's own problem files (not shipped: point AGENTGYM_TEXT_AGENTBOARD_PDDL at a copy of its
# agentboard/environment/pddl_env/pddlgym/pddl folder, holding gripper/, barman/, tyreworld/, blockworld/) ----
AGENTBOARD_PDDL = os.environ.get("AGENTGYM_TEXT_AGENTBOARD_PDDL")
AGENTBOARD_DOMAINS = {"gripper": 20, "barman": 20, "tyreworld": 10, "blockworld": 10}


@pytest.mark.skipif(not AGENTBOARD_PDDL, reason="AGENTGYM_TEXT_AGENTBOARD_PDDL is not set")
@pytest.mark.parametrize("domain", sorted(AGENTBOARD_DOMAINS))
def test_agentboards_problem_files_load_and_the_expert_solves_them(domain):
    files = sorted((Path(AGENTBOARD_PDDL) / domain).glob("*.pddl"))
    assert len(files) == AGENTBOARD_DOMAINS[domain]
    for path in files:
        start = time.process_time()  # CPU time: wall-clock on a shared test machine measures the neighbours
        env = gym.make(
            ENV_ID, domain=domain, problem_file=str(path), max_episode_steps=400
        )  # the expert's plan may be long
        info, steps = _play_to_the_end(env)
        planning = time.process_time() - start
        assert info["success"] and info["progress_rate"] == 1.0, path
        assert planning < 30, (path, planning)


def test_domain_filter_limits_the_task_set():
    env = gym.make(ENV_ID, domain="Gripper")
    assert len(env.unwrapped.task_ids) == 20 and all("gripper" in t for t in env.unwrapped.task_ids)


def test_importing_the_package_does_not_import_pddlgym_or_gym():
    code = "import sys, agentgym_text, gymnasium as gym; print(sorted(m for m in ('pddlgym', 'gym', 'pyperplan') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.slow
def test_expert_recovers_from_random_detours_on_every_shipped_task():
    env = _make(max_episode_steps=400)  # the detour may cost more than the task's budget allows
    rng = np.random.default_rng(11)
    for task in SHIPPED:
        for detour in (3, 10):
            obs, info = env.reset(options={"task_id": task.task_id})
            terminated = truncated = False
            for _ in range(detour):
                actions = env.unwrapped.admissible_actions()
                obs, reward, terminated, truncated, info = env.step(actions[int(rng.integers(len(actions)))])
                if terminated:
                    break
            if terminated and not info["success"]:
                assert info["finish_reason"] == "failure"  # a proven dead end: nothing to recover
                continue
            while not (terminated or truncated):
                obs, reward, terminated, truncated, info = env.step(env.unwrapped.expert_action())
            assert info["success"] and info["progress_rate"] == 1.0, (task.task_id, detour)
