"""Valid actions for jericho games without spaCy, cached by world-state hash.

jericho's ``get_valid_actions`` finds object names with ``jericho.util.extract_objs``, which loads spaCy's
``en_core_web_sm`` (not on the package index; jericho tries to download it). Here the same pipeline runs with
our own tokenizer at that point: every word of the "look" and "inventory" texts that the game's own
dictionary marks as a noun or adjective is a candidate, as are the names of the objects around the player
in the object tree; jericho's filters do the rest (the word must be examinable; candidate actions from
jericho's templates are kept only when they change the world).

The filter plays one game turn per candidate, which is where a listing's time goes. With a pool of emulator
processes (``filter_pool``, ``$AGENTGYM_TEXT_JERICHO_WORKERS``) the candidates are split over its workers, and
``prefetch`` starts a new state's listing there right after a step; both give the listing of jericho's filter in
the env's own emulator (``_compute_reference``).

"""

from __future__ import annotations

import logging
import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor

from agentgym_text.envs.jericho.filter_pool import FilterPool, shared_pool
from agentgym_text.envs.jericho.object_names import candidate_names, jericho_util, words_of

__all__ = [
    "words_of",
    "candidate_names",
    "candidate_actions",
    "valid_actions",
    "prefetch",
    "prefetch_setting",
    "CACHE_SIZE",
]

logger = logging.getLogger(__name__)

CACHE_SIZE = 4096
PREFETCH_VARIABLE = "AGENTGYM_TEXT_JERICHO_PREFETCH"
_CACHE: OrderedDict[tuple[str, str, int], tuple[str, ...]] = OrderedDict()
_CACHE_LOCK = threading.Lock()  # envs in threads share the cache: a lookup must not meet another's eviction
_PENDING: dict[tuple[str, str, int], Future] = {}
"""Listings ``prefetch`` started, by key, until they are in the cache (under _CACHE_LOCK)."""
_WANTED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
"""Each game's latest prefetched key: a queued listing of a state its game has left is dropped."""
_PREFETCHER: ThreadPoolExecutor | None = None
_FILTER_LOCK = threading.Lock()
"""One thread at a time in jericho's C filter: it splits its input with libc's ``strtok``, whose saved position is
one per process, so two envs listing in threads at once played each other's candidates and crashed the process."""


def valid_actions(game, *, use_cache: bool = True) -> list[str]:
    """Actions that change the world from the current state, in a stable order (cached by world-state hash; a
    listing ``prefetch`` started for this state is waited for)."""
    frotz = game.frotz
    if frotz is None or frotz.game_over() or frotz.victory() or frotz.act_gen is None:
        return []
    key = game.listing_key()
    if use_cache:
        with _CACHE_LOCK:
            cached = _CACHE.get(key)
            if cached is not None:
                _CACHE.move_to_end(key)
                return list(cached)
            pending = _PENDING.get(key)
        if pending is not None:
            listed = _outcome(pending)
            if listed is not None:
                return list(listed)
    actions = _compute(frotz, game.dictionary(), shared_pool())
    _remember(key, actions)
    return actions


def _remember(key: tuple[str, str, int], actions: list[str]) -> None:
    with _CACHE_LOCK:
        _CACHE[key] = tuple(actions)
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)


def prefetch(game) -> bool:
    """Start the listing of the game's current state in the pool's workers and return (the caller's emulator is
    free to play on); whether one started. Nothing without a pool, for a listed state, or at the end of a game.
    A listing that has not started when its game has moved on is dropped."""
    pool = shared_pool()
    frotz = game.frotz
    if pool is None or frotz is None or frotz.game_over() or frotz.victory() or frotz.act_gen is None:
        return False
    key = game.listing_key()
    with _CACHE_LOCK:
        _WANTED[game] = key
        if key in _CACHE or key in _PENDING:
            return False
        job = (game, key, frotz.story_file.decode(), frotz.get_state(), frotz.act_gen.templates, pool)
        _PENDING[key] = _prefetcher().submit(_listing_in_background, *job)
    return True


def prefetch_setting() -> bool:
    """``$AGENTGYM_TEXT_JERICHO_PREFETCH``: whether envs start each new state's listing after a step (needs
    ``$AGENTGYM_TEXT_JERICHO_WORKERS``); a clear error on a value that is not yes or no."""
    value = os.environ.get(PREFETCH_VARIABLE, "").strip().lower()
    if value in ("", "0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise ValueError(f"{PREFETCH_VARIABLE} must be 1 or 0 (start each new state's listing after a step), not {value!r}")


def _prefetcher() -> ThreadPoolExecutor:
    global _PREFETCHER
    if _PREFETCHER is None:  # under _CACHE_LOCK
        _PREFETCHER = ThreadPoolExecutor(1, thread_name_prefix="jericho-prefetch")
    return _PREFETCHER


def _listing_in_background(game, key, path: str, state, templates: list[str], pool: FilterPool) -> tuple | None:
    try:
        with _CACHE_LOCK:
            if _WANTED.get(game) != key:
                return None
        found = pool.names(path, state)
        groups = None if found is None else pool.filter(path, state, candidate_actions(templates, *found))
        if groups is None:
            return None
        actions = _choose(groups.values())
        _remember(key, actions)
        return tuple(actions)
    finally:
        with _CACHE_LOCK:
            _PENDING.pop(key, None)


def _outcome(pending: Future) -> tuple | None:
    try:
        return pending.result()
    except Exception:  # the caller lists the state itself
        logger.warning("a prefetched jericho listing failed", exc_info=True)
        return None


def _compute(frotz, dictionary: dict[str, list[str]], pool: FilterPool | None = None) -> list[str]:
    """The listing; with ``pool`` the candidates are played by its workers (the same listing: ``_compute_reference``
    is the filter in this emulator)."""
    if pool is None:
        return _compute_reference(frotz, dictionary)
    names, held = candidate_names(frotz, dictionary)
    candidates = candidate_actions(frotz.act_gen.templates, names, held)
    groups = pool.filter(frotz.story_file.decode(), frotz.get_state(), candidates)
    if groups is None:  # an emulator halted or a worker died: jericho's filter here decides
        return _choose(_filter_here(frotz, candidates).values())
    return _choose(groups.values())


def _compute_reference(frotz, dictionary: dict[str, list[str]]) -> list[str]:
    """The listing with jericho's filter in this emulator (the one the pool's listing is tested against)."""
    names, held = candidate_names(frotz, dictionary)
    candidates = candidate_actions(frotz.act_gen.templates, names, held)
    return _choose(_filter_here(frotz, candidates).values())


def _filter_here(frotz, candidates: list[str]) -> dict:
    with _FILTER_LOCK:
        return frotz._filter_candidate_actions(candidates, use_ctypes=True, use_parallel=False)


def _choose(groups: Iterable[list[str]]) -> list[str]:
    """As jericho: the most common verb of each group of same-effect actions (ties: a named object rather than
    "all", then the shortest, then a-z), in a stable order."""
    util = jericho_util()
    return _stable(
        min(group, key=lambda a: (-util.verb_usage_count(a), "all" in a.split(), len(a.split()), a)) for group in groups
    )


def candidate_actions(templates: Iterable[str], names: list[str], held: set[str]) -> list[str]:
    """jericho's templates filled with the names; a two-object command only when one of its objects is carried.

    jericho tries every pair; most of those pairs name two fixtures of the room ("push wall to gate") and
    cost one emulator step each, so this keeps the pairs where the player holds one of the objects (or
    says "all"), which is where nearly every two-object command of these games lies.

    >>> candidate_actions(["wait", "take OBJ", "put OBJ in OBJ"], ["box", "key", "all"], {"key", "all"})
    ['wait', 'take box', 'take key', 'take all', 'put box in key', 'put box in all', 'put key in box', 'put key in all', 'put all in box', 'put all in key']
    """
    actions = []
    for template in templates:
        holes = template.count("OBJ")
        if holes == 0:
            actions.append(template)
        elif holes == 1:
            actions.extend(template.replace("OBJ", name) for name in names)
        elif holes == 2:
            for first in names:
                for second in names:
                    if first != second and (first in held or second in held):
                        actions.append(template.replace("OBJ", first, 1).replace("OBJ", second, 1))
    return actions


def _stable(actions: Iterable[str]) -> list[str]:
    return sorted(set(actions), key=lambda a: (len(a.split()), a))
