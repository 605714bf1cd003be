"""Whether the game's parser refused a command, by a rule that does not depend on the game's wording.

A reply holding one of jericho's stock refusals ("You can't see any such thing.", ``engine.refused``) is a refusal.
Otherwise, a parser error takes no turn and changes nothing in the world (jericho's cleaned world diff of the step
is empty); of the steps that do neither, a command is refused when

- its first word, read as the Z-machine reads it (lower case, split at spaces and at the dictionary's separators,
  cut to the dictionary's word length in Z-characters), is not in the game's dictionary: the parser cannot know it
  as a verb (no word at all, a number, "__import__('os')", "<script>");
- or the reply is one of the game's own parser-error replies, learned when the game file is first loaded: a few
  commands that cannot parse are played from the opening state, which is then restored, and each reply is kept as
  a template with the words it echoes wildcarded ("I only understood you as far as wanting to wait." then matches
  "I only understood you as far as wanting to drop the four-legged thing.").

Replies are learned once per game file (its MD5) in a process.

>>> dictionary_form("Four-Legged", version=5)
'four-leg'
>>> first_word('"hello", said I', '.,"')
'"'
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass

from agentgym_text.envs.jericho.engine import JerichoGame
from agentgym_text.envs.jericho.engine import refused as stock_refusal

__all__ = ["ParserErrors", "parser_errors", "learn", "dictionary_form", "first_word"]

_NONSENSE = ("zzqxv", "qxzzv", "vzqxz")
"""Words no game's dictionary holds (the first absent one is used); five letters, so no game cuts them."""
_INTRANSITIVE = ("wait", "inventory", "look", "jump")
_TRANSITIVE = ("take", "get", "examine", "drop")
_MIN_LITERAL_LETTERS = 8
"""A template needs this much of the game's own text: one that is mostly echo would match anything."""
_A2 = "0123456789.,!?_#'\"/\\-:()"
"""The Z-machine's third alphabet (versions 2+): each of these costs two Z-characters, other non-letters four."""

_LEARNED: dict[str, ParserErrors] = {}
_LOCK = threading.Lock()


def dictionary_form(word: str, version: int) -> str:
    """``word`` as the game's dictionary stores it: lower case, cut to 6 Z-characters (9 from version 4 on)."""
    budget = 6 if version <= 3 else 9
    kept = []
    for char in word.lower():
        cost = 1 if "a" <= char <= "z" else 2 if char in _A2 else 4
        budget -= cost
        if budget < 0:
            break
        kept.append(char)
    return "".join(kept)


def first_word(command: str, separators: str) -> str:
    """The first word the Z-machine's tokenizer reads in ``command`` (a separator is a word of its own); ""
    when there is none."""
    text = command.lstrip(" ")
    if not text:
        return ""
    if text[0] in separators:
        return text[0]
    end = len(text)
    for index, char in enumerate(text):
        if char == " " or char in separators:
            end = index
            break
    return text[:end]


@dataclass(frozen=True)
class ParserErrors:
    """One game's parser errors: its dictionary, how it reads a word, and its learned parser-error replies."""

    words: frozenset[str]
    version: int
    separators: str
    replies: tuple[re.Pattern[str], ...]

    def unknown_verb(self, command: str) -> bool:
        word = first_word(command, self.separators)
        return not word or dictionary_form(word, self.version) not in self.words

    def known_reply(self, reply: str) -> bool:
        text = " ".join(reply.split())
        return any(pattern.search(text) for pattern in self.replies)

    def refused(self, command: str, reply: str, game: JerichoGame, *, turn_taken: bool) -> bool:
        """Whether the parser refused ``command``, just played in ``game`` (``turn_taken``: the step moved the
        turn counter, the score, the player or what it carries). The world diff is read last: it costs most."""
        if stock_refusal(reply):
            return True
        if turn_taken or not (self.unknown_verb(command) or self.known_reply(reply)):
            return False
        return not game.world_changed()


def parser_errors(game: JerichoGame) -> ParserErrors:
    """The loaded game's ``ParserErrors``, learned on its first load in this process (``learn``)."""
    with _LOCK:
        known = _LEARNED.get(game.md5)
    if known is None:
        known = learn(game)
        with _LOCK:
            _LEARNED[game.md5] = known
    return known


def learn(game: JerichoGame) -> ParserErrors:
    """Play commands that cannot parse from the current state and keep the replies as templates; the state is
    restored. A reply is kept only from a step that took no turn and changed nothing, and a template is dropped
    when it matches the reply to "look" or "inventory" (valid commands) from the same state."""
    version, separators = game.header()
    words = frozenset(game.dictionary())
    unknown = next((word for word in _NONSENSE if word not in words), _NONSENSE[0])
    probes = [unknown, unknown, "99999"]  # the same error twice: some games add a tip to the first one only
    probes += [f"{verb} {unknown}" for verb in (_pick(_INTRANSITIVE, words), _pick(_TRANSITIVE, words)) if verb]
    start = game.snapshot()
    templates: list[str] = []
    try:
        for probe in probes:
            before = game.state(inventory=False)
            reply = game.step(probe)
            if game.world_changed() or game.state(inventory=False) != before:
                game.restore(start)
                continue
            template = _template(reply, probe.split())
            if template is not None and template not in templates:
                templates.append(template)
        valid_replies = []
        for command in ("look", "inventory"):
            game.restore(start)
            valid_replies.append(" ".join(game.step(command).split()))
    finally:
        game.restore(start)
    patterns = [re.compile(template) for template in templates]
    kept = tuple(p for p in patterns if not any(p.search(reply) for reply in valid_replies))
    return ParserErrors(words=words, version=version, separators=separators, replies=kept)


def _pick(verbs: Iterable[str], words: frozenset[str]) -> str | None:
    return next((verb for verb in verbs if verb in words), None)


def _template(reply: str, echoes: list[str]) -> str | None:
    """A regular expression for ``reply`` with each echo of ``echoes`` (any case, as a whole word) a wildcard;
    None when too little of the game's own text is left."""
    text = " ".join(reply.split())
    alternatives = "|".join(re.escape(word) for word in sorted(set(echoes), key=len, reverse=True))
    parts = re.split(rf"(?<![A-Za-z0-9])(?:{alternatives})(?![A-Za-z0-9])", text, flags=re.IGNORECASE)
    literals = [part for part in parts if part.strip()]
    if sum(char.isalpha() for part in literals for char in part) < _MIN_LITERAL_LETTERS:
        return None
    return ".+?".join(re.escape(part) for part in literals)
