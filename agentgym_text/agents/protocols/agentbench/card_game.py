"""AgentBench v0.2's card game (Aquawar): the requests its agent (``src/server/tasks/card_game/AI/AI_En.py``, ``Agent``)
sends through its client (``AI/client.py``, ``Client.llm_call``) and the task server's session.

What v0.2 sends, round by round (its task plays stage 2; its agent is one of the two players of ``logic/bin/main``):

- The logic sends the agent an ``Assert`` message every round (whether or not a hidden enemy is left), then an
  ``Action`` message. The SDK (``AI/sdk/ai_client.hpp``) parses ``GameInfo``, ``EnemyAction`` and ``MyAction`` on
  ``Assert``, ``GameInfo`` and ``AssertReply`` on ``Action``, and hands a ``Game`` to ``Agent.Assert``/``Agent.Act``.
- Guess phase (``Agent._guess``), up to 5 tries: each try calls ``llm_call(assert_history, prompt, system)`` with
  system ``GUESS_DESCRIPTION[2]`` (``GUESS_PROMPT % (your, enemy fish descriptions, guess_format)``) and prompt
  ``guess_prompt % (my_assert.assertResult, live unknown enemies, enemy's previous action, triggered passives)``.
  ``llm_call`` first appends ``(system, "<the client's okay text>")`` to the history list it was given (it mutates the
  agent's list: every call, retries included, adds one more pair), then sends the pairs as user/agent turns and the
  prompt as a last user turn. A reply is read with ``\\{[\\w\\W]*?\\}`` (each match, ``'`` replaced by ``"``, through
  ``json.loads``); the first that names a type of ``enemy_fish`` and a live enemy position wins: the pair
  ``(prompt, reply)`` is appended and the position joins ``known_enemy`` (right or wrong, it leaves the "Live Unknown
  Enemy Fish" list). A failed try appends nothing (the reply is not kept). After 5 failures, no guess. A guess at a
  revealed fish is sent as no guess by the SDK (``Action_Assert``).
- Action phase (``Agent._decide``), up to 5 tries, the same way with ``self.history``, system
  ``ACTION_DESCRIPTION[2]`` (``ACTION_PROMPT % (GUESS_RULE, descriptions, action_format)``) and prompt
  ``action_prompt % (state JSON, my previous action, enemy's previous action)``. A reply passes ``_move_verfiy``
  (``pick_fish`` through ``name_to_pos``: ``your_fish`` names -> 0..3 and the quirk ``"0"``..``"3"`` -> 1..4; a live
  actor; ``active`` spray/eel: target forced to 0; flame/sunfish: a live teammate other than itself; ``normal``: a
  live enemy), then the SDK's ``Action`` setters: ``set_friend_target`` when active and the name is in
  ``target_friend``, else ``set_enemy_target``. With v0.2's ``target_friend`` (flame, eel, mobula, octopus) an eel's
  or a sunfish's active skill is refused by the setter every time: a try lost. After 5 failures the client sends
  ``#[ERROR]<min status>`` (1: some JSON read, 2: none) and the agent gives up the game (no statuses, when every
  failure was a setter's refusal: ``min`` of nothing raises and the agent dies the same way).
- The session (``src/server/task.py``) sets its history to each message list and sends it through
  ``filter_messages`` as every AgentBench task does (``session.filter_messages``), with no system message.

What each field needs and where it comes from here (``AgentBench/CardGame-v0`` made with
``agentbench_sdk=True``: info ``aquawar``, the logic's message fields built from this engine's state):

- exactly: the state JSON (positions, names from the SDK's ids, HP, own ATK, enemy ATK ``unknown``), the live
  enemies, "Previous Guess" (the last ``AssertReply``), both previous actions' ``ACTION_FISH``, ``ATK`` and
  ``TARGET`` and the guess prompt's ``SKILL_TYPE``, the triggered passives, and the SDK's ``ActionInfo`` quirks they
  show (``ActionInfo`` below): ``TARGET`` lists the INDEXES of non-zero positions in ``enemy_targets`` (an attack on
  position 0 shows ``[]``), its 12 entries and the 24 passive entries are never cleared (a shorter action leaves the
  older entries; an infight leaves the previous target and ``ATK`` in place), and every unused passive entry reads
  (0, counter), so ``'Position: 0': 'Counter'`` is always there;
- as this engine plays: the figures themselves (this engine's rules, not v0.2's C++ logic: damage, deflection,
  wrong guesses, the opponent; ``envs/cardgame/game.py``), and the agent's lineup (v0.2's agent always picks
  ``your_fish`` in order: the env is made with ``agent_lineup=your_fish``), moving first every round. ``ATK`` is the
  damage the skill aims at its first target as v0.2's logic reports it: half the attack for a normal attack, 35% of
  it for an AOE (v0.2's spray reports the constant 70, which is the same here: a spray's attack never changes);
- assumed: the arrays start zeroed (v0.2 never initialises them; v0.2's prebuilt SDK shows zeros on a fresh start);
- not reproduced: a reply without text content is a failed try here (v0.2's server ends the game when its agent
  returns no content), and v0.2's socket, which may split a long message list and answer it with an empty reply.

When no guess is made while the env is in its guess phase, the env is sent ``PASS``; when the env has no guess phase
left (no hidden enemy), the guess request is still sent and its reply changes nothing (``Reading.again``).

The texts (``AI/prompt/en.py``'s constants, the okay text of ``AI/client.py``) are read from the checkout.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentgym_text.agents.protocols.agentbench.session import (
    MAX_TOKENS,
    TEMPERATURE,
    AgentBenchTask,
    filter_messages,
    to_openai,
)
from agentgym_text.agents.protocols.agentbench.source import TaskSource
from agentgym_text.agents.protocols.base import Dialogue, Opening, Reading, Request
from agentgym_text.core.info import FinishReason

__all__ = [
    "CardGameTask",
    "CardGameDialogue",
    "ActionInfo",
    "PROMPTS",
    "CLIENT",
    "TRIES",
    "locate_okay",
    "decode",
    "PASS",
]

PROMPTS = "src/server/tasks/card_game/AI/prompt/en.py"
CLIENT = "src/server/tasks/card_game/AI/client.py"
TEXTS = (
    "fish_description",
    "target_friend",
    "action_format",
    "guess_format",
    "ACTION_PROMPT",
    "GUESS_RULE",
    "GUESS_PROMPT",
    "your_fish",
    "enemy_fish",
    "action_prompt",
    "guess_prompt",
)
TRIES = 5
"""``guess_try_times`` and ``action_try_times``."""
FISH_NAMES = {1: "spray", 2: "flame", 3: "eel", 4: "sunfish", 5: "barracuda", 6: "mobula", 8: "octopus"}
FISH_NAMES |= {9: "whiteshark", 10: "hammerhead", -1: "unknown"}
"""``Agent.id_to_name``."""
SKILL_NAMES = {"aoe": "AOE", "infight": "Infight", "crit": "Crit", "subtle": "Subtle", "normalattack": "Normal"}
PASSIVE_NAMES = {"counter": "Counter", "deflect": "Deflect", "reduce": "Reduce", "heal": "Heal", "explode": "Explode"}
"""``Agent.skill_type`` and ``Agent.passive_type``, by the SDK's enum names."""
TARGETS, PASSIVES = 12, 24
"""The sizes of ``ActionInfo``'s target and passive arrays (pybind11 hands them to Python whole)."""
ZERO_SKILL, ZERO_PASSIVE = "aoe", "counter"
"""The enum members worth 0: what a zeroed entry reads as."""
PASS = json.dumps({"guess_type": None})
"""The env's move for no guess (``agentbench_sdk=True``)."""
_OBJECT = re.compile(r"\{[\w\W]*?\}")


@dataclass
class ActionInfo:
    """One ``ActionInfo`` of v0.2's SDK (``my_action`` or ``enemy_action``), the fields the prompts read, updated as
    ``parseMyActionInfo``/``parseEnemyActionInfo`` update them: only the first entries an action has are written,
    the rest keep what earlier actions wrote."""

    action_fish: int = -1
    type: str = ZERO_SKILL
    enemy_targets: list[int] = field(default_factory=lambda: [0] * TARGETS)
    enemy_expected_injury: list[int] = field(default_factory=lambda: [0] * TARGETS)
    enemy_passives: list[tuple[int, str]] = field(default_factory=lambda: [(0, ZERO_PASSIVE)] * PASSIVES)
    friend_passives: list[tuple[int, str]] = field(default_factory=lambda: [(0, ZERO_PASSIVE)] * PASSIVES)

    def parse(self, message: Mapping[str, Any] | None, mine: bool) -> None:
        """Take the logic's report of an action (``mine``: the agent's own, else the enemy's)."""
        if not message:
            self.action_fish = -1
            return
        if "ActionFish" in message:
            self.action_fish = int(message["ActionFish"])
        skill = message.get("skill")
        if skill is None:
            self.action_fish = -1  # clear_skill
        else:
            self.type = skill["type"] if skill["type"] in SKILL_NAMES else self.type
            hostile = 0
            for target in skill["targets"] if self.type != "subtle" else ():
                if bool(target["isEnemy"]) == mine:  # a target on the actor's enemy side
                    self.enemy_targets[hostile] = int(target["pos"])
                    self.enemy_expected_injury[hostile] = int(target["value"])
                    hostile += 1
        counts = [0, 0]
        for passive in message.get("passive", ()):
            hostile = bool(passive["isEnemy"]) == mine
            entries = self.enemy_passives if hostile else self.friend_passives
            entries[counts[hostile]] = (int(passive["source"]), str(passive["type"]))
            counts[hostile] += 1

    def report(self, with_skill: bool) -> dict[str, str]:
        """``enemy_action_str``/``my_action_str`` (``SKILL_TYPE`` in the guess prompt only)."""
        if self.action_fish == -1:
            shown = {"ACTION_FISH": "None", "ATK": "None", "TARGET": "None"}
            return shown | ({"SKILL_TYPE": "None"} if with_skill else {})
        shown = {
            "ACTION_FISH": str(self.action_fish),
            "ATK": str(self.enemy_expected_injury[0]),
            "TARGET": str([index for index, pos in enumerate(self.enemy_targets) if pos != 0]),
        }
        return shown | ({"SKILL_TYPE": SKILL_NAMES[self.type]} if with_skill else {})


def decode(output: str, verify: Callable[[Any], bool]) -> tuple[int, dict | None]:
    """``_decode_guess``/``_decode_move``: (0, the first object ``verify`` accepts) or (1: some object was read,
    2: none, None)."""
    status = 2
    for text in _OBJECT.findall(output):
        try:
            move = json.loads(text.replace("'", '"'))
        except ValueError:
            continue
        status = 1
        if verify(move):
            return 0, move
    return status, None


def locate_okay(source: TaskSource) -> ast.AST:
    """The okay text ``Client.llm_call`` pairs with the system text: ``history.append((system, "<text>"))``."""
    for node in ast.walk(source.method("Client", "llm_call")):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "append"
            and node.args
            and isinstance(node.args[0], ast.Tuple)
            and len(node.args[0].elts) == 2
            and isinstance(node.args[0].elts[1], ast.Constant)
            and isinstance(node.args[0].elts[1].value, str)
        ):
            return node.args[0].elts[1]
    raise source.missing("okay text appended with the system text in Client.llm_call")


class CardGameTask(AgentBenchTask):
    """The texts of ``AI/prompt/en.py`` and ``AI/client.py``; the stage-2 system texts built as ``en.py`` builds
    ``GUESS_DESCRIPTION[2]`` and ``ACTION_DESCRIPTION[2]``."""

    def __init__(self, checkout: Path):
        super().__init__(checkout)
        source = TaskSource(checkout, PROMPTS)
        texts = {name: source.constant(name).value for name in TEXTS}
        self.okay: str = locate_okay(TaskSource(checkout, CLIENT)).value  # type: ignore[attr-defined]
        try:
            your = {name: texts["fish_description"][name] for name in texts["your_fish"]}
            enemy = {name: texts["fish_description"][name] for name in texts["enemy_fish"]}
            self.guess_system: str = texts["GUESS_PROMPT"] % (your, enemy, texts["guess_format"])
            self.action_system: str = texts["ACTION_PROMPT"] % (
                texts["GUESS_RULE"],
                your,
                enemy,
                texts["action_format"],
            )
            texts["guess_prompt"] % ("", "", "", "")
            texts["action_prompt"] % ("", "", "")
        except (KeyError, TypeError, ValueError) as error:
            raise source.missing(f"texts that format as v0.2's do ({type(error).__name__}: {error})") from None
        self.your_fish: list[str] = list(texts["your_fish"])
        self.enemy_fish: list[str] = list(texts["enemy_fish"])
        self.target_friend: list[str] = list(texts["target_friend"])
        self.guess_prompt: str = texts["guess_prompt"]
        self.action_prompt: str = texts["action_prompt"]
        self.name_to_pos: dict[str, int] = {}
        for index, name in enumerate(self.your_fish[:4]):  # Agent.Pick
            self.name_to_pos[name] = index
            self.name_to_pos[str(index)] = index + 1

    def env_kwargs(self) -> dict[str, Any]:
        return {"agentbench_sdk": True, "agent_lineup": self.your_fish[:4]}

    @property
    def dialogue(self) -> type[CardGameDialogue]:
        return CardGameDialogue


def _living(hp: list[int]) -> list[int]:
    return [pos for pos, value in enumerate(hp) if value > 0]


class CardGameDialogue(Dialogue):
    """One game: the agent's two histories, its tries, what its SDK keeps (``ActionInfo``, ``known_enemy``, the
    last guess's result), and the logic's latest report (info ``aquawar``)."""

    def __init__(self, task: CardGameTask, opening: Opening):
        self.task = task
        self.view: Mapping[str, Any] = opening.info["aquawar"]
        self.guess_history: list[tuple[str, str]] = []
        self.action_history: list[tuple[str, str]] = []
        self.my_action, self.enemy_action = ActionInfo(), ActionInfo()
        self.known_enemy: list[int] = []
        self.guess_right = False
        self.pending: tuple[str, list[dict[str, str]]] | None = None
        self._begin_round()

    def _begin_round(self) -> None:
        """The ``Assert`` message: the SDK takes both previous actions."""
        self.enemy_action.parse(self.view["EnemyAction"], mine=False)
        self.my_action.parse(self.view["MyAction"], mine=True)
        self.phase, self.tries, self.statuses = "guess", 0, []

    def _begin_action(self, reply: Mapping[str, Any] | None) -> None:
        """The ``Action`` message: the SDK takes the answer to this round's guess."""
        self.guess_right = bool(reply and reply.get("AssertResult"))
        self.phase, self.tries, self.statuses = "action", 0, []

    # ---- the prompts ---------------------------------------------------------------------------------------
    def _guess_prompt(self) -> str:
        info = self.view["GameInfo"]
        passives: dict[str, str] = {}
        for pos, kind in (*self.my_action.enemy_passives, *self.enemy_action.friend_passives):
            passives["Position: " + str(pos)] = PASSIVE_NAMES[kind]
        live = [str(pos) for pos in sorted(_living(info["EnemyHP"])) if pos not in self.known_enemy]
        report = self.enemy_action.report(with_skill=True)
        return self.task.guess_prompt % (self.guess_right, live, report, json.dumps(passives, ensure_ascii=False))

    def _state(self) -> str:
        info = self.view["GameInfo"]
        state: dict[str, list[dict[str, str]]] = {"You": [], "Enemy": []}
        for pos in range(4):
            state["You"].append(
                {
                    "POSITION": str(pos),
                    "ID": FISH_NAMES[abs(info["MyFish"][pos])],
                    "HP": str(info["MyHP"][pos]),
                    "ATK": str(info["MyATK"][pos]),
                }
            )
        for pos in range(4):
            state["Enemy"].append(
                {
                    "POSITION": str(pos),
                    "ID": FISH_NAMES[info["EnemyFish"][pos]],
                    "HP": str(info["EnemyHP"][pos]),
                    "ATK": "unknown",
                }
            )
        return json.dumps(state, ensure_ascii=False)

    def _action_prompt(self) -> str:
        mine, theirs = self.my_action.report(with_skill=False), self.enemy_action.report(with_skill=False)
        return self.task.action_prompt % (self._state(), mine, theirs)

    def next_prompt(self) -> str:
        return self._guess_prompt() if self.phase == "guess" else self._action_prompt()

    # ---- the dialogue --------------------------------------------------------------------------------------
    def request(self) -> Request:
        if self.pending is None:
            guessing = self.phase == "guess"
            history = self.guess_history if guessing else self.action_history
            history.append((self.task.guess_system if guessing else self.task.action_system, self.task.okay))
            prompt = self.next_prompt()
            messages = [
                {"role": role, "content": text} for pair in history for role, text in zip(("user", "agent"), pair)
            ]
            self.pending = (prompt, [*messages, {"role": "user", "content": prompt}])
        return Request(to_openai(filter_messages(self.pending[1])), temperature=TEMPERATURE, max_tokens=MAX_TOKENS)

    def read(self, reply: str | None) -> Reading:
        if self.pending is None:
            self.request()
        prompt = self.pending[0]  # type: ignore[index]
        self.pending = None
        output = reply or ""
        return self._read_guess(prompt, output) if self.phase == "guess" else self._read_action(prompt, output)

    def _read_guess(self, prompt: str, output: str) -> Reading:
        living = _living(self.view["GameInfo"]["EnemyHP"])

        def verify(move: Any) -> bool:  # Agent._guess_verify
            try:
                move["target_position"] = str(move["target_position"])
                return move["guess_type"] in self.task.enemy_fish and int(move["target_position"]) in living
            except Exception:
                return False

        status, move = decode(output, verify)
        if move is None:
            self.tries += 1
            if self.tries < TRIES:
                return Reading(None, again=True, note="no guess read; asked again")
            guess = None
        else:
            target = int(move["target_position"])
            self.known_enemy.append(target)
            self.guess_history.append((prompt, output))
            hidden = self.view["GameInfo"]["EnemyFish"][target] == -1
            guess = json.dumps({"guess_type": move["guess_type"], "target_position": target}) if hidden else None
        if self.view["phase"] == "guess":
            return Reading(guess or PASS)
        self._begin_action(None)  # no hidden enemy left: the env has no guess phase, the guess changes nothing
        return Reading(None, again=True, note="no hidden enemy fish: the guess changes nothing")

    def _verify_move(self, move: Any) -> bool:
        """``Agent._move_verfiy`` on this turn's state."""
        info = self.view["GameInfo"]
        mine, theirs = _living(info["MyHP"]), _living(info["EnemyHP"])
        try:
            pick, action = move["pick_fish"], move["action"]
            if action not in ["normal", "active"]:
                return False
            move["target_position"] = str(move["target_position"])
            target = int(move["target_position"])
            pos = self.task.name_to_pos[pick]
            if pos not in mine:
                return False
            if action == "normal":
                return target in theirs
            if pick in ("spray", "eel"):
                move["target_position"] = "0"
                return True
            if pick in ("flame", "sunfish"):
                return target in mine and target != pos
            if pick in ("mobula", "octopus"):
                return target in mine
            if pick in ("barracuda", "whiteshark", "hammerhead"):
                return target in theirs
            return False
        except Exception:
            return False

    def _setters_accept(self, pos: int, pick: str, action: str, target: int) -> bool:
        """The SDK's ``Action.set_friend_target``/``set_enemy_target`` for the fish at ``pos``."""
        kind = FISH_NAMES.get(abs(self.view["GameInfo"]["MyFish"][pos]), "")
        if action == "normal":
            return 0 <= target <= 3
        if pick in self.task.target_friend:  # set_friend_target
            if kind in ("flame", "sunfish"):
                return target != pos and 0 <= target <= 3
            return kind in ("mobula", "octopus") and 0 <= target <= 3
        if kind in ("barracuda", "whiteshark", "hammerhead"):  # set_enemy_target
            return 0 <= target <= 3
        return kind in ("spray", "eel")  # an AOE; flame, sunfish, mobula and octopus refuse

    def _read_action(self, prompt: str, output: str) -> Reading:
        status, move = decode(output, self._verify_move)
        if move is not None:
            pos = self.task.name_to_pos[move["pick_fish"]]
            target = int(move["target_position"])
            if self._setters_accept(pos, move["pick_fish"], move["action"], target):
                self.action_history.append((prompt, output))
                self.phase = "played"
                kind = self.task.your_fish[pos]
                return Reading(json.dumps({"pick_fish": kind, "action": move["action"], "target_position": target}))
        else:
            self.statuses.append(status)
        self.tries += 1
        if self.tries < TRIES:
            return Reading(None, again=True, note="no move read or the SDK refused it; asked again")
        if not self.statuses:  # min() of no statuses raises in v0.2's agent: it dies, the game is lost
            return Reading(None, finish_reason=FinishReason.FAILURE.value, note="five moves the SDK refused")
        reason = FinishReason.INVALID_ACTION if min(self.statuses) == 1 else FinishReason.INVALID_FORMAT
        return Reading(None, finish_reason=reason.value, note=f"#[ERROR]{min(self.statuses)}: five failed tries")

    def observe(self, observation: str, info: Mapping[str, Any]) -> str:
        view = info.get("aquawar")
        if view is None or not info.get("valid", True):
            self.phase = "guess" if self.phase == "guess" else "action"  # the env refused: ask for this phase again
            return observation
        self.view = view
        if view["phase"] == "over":
            return observation
        if self.phase == "played":
            self._begin_round()
        else:
            self._begin_action(view["AssertReply"])
        return self.next_prompt()
