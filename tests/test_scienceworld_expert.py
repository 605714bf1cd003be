"""The ScienceWorld expert in both texts: every shipped task under -m slow, and in the fast suite the tasks whose
recovery paths it needed (a door the load already opened, a broken stove, a question its own action raised, names
that change with every listing)."""

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401  (registers the ids)
from agentgym_text.envs.scienceworld.engine import find_java
from agentgym_text.envs.scienceworld.env import ScienceWorldTextEnv
from agentgym_text.envs.scienceworld.expert import GoldPathExpert
from agentgym_text.envs.scienceworld.listing import ObjectIndex
from agentgym_text.envs.scienceworld.tasks import load_instances, task_id_for
from agentgym_text.testing.contract import EXPERT_BUDGET

ENV_ID = "AgentBoard/ScienceWorld-v0"
ALL_TASK_IDS = [task_id_for(inst["task_name"], inst["variation"]) for inst in load_instances()]
ALREADY_HOLDS = "scienceworld-freeze-var23"
"""Its gold path opens doors and a cupboard the load opened and switches on a broken stove, and it needs the time
steps those no-ops take."""
SEEDS_IN_A_JAR = "scienceworld-grow-plant-var94"
"""Its gold path moves "orange seed in seed jar": five seeds of that name, which the listing names otherwise."""

needs_java = pytest.mark.skipif(find_java() is None, reason="ScienceWorld needs Java")


@pytest.fixture(scope="module")
def envs():
    """One env per text format, made at first use (each runs its own JVM)."""
    made: dict[str, gym.Env] = {}

    def env_for(text_format: str) -> gym.Env:
        if text_format not in made:
            # the gold paths of 44 tasks are longer than AgentBoard's 30 steps
            made[text_format] = gym.make(ENV_ID, text_format=text_format, max_episode_steps=EXPERT_BUDGET)
        return made[text_format]

    yield env_for
    for env in made.values():
        env.close()


def play_expert(env: gym.Env, task_id: str) -> tuple[dict, list[tuple[str, str, dict]]]:
    """The expert from reset to the end: its last info and every (action, observation, info)."""
    obs, info = env.reset(options={"task_id": task_id})
    steps = []
    done = False
    while not done:
        action = env.unwrapped.expert_action()
        assert action is not None, f"{task_id}: the expert gave up: {env.unwrapped._expert.gave_up}"
        obs, _, terminated, truncated, info = env.step(action)
        steps.append((action, obs, info))
        done = terminated or truncated
    return info, steps


def assert_solved(task_id: str, info: dict, steps: list[tuple[str, str, dict]]) -> None:
    refused = [(action, obs[:150]) for action, obs, step_info in steps if not step_info["valid"]]
    assert refused == [], f"{task_id}: the env refused the expert's actions"
    assert info["success"] and info["progress_rate"] == 1.0 and info["finish_reason"] == "success", (
        f"{task_id}: finish {info['finish_reason']}, progress {info['progress_rate']}"
    )


@needs_java
@pytest.mark.slow
@pytest.mark.parametrize("text_format", ScienceWorldTextEnv.text_formats)
@pytest.mark.parametrize("task_id", ALL_TASK_IDS)
def test_the_expert_solves_every_shipped_task_in_both_texts(envs, task_id, text_format):
    info, steps = play_expert(envs(text_format), task_id)
    assert_solved(task_id, info, steps)


@needs_java
def test_the_expert_looks_at_what_is_already_open_or_broken_instead_of_switching_it(envs):
    env = envs("clear")
    info, steps = play_expert(env, ALREADY_HOLDS)
    gold = env.unwrapped.current_task.params["gold_actions"]
    assert {"open door to kitchen", "open cupboard", "activate stove"} <= set(gold)
    answers = {action: obs for action, obs, _ in steps}
    assert answers["look at door to kitchen"] == "A door to the kitchen (that is open)"
    assert "look at cupboard" in answers and "look at stove" in answers
    assert not {"open door to kitchen", "open cupboard", "activate stove"} & set(answers)
    assert_solved(ALREADY_HOLDS, info, steps)


@needs_java
def test_the_expert_names_objects_as_listed_and_answers_the_question_its_move_raised(envs):
    env = envs("agentboard")
    info, steps = play_expert(env, SEEDS_IN_A_JAR)
    assert "move orange seed in seed jar to flower pot 2" in env.unwrapped.current_task.params["gold_actions"]
    asked = [k for k, (_, obs, _) in enumerate(steps) if obs.startswith("Ambiguous request")]
    assert asked, "the simulator asked nothing: this task no longer exercises an answer"
    for k in asked:
        move, answer = steps[k][0], steps[k + 1]
        assert move.startswith("move ") and move.endswith(" to flower pot 2") and "seed jar to" not in move
        assert answer[0].isdigit() and answer[1] == "You move the orange seed to the flower pot 2."
    assert_solved(SEEDS_IN_A_JAR, info, steps)


@needs_java
@pytest.mark.slow
def test_asking_the_expert_changes_neither_the_world_nor_the_listed_names(envs):
    """The expert reads the object tree and referents; a listing would change how the world goes on."""
    env = envs("agentboard")

    def trace(actions=None):
        env.reset(options={"task_id": SEEDS_IN_A_JAR})
        taken, seen = [], []
        for k in range(12):
            action = env.unwrapped.expert_action() if actions is None else actions[k]
            obs, *_ = env.step(action)
            taken.append(action)
            seen.append((obs, [entry["action"] for entry in env.unwrapped._combinations]))
        return taken, seen

    taken, asked = trace()
    assert trace(taken)[1] == asked


def test_an_answer_picks_the_option_on_the_objects_the_expert_meant():
    """Listed names are not always unique to the parser; the options of its question carry object ids."""
    index = ObjectIndex(
        {1: ("seed jar",), 2: ("orange seed",), 3: ("orange seed",), 4: ("flower pot 2",)}, {2: 1, 3: 1}
    )

    class World:
        def devices_in(self, room):
            return {}

        def object_index(self):
            return index

    expert = GoldPathExpert(["move orange seed in seed jar to flower pot 2", "focus on orange seed"], "", world=World())
    listing = [
        {"action": "move orange seed in seed jar containing orange seed to flower pot 2", "obj_ids": [3, 4]},
        {"action": "focus on orange seed", "obj_ids": [2]},
    ]
    proposal = expert.next_action(0, listing)
    assert proposal == listing[0]["action"]
    expert.observe(
        proposal,
        "Ambiguous request: Please enter the number ...\n0:\tmove orange seed (in seed jar) "
        "to flower pot 2\n1:\tmove orange seed (in seed jar) to flower pot 2\n",
    )
    options = [{"action": "0", "obj_ids": [4, 2]}, {"action": "1", "obj_ids": [4, 3]}]
    assert expert.next_action(2, options) == "1"
    expert.observe("1", "You move the orange seed to the flower pot 2.", choice_count=2)
    assert expert.next_action(0, listing) == "focus on orange seed"


def test_the_expert_opens_a_door_it_saw_closed_and_looks_at_one_it_saw_open():
    first = (
        "This room is called the hallway. In it, you see: \n\tthe agent\nYou also see:\n\t"
        "A door to the kitchen (that is closed)\n\tA door to the bedroom (that is open)"
    )
    assert GoldPathExpert(["open door to kitchen"], first).next_action() == "open door to kitchen"
    assert GoldPathExpert(["open door to bedroom"], first).next_action() == "look at door to bedroom"
    expert = GoldPathExpert(["open door to bedroom"], first)
    expert.observe("close door to bedroom", "The door is now closed.")
    assert expert.next_action() == "open door to bedroom"  # the undo of the agent's detour, then the gold step
    expert.observe("open door to bedroom", "The door is now open.")
    assert expert.next_action() == "look at door to bedroom"
