"""AgentBoard/PDDL-v0 speaks AgentBoard's words: replay of AgentBoard's own env on its 60 problem files and ours.

``tests/reference/pddl_agentboard.json`` and ``pddl_agentboard_ours.json`` were written by
``tests/reference/record_pddl.py``, which runs AgentBoard's unmodified PDDL env (its bundled pddlgym, gym 0.24, in a
separate venv) on the 60 problems AgentBoard evaluates (each file's text is in the recording; these tests load it
with ``problem_file=``) and on our 60 shipped problems, with seeded random actions; at every state it probed every
listed action in each of its written forms (``record_pddl.variants``), and these tests send the same texts to a
copy of our env at the same state.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from functools import cache, lru_cache
from pathlib import Path

import pytest

from agentgym_text.envs.pddl.agentboard_text import NO_EFFECT, NOT_VALID, word_tokenize
from agentgym_text.envs.pddl.env import PDDLEnv
from tests.support.pddl_recorder import RECORDER

REFERENCE = Path(__file__).resolve().parent / "reference" / "pddl_agentboard.json"
REFERENCE_OURS = REFERENCE.with_name("pddl_agentboard_ours.json")
THEIR_PROBLEMS = json.loads(REFERENCE.read_text())["episodes"]
"""AgentBoard's 60 problem files (each episode holds its text)."""
OUR_PROBLEMS = json.loads(REFERENCE_OURS.read_text())["episodes"]
"""Our 60 shipped problems, played in AgentBoard's env (each episode names its task id)."""
EPISODES = THEIR_PROBLEMS + OUR_PROBLEMS
EXTRA_COMMANDS = {"barman": ["check valid actions", "look around"], "tyreworld": ["check valid actions", "look around"]}


def norm(text: str) -> str:
    return " ".join(text.split())


def words(text: str) -> Counter:
    """The text as a bag of words: the same facts or actions in another order compare equal."""
    return Counter(text.replace(",", " ").split())


@cache
def _problem_dir() -> Path:
    import atexit
    import shutil
    import tempfile

    root = Path(tempfile.mkdtemp(prefix="agentboard-pddl-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    for episode in THEIR_PROBLEMS:
        path = root / episode["game"] / episode["file"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(episode["problem_text"])
    return root


def env_for(episode: dict, fixes: bool = True) -> PDDLEnv:
    """The env playing the episode's problem (reset it with :func:`reset_for`)."""
    if "task_id" in episode:
        return PDDLEnv(agentboard_fixes=fixes)
    path = _problem_dir() / episode["game"] / episode["file"]
    return PDDLEnv(domain=episode["game"], problem_file=path, max_steps=100, agentboard_fixes=fixes)


def reset_for(env: PDDLEnv, episode: dict) -> tuple[str, dict]:
    return env.reset(options={"task_id": episode["task_id"]} if "task_id" in episode else None)


def their_actions(episode: dict, probes: list) -> list[str]:
    """AgentBoard's listing at a state: the actions its recorder probed there, then its help commands."""
    return [listed for listed, _, _ in probes] + EXTRA_COMMANDS.get(episode["game"], ["check valid actions"])


def replay(episode: dict, fixes: bool) -> list[dict]:
    """Per compared state: our observation, theirs, our action set, theirs, our info, the action sent."""
    env = env_for(episode, fixes)
    obs, info = reset_for(env, episode)
    rows = [
        {
            "ours": obs.split("\n")[0],
            "theirs": episode["observation"],
            "action": None,
            "info": info,
            "our_actions": env.unwrapped._admissible_actions(),
            "their_actions": their_actions(episode, episode["probes"]),
            "probes": probe_rows(env, episode["probes"]),
        }
    ]
    for step in episode["steps"]:
        if env.episode_over:
            break
        obs, _, terminated, _, info = env.step(step["action"])
        rows.append(
            {
                "ours": obs,
                "theirs": step["observation"],
                "action": step["action"],
                "info": info,
                "step": step,
                "terminated": terminated,
                "our_actions": env.unwrapped._admissible_actions(),
                "their_actions": their_actions(episode, step["probes"]),
                "probes": [] if env.episode_over else probe_rows(env, step["probes"]),
            }
        )
    return rows


def probe(env: PDDLEnv, text: str) -> list:
    """Our answer to ``text`` in the recorder's outcome code, the env left as it was (the step runs on a copy)."""
    obs, _, _, _, info = copy.copy(env).step(text)
    return RECORDER.outcome_code(obs, info["valid"], info["progress_rate"])


def probe_rows(env: PDDLEnv, recorded: list) -> list[tuple[str, str, list]]:
    """(the form sent, our outcome, AgentBoard's) for every form of every action AgentBoard listed at this state."""
    rows = []
    for listed, operator_form, outcome in recorded:
        forms = RECORDER.variants(listed, operator_form)
        theirs = outcome if isinstance(outcome[0], list) else [outcome] * len(forms)
        rows.extend((text, probe(env, text), their) for text, their in zip(forms, theirs, strict=True))
    return rows


@lru_cache(maxsize=2)
def all_rows(fixes: bool) -> tuple[tuple[dict, list[dict]], ...]:
    return tuple((episode, replay(episode, fixes)) for episode in EPISODES)


def test_reference_covers_agentboards_60_problems_and_ours():
    for episodes in (THEIR_PROBLEMS, OUR_PROBLEMS):
        assert Counter(episode["game"] for episode in episodes) == {
            "gripper": 20,
            "blockworld": 10,
            "barman": 20,
            "tyreworld": 10,
        }
        assert [e["file"] for e in episodes if e["game"] == "blockworld"][:3] == [
            "problem1.pddl",
            "problem10.pddl",
            "problem2.pddl",
        ]
        assert sum(len(episode["steps"]) for episode in episodes) > 1500
    assert [e["task_id"] for e in OUR_PROBLEMS][20:22] == ["pddl-blocksworld-p01", "pddl-blocksworld-p10"]


def test_agentboards_60_problem_files_load_with_agentboards_initial_states_and_goals():
    for episode in THEIR_PROBLEMS:
        env = env_for(episode)
        env.reset()
        init = sorted(list(atom) for atom in env.unwrapped.state_atoms)
        assert init == episode["init"], episode["file"]
        assert sorted(list(atom) for atom in env.unwrapped.problem.ground.goal) == episode["goal_atoms"]
        assert sorted(env.unwrapped.problem.ground.objects) == episode["objects"], episode["file"]


DIFFERENCES: dict[bool, list] = {}


def _compare(fixes: bool) -> Counter:
    """Identical whitespace aside, except answers AgentBoard prints in Python set order ("Valid actions are: ...",
    "look around"), which AgentBoard itself prints differently from run to run: those hold the same items, sorted
    (FIX order). With fixes, an action set may also hold actions naming an object twice (FIX listing). Every probe
    (each listed action in each written form, at every state) is counted; the tests below require all to agree."""
    counts = Counter()
    for episode, rows in all_rows(fixes):
        assert norm(rows[0]["info"]["goal"]) == norm(episode["goal"]), episode["file"]
        assert len(rows) == len(episode["steps"]) + 1, episode["file"]  # our episode ends where theirs does
        for row in rows:
            counts["total"] += 1
            ours, theirs = {norm(a) for a in row["our_actions"]}, {norm(a) for a in row["their_actions"]}
            same_obs, same_actions = norm(row["ours"]) == norm(row["theirs"]), ours == theirs
            counts["identical"] += same_obs
            counts["same actions"] += same_actions
            if not same_actions:  # FIX listing: only added actions, each naming an object twice
                assert fixes and theirs < ours, (episode["file"], row["action"])
                for action in ours - theirs:
                    names = [w.strip(".") for w in action.split() if w.strip(".") in episode["objects"]]
                    assert len(set(names)) < len(names), action
                counts["listing"] += 1
            if not same_obs:
                if words(row["ours"]) == words(row["theirs"]):  # FIX order: the same items, sorted
                    assert "check" in row["action"] or "look around" in row["action"], row["action"]
                    counts["order"] += 1
                else:  # FIX listing, in a help answer
                    assert fixes and row["ours"].startswith("Valid actions are: "), (episode["file"], row["ours"])
                    counts["listing help"] += 1
            for text, our_outcome, their_outcome in row["probes"]:
                counts["probes"] += 1
                if our_outcome == their_outcome:
                    counts["probes agree"] += 1
                else:
                    counts["probe differences"] += 1
                    DIFFERENCES.setdefault(fixes, []).append(
                        (episode["file"], row["action"], text, our_outcome, their_outcome)
                    )
            step = row.get("step")
            if step is not None:
                assert row["info"]["valid"] == step["valid"], (episode["file"], row["action"])
                assert row["info"]["progress_rate"] == pytest.approx(step["progress"]), (episode["file"], row["action"])
                assert row["terminated"] == step["done"] == step["won"] == row["info"]["success"]
    print(
        f"fixes={fixes}: identical {counts['identical']}/{counts['total']}, set order aside "
        f"{counts['identical'] + counts['order']}/{counts['total']}, action sets {counts['same actions']}"
        f"/{counts['total']}, probes {counts['probes agree']}/{counts['probes']}"
    )
    return counts


def test_without_fixes_the_replay_is_agentboards_set_order_aside():
    counts = _compare(fixes=False)
    assert counts["identical"] + counts["order"] == counts["total"] == counts["same actions"], counts
    assert counts["identical"] >= 0.9 * counts["total"], counts  # 3397 of 3690 when recorded
    assert counts["probes agree"] == counts["probes"] > 60_000, counts  # every form of every listed action


def test_with_fixes_at_least_95_percent_identical_set_order_aside_and_every_difference_is_a_fix():
    counts = _compare(fixes=True)
    assert counts["identical"] + counts["order"] >= 0.95 * counts["total"], counts
    assert counts["same actions"] >= 0.95 * counts["total"], counts
    assert counts["identical"] + counts["order"] + counts["listing help"] == counts["total"], counts
    assert counts["probes agree"] == counts["probes"], counts  # FIX listing adds actions, changes none listed


def test_fix_listing_offers_barmans_empty_shaker_from_level_l0_to_l0():
    for fixes in (True, False):
        env = PDDLEnv(agentboard_fixes=fixes)
        env.reset(options={"task_id": "pddl-barman-p17"})
        while True:
            key = env.problem.planner.next_action(env.state_atoms)
            if key[0] == "empty-shaker" and key[-1] == key[-2]:
                break
            env.step(env.unwrapped.mode.action_text(env.problem, key))
        text = "use hand right to empty-shaker shaker1 with ingredient cocktail3 from level l0 to level l0."
        assert (text in env.admissible_actions()) is fixes
        obs, _, _, _, info = env.step(text)
        assert info["valid"] is fixes and (obs == NOT_VALID) is not fixes


def test_the_recording_exercises_both_refusals_help_look_and_wins():
    texts = Counter()
    for episode in EPISODES:
        for step in episode["steps"]:
            texts["not valid"] += step["observation"] == NOT_VALID
            texts["no effect"] += step["observation"] == NO_EFFECT
            texts["help"] += step["observation"].startswith("Valid actions are: ")
            texts["look"] += step["action"] == "look around"
            texts["won"] += step["won"]
    assert min(texts.values()) >= 1, texts
    assert texts["not valid"] >= 20 and texts["no effect"] >= 20 and texts["help"] >= 20, texts


def test_shipped_tasks_speak_agentboards_words():
    env = PDDLEnv()
    obs, info = env.reset(options={"task_id": "pddl-blocksworld-p01"})
    assert obs.split("\n")[0] == (
        "B1 is on the table. B2 is on the table. B3 is on the table. The b1 is clear. "
        "The b2 is clear. The b3 is clear. Your arm is empty."
    )
    assert info["goal"] == "The goal is to satisfy the following conditions: b1 is on b3., b3 is on the table."
    assert set(info["admissible_actions"]) == {"Pickup b1.", "Pickup b2.", "Pickup b3.", "check valid actions"}
    obs, _, _, _, info = env.step("pickup b1")
    assert obs == "B2 is on the table. B3 is on the table. The b2 is clear. The b3 is clear. You are holding b1. "
    obs, _, _, _, info = env.step("pick up b2")  # no word names an applicable operator
    assert obs == NOT_VALID and not info["valid"]
    obs, _, _, _, info = env.step("stack b1 b1")  # read, but changes nothing
    assert obs == NO_EFFECT and not info["valid"] and info["invalid_reason"] == "precondition_failed"
    obs, _, _, _, info = env.step("please double-check what I can do")  # AgentBoard: any text with "check"
    assert obs.startswith("Valid actions are: Putdown b1., Stack b1 on b2., Stack b1 on b3., check valid actions")
    obs, _, terminated, _, info = env.step("I will now Stack b1 on top of b3, then stop.")
    assert obs.endswith("Your arm is empty. The goal is satisfied.") and terminated and info["success"]


def test_barman_and_tyreworld_show_only_the_facts_that_became_true():
    env = PDDLEnv()
    env.reset(options={"task_id": "pddl-tyreworld-p01"})
    assert env.step("Open boot.")[0] == "Boot is open."
    assert env.step("fetch the wrench from the boot")[0] == "You have wrench."
    assert "Valid actions are: " not in env.step("look around")[0]
    assert env.unwrapped._admissible_actions()[-2:] == ["check valid actions", "look around"]
    env.reset(options={"task_id": "pddl-barman-p01"})
    assert env.step("left grasp shot2")[0] == "You are holding left. "


def test_gripper_reads_its_untemplated_drop_and_operator_words():
    env = PDDLEnv()
    env.reset(options={"task_id": "pddl-gripper-p01"})
    obs, _, _, _, info = env.step("Pick up ball2 at rooma with arm left.")
    assert info["valid"] and "Ball2 is carrying left." in obs
    assert env.step("drop ball2 rooma left")[2] is False
    assert "Left is free." in env.step("look around")[0]
    assert env.step("move rooma rooma")[0] == NO_EFFECT  # not listed (pddlgym drops repeated objects), no effect


def test_word_tokenize_splits_like_nltk_where_names_are_concerned():
    assert word_tokenize("pickup b1.") == ["pickup", "b1", "."]
    assert word_tokenize("remove-wheel w1 from the-hub1; then stop") == [
        "remove-wheel",
        "w1",
        "from",
        "the-hub1",
        ";",
        "then",
        "stop",
    ]
    assert word_tokenize("b1's top") == ["b1", "'s", "top"]


def test_clear_format_keeps_the_packages_own_text():
    env = PDDLEnv(text_format="clear")
    obs, _ = env.reset(options={"task_id": "pddl-blocksworld-p01"})
    assert obs.startswith("Blocksworld. You control a robot arm")
    obs, _, _, _, _ = env.step("pick up b1")
    assert obs.startswith("You pick up b1. Now true: The arm is holding b1.")
    with pytest.raises(ValueError, match="text_format"):
        PDDLEnv(text_format="agentboard-ish")


def _expert_solves(task_id: str) -> None:
    env = PDDLEnv()
    env.reset(options={"task_id": task_id})
    info: dict = {}
    while not env.episode_over:
        action = env.expert_action()
        assert action in env.admissible_actions(), action  # the expert speaks the listing's words
        _, _, _, _, info = env.step(action)
        assert info["valid"], action
    assert info["success"] and info["progress_rate"] == 1.0, task_id


@pytest.mark.parametrize(
    "task_id", ["pddl-blocksworld-p10", "pddl-gripper-p05", "pddl-barman-p03", "pddl-tyreworld-p07"]
)
def test_expert_solves_shipped_tasks_in_agentboards_words(task_id):
    _expert_solves(task_id)


@pytest.mark.slow
def test_expert_solves_every_shipped_task_in_agentboards_words():
    for task_id in PDDLEnv().task_ids:
        _expert_solves(task_id)
