"""AgentBoard's PDDL text (``text_format="agentboard"``): its wording and action grammar, as its ``pddl_env.py``
has them, and the text mode the env delegates to (:class:`AgentBoardMode`).

- Facts and actions read through AgentBoard's one name->template map (:data:`PREDICATE_MAP`, duplicate keys
  resolved as Python resolved them there: ``clear`` is Hanoi's "The {} is clear.", ``holding`` and ``free`` are
  Barman's and Gripper's, ``move`` is Gripper's), PDDL arguments in order; a name without a template reads as the
  name and its arguments ("drop ball1 roomb left", "Handempty left", "Room rooma").
- Our PDDL spellings are read in AgentBoard's (:data:`AGENTBOARD_NAMES`: IPC Blocksworld's ``ontable``,
  ``handempty``, ``pick-up``, ``put-down`` as its ``on-table``, ``arm-empty``, ``pickup``, ``putdown``;
  Tyreworld's ``open`` fact as its ``isopen``), so our shipped problems speak as AgentBoard's own would.
- A state is its facts' texts, each ``str.capitalize()``d, sorted, joined by spaces; after a valid action
  Blocksworld and Gripper show the whole state, Barman and Tyreworld only the facts that became true.
- Actions are read as AgentBoard reads them (:meth:`AgentBoardWords.parse`): lower-cased words; the first word
  that names an operator with an applicable ground action now; then every word that names an object, in order,
  cut to the operator's arity.

:func:`word_tokenize` re-implements what nltk's ``word_tokenize`` (Punkt sentences, then Treebank words) does to
the characters that matter here (operator and object names are letters, digits, ``-`` and ``_``), so nltk and
its downloaded Punkt model are not needed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from agentgym_text.core.info import InvalidReason
from agentgym_text.core.text_env import Outcome, Start
from agentgym_text.core.text_mode import AgentBoardText
from agentgym_text.envs.pddl.model import State
from agentgym_text.envs.pddl.pddl_reader import Atom
from agentgym_text.envs.pddl.problem_files import LoadedProblem

__all__ = [
    "PREDICATE_MAP",
    "AGENTBOARD_NAMES",
    "NOT_VALID",
    "NO_EFFECT",
    "ADDED_FACTS_DOMAINS",
    "word_tokenize",
    "AgentBoardWords",
    "AgentBoardMode",
]

PREDICATE_MAP: dict[str, str] = {
    # Blocksworld
    "on": "{} is on {}.",
    "clear": "The {} is clear.",  # Hanoi's entry, later in AgentBoard's map, overrides Blocks' "{} is clear."
    "arm-empty": "Your arm is empty.",
    "holding": "You are holding {}. ",  # Barman's (one slot for its two arguments: the hand only)
    "on-table": "{} is on the table.",
    "putdown": "Putdown {}.",
    "stack": "Stack {} on {}.",
    "pickup": "Pickup {}.",
    "unstack": "Unstack {} from {}.",
    # Tyreworld
    "vehicle-at": "The vehicle is at {}.",
    "changetire": "Change tire at {}",
    "spare-in": "The spare tire is in {}.",
    "road": "There is a road from {} to {}.",
    "movecar": "Move the car to {}.",
    "isopen": "{} is open.",
    "closed": "{} is closed.",
    "have": "You have {}.",
    "in": "{} is in {}.",
    "loose": "The nut {} on the hub {} is loose.",
    "tight": "The nut {} on the hub {} is tight.",
    "unlocked": "{} is unlocked.",
    "on-ground": "Hub {} is on the ground.",
    "not-on-ground": "Hub {} is not on the ground.",
    "inflated": "Wheel {} is inflated.",
    "not-inflated": "Wheel {} is not inflated.",
    "fastened": "Hub {} is fastened.",
    "unfastened": "Hub {} is unfastened.",
    "free": "{} is free. ",  # Gripper's entry overrides Tyreworld's "Hub {} is free."
    "intact": "Wheel {} is intact.",
    "open": "Open {}.",
    "close": "Close {}.",
    "fetch": "Fetch {} from {}.",
    "put-away": "Put-away {} in {}.",
    "loosen": "Loosen the nut {} on the hub {}.",
    "tighten": "Tighten the nut {} on the hub {}.",
    "jack-up": "jack-up the hub {}.",
    "jack-down": "Jack-down the hub {}.",
    "undo": "Undo the fastening of the nut {} on the hub {}.",
    "do-up": "Do-up the nut {} on the hub {}.",
    "remove-wheel": "Remove-wheel {} from the hub {}.",
    "put-on-wheel": "put-on-wheel {} on the hub {}.",
    "inflate": "Inflate the wheel {}.",
    # Hanoi
    "move": "Move from {} to {}. ",  # Gripper's entry overrides Hanoi's "Move {} to {}."
    "smaller": "{} is smaller than {}.",
    # Gripper
    "ball": "{} is a ball. ",
    "gripper": "{} is a gripper. ",
    "at-robby": "Robby is at {}. ",
    "at": "{} is at {}. ",
    "carry": "{} is carrying {}. ",
    "pick": "Pick up {} at {} with arm {}. ",
    # Barman
    "ontable": "{} is on the table. ",
    "empty": "{} is empty. ",
    "contains": "{} contains {}. ",
    "clean": "{} is clean. ",
    "used": "Pour {} from a shot glass to a used shaker {}",
    "dispenses": "{} dispenses {}. ",
    "shaker-empty-level": "{} is at empty level {}. ",
    "shaker-level": "{} is at level {}. ",
    "next": "level {} is next to level {}. ",
    "unshaked": "{} is unshaked. ",
    "shaked": "{} is shaked. ",
    "cocktail-part1": "{} part1 ingredient is {}. ",
    "cocktail-part2": "{} part2 ingredient is {}. ",
    "grasp": "{} grasp {}. ",
    "leave": "{} leave {}. ",
    "fill-shot": "fill-shot glass {} with {} with {} and {} holding {}. ",
    "refill-shot": "refill-shot {} with {} with {} and {} holding {}. ",
    "empty-shot": "use hand {} to empty-shot glass {} with beverage {}. ",
    "clean-shot": "clean-shot glass {} with {} with hand {} holding shot glass and {}. ",
    "pour-shot-to-clean-shaker": "pour-shot-to-clean-shaker from a shot glass {} with {} to a clean shaker {} "
    "with hand {} from level {} to level {}",
    "pour-shot-to-used-shaker": "pour-shot-to-used-shaker from a shot glass {} with {} to a used shaker {} with "
    "hand {} from level {} to level {}",
    "empty-shaker": "use hand {} to empty-shaker {} with ingredient {} from level {} to level {}.",
    "clean-shaker": "use hand {} and hand {} to clean-shaker {}",
    "shake": "shake a cocktail {} with ingredient {} and ingredient {} in a shaker {} with hand {} and hand {}",
    "pour-shaker-to-shot": "pour-shaker-to-shot to a shot glass {} the ingredient {} with hand {} from shaker {} "
    "from level {} to level {}",
}
"""AgentBoard's ``predicate_map`` as Python built it (for each duplicated key the later entry)."""

AGENTBOARD_NAMES: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "blocksworld": ({"ontable": "on-table", "handempty": "arm-empty"}, {"pick-up": "pickup", "put-down": "putdown"}),
    "tyreworld": ({"open": "isopen"}, {}),
}
"""Per our PDDL spelling (variant), how AgentBoard's spelling names its predicates and operators (others alike)."""

NOT_VALID = "The action is not valid and therefore takes no effect. Please check valid actions."
NO_EFFECT = (
    "The action is not valid and therefore takes no effect. Please remember to satisfy the restriction of "
    "actions. You can also check valid actions."
)
ADDED_FACTS_DOMAINS = frozenset({"barman", "tyreworld"})
"""Domains whose observation after a valid action lists only the facts that became true (AgentBoard's choice)."""

_SENTENCE_END = re.compile(r"(?<=[.?!])\s+")
_PUNCTUATION = re.compile(r"[,;:@#$%&?!\[\](){}<>\"`*=+/\\|~^]")


def word_tokenize(text: str) -> list[str]:
    """nltk's ``word_tokenize`` as far as operator and object names are concerned.

    >>> word_tokenize("unstack b1 from b2. then stack b1 on b3, please")
    ['unstack', 'b1', 'from', 'b2', '.', 'then', 'stack', 'b1', 'on', 'b3', ',', 'please']
    >>> word_tokenize("fill-shot glass shot1 (with ingredient1)")
    ['fill-shot', 'glass', 'shot1', '(', 'with', 'ingredient1', ')']
    """
    tokens: list[str] = []
    for sentence in _SENTENCE_END.split(text.strip()):
        sentence = _PUNCTUATION.sub(lambda m: f" {m.group(0)} ", sentence)
        sentence = sentence.replace("'", " '")  # "b1's" -> "b1 's", as Treebank splits clitics and quotes
        sentence = re.sub(r"\.(\s*)$", r" .\1", sentence)  # a sentence's final period
        tokens.extend(sentence.split())
    return tokens


class AgentBoardWords:
    """AgentBoard's text for one loaded problem: facts, states, goal, action listing, help answer, parsing."""

    def __init__(self, problem: LoadedProblem, fixes: bool = True):
        self.problem = problem
        self.fixes = fixes
        self.domain_key = problem.domain_key
        facts, operators = AGENTBOARD_NAMES.get(problem.variant, ({}, {}))
        self._fact_name = facts
        self._operator_name = operators
        self._operator_by_name = {
            operators.get(op.name, op.name).lower(): op.name for op in problem.ground.domain.operators
        }
        self._arity = {op.name: len(op.params) for op in problem.ground.domain.operators}
        self._objects = frozenset(name.lower() for name in problem.ground.objects)
        self._object_name = {name.lower(): name for name in problem.ground.objects}
        self._repeats = frozenset(id(a) for a in problem.ground.actions if len(set(a.args)) != len(a.args))
        self._capitalised: dict[Atom, str] = {}
        self._action_texts: dict[tuple[str, ...], str] = {}
        self._last: tuple[State | None, list[tuple[str, ...]]] = (None, [])  # the last state asked about
        self.extra_actions = ["check valid actions"] + (
            ["look around"] if self.domain_key in ADDED_FACTS_DOMAINS else []
        )

    # ---- text --------------------------------------------------------------------------------------
    @staticmethod
    def _literal(name: str, args: Sequence[str]) -> str:
        template = PREDICATE_MAP.get(name)
        if template is None:
            return name + " " + " ".join(args)
        return template.format(*args)

    def fact(self, atom: Atom) -> str:
        """One fact as AgentBoard writes it (not capitalised), e.g. 'The b1 is clear.'."""
        return self._literal(self._fact_name.get(atom[0], atom[0]), atom[1:])

    def action(self, key: Sequence[str]) -> str:
        """One ground action as AgentBoard lists it, e.g. 'Unstack b1 from b2.' (trailing spaces kept)."""
        text = self._action_texts.get(tuple(key))
        if text is None:
            text = self._action_texts[tuple(key)] = self._literal(self._operator_name.get(key[0], key[0]), key[1:])
        return text

    def facts_text(self, atoms: Iterable[Atom]) -> str:
        """Facts capitalised, sorted and joined by spaces (AgentBoard's state text)."""
        cache = self._capitalised
        texts = []
        for atom in atoms:
            text = cache.get(atom)
            if text is None:
                text = cache[atom] = self.fact(atom).capitalize()
            texts.append(text)
        return " ".join(sorted(texts))

    def goal(self, goal: Iterable[Atom]) -> str:
        return "The goal is to satisfy the following conditions: " + ", ".join(sorted(self.fact(a) for a in goal))

    def after_action(self, before: State, after: State) -> str:
        """The observation after a state-changing action: the whole state, or (Barman, Tyreworld) what is new."""
        return self.facts_text(after - before if self.domain_key in ADDED_FACTS_DOMAINS else after)

    def applicable(self, state: State) -> list[tuple[str, ...]]:
        """The applicable ground actions AgentBoard lists: pddlgym leaves out those naming an object twice
        (e.g. Gripper's ``move rooma rooma``, which can still be typed and then changes nothing). With fixes,
        those that change the state are listed (Barman's ``empty-shaker`` from level l0 to level l0)."""
        if self._last[0] is state:
            return self._last[1]
        keys = [
            a.key
            for a in self.problem.ground.applicable(state)
            if id(a) not in self._repeats or (self.fixes and a.apply(state) != state)
        ]
        self._last = (state, keys)
        return keys

    def listing(self, state: State) -> list[str]:
        """The applicable actions' texts, sorted (AgentBoard: set order), then its help commands."""
        return sorted(self.action(key) for key in self.applicable(state)) + self.extra_actions

    def help_text(self, state: State) -> str:
        return "Valid actions are: " + ", ".join(self.listing(state))

    # ---- parsing -----------------------------------------------------------------------------------
    def parse(self, text: str, state: State) -> tuple[str, ...] | None:
        """The ground action key AgentBoard would read from ``text``, or None where it reads nothing.

        The key need not be applicable: AgentBoard then answers that the action takes no effect.
        """
        tokens = word_tokenize(text.lower())
        names = {}
        for key in self.applicable(state):
            names.setdefault(self._operator_name.get(key[0], key[0]).lower(), key[0])
        operator = next((names[token] for token in tokens if token in names), None)
        if operator is None:
            return None
        arity = self._arity[operator]
        objects = [self._object_name[token] for token in tokens if token in self._objects]
        if len(objects) < arity:
            return None
        return (operator, *objects[:arity])


class AgentBoardMode(AgentBoardText):
    """AgentBoard's words for the env's problem and state; ``fixes`` lists the actions pddlgym leaves out when they
    change the state (FIX listing in the family README). Invalid actions take no effect and a dead end plays on."""

    action_format = "one action per step, written as in the valid-action list"

    def __init__(self, fixes: bool = True):
        super().__init__(fixes)
        self._words: AgentBoardWords | None = None

    def words(self, problem: LoadedProblem) -> AgentBoardWords:
        """AgentBoard's words for ``problem``, made once per loaded problem (they cache its texts)."""
        if self._words is None or self._words.problem is not problem:
            self._words = AgentBoardWords(problem, self.fixes)
        return self._words

    def start(self, problem: LoadedProblem, state: State) -> Start:
        words = self.words(problem)
        return Start(observation=words.facts_text(state), goal=words.goal(problem.ground.goal))

    def action_example(self, problem: LoadedProblem, state: State) -> str | None:
        return self.actions(problem, state)[0]

    def read_action(self, problem: LoadedProblem, state: State, text: str) -> tuple[str, ...] | Outcome:
        """The ground action key read from ``text``, or the answer when it names none (help, look, not valid)."""
        lowered = text.lower()
        if "check" in lowered:
            return Outcome(observation=self.help_text(problem, state), changed=False)
        if "look around" in lowered:
            return Outcome(observation=self.words(problem).facts_text(state), changed=False)
        key = self.words(problem).parse(text, state)
        return Outcome.invalid(NOT_VALID, InvalidReason.UNKNOWN_ACTION) if key is None else key

    def refusal(
        self, problem: LoadedProblem, state: State, key: tuple[str, ...], after: State | None
    ) -> Outcome | None:
        """AgentBoard refuses an action that leaves the state as it is, applicable or not (``after``: None)."""
        return Outcome.invalid(NO_EFFECT, InvalidReason.PRECONDITION) if after is None or after == state else None

    def after_action(self, problem: LoadedProblem, key: tuple[str, ...], before: State, after: State) -> str:
        return self.words(problem).after_action(before, after)

    def dead_end(self, problem: LoadedProblem, state: State) -> str | None:
        return None

    def actions(self, problem: LoadedProblem, state: State) -> list[str]:
        return [action.strip() for action in self.words(problem).listing(state)]

    def help_text(self, problem: LoadedProblem, state: State) -> str:
        return self.words(problem).help_text(state)

    def action_text(self, problem: LoadedProblem, key: tuple[str, ...]) -> str:
        return self.words(problem).action(key).strip()
