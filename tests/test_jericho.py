"""AgentBoard/Jericho-v0 on the real game files (the shared suite; skipped where it is not configured)."""

import json
import os
import shutil
import subprocess
import sys
from collections import OrderedDict
from pathlib import Path

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401
from agentgym_text.envs.jericho import valid_actions as valid_actions_module
from agentgym_text.testing import contract

GAME_DIR = os.environ.get("AGENTGYM_TEXT_JERICHO_DIR")
pytestmark = pytest.mark.skipif(not GAME_DIR or not Path(GAME_DIR).is_dir(), reason="no Jericho game files")
ENV_ID = "AgentBoard/Jericho-v0"
GOALS = json.loads((Path(agentgym_text.__file__).parent / "envs/jericho/goals.json").read_text())["games"]
TASK_IDS = [f"jericho-{record['game']}" for record in GOALS]


def _play_expert(env, task_id, seed):
    obs, info = env.reset(seed=seed, options={"task_id": task_id})
    steps = 0
    while not env.unwrapped.episode_over:
        action = env.unwrapped.expert_action()
        assert action is not None, env.unwrapped.expert_off_reason
        obs, reward, terminated, truncated, info = env.step(action)
        assert info["valid"], (action, obs)
        steps += 1
    return info, steps


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_expert_solves_every_shipped_task(task_id):
    env = gym.make(ENV_ID)
    for seed in (0, 1):
        info, steps = _play_expert(env, task_id, seed)
        assert info["success"] and info["progress_rate"] == 1.0 and all(info["subgoals_done"])
        assert steps <= info["max_steps"]
    env.close()


@pytest.mark.slow
@pytest.mark.parametrize("task_id", TASK_IDS)
def test_expert_solves_every_task_under_many_seeds(task_id):
    env = gym.make(ENV_ID)
    for seed in range(2, 14):
        info, _ = _play_expert(env, task_id, seed)
        assert info["success"] and info["progress_rate"] == 1.0
    env.close()


def test_goals_file_is_bounded_and_in_words():
    assert len(GOALS) == 20
    for record in GOALS:
        assert 1 <= len(record["subgoals"]) <= 15, record["game"]
        assert record["steps"] <= 25
        assert "score" not in record["goal"].lower() and record["goal"].startswith("In ")
        assert {goal["kind"] for goal in record["subgoals"]} <= {"room", "item", "score"}


def test_random_agent_makes_less_progress_than_the_expert():
    # zork1 and detective: games whose valid-action lists are quick to compute
    random, expert = contract.check_random_below_expert(ENV_ID, ["jericho-zork1", "jericho-detective"])
    assert expert == 1.0 and random < 1.0


def test_check_valid_actions_lists_what_jericho_expects():
    env = gym.make(ENV_ID)
    expected = {
        # jericho's own test (tests/test_valid_actions.py) on 905
        "jericho-905": {"take wallet", "open wallet", "take keys", "get up", "take phone"},
        # jericho's docs: zork1's first room has the mailbox and three exits
        "jericho-zork1": {"open mailbox", "north", "south", "west"},
        # the walkthrough's first command of detective, and the paper lying there
        "jericho-detective": {"take paper", "west", "east"},
    }
    for task_id, actions in expected.items():
        env.reset(seed=0, options={"task_id": task_id})
        obs, _, _, _, info = env.step("check valid actions")
        assert info["valid"]
        listed = set(env.unwrapped.admissible_actions())
        assert actions <= listed, (task_id, actions - listed)
        assert all(action in obs for action in actions)
    env.close()


def test_valid_actions_are_cached_by_world_state_and_do_not_disturb_the_game(monkeypatch):
    env = gym.make(ENV_ID).unwrapped
    plain = [env.reset(seed=3, options={"task_id": "jericho-zork1"})[0]]
    for _ in range(6):
        plain.append(env.step(env.expert_action())[0])
    probed = [env.reset(seed=3, options={"task_id": "jericho-zork1"})[0]]
    for _ in range(6):
        env.admissible_actions()
        probed.append(env.step(env.expert_action())[0])
    assert probed == plain
    computed = []  # one entry per listing worked out on the emulator (a cache miss)
    compute = valid_actions_module._compute

    def counted(*args, **kwargs):
        computed.append(args)
        return compute(*args, **kwargs)

    monkeypatch.setattr(valid_actions_module, "_CACHE", OrderedDict())
    monkeypatch.setattr(valid_actions_module, "_compute", counted)
    env.reset(seed=3, options={"task_id": "jericho-zork1"})
    first = env.admissible_actions()
    assert len(computed) == 1
    env.step("north")
    assert env.admissible_actions() != first and len(computed) == 2  # another state: listed anew
    env.step("west")  # back west of the house: the first state again
    again = env.admissible_actions()
    assert again == first and len(computed) == 2  # from the cache
    env.close()


def test_a_menu_opened_in_a_room_is_not_served_the_rooms_cached_listing():
    """night's "allhints" opens a hint menu: the world (jericho's hash) is the room's, the listing is not."""
    env = gym.make(ENV_ID).unwrapped
    env.reset(seed=0, options={"task_id": "jericho-night"})
    assert env.admissible_actions()  # the room's listing, now cached
    env.step("allhints")
    assert env.admissible_actions() == valid_actions_module.valid_actions(env._game, use_cache=False) == []
    env.close()


def test_valid_actions_are_not_computed_unless_asked():
    env = gym.make(ENV_ID)
    _, info = env.reset(seed=0, options={"task_id": "jericho-905"})
    assert info["admissible_actions"] == []
    _, _, _, _, info = env.step("get up")
    assert info["admissible_actions"] == []
    env.close()


@pytest.mark.parametrize(
    "action, reason",
    [
        ("", "empty"),
        ("xyzzyplugh frobnicate", "unknown_action"),
        ("Please could you tell me what to do next? I think the answer is obvious.", "unparsable"),
        ("please tell me what to do next", "unknown_action"),
        ("x" * 300, "too_long"),
        ("open mailbox; north", "unparsable"),
        ("n", "unknown_action"),
        ("restart", "unknown_action"),
        ("save", "unknown_action"),
        ("open the flurbogast", "unknown_action"),
    ],
)
def test_bad_input_is_invalid_with_a_message(action, reason):
    env = gym.make(ENV_ID, text_format="clear")  # our checks before the game; AgentBoard's words send it all
    env.reset(seed=0, options={"task_id": "jericho-zork1"})
    obs, reward, terminated, truncated, info = env.step(action)
    assert not info["valid"] and info["invalid_reason"] == reason and len(obs) > 10
    assert reward == 0.0 and not terminated
    # the game goes on: the expert still solves it
    while not env.unwrapped.episode_over:
        obs, _, _, _, info = env.step(env.unwrapped.expert_action())
    assert info["success"]
    env.close()


def test_no_game_dir_is_one_clear_error(monkeypatch):
    from agentgym_text.envs.jericho.engine import GameFilesMissing

    monkeypatch.delenv("AGENTGYM_TEXT_JERICHO_DIR")
    with pytest.raises(GameFilesMissing) as error:
        gym.make(ENV_ID)
    message = str(error.value)
    assert "\n" not in message and "AGENTGYM_TEXT_JERICHO_DIR" in message and "z-machine-games" in message


def test_no_game_dir_through_the_cli_prints_no_traceback():
    env = {key: value for key, value in os.environ.items() if key != "AGENTGYM_TEXT_JERICHO_DIR"}
    result = subprocess.run(
        [sys.executable, "-m", "agentgym_text.cli", "play", ENV_ID],
        input="quit\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode != 0
    assert "Traceback" not in result.stderr and "AGENTGYM_TEXT_JERICHO_DIR" in result.stderr


def test_missing_file_names_the_file(tmp_path):
    from agentgym_text.envs.jericho.engine import GameFilesMissing

    shutil.copy(Path(GAME_DIR) / "zork1.z5", tmp_path / "zork1.z5")
    env = gym.make(ENV_ID, game_dir=str(tmp_path))
    env.reset(seed=0, options={"task_id": "jericho-zork1"})
    with pytest.raises(GameFilesMissing, match=r"detective\.z5.*z-machine-games"):
        env.reset(seed=0, options={"task_id": "jericho-detective"})
    env.close()


def test_unsupported_and_corrupt_game_files_are_refused(tmp_path):
    from agentgym_text.envs.jericho.engine import UnsupportedGame

    data = bytearray((Path(GAME_DIR) / "zork1.z5").read_bytes())
    data[-1] ^= 0xFF  # another release of the game: jericho does not know its hash
    (tmp_path / "zork1.z5").write_bytes(bytes(data))
    env = gym.make(ENV_ID, game_dir=str(tmp_path))
    with pytest.raises(UnsupportedGame, match="not the release jericho supports"):
        env.reset(seed=0, options={"task_id": "jericho-zork1"})
    env.close()
    (tmp_path / "other.z5").write_bytes(bytes([5]) + bytes(range(256)) * 40)
    with pytest.raises(UnsupportedGame, match="not a game jericho supports"):
        gym.make(ENV_ID, game=str(tmp_path / "other.z5"))
    (tmp_path / "broken.z5").write_bytes(b"\x00garbage")
    with pytest.raises(UnsupportedGame, match="not a Z-machine story file"):
        gym.make(ENV_ID, game=str(tmp_path / "broken.z5"))


def test_any_supported_game_plays_for_score():
    env = gym.make(ENV_ID, game=str(Path(GAME_DIR) / "905.z5"))
    obs, info = env.reset(seed=0)
    assert env.unwrapped.task_ids == ["jericho-905"] and "score" in info["goal"]
    while not env.unwrapped.episode_over:
        obs, _, _, _, info = env.step(env.unwrapped.expert_action())
    assert info["success"] and info["progress_rate"] == 1.0
    env.close()


def test_expert_says_why_it_stops_off_the_walkthrough():
    env = gym.make(ENV_ID)
    env.reset(seed=0, options={"task_id": "jericho-zork1"})
    env.step("south")
    assert env.unwrapped.expert_action() is None
    assert "off the walkthrough" in env.unwrapped.expert_off_reason
    env.close()


def test_seed_drives_the_games_randomness():
    from agentgym_text.envs.jericho.actions import expand_abbreviations

    env = gym.make(ENV_ID).unwrapped

    def run(seed):
        env.reset(seed=seed, options={"task_id": "jericho-zork2"})
        commands = [expand_abbreviations(c) for c in env._game.walkthrough()[:8]]
        return [env.step(command)[0] for command in commands]

    assert run(5) == run(5)
    assert len({tuple(run(seed)) for seed in range(8)}) > 1
    env.close()


def test_every_refusal_pattern_holds_a_prefilter_word():
    from jericho.defines import unrecognized

    from agentgym_text.envs.jericho.engine import _REFUSAL_WORDS, refused

    assert all(any(word in pattern for word in _REFUSAL_WORDS) for pattern in unrecognized)
    assert refused("You can't see any such thing.") and refused('I don\'t know the word "xyzzyq".')
    assert not refused("West of House\nYou are standing in an open field.")


def test_the_fast_state_reads_what_jerichos_objects_say():
    env = gym.make("AgentBoard/Jericho-v0", game_dir=str(GAME_DIR))
    env.reset(seed=0, options={"task_id": "jericho-zork1"})
    game = env.unwrapped._game
    for command in ["open mailbox", "take leaflet", "north", "east", "open window", "enter window", "take all"]:
        env.step(command)
        fast, named = game.state(), game.state(names=True)
        assert (fast.score, fast.location, fast.inventory, fast.moves) == (
            named.score,
            named.location,
            named.inventory,
            named.moves,
        )
    assert len(fast.inventory) >= 2
    env.close()


def test_emulators_that_start_a_game_at_once_build_its_load_cache_once(monkeypatch):
    """jericho builds a game's action templates (~0.2 s) when a ``FrotzEnv`` first loads it; the process's
    emulators share that cache, so eight slots starting the same game together build it once and open alike."""
    import threading

    import jericho.jericho

    from agentgym_text.envs.jericho import engine

    built = []
    original = jericho.jericho.TemplateActionGenerator

    def counted(bindings):
        built.append(bindings["name"])
        return original(bindings)

    monkeypatch.setattr(jericho.jericho, "TemplateActionGenerator", counted)
    monkeypatch.setattr(engine, "_GAME_FILES", {})
    path = Path(GAME_DIR) / "zork1.z5"
    md5 = engine.check_game_file(path)
    start, openings = threading.Barrier(8), []

    def play() -> None:
        game = engine.JerichoGame()
        start.wait()
        openings.append((game.load(path, md5, seed=1), game.step("open mailbox")))
        game.close()

    threads = [threading.Thread(target=play) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert built == ["zork1"]
    assert len(openings) == 8 and len(set(openings)) == 1
