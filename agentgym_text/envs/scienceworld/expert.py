"""The ScienceWorld expert: the instance's gold path, re-aligned to the current state after the agent's detours.

The simulator generates gold paths only from a task's first state (``gold_paths.py`` builds the shipped ones), so
the expert cannot plan from an arbitrary state. Instead it follows what the agent did, action by action:

- an action that is the next gold action advances the gold path;
- an action that changed nothing (a look, a refusal, a parse error) is ignored;
- an action with a known inverse is recorded with it (moving between rooms: going back; open/close,
  activate/deactivate, pick up/put down, connect/disconnect), and the expert first undoes the detour, last
  action first, in the room where each inverse applies; only doors, wires and the objects the rest of the gold
  path names are put back (every step lets time pass, which matters for tasks that wait on living things);
- re-alignment: when the detour holds only moves between rooms, the expert drops it and jumps to the furthest
  point of the gold path that navigation alone reaches from the current room (the longest gold suffix that
  applies here), e.g. the agent walked ahead to where the gold path goes next;
- after an action that cannot be undone (pour, dunk, mix, move an object into a container, use, eat, flush,
  focus, disconnect, an answer to an "Ambiguous request" other than a look, waiting) the expert carries on with
  the gold path, which still succeeds when the detour did not touch what the task needs.

What the gold path says is adapted to the current state before it is proposed:

- a gold action the simulator would refuse as a no-op is replaced by a look at its object, which takes the same
  one time step, so the world keeps the gold path's clock (plants and animals grow by it): "open X" ("close X")
  where X is already open (closed), read from the simulator's answers, starting from the load's simplifications
  (``openDoors``, ``openContainers``: everything openable starts open); "activate X" ("deactivate X") where X is
  broken or already in that state, read from the simulator's object tree (no text shows that a stove is broken);
- an "Ambiguous request" that the expert's own action raised is answered: with the option on the objects it
  meant, else the gold path's answer, else the option that shares most words with the action;
- given the simulator's current listing (AgentBoard's text, where an action is valid when listed), a gold action
  that is not listed is replaced by the listed combination of the same verb on the objects its words name, read
  as the simulator's parser reads them (``listing.py``; where the gold path answered a question after it, the
  option it chose). The listing changes how the world goes on (measured: bees fly elsewhere), so this world can
  differ from the gold run's: a gold action naming objects the listing does not show is skipped (it could only
  be refused), and a "focus on" an object not shown yet (a fruit, a life stage) waits one step at a time, up to
  ``MAX_FOCUS_WAITS``, pollinating a flower by hand meanwhile where one is not pollinated yet.

It cannot recover, and ``next_action`` returns None with the reason logged (``gave_up`` holds it), when the
gold path is played out without success, or when the object a gold "focus on" names is no longer found (it was
poured, mixed, eaten or moved away, or a plant or animal grew into another stage while the agent was away). Gold
actions whose objects are gone are otherwise passed over (in the clear format, once the simulator refused them):
the rest of the path often still succeeds. A focus on a
wrong object ends the episode (the simulator fails the task), so the expert is not asked again. Timing is not
restored: every detour step lets time pass, which can change tasks that wait on living things (bees, plants).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from agentgym_text.core.info import InvalidReason
from agentgym_text.envs.scienceworld.actions import normalise
from agentgym_text.envs.scienceworld.engine import DeviceState
from agentgym_text.envs.scienceworld.listing import (
    Combination,
    ObjectIndex,
    hand_pollination,
    listed_equivalent,
    readings,
)

__all__ = ["MAX_FOCUS_WAITS", "GoldPathExpert", "WorldReads", "room_after"]

logger = logging.getLogger(__name__)

_ROOM_CALLED = re.compile(r"This room is called the ([^.]+)\.")
_MOVED_TO_ROOM = re.compile(r"^You move (?:through the door )?to the ([^.]+)\.", re.MULTILINE)
_MOVED_OBJECT = re.compile(r"^You move the (.+) to the ([^.]+)\.$")
_CONNECTED = re.compile(r"^\S+(?: \d+)? on (.+?) is now connected to ")
_NO_EFFECT_VERBS = ("look around", "look at", "look in", "look", "examine", "read", "inventory", "task")
_INVERSE_VERBS = {"open": "close", "close": "open", "activate": "deactivate", "deactivate": "activate"}
_OPENED = ("now open.", "already open.")
_CLOSED = ("now closed.", "already closed.")
_DOOR_SEEN = re.compile(r"A door to the ([^(\n]+?) \(that is (open|closed)\)")
_OPTION = re.compile(r"^(\d+):\s*(.+)$", re.MULTILINE)
_INSIDE = re.compile(r" (?:in|on) ")
MAX_FOCUS_WAITS = 40
"""Steps the expert waits for the object of a gold "focus on" to show in the listing before it sends the gold
words as they are."""


class WorldReads(Protocol):
    """Reads of the simulator's state that let no time pass (``ScienceWorldEngine`` has them)."""

    def devices_in(self, room: str) -> Mapping[str, DeviceState]: ...

    def object_index(self) -> ObjectIndex: ...


def room_after(observation: str, room: str) -> str:
    """The room the agent is in after ``observation`` (``room`` when the observation shows no move).

    >>> room_after("You move to the kitchen.", "hallway"), room_after("The door is now open.", "hallway")
    ('kitchen', 'hallway')
    """
    moved = _MOVED_TO_ROOM.search(observation)
    return moved.group(1) if moved else room


def _verb(action: str) -> str:
    for verb in (
        "look around",
        "look at",
        "look in",
        "pick up",
        "put down",
        "go to",
        "focus on",
        "turn on",
        "turn off",
    ):
        if action.startswith(verb + " ") or action == verb:
            return verb
    return action.split(" ", 1)[0]


@dataclass(frozen=True)
class _Undo:
    """An action that undoes one detour step; done last first, each is done in the room where its step was."""

    action: str
    is_move: bool = False


@dataclass(frozen=True)
class _StandIn:
    """An action proposed in place of gold action ``index``; ``advances`` False for a step before it (a wait)."""

    action: str
    index: int
    advances: bool = True


@dataclass(frozen=True)
class _Asked:
    """An "Ambiguous request" raised by an action the expert proposed, and the objects it meant (if known)."""

    action: str
    options: tuple[str, ...]
    objects: tuple[int, ...] = ()


def _options(question: str) -> tuple[str, ...]:
    """The options of an "Ambiguous request", in their numbered order."""
    return tuple(text for _, text in sorted((int(number), text) for number, text in _OPTION.findall(question)))


def _best_option(action: str, options: Sequence[str]) -> int:
    """The option sharing most words with the action that raised the question (the first on a tie).

    >>> _best_option("drop sodium chloride", ["put down sodium chloride (in workshop)", "put down orange"])
    0
    """
    words = set(action.split())
    shared = [len(words & set(re.sub(r"[(),]", " ", option).split())) for option in options]
    return max(range(len(options)), key=lambda k: (shared[k], -k)) if options else 0


def _named_as(combination: Combination | None) -> tuple[str, tuple[int, ...]] | None:
    if combination is None:
        return None
    return str(combination["action"]), tuple(int(uid) for uid in combination["obj_ids"])


class GoldPathExpert:
    """Follows the agent along a gold path and returns the next action that leads to success from here.

    ``starts_open``: the load opens every door and container (AgentBoard's ``openDoors`` and
    ``openContainers``), so whatever the expert has not seen closed is open. ``world``: the simulator's state,
    read when a gold action switches a device (is it broken?) or names objects the listing names otherwise.

    >>> expert = GoldPathExpert(["go to kitchen", "focus on water"], "This room is called the hallway.")
    >>> expert.observe("go to bedroom", "You move to the bedroom.")
    >>> expert.next_action()
    'go to hallway'
    >>> expert.observe("go to kitchen", "You move to the kitchen.")  # walked ahead: re-aligned
    >>> expert.next_action()
    'focus on water'
    >>> GoldPathExpert(["open door to kitchen"], "").next_action()  # already open: look at it for the time step
    'look at door to kitchen'
    """

    def __init__(
        self,
        gold_actions: Sequence[str],
        first_observation: str,
        starts_open: bool = True,
        world: WorldReads | None = None,
    ) -> None:
        self.gold = [normalise(action) for action in gold_actions]
        start = _ROOM_CALLED.search(first_observation)
        self.room = start.group(1) if start else ""
        self._rooms = self._gold_rooms(self.room)
        self.index = 0
        self._undo: list[_Undo] = []
        self._question: str | None = None
        self._asked: _Asked | None = None
        self._proposed: tuple[str, tuple[int, ...]] | None = None
        self._stand_in: _StandIn | None = None
        self._focus_waits = 0
        self._starts_open = starts_open
        self._world = world
        self._open: dict[str, bool] = {}
        self._track_doors(first_observation)
        self.compromised: str | None = None
        """The first detour action the expert could not undo (it then hopes the gold path still works)."""
        self.gave_up: str | None = None
        """Why the expert returns None (set once; logged)."""

    # ---- what the expert proposes ---------------------------------------------------------------------
    def next_action(self, choice_count: int = 0, listing: Sequence[Combination] | None = None) -> str | None:
        """The next action, or None when no action of the gold path leads to success from here.

        ``choice_count``: options of the question the simulator waits on (0: none). ``listing``: the simulator's
        action-object combinations of the current state (while it waits on a question: its options), where
        actions must be named as listed (None: any name the simulator understands will do).
        """
        if self.gave_up:
            return None
        if self._undo:
            return self._undo[-1].action
        answer = self._answer(choice_count, listing)
        if answer is not None:
            return answer
        self._skip_unasked_answers(choice_count)
        combinations = None if choice_count else listing  # a question's listing holds only its options
        while self.index < len(self.gold):
            proposal = self._propose(self.gold[self.index], combinations)
            if proposal is not None:
                return proposal
            logger.debug("ScienceWorld expert: skips %r (none of its objects is here)", self.gold[self.index])
            self.index += 1
            self._skip_unasked_answers(choice_count)
        self._give_up("the gold path is played out and the task is not complete")
        return None

    # ---- what the agent did ---------------------------------------------------------------------------
    def observe(
        self, action: str, observation: str, refusal: InvalidReason | None = None, choice_count: int = 0
    ) -> None:
        """Record an action the simulator answered (``refusal`` when it refused it) and its observation.

        ``choice_count`` is the number of options of the question pending before the action (0: none).
        """
        action = normalise(action)
        question, self._question = self._question, None
        asked, self._asked = self._asked, None
        proposed, self._proposed = self._proposed, None
        stand_in, self._stand_in = self._stand_in, None
        self._track_openables(action, observation)
        self._skip_unasked_answers(choice_count)
        new_room = room_after(observation, self.room) if refusal is None else self.room
        if self._undo and action == self._undo[-1].action:
            self._undo.pop()
            if refusal is not None:
                logger.debug("ScienceWorld expert: undoing %r was refused: %s", action, observation[:120])
        elif stand_in is not None and action == stand_in.action and not self._undo:
            self._take_stand_in(stand_in, refusal)
        elif not self._undo and self.index < len(self.gold) and action == self.gold[self.index]:
            self._take_gold(action, refusal)
        elif asked is not None and choice_count and action.isdigit():
            pass  # the expert's answer to its own question: the step it asked about is already counted
        elif refusal is None:
            self._record_detour(action, observation, new_room, question)
        if refusal is None and observation.startswith("Ambiguous request"):
            self._question = action
            if proposed is not None and proposed[0] == action:
                self._asked = _Asked(action, _options(observation), proposed[1])
        self.room = new_room
        self._realign()

    # ---- proposing: the gold action adapted to the current state --------------------------------------
    def _propose(self, action: str, listing: Sequence[Combination] | None) -> str | None:
        """The action to take for gold ``action``; None when it names objects the listing does not show (in this
        world the gold run's seeds and plants can differ: it could only be refused)."""
        wanted = self._looked_at_instead(action) or action
        proposal = self._named(wanted, listing)
        advances = True
        if proposal is None and wanted.startswith("focus on ") and self._focus_waits < MAX_FOCUS_WAITS:
            # nothing listed is what the gold path focuses on: not grown or born yet in this world's schedule
            self._focus_waits += 1
            proposal, advances = self._help_grow(listing) or ("wait1", ()), False
        if proposal is None and not wanted.startswith(("focus on ", "go to ")):
            return None
        text, objects = proposal or (wanted, ())
        self._proposed = (text, objects)
        if text != action:
            self._stand_in = _StandIn(text, self.index, advances)
        return text

    def _answer(self, choice_count: int, listing: Sequence[Combination] | None) -> str | None:
        """The number that answers a question the expert's own action raised (None: no such question pending,
        or the gold path's next action is its answer)."""
        asked = self._asked
        if not choice_count or asked is None:
            return None
        # while a question waits, the listing holds its options (their objects in another order than the action's)
        for number, option in enumerate(listing or ()):
            if asked.objects and sorted(option.get("obj_ids", ())) == sorted(asked.objects):
                return str(number)
        if self._gold_answers_next():
            return None
        return str(_best_option(asked.action, asked.options[:choice_count]))

    def _help_grow(self, listing: Sequence[Combination] | None) -> tuple[str, tuple[int, ...]] | None:
        """Pollinate a flower by hand while waiting for a fruit (bees may have flown off in this world)."""
        if self._world is None or not listing:
            return None
        return _named_as(hand_pollination(listing, self._world.object_index()))

    def _looked_at_instead(self, action: str) -> str | None:
        """ "look at X" when the gold action would be refused: it opens (closes) an X already open (closed), or
        switches a device that is broken or already in that state."""
        verb, _, target = action.partition(" ")
        if verb in ("open", "close") and target:
            holds = self._is_open(target) == (verb == "open")
        elif verb in ("activate", "deactivate") and target and self._world is not None:
            device = self._world.devices_in(self.room).get(_INSIDE.split(target, maxsplit=1)[0])
            holds = device is not None and (device.broken or device.activated == (verb == "activate"))
        else:
            return None
        return f"look at {target}" if holds else None

    def _named(self, action: str, listing: Sequence[Combination] | None) -> tuple[str, tuple[int, ...]] | None:
        """``action`` as the listing names it, with the objects it means; None when it is not listed and names
        no listed object."""
        readable = readings(action)
        if listing is None or self._world is None or not listing or not readable:
            return action, ()
        if any("door" in phrase for _, phrases in readable for phrase in phrases):
            return action, ()  # doors are not in the object tree, so the index cannot name them
        listed = next((entry for entry in listing if entry["action"] == action), None)
        if listed is not None:
            return _named_as(listed)
        answer = self._gold_answer_after(action)
        return _named_as(listed_equivalent(action, listing, self._world.object_index(), answer))

    def _gold_answer_after(self, action: str) -> int | None:
        """The option the gold path chose where ``action`` (its next step) asked which objects were meant."""
        following = self.index + 1
        if self.gold[self.index : following] == [action] and following < len(self.gold):
            return int(self.gold[following]) if self.gold[following].isdigit() else None
        return None

    def _gold_answers_next(self) -> bool:
        return self.index < len(self.gold) and self.gold[self.index].isdigit()

    # ---- following: the agent's action against the path ----------------------------------------------
    def _take_gold(self, action: str, refusal: InvalidReason | None) -> None:
        self.index += 1
        self._focus_waits = 0
        if refusal == InvalidReason.UNKNOWN_OBJECT and action.startswith("focus on "):
            self._give_up(
                f"the simulator no longer finds the object the task asks to focus on ({action!r}; "
                f"first detour step that could not be undone: {self.compromised!r})"
            )

    def _take_stand_in(self, stand_in: _StandIn, refusal: InvalidReason | None) -> None:
        if stand_in.index == self.index and stand_in.advances:
            self._take_gold(stand_in.action, refusal)

    def _record_detour(self, action: str, observation: str, new_room: str, question: str | None) -> None:
        if new_room != self.room:
            self._undo.append(_Undo(f"go to {self.room}", is_move=True))
            return
        effective = question if action.isdigit() and question else action
        verb = _verb(effective)
        if verb in _NO_EFFECT_VERBS or observation.startswith("Ambiguous request"):
            return
        if action.isdigit():  # an answer carried out an action on an object we cannot name again reliably
            self._compromise(f"{effective} (answer {action})")
            return
        target = effective[len(verb) :].strip()
        if verb in _INVERSE_VERBS and observation.endswith(
            ("now open.", "now closed.", "now activated.", "now deactivated.")
        ):
            if "door" in target or self._needed(target):
                self._undo.append(_Undo(f"{_INVERSE_VERBS[verb]} {target}"))
            return
        moved = _MOVED_OBJECT.match(observation.strip())
        if moved and verb in ("pick up", "move", "take", "get") and moved.group(2) == "inventory":
            if self._needed(moved.group(1)):
                self._undo.append(_Undo(f"put down {moved.group(1)}"))
            return
        if moved and verb in ("put down", "drop") and moved.group(2) == self.room:
            if self._needed(moved.group(1)):
                self._undo.append(_Undo(f"pick up {moved.group(1)}"))
            return
        connected = _CONNECTED.match(observation.strip())
        if verb == "connect" and connected and not self._used_by_gold(connected.group(1)):
            # the simulator disconnects whole objects only: safe while the gold path has not wired that object
            self._undo.append(_Undo(f"disconnect {connected.group(1)}"))
            return
        self._compromise(effective)

    # ---- what is open ---------------------------------------------------------------------------------
    def _is_open(self, target: str) -> bool:
        return self._open.get(target, self._starts_open)

    def _track_openables(self, action: str, observation: str) -> None:
        """What the simulator's answer says about open and closed things (any actor's action)."""
        verb, _, target = action.partition(" ")
        answer = observation.strip()
        if verb in ("open", "close") and target and answer.endswith(_OPENED + _CLOSED):
            self._open[target] = answer.endswith(_OPENED)
        self._track_doors(observation)

    def _track_doors(self, observation: str) -> None:
        for room, state in _DOOR_SEEN.findall(observation):
            self._open[f"door to {room}"] = state == "open"

    # ---- the path -------------------------------------------------------------------------------------
    def _needed(self, name: str) -> bool:
        """Whether the rest of the gold path names this object (else undoing it would only let time pass)."""
        return any(name in action for action in self.gold[self.index :])

    def _used_by_gold(self, name: str) -> bool:
        return any(name in action for action in self.gold[: self.index])

    def _compromise(self, action: str) -> None:
        if self.compromised is None:
            self.compromised = action
            logger.debug("ScienceWorld expert: cannot undo %r; carrying on with the gold path", action)

    def _realign(self) -> None:
        """Drop a detour of room moves only, and skip gold moves, when navigation alone reaches the gold path."""
        if any(not undo.is_move for undo in self._undo):
            self._cut_loop()
            return
        for j in range(self.index, len(self.gold) + 1):
            if self._rooms[j] == self.room:
                self._undo.clear()
                self.index = j
                return
            if j < len(self.gold) and not self.gold[j].startswith(("go to ", "look around")):
                break
        self._cut_loop()

    def _cut_loop(self) -> None:
        """Walk back the way the agent came without the loops of its detour (only across moves)."""
        moves_from = len(self._undo)
        while moves_from and self._undo[moves_from - 1].is_move:
            moves_from -= 1
        for depth in range(moves_from, len(self._undo)):
            if self._undo[depth].action == f"go to {self.room}":
                del self._undo[depth:]
                return

    def _gold_rooms(self, start: str) -> list[str]:
        """The room the agent is in before each gold action (and after the last), assuming every move works."""
        rooms = [start]
        for action in self.gold:
            rooms.append(action[len("go to ") :] if action.startswith("go to ") else rooms[-1])
        return rooms

    def _skip_unasked_answers(self, choice_count: int) -> None:
        # a gold answer to a question the simulator did not ask this time (the world differs slightly)
        while not self._undo and self.index < len(self.gold) and self.gold[self.index].isdigit() and not choice_count:
            self.index += 1

    def _give_up(self, reason: str) -> None:
        if self.gave_up is None:
            self.gave_up = reason
            logger.warning("ScienceWorld expert gives up: %s", reason)
