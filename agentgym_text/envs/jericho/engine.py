"""Adapter to jericho's ``FrotzEnv``: finding game files, checking them before frotz sees them, reading state.

Game files are never shipped: they come from ``game_dir=`` or ``$AGENTGYM_TEXT_JERICHO_DIR``. A file is checked
(Z-machine header, then its MD5 against jericho's supported-game table) before it reaches frotz, because frotz
can crash the process on a damaged file.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from pathlib import Path
from typing import NamedTuple

from agentgym_text.envs.jericho.actions import expand_abbreviations

__all__ = [
    "refused",
    "GAME_DIR_VARIABLE",
    "SUITE_URL",
    "GameFilesMissing",
    "UnsupportedGame",
    "GameState",
    "JerichoGame",
    "resolve_game_dir",
    "check_game_file",
    "dictionary_of",
]

GAME_DIR_VARIABLE = "AGENTGYM_TEXT_JERICHO_DIR"
INPUT_BUFFER_BYTES = 198
"""jericho's ``FrotzEnv.step`` sends at most this many bytes of a command."""
SUITE_URL = "https://github.com/BYU-PCCL/z-machine-games (folder jericho-game-suite)"


_REFUSALS: re.Pattern | None = None


def refused(text: str) -> bool:
    """Whether the game's parser refused a command (jericho's patterns, compiled once as one expression)."""
    global _REFUSALS
    if _REFUSALS is None:
        from jericho.defines import unrecognized

        _REFUSALS = re.compile("|".join(f"(?:{p.removeprefix('.*').removesuffix('.*')})" for p in unrecognized))
    if _REFUSAL_HINT.search(text) is None:
        return False
    return _REFUSALS.search(" ".join(text.replace("*", " ").replace("-", " ").split())) is not None


_REFUSAL_WORDS = ("recogni", "word", "can't", "clear", "missing", "examine", "refer")
"""One of these is in every refusal jericho knows (``jericho.defines.unrecognized``): most replies skip the
full patterns. A test checks that each pattern contains one."""
_REFUSAL_HINT = re.compile("|".join(_REFUSAL_WORDS))


class GameFilesMissing(FileNotFoundError, ValueError):
    """A game file (or the folder of game files) is not where the user pointed."""


class UnsupportedGame(ValueError):
    """A file that is not a Z-machine game jericho supports (unknown hash, damaged or not a story file)."""


def resolve_game_dir(game_dir: str | os.PathLike | None) -> Path:
    """``game_dir``, else ``$AGENTGYM_TEXT_JERICHO_DIR``; a clear error when neither names a folder."""
    chosen = game_dir if game_dir is not None else os.environ.get(GAME_DIR_VARIABLE)
    if not chosen:
        raise GameFilesMissing(
            f"Jericho needs its game files: pass gym.make(..., game_dir='<folder>') or set {GAME_DIR_VARIABLE}; "
            f"the 20 games are in {SUITE_URL}."
        )
    path = Path(chosen).expanduser()
    if not path.is_dir():
        raise GameFilesMissing(f"Jericho game folder {path} does not exist; the games are in {SUITE_URL}.")
    return path


def check_game_file(path: Path, expected_md5: str | None = None) -> str:
    """The MD5 of a playable game file; ``GameFilesMissing`` or ``UnsupportedGame`` with a one-line reason."""
    if not path.is_file():
        raise GameFilesMissing(f"Jericho game file {path} is missing; get it from {SUITE_URL}.")
    data = path.read_bytes()
    if len(data) < 64 or data[0] not in range(1, 9):
        raise UnsupportedGame(f"{path} is not a Z-machine story file (bad header); get the game from {SUITE_URL}.")
    md5 = hashlib.md5(data).hexdigest()
    from jericho.defines import BINDINGS_DICT

    if expected_md5 is not None and md5 != expected_md5:
        raise UnsupportedGame(
            f"{path} is not the release jericho supports (md5 {md5}, expected {expected_md5}); get it from {SUITE_URL}."
        )
    if md5 not in BINDINGS_DICT:
        raise UnsupportedGame(
            f"{path} is not a game jericho supports (md5 {md5} is not in its table), or the file is damaged; "
            "jericho reads score and actions only for the games it knows."
        )
    return md5


class GameState(NamedTuple):
    """What progress reads after every action: cheap ctypes reads, no text (a tuple: built every step)."""

    score: int
    location: int
    location_name: str
    inventory: tuple[int, ...]
    inventory_names: tuple[str, ...]
    moves: int


_GAME_FILES: dict[str, tuple] = {}
"""jericho's per-game load cache (the file's bytes, its bindings and its action-template generator), one for every
emulator of the process: building a game's templates costs ~0.2 s, and jericho keeps the cache per ``FrotzEnv``, so
a runner slot that plays several games would pay it for every game in every slot. What is cached is only read after
it is built (tests/test_thread_safety.py plays the games from several threads)."""
_GAME_FILES_BUILT = threading.Lock()
"""Held while a game's cache entry is built, so slots that start the same game at once build it once."""
_DICTIONARIES: dict[str, dict[str, list[str]]] = {}
"""Per game MD5: its dictionary (``dictionary_of``), read once per process."""
_LONGEST_WORDS: dict[str, int] = {}
_WALKTHROUGHS: dict[str, tuple[str, ...]] = {}


def _frotz_class():
    """jericho's ``FrotzEnv`` with its load cache shared by the process (``_GAME_FILES``): ``FrotzEnv.__init__``
    assigns ``self._cache = {}`` before its first load, so the shared dict stands behind a property."""
    from jericho import FrotzEnv

    class SharedCacheFrotz(FrotzEnv):
        @property
        def _cache(self) -> dict[str, tuple]:
            return _GAME_FILES

        @_cache.setter
        def _cache(self, value: dict) -> None:
            pass

        def load(self, story_file: str, seed: int | None = None) -> None:
            if story_file in _GAME_FILES:
                super().load(story_file, seed)
            else:
                with _GAME_FILES_BUILT:
                    super().load(story_file, seed)
            # jericho sets this flag only when its cache misses
            self.is_fully_supported = bool(self.frotz_lib.is_supported(self.story_file))

    return SharedCacheFrotz


class JerichoGame:
    """One frotz emulator playing one game file at a time (``load`` switches games)."""

    _frotz_type = None

    def __init__(self) -> None:
        self.frotz = None
        self.path: Path | None = None
        self.md5 = ""
        from ctypes import byref

        from jericho.jericho import ZObject

        self._record = ZObject()
        self._pointer = byref(self._record)

    def load(self, path: Path, md5: str, seed: int | None) -> str:
        """Start ``path`` with the emulator's RNG seeded from ``seed`` (None: jericho's default, the walkthrough's
        seed, as AgentBoard's ``FrotzEnv(game_file)``); returns the opening text."""
        if JerichoGame._frotz_type is None:
            JerichoGame._frotz_type = _frotz_class()
        # jericho reads seed 0 as "the walkthrough's seed"; keep 0 distinct from it.
        engine_seed = None if seed is None else seed if seed > 0 else 2**31 - 1
        # No warning filter: jericho's load-time UnsupportedGameWarning is for games outside its table, which
        # check_game_file already refuses (jericho recognises a game by content, so a renamed copy is fine too).
        if self.frotz is None:
            self.frotz = JerichoGame._frotz_type(str(path), seed=engine_seed)
        else:
            self.frotz.close()
            self.frotz.load(str(path), seed=engine_seed)
        self.path, self.md5 = path, md5
        observation, _ = self.frotz.reset()
        return observation

    def step(self, command: str) -> str:
        """The game's reply to ``command``, cut to frotz's input buffer as jericho's ``FrotzEnv.step`` cuts it."""
        assert self.frotz is not None
        return self.frotz.frotz_lib.step(command.encode("utf-8")[:INPUT_BUFFER_BYTES] + b"\n").decode("cp1252")

    def state(self, names: bool = False, inventory: bool = True) -> GameState:
        """Score, room and carried objects (their names only with ``names``: reading them costs time; no
        objects at all without ``inventory``: each one is a call into the emulator)."""
        frotz = self.frotz
        assert frotz is not None
        if names:
            return self._named_state()
        # One reused ctypes record instead of jericho's get_object (a new record per call): this runs every step.
        read, record, pointer = frotz.frotz_lib.get_object, self._record, self._pointer
        read(pointer, frotz.player_obj_num)
        if record.num < 0:
            location, carried_objects = 0, ()
        elif not inventory:
            location, carried_objects = record.parent, ()
        else:
            location, child, carried = record.parent, record.child, []
            while child > 0:
                carried.append(child)
                read(pointer, child)
                if record.num < 0:
                    break
                child = record.sibling
            carried_objects = tuple(carried)
        return GameState(
            score=int(frotz.frotz_lib.get_score()),
            location=int(location),
            location_name="",
            inventory=carried_objects,
            inventory_names=(),
            moves=int(frotz.frotz_lib.get_moves()),
        )

    def _named_state(self) -> GameState:
        state = self.state()
        frotz = self.frotz
        location = frotz.get_object(state.location) if state.location else None
        names = tuple(_display_name(frotz.get_object(number).name) for number in state.inventory)
        return state._replace(
            location_name=_display_name(location.name) if location is not None else "", inventory_names=names
        )

    def max_score(self) -> int:
        assert self.frotz is not None
        return int(self.frotz.get_max_score())

    def walkthrough(self) -> list[str]:
        """jericho's walkthrough of the game, abbreviations expanded (``expand_abbreviations``)."""
        assert self.frotz is not None
        if self.md5 not in _WALKTHROUGHS:
            _WALKTHROUGHS[self.md5] = tuple(expand_abbreviations(command) for command in self.frotz.get_walkthrough())
        return list(_WALKTHROUGHS[self.md5])

    def game_over(self) -> bool:
        assert self.frotz is not None
        return self.frotz.frotz_lib.game_over() > 0

    def victory(self) -> bool:
        assert self.frotz is not None
        return self.frotz.frotz_lib.victory() > 0

    def dictionary(self) -> dict[str, list[str]]:
        """The parser's words with their parts of speech (noun, verb, prep, dir, adj, ...)."""
        assert self.frotz is not None
        if self.md5 not in _DICTIONARIES:
            _DICTIONARIES[self.md5] = dictionary_of(self.frotz)
        return _DICTIONARIES[self.md5]

    def longest_word(self) -> int:
        """The length of the dictionary's longest word (the parser reads no more of a word)."""
        if self.md5 not in _LONGEST_WORDS:
            _LONGEST_WORDS[self.md5] = max(len(word) for word in self.dictionary())
        return _LONGEST_WORDS[self.md5]

    def world_changed(self) -> bool:
        """Whether the last step changed the world: jericho's cleaned diff of the object tree and its special RAM.
        Not jericho's ``_world_changed`` flag: it also counts attributes a parser sets while it reads a command
        (reverb's "jill" sets it and is refused)."""
        assert self.frotz is not None
        # the flag is one C call; the cleaned diff (numpy arrays) only where the flag says something moved
        return self.frotz.frotz_lib.world_changed() > 0 and any(self.frotz._get_world_diff())

    def snapshot(self):
        """The emulator's whole state (memory, stack, random generator) for ``restore``."""
        assert self.frotz is not None
        return self.frotz.get_state()

    def restore(self, snapshot) -> None:
        assert self.frotz is not None
        self.frotz.set_state(snapshot)

    def header(self) -> tuple[int, str]:
        """The story file's Z-machine version and its dictionary's word separators (read from the file)."""
        assert self.path is not None
        data = self.path.read_bytes()
        dictionary = int.from_bytes(data[8:10], "big")
        count = data[dictionary]
        return data[0], data[dictionary + 1 : dictionary + 1 + count].decode("latin-1")

    def world_hash(self) -> str:
        assert self.frotz is not None
        return self.frotz.get_world_state_hash()

    def listing_key(self) -> tuple[str, str, int]:
        """What the valid-action listing of the current state depends on: the game, its world-state hash and where
        the game waits for input. jericho's hash covers only the object tree, and a game in a menu (night's
        "allhints") has the world of the room it was opened in but waits at another read, where no command
        changes the world; play at the main prompt waits at one read, so a revisited state keeps its key."""
        assert self.frotz is not None
        return self.md5, self.frotz.get_world_state_hash(), int(self.frotz.frotz_lib.getPC())

    def close(self) -> None:
        if self.frotz is not None:
            self.frotz.close()
            self.frotz = None


def dictionary_of(frotz) -> dict[str, list[str]]:
    """A ``FrotzEnv``'s game's dictionary: each word with its parts of speech."""
    return {word.word: word.pos() for word in frotz.get_dictionary()}


def _display_name(name: str) -> str:
    """Object names as players read them ("West House" -> "West of House" is not recoverable; keep it)."""
    return " ".join(name.split())
