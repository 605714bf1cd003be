"""ScienceWorld pieces that need no JVM: command parsing, reply classification, subgoal derivation, task set."""

import re
import subprocess
import sys
from collections import Counter

import pytest

from agentgym_text.envs.scienceworld.actions import (
    is_ambiguity_prompt,
    normalise,
    parse_command,
    refusal_kind,
)
from agentgym_text.envs.scienceworld.subgoals import GoldStep, derive_subgoals, observation_pattern, rewrite_goal
from agentgym_text.envs.scienceworld.tasks import TASK_COUNT, load_instances, make_tasks, subgoal_tracker, task_id_for
from agentgym_text.testing import garbage_actions


@pytest.mark.parametrize(
    "text, expected",
    [
        ("go to kitchen", "go to kitchen"),
        ("  Go to   kitchen. ", "go to kitchen"),
        ("Action: focus on unknown substance B", "focus on unknown substance B"),
        ("look around", "look around"),
        ("wait1", "wait1"),
        ("move metal pot to stove", "move metal pot to stove"),
        (
            "pour cup containing red paint into cup containing nothing",
            "pour cup containing red paint into cup containing nothing",
        ),
    ],
)
def test_science_world_commands_are_sent_normalised(text, expected):
    parsed = parse_command(text)
    assert parsed.ok and parsed.text == expected


@pytest.mark.parametrize(
    "text, reason",
    [
        ("fly to the moon", "unknown_action"),
        ("reset task", "unknown_action"),
        ("teleport to kitchen", "unknown_action"),
        ("go to kitchen; rm -rf /", "unparsable"),
        ('{"action": "look around"}', "unparsable"),
        ("3", "unparsable"),
        ("...", "unparsable"),
    ],
)
def test_non_commands_are_rejected_with_a_reason(text, reason):
    parsed = parse_command(text)
    assert not parsed.ok and parsed.reason == reason
    assert "look around" in parsed.error  # every rejection carries the command help


def test_numbers_answer_an_ambiguity_question_only_within_range():
    assert parse_command("1", choice_count=2).text == "1"
    assert parse_command("2", choice_count=2).reason == "bad_argument"


def test_contract_garbage_never_reaches_the_simulator():
    passed = [text for text in garbage_actions(2000, seed=3) if text.strip() and parse_command(text).ok]
    assert passed == []


def test_simulator_replies_are_classified():
    assert refusal_kind("No known action matches that input.") == "unknown_object"
    assert refusal_kind("The door is already open.") == "precondition_failed"
    assert refusal_kind("It's not clear how to get there from here.") == "precondition_failed"
    assert refusal_kind("You move to the kitchen.") is None
    assert refusal_kind("This room is called the kitchen. In it, you see:\n\ta door that can't open") is None
    prompt = (
        "Ambiguous request: Please enter the number for the action you intended (or blank to cancel):\n0:\ta\n1:\tb"
    )
    assert is_ambiguity_prompt(prompt) == 2 and is_ambiguity_prompt("You move to the kitchen.") == 0
    assert normalise("Look Around.") == "look around"


_STEPS = [
    GoldStep("look around", "This room is called the hallway. In it, you see:\n\tthe agent"),
    GoldStep("go to art studio", "You move to the art studio."),  # no work there: not a subgoal
    GoldStep("go to kitchen", "You move to the kitchen."),
    GoldStep("open door to outside", "The door is already open."),  # a refusal: not a subgoal
    GoldStep("pick up thermometer", "You move the thermometer to the inventory."),
    GoldStep("focus on substance in metal pot", "You focus on the water."),
    GoldStep("use thermometer in inventory on water", "the thermometer measures a temperature of 13 degrees celsius"),
    GoldStep("use thermometer in inventory on water", "the thermometer measures a temperature of 58 degrees celsius"),
    GoldStep("wait1", "You decide to wait for 1 iterations."),
]


def test_subgoals_are_the_necessary_observations_of_the_gold_path_in_order():
    names = [name for name, _ in derive_subgoals(_STEPS)]
    assert names == [
        "You move to the kitchen.",
        "You move the thermometer to the inventory.",
        "You focus on the water.",
        "the thermometer measures a temperature of 13 degrees celsius",
    ]
    pattern = observation_pattern("the thermometer measures a temperature of 13 degrees celsius")
    assert re.search(pattern, "the thermometer measures a temperature of -4.5 degrees celsius")
    assert not re.search(observation_pattern("You move the soil to the flower pot 2."), "the flower pot 3.")


def test_subgoal_cap_keeps_every_focus_step():
    steps = [GoldStep(f"pick up thing {i}", f"You move the thing {i} to the inventory.") for i in range(20)]
    steps.insert(7, GoldStep("focus on lead", "You focus on the lead."))
    names = [name for name, _ in derive_subgoals(steps, limit=5)]
    assert len(names) == 5 and "You focus on the lead." in names


def test_goal_rewrite_names_rooms_and_objects():
    goal = rewrite_goal("Task Description:\nYour task is to boil water.", _STEPS, _STEPS[0].observation)
    assert goal.startswith("Your task is to boil water.")
    assert "in the kitchen" in goal and "thermometer" in goal and "art studio" not in goal


def test_shipped_task_set_covers_every_task_type_with_stable_ids():
    instances = load_instances()
    tasks = make_tasks()
    assert len(tasks) == len(instances) == TASK_COUNT == 90
    per_type = Counter(inst["task_name"] for inst in instances)
    assert len(per_type) == 30 and set(per_type.values()) == {3}
    dev = {inst["task_name"] for inst in instances if inst["split"] == "dev"}
    assert {inst["split"] for inst in instances} == {"test", "dev"} and dev == {"grow-fruit"}
    assert tasks.task_ids[0] == task_id_for(instances[0]["task_name"], instances[0]["variation"])
    for task in tasks:
        assert task.goal.startswith("Your task is to") and task.params["gold_actions"]
        assert task.difficulty == ("hard" if len(task.params["subgoals"]) + 1 > 3 else "easy")
        assert task.max_steps == 30  # AgentBoard's budget (the expert checks give themselves more)
        assert len({pattern for _, pattern in task.params["subgoals"]}) == len(task.params["subgoals"])


def test_task_name_and_variation_select_tasks():
    name = load_instances()[0]["task_name"]
    assert len(make_tasks(name)) == 3
    variation = load_instances()[0]["variation"]
    assert make_tasks(name, variation).task_ids == [task_id_for(name, variation)]
    custom = make_tasks(name, 9999)
    assert custom.task_ids == [task_id_for(name, 9999)] and "subgoals" not in custom[0].params


def test_completion_is_the_last_subgoal_and_is_evenly_weighted():
    tracker = subgoal_tracker([["a", "alpha"], ["b", "beta"]])
    assert tracker.update("alpha", False).best == pytest.approx(1 / 3)
    assert tracker.update("beta", True).best == 1.0


def test_importing_the_package_and_making_the_env_starts_no_jvm():
    code = (
        "import gymnasium as gym, agentgym_text, os\n"
        "env = gym.make('AgentBoard/ScienceWorld-v0')\n"
        "assert env.unwrapped.jvm_pid is None\n"
        "kids = [p for p in os.listdir('/proc') if p.isdigit() and "
        "open(f'/proc/{p}/stat').read().split(')')[1].split()[1] == str(os.getpid())]\n"
        "print(len(kids))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"
