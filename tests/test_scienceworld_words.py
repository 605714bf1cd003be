"""AgentBoard/ScienceWorld-v0 speaks AgentBoard's words: replay of AgentBoard's own trajectories, and each listed FIX.

``tests/reference/scienceworld_agentboard.json`` was written by ``tests/reference/record_scienceworld.py``, which
runs AgentBoard's unmodified ScienceWorld env (scienceworld 1.1.3, the release AgentBoard ran on, in a separate
venv) on the 90 shipped instances with seeded random actions, and the same actions on the installed scienceworld
release (the ``installed_*`` fields, where its text or action set differs: those differences are the engine's).

The default run replays a sample; ``pytest -m slow tests/test_scienceworld_words.py`` replays all 90 and prints
the identical-percentages.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

pytest.importorskip("scienceworld")

from agentgym_text.envs.scienceworld.engine import find_java  # noqa: E402
from agentgym_text.envs.scienceworld.env import ScienceWorldTextEnv  # noqa: E402

pytestmark = pytest.mark.skipif(find_java() is None, reason="ScienceWorld needs Java")

REFERENCE = Path(__file__).resolve().parent / "reference" / "scienceworld_agentboard.json"
DATA = json.loads(REFERENCE.read_text())
EPISODES = DATA["episodes"]
SAMPLE = (
    "scienceworld-chemistry-mix-paint-tertiary-color-var27",
    "scienceworld-power-component-var15",
    "scienceworld-find-plant-var226",
)
"""Default-run sample: an ambiguous request (tertiary color), an electrical task (loaded without
noElectricalAction), a failure by a focus on a wrong object (find-plant)."""


def norm(text: str) -> str:
    return " ".join(text.split())


def digest(actions) -> str:
    """The recorder's fingerprint of an action set (record_scienceworld.digest)."""
    text = "\n".join(sorted(set(actions) - {"check valid actions"}))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def combination_digest(combinations) -> str:
    """By template and object ids (record_scienceworld.combination_digest): names rotate between listings."""
    return digest(f"{entry['template_id']}:{','.join(map(str, entry['obj_ids']))}" for entry in combinations)


def start_text(obs: str) -> str:
    """The first observation without the footer the core adds (goal, action format, step budget)."""
    return obs[: obs.rindex("\nYour goal: ")]


@pytest.fixture(scope="module")
def envs():
    made = {True: ScienceWorldTextEnv(), False: ScienceWorldTextEnv(agentboard_fixes=False)}
    yield made
    for env in made.values():
        env.close()


def replay(env: ScienceWorldTextEnv, episode: dict) -> list[dict]:
    """One row per compared state: the first, then one per step until our episode ends."""
    obs, info = env.reset(options={"task_id": episode["task_id"]})
    rows = [{"key": episode, "ours": start_text(obs), "actions": digest(env._admissible_actions())}]
    for step in episode["steps"]:
        if env.episode_over:
            break
        obs, _, terminated, _, info = env.step(step["action"])
        rows.append(
            {
                "key": step,
                "ours": obs,
                "info": info,
                "terminated": terminated,
                "actions": digest(env._admissible_actions()),
                "combinations": combination_digest(env._combinations),
            }
        )
    return rows


FIELDS = (("observation", "ours"), ("actions", "actions"), ("combinations", "combinations"))


def compare(rows: list[dict]) -> dict:
    """Per row and field: identical to AgentBoard on 1.1.3 ("same"), else to AgentBoard's code on the installed
    engine ("engine"), else neither ("other", listed in "differences")."""
    counts = {"rows": len(rows), "differences": []}
    for index, row in enumerate(rows):
        key = row["key"]
        for field, ours_key in FIELDS:
            if field not in key:  # the first state has no combination ids (AgentBoard lists none there)
                continue
            ours = row[ours_key]
            theirs, installed = key[field], key.get("installed_" + field, key[field])
            same = norm(ours) == norm(theirs) if field == "observation" else ours == theirs
            engine = norm(ours) == norm(installed) if field == "observation" else ours == installed
            verdict = "same" if same else "engine" if engine else "other"
            counts[f"{field}_{verdict}"] = counts.get(f"{field}_{verdict}", 0) + 1
            counts[f"{field}_total"] = counts.get(f"{field}_total", 0) + 1
            if verdict == "other":
                counts["differences"].append((index, field, key.get("action"), str(ours)[:200], str(theirs)[:200]))
    return counts


def _add(total: dict, counts: dict) -> None:
    for name, value in counts.items():
        if name != "differences":
            total[name] = total.get(name, 0) + value


def _episodes(ids):
    return [episode for episode in EPISODES if ids is None or episode["task_id"] in ids]


def _question_pending(rows: list[dict], index: int) -> bool:
    """FIX questions: AgentBoard's step ``index`` or an earlier one was sent while the simulator waited for a
    number (with the fix the command is carried out there, so the worlds part)."""
    return any(
        row["key"].get(field, "").startswith("Ambiguous request")
        for row in rows[1:index]
        for field in ("observation", "installed_observation")
    )


def test_reference_covers_every_shipped_instance():
    assert [episode["task_id"] for episode in EPISODES] == ScienceWorldTextEnv().task_ids
    assert sum(len(episode["steps"]) for episode in EPISODES) >= 850
    assert DATA["scienceworld"] == "1.1.3"


def _check_without_fixes(envs, ids) -> dict:
    """Bug for bug: every observation and action set is AgentBoard's (on 1.1.3, or on the installed engine)."""
    total: dict = {}
    for episode in _episodes(ids):
        rows = replay(envs[False], episode)
        assert len(rows) == len(episode["steps"]) + 1, episode["task_id"]  # plays on after a failure, as AgentBoard
        counts = compare(rows)
        assert not counts["differences"], (episode["task_id"], counts["differences"][:3])
        for row in rows[1:]:
            step = row["key"]
            assert row["info"]["valid"] == step.get("installed_valid", step["valid"]), (episode["task_id"], step)
        _add(total, counts)
    return total


def _check_with_fixes(envs, ids) -> dict:
    """Every difference is the engine's or a listed FIX's; validity and endings follow the FIX list."""
    total: dict = {"fix_questions": 0, "fix_ending": 0}
    for episode in _episodes(ids):
        rows = replay(envs[True], episode)
        counts = compare(rows)
        _add(total, counts)
        for index, *_ in counts["differences"]:
            assert _question_pending(rows, index), (episode["task_id"], counts["differences"])
            total["fix_questions"] += 1
        for index, row in enumerate(rows[1:], start=1):
            step, info = row["key"], row["info"]
            if _question_pending(rows, index):
                continue
            before = step.get("installed_valid_before", step["valid_before"])
            # FIX validity: a combination listed in the state before, or an action the simulator carried out
            assert info["valid"] == before or (info["valid"] and info["invalid_reason"] is None), (episode, index)
            if not before and step.get("installed_observation", step["observation"]).startswith("No known action"):
                assert not info["valid"], (episode["task_id"], index)
            score = step.get("installed_score", step["score"])
            if score is not None and score < 0:  # FIX ending: a failed task ends here, in the simulator's words
                assert row["terminated"] and info["finish_reason"] == "failure", (episode["task_id"], index)
                total["fix_ending"] += 1
    return total


def _share(total: dict, field: str, engine: bool) -> float:
    same = total.get(f"{field}_same", 0) + (total.get(f"{field}_engine", 0) if engine else 0)
    return same / total[f"{field}_total"]


def test_sample_without_fixes_is_agentboards_bug_for_bug(envs):
    _check_without_fixes(envs, SAMPLE)


def test_sample_with_fixes_differs_only_by_fixes_and_the_engine(envs):
    total = _check_with_fixes(envs, SAMPLE)
    assert total["fix_questions"] and total["fix_ending"], total  # the sample shows both (picked for that)
    for field in ("observation", "combinations"):  # one of three sampled episodes parts at a question
        assert _share(total, field, engine=True) >= 0.8, total


@pytest.mark.slow
def test_all_90_without_fixes_are_agentboards_bug_for_bug(envs):
    print("\nwithout fixes:", _check_without_fixes(envs, None))


@pytest.mark.slow
def test_all_90_with_fixes_at_least_95_percent_identical(envs):
    total = _check_with_fixes(envs, None)
    print("\nwith fixes:", total)
    for field, _ in FIELDS:
        print(
            f"{field}: {100 * _share(total, field, False):.1f}% identical to AgentBoard on scienceworld 1.1.3, "
            f"{100 * _share(total, field, True):.1f}% to AgentBoard's code on the installed engine"
        )
    for field in ("observation", "combinations"):
        assert _share(total, field, engine=True) >= 0.95, total


BOIL = "scienceworld-boil-var21"  # starts in the bathroom, next to the kitchen


def test_help_answer_and_unknown_text_in_agentboards_words(envs):
    env = envs[True]
    env.reset(options={"task_id": BOIL})
    obs, _, _, _, info = env.step("check valid actions")
    assert obs.startswith("Choose an action from these valid actions: activate OBJ, close OBJ, deactivate OBJ")
    assert obs.endswith(", wait, wait1, check valid actions") and "reset" not in obs and info["valid"]
    for text, reason in (("fly to the moon", "unknown_object"), ("look around?", "unparsable")):
        obs, _, _, _, info = env.step(text)
        assert obs == "No known action matches that input." and not info["valid"]
        assert info["invalid_reason"] == reason
    assert "close bathtub drain" in env.admissible_actions()
    obs, _, _, _, info = env.step("close bathtub drain")
    assert obs == "The drain is now closed." and info["valid"]
    obs, _, _, _, info = env.step("deactivate sink")  # not listed (the sink is off): refused in AgentBoard's words
    assert obs == "The sink is already deactivated." and not info["valid"]


def test_fix_validity_is_judged_before_the_step(envs):
    for fixes, valid in ((True, True), (False, False)):
        env = envs[fixes]
        env.reset(options={"task_id": BOIL})
        obs, _, _, _, info = env.step("go to kitchen")  # listed in the bathroom, not any more in the kitchen
        assert obs == "You move to the kitchen." and info["valid"] is valid
        assert "go to kitchen" not in env.admissible_actions()


def test_fix_ending_a_failed_task_ends_in_the_simulators_words(envs):
    for fixes in (True, False):
        env = envs[fixes]
        env.reset(options={"task_id": BOIL})
        obs, _, terminated, _, info = env.step("focus on orange")  # not the substance to boil: the task fails
        assert obs == "You focus on the orange."
        assert terminated is fixes
        assert (info["finish_reason"] == "failure") is fixes


def test_fix_questions_a_command_is_not_taken_as_a_wrong_answer(envs):
    for fixes in (True, False):
        env = envs[fixes]
        env.reset(options={"task_id": BOIL})
        env.step("go to kitchen")
        obs, _, _, _, info = env.step("focus on substance")
        assert obs.startswith("Ambiguous request: Please enter the number")
        obs, _, _, _, info = env.step("look around")
        if fixes:
            assert obs.startswith("This room is called the kitchen.") and info["valid"]
        else:
            assert obs.startswith("Unknown action.  Type 'help' for a list of actions")


def test_clear_format_keeps_the_packages_own_text():
    env = ScienceWorldTextEnv(task_name="boil", text_format="clear")
    try:
        env.reset(options={"task_id": BOIL})
        obs, _, _, _, info = env.step("check valid actions")
        assert "go to kitchen" in obs and "ScienceWorld commands:" in obs
        obs, _, _, _, info = env.step("fly to the moon")
        assert obs.startswith("'fly' is not a ScienceWorld command.") and not info["valid"]
    finally:
        env.close()
    with pytest.raises(ValueError):
        ScienceWorldTextEnv(text_format="agentbench")
