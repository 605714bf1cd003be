"""Jericho's validity rule (``parser_errors``): garbage is invalid on all 20 games in both text formats, valid
commands that change nothing stay valid, and the learned replies are the game's own, whatever their wording."""

import os
import re
from pathlib import Path

import gymnasium as gym
import pytest

import agentgym_text  # noqa: F401
from agentgym_text.envs.jericho import agentboard_text, parser_errors
from agentgym_text.envs.jericho.engine import GameState, refused
from agentgym_text.envs.jericho.object_names import candidate_names
from agentgym_text.envs.jericho.parser_errors import ParserErrors, dictionary_form, learn
from agentgym_text.envs.jericho.tasks import make_tasks
from agentgym_text.testing import garbage_actions
from agentgym_text.testing.contract import stable_seed

GAME_DIR = os.environ.get("AGENTGYM_TEXT_JERICHO_DIR")
needs_games = pytest.mark.skipif(not GAME_DIR or not Path(GAME_DIR).is_dir(), reason="no Jericho game files")
ENV_ID = "AgentBoard/Jericho-v0"
GAMES = [task.params["game"] for task in make_tasks()]
FORMATS = ("agentboard", "clear")
LITERAL_GARBAGE = [
    "__import__('os').system('echo hi')",
    "99999",
    "<script>alert(1)</script>",
    "xyzzy plugh",
    "DROP TABLE tasks;--",
    "99999999999999999999",
]
"""Each of these was once judged valid on some game (a parser refusal in the game's own words)."""
GARBAGE_COUNT = 400
FAST_GAMES = ("snacktime", "zork1")


def _sweep_params():
    return [
        pytest.param(
            game, text_format, marks=() if game in FAST_GAMES else (pytest.mark.slow,), id=f"{game}-{text_format}"
        )
        for game in GAMES
        for text_format in FORMATS
    ]


def _made_of_the_games_words(env, action: str) -> bool:
    """Whether what reaches the game is a command of its words only: noise can spell one ("Nw" is jewel's
    northwest), which the game rightly plays."""
    sent = agentboard_text.clean_action(action) if env.text_format == "agentboard" else action
    errors = env._parser_errors
    words = [word for word in re.split(r'[\s.,"]+', sent) if word]
    return bool(words) and all(dictionary_form(word, errors.version) in errors.words for word in words)


@needs_games
@pytest.mark.parametrize("game, text_format", _sweep_params())
def test_garbage_is_invalid_and_leaves_the_game_as_it_was(game, text_format):
    env = gym.make(ENV_ID, text_format=text_format, max_episode_steps=GARBAGE_COUNT + 100)
    task_id = f"jericho-{game}"
    env.reset(seed=0, options={"task_id": task_id})
    accepted, commands = [], []
    for action in [*LITERAL_GARBAGE, *garbage_actions(GARBAGE_COUNT, seed=stable_seed(game, text_format))]:
        obs, reward, terminated, truncated, info = env.step(action)
        assert obs and not terminated and not truncated
        if info["valid"] and _made_of_the_games_words(env.unwrapped, action):
            commands.append(action)
        elif info["valid"] or not info["invalid_reason"] or reward:
            accepted.append((action[:60], obs[:80]))
    assert accepted == [] and len(commands) <= 2, (accepted, commands)
    if commands:  # a command the game played may have moved the player
        env.reset(seed=0, options={"task_id": task_id})
    while not env.unwrapped.episode_over:  # otherwise nothing the garbage did derails the walkthrough
        obs, _, _, _, info = env.step(env.unwrapped.expert_action())
        assert info["valid"], obs
    assert info["success"]
    env.close()


@needs_games
@pytest.mark.parametrize("text_format", FORMATS)
def test_commands_that_change_nothing_stay_valid(text_format):
    """In every game's first room, "look", "inventory" and "examine <each thing jericho finds examinable>" take a
    turn and change nothing in the world; the help action too (zork1's listing: the others cost seconds)."""
    env = gym.make(ENV_ID, text_format=text_format, max_episode_steps=200)
    rejected = []
    for game in GAMES:
        env.reset(seed=0, options={"task_id": f"jericho-{game}"})
        names, _ = candidate_names(env.unwrapped._game.frotz, env.unwrapped._game.dictionary())
        help_action = ["check valid actions"] if game == "zork1" else []
        for action in ["look", "inventory", *help_action, *[f"examine {name}" for name in names if name != "all"]]:
            obs, *_, info = env.step(action)
            if not info["valid"]:
                rejected.append((game, action, obs[:80]))
    assert rejected == []
    env.close()


@needs_games
@pytest.mark.parametrize("text_format", FORMATS)
def test_a_refusal_in_the_games_own_words_is_learned(text_format):
    """snacktime's parser says "That's not a trick you know.": no pattern of jericho's holds it."""
    env = gym.make(ENV_ID, text_format=text_format)
    env.reset(seed=0, options={"task_id": "jericho-snacktime"})
    errors = env.unwrapped._parser_errors
    for action, reply in [
        ("jump zzqxv", "I only understood you as far as wanting to jump."),  # a known verb: no dictionary rule
        ("drop table tasks", "I only understood you as far as wanting to drop the four-legged thing."),
        ("table", "That's not a trick you know."),  # a noun of the dictionary where the verb should be
    ]:
        obs, *_, info = env.step(action)
        assert obs.strip() == reply and not refused(obs) and not errors.unknown_verb(action)
        assert info["valid"] is False and errors.known_reply(obs), action
    env.close()


@needs_games
def test_the_clear_format_learns_905s_bracketed_refusals():
    """905 refuses in its own "[!: ...]" words; the clear format does not read "[!" (AgentBoard's rule)."""
    env = gym.make(ENV_ID, text_format="clear")
    env.reset(seed=0, options={"task_id": "jericho-905"})
    for action in ("wallet", "wallet", "phone", "take wallet zzz"):  # the tip the first two times, then not
        obs, *_, info = env.step(action)
        assert obs.startswith("[!: ") and not refused(obs) and info["valid"] is False, (action, obs)
    obs, *_, info = env.step("take wallet")
    assert info["valid"] and "[!" not in obs
    env.close()


@needs_games
def test_agentboards_exact_mode_keeps_its_rule_and_learns_nothing():
    env = gym.make(ENV_ID, agentboard_fixes=False)
    env.reset(seed=0, options={"task_id": "jericho-snacktime"})
    assert env.unwrapped._parser_errors is None
    obs, *_, info = env.step("xyzzy plugh")
    assert obs == "That's not a trick you know." and info["valid"]  # AgentBoard counts only "[!" replies
    env.reset(seed=0, options={"task_id": "jericho-905"})
    obs, *_, info = env.step("99999")
    assert obs.startswith("[!: Verb error.") and not info["valid"]
    env.close()


@needs_games
def test_replies_are_learned_once_per_game_file(monkeypatch):
    calls = []
    monkeypatch.setattr(parser_errors, "_LEARNED", {})
    monkeypatch.setattr(parser_errors, "learn", lambda game: calls.append(game.md5) or learn(game))
    env = gym.make(ENV_ID)
    for game in ("zork1", "zork1", "detective", "zork1"):
        env.reset(seed=1, options={"task_id": f"jericho-{game}"})
    other = gym.make(ENV_ID, text_format="clear")
    other.reset(seed=0, options={"task_id": "jericho-detective"})
    assert len(calls) == 2 and len(set(calls)) == 2
    env.close()
    other.close()


@needs_games
def test_learning_leaves_the_game_where_it_was():
    plain, learned = gym.make(ENV_ID), gym.make(ENV_ID)
    for env in (plain, learned):
        env.reset(seed=0, options={"task_id": "jericho-zork1"})
    game = learned.unwrapped._game
    before = (game.world_hash(), game.state(), game.snapshot()[0].tobytes())
    learn(game)  # again, after the reset's (cached) learning: probes played and undone in this game
    assert (game.world_hash(), game.state(), game.snapshot()[0].tobytes()) == before
    for command in ("north", "east", "open window", "enter house", "look", "again", "take sack"):
        assert plain.step(command)[0] == learned.step(command)[0]
    plain.close()
    learned.close()


@needs_games
def test_the_dictionary_form_is_the_games():
    """Every word of the 20 dictionaries reads as itself (zork1's "air-pump" is stored "air-p": '-' costs two
    Z-characters), so the first word of a command is looked up as the game looks it up."""
    env = gym.make(ENV_ID)
    for game in GAMES:
        env.reset(seed=0, options={"task_id": f"jericho-{game}"})
        version, _ = env.unwrapped._game.header()
        words = [word for word in env.unwrapped._game.dictionary() if word == word.lower()]
        assert [word for word in words if dictionary_form(word, version) != word] == [], game
    assert dictionary_form("air-pump", 3) == "air-p" and dictionary_form("four-legged", 8) == "four-leg"
    env.close()


# ---- the rule on an invented game: nothing in it depends on a wording ------------------------------------------
class _InventedGame:
    """A parser with its own words: unknown words are "Gronk? <word> baffles the oracle.", a known verb with junk
    is "The oracle grasps only '<verb>'.", and every other command takes a turn."""

    md5 = "invented"
    words = {"look": ["verb"], "inventory": ["verb"], "take": ["verb"], "lamp": ["noun"]}

    def __init__(self):
        self.moves = 0

    def header(self):
        return 5, '.,"'

    def dictionary(self):
        return self.words

    def snapshot(self):
        return self.moves

    def restore(self, moves):
        self.moves = moves

    def state(self, inventory=True):
        return GameState(0, 1, "", (), (), self.moves)

    def world_changed(self):
        return False

    def step(self, command):
        verb, *rest = command.split() or [""]
        if verb not in self.words:
            return f"Gronk? {verb} baffles the oracle.\n"
        if rest and rest[0] not in self.words:
            return f"The oracle grasps only '{verb}'.\n"
        self.moves += 1
        return "The hall. A lamp hangs here.\n" if verb == "look" else "You hold nothing.\n"


def test_learned_replies_match_the_same_error_with_other_words():
    game = _InventedGame()
    errors = learn(game)
    assert game.moves == 0  # restored
    assert errors.known_reply("Gronk? frobnitz baffles the oracle.")
    assert errors.known_reply("The oracle grasps only 'take the lamp'.")
    assert not errors.known_reply("The hall. A lamp hangs here.")
    assert not errors.known_reply("You hold nothing.")
    assert errors.refused("take lamp zzz", "The oracle grasps only 'take the lamp'.", game, turn_taken=False)
    assert not errors.refused("take lamp zzz", "The oracle grasps only 'take the lamp'.", game, turn_taken=True)
    assert errors.refused("frobnitz", "Something else entirely.", game, turn_taken=False)  # not in the dictionary
    assert not errors.refused("take lamp", "Something else entirely.", game, turn_taken=False)
    game.world_changed = lambda: True  # a step that moved something was understood, whatever it printed
    assert not errors.refused("frobnitz", "Gronk? frobnitz baffles the oracle.", game, turn_taken=False)
    assert errors.refused("take x", "You can't see any such thing.", game, turn_taken=True)  # jericho's own


def test_a_reply_that_valid_commands_also_get_is_not_kept():
    class Deaf(_InventedGame):
        def step(self, command):
            return "The wind howls; nothing you say is heard.\n"

    assert learn(Deaf()).replies == ()


def test_a_reply_that_is_mostly_echo_is_not_kept():
    class Echo(_InventedGame):
        def step(self, command):
            return f"{command}?\n"

    errors = learn(Echo())
    assert errors.replies == () and not errors.known_reply("take lamp?")


def test_first_word_reads_as_the_z_machine_tokenizer():
    errors = ParserErrors(words=frozenset({"take", "lamp", '"', "air-p"}), version=3, separators=',."', replies=())
    for known in ("TAKE lamp", "take.lamp", "  take", "air-pump on", '"hello"'):  # '"' is a word of its own
        assert not errors.unknown_verb(known), known
    for unknown in ("", "   ", "99999", "lampshade", "__import__('os')", "<script>take", "takes"):
        assert errors.unknown_verb(unknown), unknown
