"""AgentBoard/Jericho-v0 in AgentBoard's words and with AgentBoard's data folder (fixture files written here).

The replay compares our env with ``tests/reference/jericho_agentboard.json``, written by
``tests/reference/record_jericho.py`` from AgentBoard's own Jericho env (unmodified) on the same annotation lines.
"""

import hashlib
import json
import os
from pathlib import Path

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401
from agentgym_text.core.agentboard_data import SETTING, AgentBoardDataError
from agentgym_text.envs.jericho import agentboard_text
from agentgym_text.envs.jericho.tasks import make_tasks
from tests.support.agentboard_fixtures import write_task_file

GAME_DIR = os.environ.get("AGENTGYM_TEXT_JERICHO_DIR")
needs_games = pytest.mark.skipif(not GAME_DIR or not Path(GAME_DIR).is_dir(), reason="no Jericho game files")
ENV_ID = "AgentBoard/Jericho-v0"
GAMES = [task.params["game"] for task in make_tasks()]
ZORK1 = GAMES.index("zork1")
REFERENCE = Path(__file__).resolve().parent / "reference" / "jericho_agentboard.json"

# Scripted zork1 opening and AgentBoard's progress along it, by hand. Patterns, n = 5:
#   "Taken" (first in the list, credited last: order-free), "white house!" (its "!" is stripped),
#   "boarded up" (in the same reply as "white house": one credit a step, so it waits for a later reply),
#   "bird's nest" (the "'" is stripped on both sides), "FOREST PATH" (case-sensitive: never credited).
ZORK1_PATTERNS = ["Taken", "white house!", "boarded up", "bird's nest", "FOREST PATH"]
ZORK1_SCRIPT = [
    ("north", 0.2),  # North of House: "white house" and "boarded up"; the first open pattern in order is credited
    ("north", 0.2),  # Forest Path: "Forest Path" is not "FOREST PATH"
    ("up", 0.4),  # Up a Tree: "bird's nest"
    ("get egg", 0.6),  # "Taken."
    ("down", 0.6),
    ("south", 0.6),  # the brief "North of House"
    ("look", 0.8),  # the full description again: "boarded up" at last
]


def _task(env, task_id: str):
    tasks = env.unwrapped.tasks
    return tasks[tasks.index_of(task_id)]


def _ours(task_id: str):
    tasks = make_tasks()
    return tasks[tasks.index_of(task_id)]


def _lines(zork1: dict | None = None, **changes) -> list:
    lines = [{"subgoals": [f"never said in {game}"], "difficulty": "easy"} for game in GAMES]
    lines[ZORK1] = zork1 or {"subgoals": ZORK1_PATTERNS, "difficulty": "hard"}
    for index, line in changes.items():
        lines[int(index.removeprefix("at"))] = line
    return lines


def _folder(tmp_path: Path, lines: list) -> Path:
    return write_task_file(tmp_path / "data", "jericho", lines)


def _play(env, actions: list[str], task_id: str = "jericho-zork1") -> list[dict]:
    env.reset(seed=0, options={"task_id": task_id})
    return [env.step(action)[4] for action in actions]


# ---- AgentBoard's words, without data ----------------------------------------------------------------------------
def test_words_are_agentboards():
    assert agentboard_text.clean_action("open the mailbox, then read it. now") == "open the mailbox"
    assert agentboard_text.clean_action(" ".join(["w"] * 30)) == " ".join(["w"] * 20)
    assert agentboard_text.asks_for_actions("please CHECK which actions work")
    assert not agentboard_text.asks_for_actions("check the mailbox")
    assert agentboard_text.flatten("A\n\nB   C [Your score has gone up by 5.]") == "A B C "
    assert agentboard_text.marked_invalid("[! that is not a verb I recognise]")
    assert agentboard_text.help_text(["north", "take egg"]) == (
        "You can take the following actions: north, take egg, check valid actions"
    )


@needs_games
def test_env_speaks_agentboards_words_and_clear_keeps_ours():
    env = gym.make(ENV_ID)
    obs, _ = env.reset(seed=0, options={"task_id": "jericho-zork1"})
    assert obs.splitlines()[0].endswith("There is a small mailbox here.")  # the opening on one line
    obs, *_ = env.step("north, then east")  # cut at the comma
    assert obs.startswith("North of House You are facing") and "\n" not in obs
    obs, *_ = env.step("check the action list")  # AgentBoard's help test: "check" and "action"
    assert obs.startswith(agentboard_text.ACTION_LISTING) and obs.endswith(", check valid actions")
    clear = gym.make(ENV_ID, text_format="clear")
    clear.reset(seed=0, options={"task_id": "jericho-zork1"})
    obs, *_ = clear.step("check valid actions")
    assert obs.startswith("Valid actions (commands that change the world here")


@needs_games
@pytest.mark.parametrize("fixes", [True, False])
def test_validity_and_meta_commands_follow_the_fix_switch(fixes):
    env = gym.make(ENV_ID, agentboard_fixes=fixes)
    refused, meta = _play(env, ["fooble the wizzle", "restart"])  # not "save": frotz would write a file
    assert refused["valid"] is not fixes  # FIX-VALID: AgentBoard counts only "[!" replies as invalid
    assert meta["valid"] is not fixes  # FIX-META: with fixes, "restart" never reaches the game


@needs_games
def test_budget_is_agentboards_30_steps_and_can_be_raised():
    env = gym.make(ENV_ID)
    _, info = env.reset(seed=0, options={"task_id": "jericho-905"})
    assert info["max_steps"] == 30 and env.spec.max_episode_steps == 30
    longer = gym.make(ENV_ID, max_episode_steps=50)
    _, info = longer.reset(seed=0, options={"task_id": "jericho-905"})
    assert info["max_steps"] == 50


# ---- the data folder ---------------------------------------------------------------------------------------------
@needs_games
@pytest.mark.parametrize("fixes", [True, False])
def test_progress_is_agentboards_rule_by_hand(tmp_path, fixes):
    env = gym.make(ENV_ID, agentboard_data=str(_folder(tmp_path, _lines())), agentboard_fixes=fixes)
    infos = _play(env, [action for action, _ in ZORK1_SCRIPT])
    assert [info["progress_rate"] for info in infos] == pytest.approx([rate for _, rate in ZORK1_SCRIPT])
    assert not any(info["success"] for info in infos)
    assert infos[0]["difficulty"] == "hard"  # the file's label (ours would be "hard" by count too: see below)
    assert infos[0]["goal"] == _ours("jericho-zork1").goal  # AgentBoard's goals are prose in its code


@needs_games
def test_complete_progress_ends_the_episode_as_a_success(tmp_path):
    zork1 = {"subgoals": ["Forest Path", "Taken"], "difficulty": "easy"}
    env = gym.make(ENV_ID, agentboard_data=str(_folder(tmp_path, _lines(zork1))))
    env.reset(seed=0, options={"task_id": "jericho-zork1"})
    for action in ("north", "north", "up"):
        *_, terminated, _, info = env.step(action)
        assert not terminated
    *_, terminated, _, info = env.step("get egg")
    assert terminated and info["success"] and info["progress_rate"] == 1.0 and info["difficulty"] == "easy"


@needs_games
def test_difficulty_labels_come_from_the_file(tmp_path):
    lines = _lines(at0={"subgoals": ["x"], "difficulty": "hard"}, at1={"subgoals": ["x"], "difficulty": "easy"})
    env = gym.make(ENV_ID, agentboard_data=str(_folder(tmp_path, lines))).unwrapped
    labels = [task.difficulty for task in env.tasks]
    assert labels[:2] == ["hard", "easy"] and env.task_ids == [task.task_id for task in make_tasks()]


@needs_games
def test_subgoals_k_alternatives_with_fixes_and_agentboards_loader_without(tmp_path):
    # Alternative 2 is credited on "Forest Path" and "Taken"; alternative 1 only on "Taken".
    zork1 = {"subgoals_1": ["Taken", "no such reply"], "subgoals_2": ["Forest Path", "Taken"], "difficulty": "hard"}
    folder = str(_folder(tmp_path, _lines(zork1)))
    actions = ["north", "north", "up", "get egg"]
    fixed = _play(gym.make(ENV_ID, agentboard_data=folder), actions)
    assert [info["progress_rate"] for info in fixed] == [0.0, 0.5, 0.5, 1.0]  # FIX-SUBGOALS-K: the best alternative
    # AgentBoard's loader keeps only the line's last key, "difficulty" here: no patterns, progress stays 0.
    exact = _play(gym.make(ENV_ID, agentboard_data=folder, agentboard_fixes=False), actions)
    assert [info["progress_rate"] for info in exact] == [0.0] * 4
    # With a subgoal list last, AgentBoard's env would crash on its first step: an error at make names the line.
    zork1 = {"difficulty": "hard", "subgoals_1": ["Taken"], "subgoals_2": ["Forest Path"]}
    with pytest.raises(AgentBoardDataError, match=rf"line {ZORK1 + 1}: AgentBoard's loader keeps only"):
        gym.make(ENV_ID, agentboard_data=str(_folder(tmp_path, _lines(zork1))), agentboard_fixes=False)


@needs_games
def test_the_setting_names_the_folder(tmp_path, monkeypatch):
    monkeypatch.setenv(SETTING, str(_folder(tmp_path, _lines())))
    infos = _play(gym.make(ENV_ID), ["north"])
    assert infos[0]["progress_rate"] == pytest.approx(0.2)
    monkeypatch.delenv(SETTING)
    infos = _play(gym.make(ENV_ID), ["north"])  # our own milestones again
    assert infos[0]["difficulty"] == _ours("jericho-zork1").difficulty


@needs_games
@pytest.mark.parametrize(
    "lines, message",
    [
        (_lines()[:19], "has 19 lines, but AgentBoard matches its lines to the 20 Jericho games"),
        (_lines(at3='{"subgoals": ["x"], '), "line 4: not JSON"),
        (_lines(at2={"subgoals": ["x"]}), "line 3: the field 'difficulty' is missing"),
        (_lines(at2={"subgoals": ["x"], "difficulty": "medium"}), "line 3: difficulty must be one of"),
        (_lines(at0={"subgoals": [], "difficulty": "easy"}), "line 1: .*is empty: there is nothing to score"),
        (_lines(at0={"subgoals": ["x", 3], "difficulty": "easy"}), "line 1: every entry of 'subgoals'"),
        (_lines(at0={"difficulty": "easy"}), "line 1: the field 'subgoals'"),
        (
            _lines(at1={"subgoals": ["x"], "difficulty": "easy", "game_name": "zork1"}),
            "line 2: it names the game 'zork1', but AgentBoard gives this line to the game 'acorncourt'",
        ),
    ],
)
@pytest.mark.parametrize("fixes", [True, False])
def test_bad_files_are_one_clear_error(tmp_path, lines, message, fixes):
    with pytest.raises(AgentBoardDataError, match=message):
        gym.make(ENV_ID, agentboard_data=str(_folder(tmp_path, lines)), agentboard_fixes=fixes)


@needs_games
def test_missing_folder_task_file_and_other_games_are_refused(tmp_path):
    with pytest.raises(AgentBoardDataError, match="does not exist"):
        gym.make(ENV_ID, agentboard_data=str(tmp_path / "nowhere"))
    with pytest.raises(AgentBoardDataError, match="jericho/test.jsonl is missing"):
        gym.make(ENV_ID, agentboard_data=str(tmp_path))
    with pytest.raises(AgentBoardDataError, match="game= plays another game"):
        gym.make(ENV_ID, agentboard_data=str(_folder(tmp_path, _lines())), game=str(Path(GAME_DIR) / "905.z5"))


# ---- replay of AgentBoard's own env ------------------------------------------------------------------------------
@needs_games
def test_replay_of_agentboards_env_agrees_on_every_step(tmp_path):
    reference = json.loads(REFERENCE.read_text())
    folder = str(_folder(tmp_path, reference["lines"]))
    env = gym.make(ENV_ID, agentboard_data=folder, agentboard_fixes=False)
    compared, differences = 0, []
    for episode in reference["episodes"]:
        env.reset(seed=0, options={"task_id": episode["task_id"]})
        assert _task(env, episode["task_id"]).difficulty == episode["difficulty"]
        for index, step in enumerate(episode["steps"]):
            obs, _, terminated, _, info = env.step(step["action"])
            digest = hashlib.sha256(obs.encode()).hexdigest()
            ours = (digest, info["valid"], round(info["progress_rate"], 9), terminated, info["success"])
            theirs = (step["observation_sha256"], step["valid"], round(step["progress"], 9), step["done"], step["won"])
            compared += 1
            if ours != theirs:
                differences.append((episode["task_id"], index, step["action"], ours, theirs))
    assert compared >= 400
    assert not differences, (len(differences), differences[:3])


@needs_games
def test_the_emulator_seed_follows_the_fix_switch():
    seeds = {}
    for fixes in (True, False):
        env = gym.make(ENV_ID, agentboard_fixes=fixes)
        for seed in (1, 2):
            env.reset(seed=seed, options={"task_id": "jericho-zork1"})
            seeds[fixes, seed] = env.unwrapped._game.frotz._seed
    assert seeds[True, 1] != seeds[True, 2]  # FIX-SEED: the reset seed seeds the emulator
    assert seeds[False, 1] == seeds[False, 2] == 12  # AgentBoard's FrotzEnv(game_file): zork1's walkthrough seed


@needs_games
def test_the_clear_format_scores_with_agentboards_rule_too(tmp_path):
    env = gym.make(ENV_ID, agentboard_data=str(_folder(tmp_path, _lines())), text_format="clear")
    infos = _play(env, [action for action, _ in ZORK1_SCRIPT])
    assert [info["progress_rate"] for info in infos] == pytest.approx([rate for _, rate in ZORK1_SCRIPT])
