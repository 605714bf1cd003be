"""AgentBoard/ScienceWorld-v0 on AgentBoard's data folder (``agentboard_data=``): lines matched by
``<env_name>_<var>``, AgentBoard's progress rule computed by hand along scripted trajectories, goal and difficulty
from the file, the bad-input errors, and a replay of AgentBoard's own env's progress.

The files are written here in AgentBoard's format (``tests/support/agentboard_fixtures.py``); AgentBoard's own data is never
used. ``tests/reference/scienceworld_agentboard_progress.json`` holds AgentBoard's progress after every action,
recorded by ``tests/reference/record_scienceworld.py --progress`` from lines written from our own instances.
"""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

pytest.importorskip("scienceworld")

import agentgym_text  # noqa: E402, F401  (registers the ids)
from agentgym_text.core.agentboard_data import SETTING, AgentBoardDataError  # noqa: E402
from agentgym_text.envs.scienceworld.engine import find_java  # noqa: E402
from agentgym_text.envs.scienceworld.env import ScienceWorldTextEnv  # noqa: E402
from agentgym_text.envs.scienceworld.tasks import load_instances, make_tasks  # noqa: E402
from tests.support.agentboard_fixtures import write_task_file  # noqa: E402

ENV_ID = "AgentBoard/ScienceWorld-v0"
needs_java = pytest.mark.skipif(find_java() is None, reason="ScienceWorld needs Java")
REFERENCE = Path(__file__).resolve().parent / "reference" / "scienceworld_agentboard_progress.json"


def line(env_name: str, var, subgoals, goal: str = "Find the plant.", difficulty: str = "hard", **fields) -> dict:
    return {
        "goal": goal,
        "subgoals": subgoals,
        "difficulty": difficulty,
        "additional_info": {"env_name": env_name, "var": var},
        **fields,
    }


PLANT = line(  # find-plant var 225: go to hallway, greenhouse, look around, focus on the banana tree, pick up pot 5 ...
    "find-plant",
    225,
    [
        "No known action matches",  # the simulator's answer to unknown text (scanned as AgentBoard scans it)
        "Choose an action from these",  # only the help answer holds it: AgentBoard does not scan that one
        r"You move to the (green|hot)house\.",
        r"focus on the \w+ tree",
        r"flower pot \d+ to the inventory",
    ],
    difficulty="easy",
)
APPLE = line("find-plant", 226, [r"You move to the greenhouse", "apple tree"], goal="Find the apple tree.")
"""find-plant var 226 (go to outside, go to greenhouse, look around, ...): the second regex is found anywhere in
the greenhouse's description, so AgentBoard is done at the third step, long before the simulator's task is."""


def make(folder: Path, **kwargs) -> ScienceWorldTextEnv:
    return ScienceWorldTextEnv(agentboard_data=folder, **kwargs)


def play(env: ScienceWorldTextEnv, actions: list[str], infos: list | None = None) -> list[tuple[float, bool, bool]]:
    """(progress_rate, terminated, success) after each action; stops where the episode ends."""
    rows = []
    for action in actions:
        _, _, terminated, _, info = env.step(action)
        rows.append((info["progress_rate"], terminated, info["success"]))
        if infos is not None:
            infos.append(info)
        if terminated:
            break
    return rows


# ---- matching, goal, difficulty, budget (no JVM) -----------------------------------------------------------
def test_lines_are_our_instances_in_file_order_with_the_files_goal_and_difficulty(tmp_path):
    folder = write_task_file(tmp_path, "scienceworld", [APPLE, PLANT])
    env = make(folder)
    ours = {task.task_id: task for task in make_tasks()}
    assert env.task_ids == ["scienceworld-find-plant-var226", "scienceworld-find-plant-var225"]
    task = env.tasks[1]
    assert (task.goal, task.difficulty, task.max_steps) == ("Find the plant.", "easy", 30)
    assert ours[task.task_id].difficulty == "hard"  # the file's label wins
    assert task.params["gold_actions"] == ours[task.task_id].params["gold_actions"]  # the expert keeps its path
    assert task.params["agentboard"]["subgoals"] == PLANT["subgoals"]
    assert task.params["agentboard"]["where"].endswith("test.jsonl, line 2")


def test_names_are_read_as_the_simulator_reads_them_and_task_name_picks_lines(tmp_path):
    lines = [line("mendellian-genetics-known-plant", 3, ["x"]), line("task-1-boil", 21, ["y"]), PLANT]
    folder = write_task_file(tmp_path, "scienceworld", lines)
    assert make(folder).task_ids == [
        "scienceworld-mendelian-genetics-known-plant-var3",  # not shipped: built at its first reset
        "scienceworld-boil-var21",
        "scienceworld-find-plant-var225",
    ]
    assert make(folder, task_name="boil").task_ids == ["scienceworld-boil-var21"]
    assert make(folder, task_name="find-plant", variation=225).task_ids == ["scienceworld-find-plant-var225"]
    with pytest.raises(AgentBoardDataError, match="no line for task_name='melt'"):
        make(folder, task_name="melt")


def test_the_option_and_the_setting_both_name_the_folder(tmp_path, monkeypatch):
    folder = write_task_file(tmp_path, "scienceworld", [PLANT])
    env = gym.make(ENV_ID, agentboard_data=str(folder))
    assert env.unwrapped.task_ids == ["scienceworld-find-plant-var225"] and env.spec.max_episode_steps == 30
    monkeypatch.setenv(SETTING, str(folder))
    assert ScienceWorldTextEnv().task_ids == ["scienceworld-find-plant-var225"]
    monkeypatch.setenv(SETTING, str(tmp_path / "nowhere"))
    with pytest.raises(AgentBoardDataError, match="nowhere"):
        ScienceWorldTextEnv()
    monkeypatch.delenv(SETTING)
    assert len(ScienceWorldTextEnv().task_ids) == 90  # without the folder: our own tasks


def test_the_budget_is_agentboards_30_steps_and_can_be_raised():
    assert gym.spec(ENV_ID).max_episode_steps == 30
    assert {task.max_steps for task in make_tasks()} == {30}  # 38 gold paths are longer (the expert checks get 400)
    assert max(len(inst["gold_actions"]) for inst in load_instances()) > 30
    env = gym.make(ENV_ID, max_episode_steps=80)
    assert env.spec.max_episode_steps == 80


# ---- bad input: one error naming the file and the line ------------------------------------------------------
@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("{not json", "line 2: not JSON"),
        (json.dumps([1, 2]), "line 2: a line must be a JSON object"),
        (line("find-plant", 226, ["x"], difficulty="medium"), "line 2: difficulty must be one of"),
        ({**APPLE, "additional_info": {"env_name": "find-plant"}}, "line 2: the field 'additional_info.var'"),
        (line("find-plant", "226", ["x"]), "line 2: the field 'additional_info.var' must be int"),
        (line("find-plant", -1, ["x"]), "line 2: additional_info.var must be a variation number"),
        (line("find-plant", True, ["x"]), "line 2: additional_info.var must be a variation number"),
        (line("grow-a-unicorn", 1, ["x"]), "line 2: additional_info.env_name 'grow-a-unicorn' is not one of"),
        (line("find-plant", 226, []), "line 2: 'subgoals' is empty"),
        (line("find-plant", 226, ["(unclosed"]), r"line 2: the subgoal '\(unclosed' is not a Python regex"),
        (line("find-plant", 226, [3]), "line 2: every subgoal must be a regex string"),
        ({k: v for k, v in APPLE.items() if k != "goal"}, "line 2: the field 'goal' is missing"),
        (
            line("find-plant", 225, ["again"]),
            r"line 2: it names scienceworld-find-plant-var225 again \(first at .*line 1\)",
        ),
    ],
)
def test_a_bad_line_is_refused_naming_file_and_line(tmp_path, bad, message):
    folder = write_task_file(tmp_path, "scienceworld", [PLANT, bad])
    with pytest.raises(AgentBoardDataError, match=message) as raised:
        make(folder)
    assert str(tmp_path / "scienceworld" / "test.jsonl") in str(raised.value)


def test_a_missing_folder_or_task_file_is_refused(tmp_path):
    with pytest.raises(AgentBoardDataError, match="does not exist or is not a folder"):
        make(tmp_path / "missing")
    write_task_file(tmp_path, "babyai", [PLANT])
    with pytest.raises(AgentBoardDataError, match="scienceworld/test.jsonl is missing"):
        make(tmp_path)


def test_the_data_needs_agentboards_text(tmp_path):
    folder = write_task_file(tmp_path, "scienceworld", [PLANT])
    with pytest.raises(AgentBoardDataError, match="text_format='agentboard'"):
        make(folder, text_format="clear")


# ---- AgentBoard's progress rule, by hand, on the simulator ---------------------------------------------------
@pytest.fixture(scope="module")
def plant_folder(tmp_path_factory) -> Path:
    return write_task_file(tmp_path_factory.mktemp("abdata"), "scienceworld", [PLANT, APPLE])


@pytest.fixture(scope="module")
def data_envs(plant_folder):
    made = {fixes: make(plant_folder, agentboard_fixes=fixes) for fixes in (False, True)}
    yield made
    for env in made.values():
        env.close()


PLANT_GOLD = [
    "go to hallway",
    "go to greenhouse",
    "look around",
    "focus on adult banana tree",
    "pick up flower pot 5",
    "go to hallway",
    "go to living room",
    "move flower pot 5 containing banana tree and soil in inventory to orange box",
]


@needs_java
def test_regexes_are_searched_in_every_simulator_answer_and_stay_matched(data_envs):
    env = data_envs[False]
    obs, info = env.reset(options={"task_id": "scienceworld-find-plant-var225"})
    assert info["goal"] == "Find the plant." and info["difficulty"] == "easy" and info["progress_rate"] == 0.0
    infos: list[dict] = []
    rows = play(env, ["fly to the moon", "check valid actions", *PLANT_GOLD, "look around"], infos)
    # 5 regexes: unknown text's answer 1/5; the help answer is not scanned; greenhouse (alternation) 2/5; the
    # look around keeps it; the focus 3/5; the pot (\d+) 4/5; the help regex never matches
    assert [rate for rate, _, _ in rows] == [0.2, 0.2, 0.2, 0.4, 0.4, 0.6, 0.8, 0.8, 0.8, 0.8, 0.8]
    # the simulator's task is complete after the last gold step: AgentBoard reads no simulator success, plays on
    assert not any(terminated or success for _, terminated, success in rows)
    assert list(infos[-1]["subgoals_done"]) == [True, False, True, True, True]


@needs_java
def test_agentboard_is_done_when_every_regex_matched_before_the_simulator_is(data_envs):
    for fixes in (False, True):
        env = data_envs[fixes]
        env.reset(options={"task_id": "scienceworld-find-plant-var226"})
        rows = play(env, ["go to outside", "go to greenhouse", "look around", "focus on adult apple tree"])
        assert rows == [(0.0, False, False), (0.5, False, False), (1.0, True, True)], fixes


@needs_java
def test_fix_completion_the_simulators_success_ends_the_episode_with_full_progress(data_envs):
    env = data_envs[True]
    env.reset(options={"task_id": "scienceworld-find-plant-var225"})
    rows = play(env, ["fly to the moon", *PLANT_GOLD])
    assert [rate for rate, _, _ in rows[:-1]] == [0.2, 0.2, 0.4, 0.4, 0.6, 0.8, 0.8, 0.8]
    assert rows[-1] == (1.0, True, True)  # AgentBoard: 0.8, and the episode goes on


@needs_java
def test_fix_ending_a_failed_task_ends_only_with_fixes(data_envs):
    for fixes in (False, True):
        env = data_envs[fixes]
        env.reset(options={"task_id": "scienceworld-find-plant-var226"})
        rows = play(env, ["focus on orange", "look around"])  # a wrong focus: the simulator's task fails
        assert rows[0][1] is fixes and rows[0][0] == 0.0 and not rows[0][2]


@needs_java
def test_a_variation_the_simulator_lacks_is_refused_at_reset(tmp_path):
    folder = write_task_file(tmp_path, "scienceworld", [line("boil", 9999, ["x"])])
    env = make(folder)
    try:
        with pytest.raises(AgentBoardDataError, match=r"line 1: boil has variations 0 to \d+, not 9999"):
            env.reset()
    finally:
        env.close()


def test_a_line_whose_gold_path_fails_is_played_without_an_expert(tmp_path, monkeypatch):
    """The data's instance is played even where the simulator's gold path does not solve it (no expert path)."""
    from agentgym_text.envs.scienceworld import gold_paths

    def no_path(engine, name, variation):
        raise gold_paths.InstanceError(f"{name} variation {variation}: gold path ends without success")

    monkeypatch.setattr(gold_paths, "derive_instance", no_path)
    folder = write_task_file(tmp_path, "scienceworld", [line("grow-fruit", 93, ["x"], goal="Grow a fruit.")])
    env = make(folder)
    env._engine.variation_count = lambda name: 126
    task = env._complete_task(env.tasks[0])
    assert (task.goal, task.difficulty, task.params["gold_actions"]) == ("Grow a fruit.", "hard", [])
    assert task.params["agentboard"]["subgoals"] == ["x"] and "noElectricalAction" in task.params["simplifications"]


# ---- replay of AgentBoard's own env ---------------------------------------------------------------------------
def _reference() -> dict:
    return json.loads(REFERENCE.read_text())


SAMPLE = 3
"""Episodes the default run replays (all under -m slow)."""


def _replay(folder: Path, episodes: list[dict], fixes: bool) -> tuple[int, int, list]:
    """(steps agreeing, steps, differences) of our progress and ending with AgentBoard's recorded ones."""
    env = make(folder, agentboard_fixes=fixes)
    agree = steps = 0
    differences = []
    try:
        for episode in episodes:
            env.reset(options={"task_id": episode["task_id"]})
            for index, (action, progress, done) in enumerate(
                zip(episode["actions"], episode["progress"], episode["done"], strict=True)
            ):
                _, _, terminated, truncated, info = env.step(action)
                steps += 1
                same = abs(info["progress_rate"] - progress) < 1e-9 and terminated == done and not truncated
                agree += same
                if not same:
                    fix = info["finish_reason"] if terminated else None
                    differences.append((episode["task_id"], index, action, info["progress_rate"], progress, fix))
                if terminated:
                    break
    finally:
        env.close()
    return agree, steps, differences


@pytest.fixture(scope="module")
def reference_folder(tmp_path_factory) -> Path:
    return write_task_file(tmp_path_factory.mktemp("reference"), "scienceworld", _reference()["lines"])


def test_the_reference_was_recorded_on_the_installed_engine_with_lines_of_our_own():
    from importlib.metadata import version

    data = _reference()
    assert data["scienceworld"] == version("scienceworld")  # our env runs the installed release
    assert len(data["episodes"]) == len(data["lines"]) == 30
    assert sum(len(episode["actions"]) for episode in data["episodes"]) >= 500
    assert any(episode["done"][-1] for episode in data["episodes"])  # some reach AgentBoard's done


@needs_java
def test_progress_equals_agentboards_on_every_sampled_step_without_fixes(reference_folder):
    agree, steps, differences = _replay(reference_folder, _reference()["episodes"][:SAMPLE], fixes=False)
    assert not differences and agree == steps > 0


@needs_java
@pytest.mark.slow
def test_progress_equals_agentboards_on_every_recorded_step_without_fixes(reference_folder):
    agree, steps, differences = _replay(reference_folder, _reference()["episodes"], fixes=False)
    print(f"\nwithout fixes: progress and ending agree on {agree}/{steps} steps")
    assert not differences and agree == steps


@needs_java
@pytest.mark.slow
def test_with_fixes_progress_differs_only_where_a_fix_acts(reference_folder):
    agree, steps, differences = _replay(reference_folder, _reference()["episodes"], fixes=True)
    print(f"\nwith fixes: progress and ending agree on {agree}/{steps} steps; differing: {differences}")
    for task_id, index, action, ours, theirs, finish in differences:
        ending = finish == "failure" and ours == theirs  # FIX ending: a failed task ends, progress unchanged
        completion = finish == "success" and ours == 1.0  # FIX completion: the simulator's success
        assert ending or completion, (task_id, index, action, ours, theirs, finish)
    assert agree / steps >= 0.95
