"""Naming the objects around the player without spaCy: jericho's ``_identify_interactive_objects`` with our own
tokenizer, used by the env's listing (``valid_actions``) and by the filter pool's workers (``filter_pool``).

>>> sorted(words_of("The quick brown fox, isn't it?"))
['brown', 'fox', "isn't", 'it', 'quick', 'the']
"""

from __future__ import annotations

import importlib
import re

__all__ = ["words_of", "candidate_names", "jericho_util"]

_WORD = re.compile(r"[a-z][a-z'\-]*")
_NOT_OBJECTS = set(
    "all this that these those my your it them me myself self you yourself him her here there a an the of in on to from with and or some "
    "north south east west northeast northwest southeast southwest up down inside outside ne nw se sw".split()
)


def words_of(text: str) -> set[str]:
    """Lower-case word tokens of ``text`` (our stand-in for spaCy's tokenizer)."""
    return set(_WORD.findall(text.lower()))


def _object_word(word: str, dictionary: dict[str, list[str]], cut: int) -> bool:
    pos = dictionary.get(word[:cut])
    if pos is None or len(word) < 2 or word in _NOT_OBJECTS:
        return False
    return ("noun" in pos or "adj" in pos) and "dir" not in pos and "prep" not in pos and "meta" not in pos


def jericho_util():
    """jericho's ``util`` module. Not ``from jericho import util``: jericho's ``__init__`` star-imports a module that
    star-imports ctypes, so once anything has imported ``ctypes.util`` the package attribute ``jericho.util`` is
    ctypes' module, not jericho's."""
    return importlib.import_module("jericho.util")


def candidate_names(frotz, dictionary: dict[str, list[str]]) -> tuple[list[str], set[str]]:
    """One name per examinable object around the player, and which of them the player carries.

    This is jericho's ``_identify_interactive_objects`` with our tokenizer in place of spaCy.
    """
    util = jericho_util()

    cut = max(len(word) for word in dictionary)
    state = frotz.get_state()
    texts = []
    for command in ("look", "inventory"):
        frotz.set_state(state)
        texts.append(util.clean(frotz.step(command)[0]))
    frotz.set_state(state)
    scored: dict[str, float] = {}
    carried: set[str] = set()
    for index, text in enumerate(texts):
        for word in sorted(words_of(text)):
            if _object_word(word, dictionary, cut):
                scored[word] = 1.0
                if index == 1:
                    carried.add(word)
    player = frotz.get_player_object()
    if player is not None and player.child:
        for obj in util.get_subtree(player.child, frotz.get_world_objects()):
            carried.update(obj.name.lower().split())
    location = frotz.get_player_location()
    if location is not None:
        for obj in util.get_subtree(location.child, frotz.get_world_objects()):
            if obj == player:
                continue
            words = obj.name.lower().split()
            for index, word in enumerate(words):
                if _object_word(word, dictionary, cut):
                    # the last word of an object's name is usually its noun
                    scored[word] = max(scored.get(word, 0.0), 1.1 if index == len(words) - 1 else 0.5)
    by_description: dict[str, list[str]] = {}
    room_text = texts[0]
    for word in sorted(scored):
        frotz.set_state(state)
        description = util.clean(frotz.step("examine " + word)[0])
        if not util.recognized(description) or description == room_text:
            continue
        by_description.setdefault(description, []).append(word)
    frotz.set_state(state)
    names, held = [], set()
    for _, group in sorted(by_description.items()):
        name = max(group, key=lambda w: (scored[w], -len(w), w))
        names.append(name)
        if carried.intersection(group):
            held.add(name)
    return sorted(names) + ["all"], held | {"all"}
