"""Aquawar rules as plain state and pure-ish functions: fish, teams, damage, passives, guesses, the end.

Rules follow AgentBench's DCG description of the four fish it plays (spray, flame, eel, sunfish); where it
is silent or its engine disagrees with its own text, the choice made here is marked CHOICE:

- every fish starts with 400 HP and 200 attack; a normal attack deals half the attacker's attack;
- AOE (spray, eel): 35% of the attacker's attack (rounded down) to every live enemy;
- Infight (flame, sunfish): 75 damage to one live teammate (not itself), the actor gains 140 attack;
- Counter (spray, flame): after a fish of the team is hit by an enemy and is below 30% HP (120), every
  OTHER live spray/flame of the team deals 30 damage to the attacker (the hit fish itself does not);
- Deflect (eel, sunfish): when hit by an enemy while a teammate lives, the fish takes 30% and the other 70%
  is split equally among live teammates. CHOICE: AgentBench's text says 30/70 this way round; its C++ engine
  does it the other way round (70% kept); we follow the text the players read. Every 200 damage it has taken
  in total (from any source) gives it 40 attack;
- damage from guesses, counters, deflection and infight has no attacker: it triggers no passive;
- a right guess reveals that fish and deals 50 damage to every live fish of its team; CHOICE: a wrong
  guess has no effect beyond telling the guesser it was wrong; only live, unrevealed fish can be guessed;
- each turn: the guess phase (while an enemy fish is alive and hidden), then one action. The agent moves
  first (CHOICE). A team with no live fish loses at once. CHOICE: after ``MAX_ROUNDS`` rounds the team with
  more live fish wins, then more total HP; otherwise it is a draw (not a win for the agent).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agentgym_text.core.actions import ActionError
from agentgym_text.core.info import InvalidReason

__all__ = [
    "FISH_TYPES",
    "ACTIVE",
    "PASSIVE",
    "MAX_HP",
    "BASE_ATTACK",
    "MAX_ROUNDS",
    "Fish",
    "Game",
    "Move",
    "MoveReport",
    "broken_rule",
    "new_game",
    "apply_guess",
    "apply_move",
    "check_move",
    "winner",
]

FISH_TYPES = ("spray", "flame", "eel", "sunfish")
ACTIVE = {"spray": "aoe", "eel": "aoe", "flame": "infight", "sunfish": "infight"}
PASSIVE = {"spray": "counter", "flame": "counter", "eel": "deflect", "sunfish": "deflect"}
MAX_HP = 400
BASE_ATTACK = 200
MAX_ROUNDS = 20
GUESS_DAMAGE = 50
AOE_SHARE = 0.35
INFIGHT_DAMAGE = 75
INFIGHT_GAIN = 140
COUNTER_BELOW = 0.3
COUNTER_DAMAGE = 30
DEFLECT_KEEP = 0.3
WOUND_STEP = 200
WOUND_GAIN = 40


class Fish:
    """One fish: its hidden type, HP, attack, whether the other side knows its type, damage taken so far."""

    __slots__ = ("kind", "hp", "atk", "revealed", "wound")

    def __init__(self, kind: str, hp: int = MAX_HP, atk: int = BASE_ATTACK, revealed: bool = False, wound: int = 0):
        self.kind, self.hp, self.atk, self.revealed, self.wound = kind, hp, atk, revealed, wound

    @property
    def alive(self) -> bool:
        return self.hp > 0

    def copy(self) -> Fish:
        return Fish(self.kind, self.hp, self.atk, self.revealed, self.wound)


@dataclass(frozen=True)
class Move:
    """An action: ``fish`` (own position) uses ``action`` ("normal" or "active") on ``target`` (a position)."""

    fish: int
    action: str
    target: int


def broken_rule(message: str, reason: InvalidReason = InvalidReason.PRECONDITION) -> ActionError:
    """The error for a move the rules forbid, worded as the agent reads it ("Invalid move: <message>")."""
    return ActionError(f"Invalid move: {message}", reason)


@dataclass(frozen=True)
class MoveReport:
    """What an action showed: the actor's position, the skill ("normalattack", "aoe" or "infight"), each target
    as (side, position, the damage the skill aims at it) and each passive it triggered as (side, position, name)."""

    side: int
    actor: int
    skill: str
    targets: tuple[tuple[int, int, int], ...]
    passives: tuple[tuple[int, int, str], ...]


@dataclass
class Game:
    """Both teams (0 = the agent, 1 = the opponent), the round number and the log of the latest events."""

    teams: list[list[Fish]]
    round: int = 1
    events: list[str] = field(default_factory=list)
    signals: list[tuple[int, int, str]] = field(default_factory=list)
    """(side, position, skill or passive name) for every skill used and passive triggered, in order: what
    the other side can observe about hidden fish."""
    last_moves: list[MoveReport | None] = field(default_factory=lambda: [None, None])
    """Each side's latest action as it was reported (``MoveReport``), None before its first."""

    def copy(self) -> Game:
        return Game([[fish.copy() for fish in team] for team in self.teams], self.round, [], [])

    def alive(self, side: int) -> list[int]:
        return [pos for pos, fish in enumerate(self.teams[side]) if fish.alive]

    def hidden_alive(self, side: int) -> list[int]:
        return [pos for pos, fish in enumerate(self.teams[side]) if fish.alive and not fish.revealed]


def new_game(agent_lineup: list[str], enemy_lineup: list[str]) -> Game:
    for lineup in (agent_lineup, enemy_lineup):
        if sorted(lineup) != sorted(FISH_TYPES):
            raise ValueError(f"a lineup is the four fish {FISH_TYPES} in some order, not {lineup}")
    return Game([[Fish(kind) for kind in agent_lineup], [Fish(kind) for kind in enemy_lineup]])


def _name(side: int, pos: int) -> str:
    return f"{'your' if side == 0 else 'enemy'} fish {pos}"


def _hurt(game: Game, side: int, pos: int, amount: int) -> None:
    fish = game.teams[side][pos]
    if not fish.alive or amount <= 0:
        return
    fish.hp = max(0, fish.hp - amount)
    if PASSIVE[fish.kind] == "deflect":
        fish.wound += amount
        while fish.wound >= WOUND_STEP:
            fish.wound -= WOUND_STEP
            fish.atk += WOUND_GAIN
            game.events.append(f"{_name(side, pos)} passive Deflect: attack +{WOUND_GAIN} (now {fish.atk})")
    if not fish.alive:
        game.events.append(f"{_name(side, pos)} died")


def _attacked(game: Game, side: int, pos: int, amount: int, attacker: tuple[int, int]) -> None:
    """Damage with an attacker: Deflect splits it, then Counter may strike back."""
    fish = game.teams[side][pos]
    if not fish.alive:
        return
    mates = [p for p in game.alive(side) if p != pos]
    if PASSIVE[fish.kind] == "deflect" and mates:
        kept = int(amount * DEFLECT_KEEP)
        each = (amount - kept) // len(mates)
        game.signals.append((side, pos, "deflect"))
        game.events.append(f"{_name(side, pos)} passive Deflect: kept {kept}, {each} to each teammate")
        for mate in mates:
            _hurt(game, side, mate, each)
        amount = kept
    game.events.append(f"{_name(side, pos)} took {amount} damage")
    _hurt(game, side, pos, amount)
    if fish.hp < MAX_HP * COUNTER_BELOW:
        for other in game.alive(side):
            if other != pos and PASSIVE[game.teams[side][other].kind] == "counter":
                game.signals.append((side, other, "counter"))
                game.events.append(
                    f"{_name(side, other)} passive Counter: {COUNTER_DAMAGE} damage to {_name(*attacker)}"
                )
                _hurt(game, *attacker, COUNTER_DAMAGE)


def apply_guess(game: Game, side: int, target: int, kind: str) -> bool:
    """``side`` guesses that the other side's fish ``target`` is ``kind``; True when right (rules checked)."""
    other = 1 - side
    if kind not in FISH_TYPES:
        raise broken_rule(
            f"'{kind}' is not a fish type; the types are {', '.join(FISH_TYPES)}.", InvalidReason.BAD_ARGUMENT
        )
    if not 0 <= target < 4:
        raise broken_rule(f"target_position must be 0, 1, 2 or 3, not {target}.", InvalidReason.BAD_ARGUMENT)
    fish = game.teams[other][target]
    if not fish.alive:
        raise broken_rule(f"Rule: you can only guess a live fish; enemy fish {target} is dead.")
    if fish.revealed:
        raise broken_rule(f"Rule: enemy fish {target} is already revealed as {fish.kind}; guess a hidden one.")
    who = "You" if side == 0 else "The enemy"
    if fish.kind != kind:
        game.events.append(f"{who} guessed {_name(other, target)} is {kind}: wrong")
        return False
    fish.revealed = True
    game.events.append(
        f"{who} guessed {_name(other, target)} is {kind}: right, every live fish of that team takes "
        f"{GUESS_DAMAGE} damage"
    )
    for pos in game.alive(other):
        _hurt(game, other, pos, GUESS_DAMAGE)
    return True


def check_move(game: Game, side: int, move: Move) -> None:
    """Raise ``ActionError`` naming the broken rule when ``move`` is not allowed for ``side``."""
    team, other = game.teams[side], 1 - side
    if not 0 <= move.fish < 4:
        raise broken_rule(
            f"pick_fish must name one of your four fish, not position {move.fish}.", InvalidReason.BAD_ARGUMENT
        )
    if move.action not in ("normal", "active"):
        raise broken_rule(f"action must be 'normal' or 'active', not '{move.action}'.", InvalidReason.BAD_ARGUMENT)
    if not 0 <= move.target < 4:
        raise broken_rule(f"target_position must be 0, 1, 2 or 3, not {move.target}.", InvalidReason.BAD_ARGUMENT)
    actor = team[move.fish]
    if not actor.alive:
        raise broken_rule(f"Rule: a dead fish cannot act; your {actor.kind} (position {move.fish}) is dead.")
    skill = ACTIVE[actor.kind] if move.action == "active" else "normal"
    if skill == "infight":
        mate = team[move.target]
        if move.target == move.fish:
            raise broken_rule(
                f"Rule: Infight cannot target the acting fish itself ({actor.kind}); pick a live teammate."
            )
        if not mate.alive:
            raise broken_rule(f"Rule: Infight must target a live teammate; your fish {move.target} is dead.")
    elif skill == "normal" and not game.teams[other][move.target].alive:
        raise broken_rule(f"Rule: a normal attack must target a live enemy; enemy fish {move.target} is dead.")


def apply_move(game: Game, side: int, move: Move) -> None:
    """Carry out ``move`` for ``side`` (raises ``ActionError`` if it breaks a rule)."""
    check_move(game, side, move)
    team, other = game.teams[side], 1 - side
    actor = team[move.fish]
    who = "You" if side == 0 else "The enemy"
    first_signal = len(game.signals)
    if move.action == "normal":
        skill, targets = "normalattack", ((other, move.target, actor.atk // 2),)
    elif ACTIVE[actor.kind] == "aoe":
        skill, targets = "aoe", tuple((other, pos, int(actor.atk * AOE_SHARE)) for pos in game.alive(other))
    else:
        skill, targets = "infight", ((side, move.target, INFIGHT_DAMAGE),)
    if move.action == "normal":
        game.events.append(
            f"{who}: {actor.kind if side == 0 or actor.revealed else 'fish ' + str(move.fish)} "
            f"(position {move.fish}) normal attack on {_name(other, move.target)}"
        )
        _attacked(game, other, move.target, actor.atk // 2, (side, move.fish))
    elif ACTIVE[actor.kind] == "aoe":
        damage = int(actor.atk * AOE_SHARE)
        game.signals.append((side, move.fish, "aoe"))
        game.events.append(f"{who}: fish {move.fish} used AOE ({damage} to every live enemy)")
        for pos in game.alive(other):
            _attacked(game, other, pos, damage, (side, move.fish))
    else:
        game.signals.append((side, move.fish, "infight"))
        game.events.append(
            f"{who}: fish {move.fish} used Infight on teammate {move.target} "
            f"({INFIGHT_DAMAGE} damage to it, attack +{INFIGHT_GAIN})"
        )
        _hurt(game, side, move.target, INFIGHT_DAMAGE)
        actor.atk += INFIGHT_GAIN
    passives = tuple(s for s in game.signals[first_signal:] if s[2] in ("counter", "deflect"))
    game.last_moves[side] = MoveReport(side, move.fish, skill, targets, passives)


def winner(game: Game, final: bool = False) -> int | None:
    """0 or 1 when a side has won, -1 for a draw (only when ``final``), None while the game goes on."""
    alive = [len(game.alive(0)), len(game.alive(1))]
    if alive[1] == 0 and alive[0] > 0:
        return 0
    if alive[0] == 0 and alive[1] > 0:
        return 1
    if alive[0] == 0 and alive[1] == 0:
        return -1
    if not final:
        return None
    if alive[0] != alive[1]:
        return 0 if alive[0] > alive[1] else 1
    hp = [sum(f.hp for f in game.teams[0]), sum(f.hp for f in game.teams[1])]
    if hp[0] != hp[1]:
        return 0 if hp[0] > hp[1] else 1
    return -1
