"""Reading an agent's text as a ground action, with an error that says what was wrong.

Accepted forms, tried in order:

1. the natural phrase of an operator ("stack b1 on b2", "pick up ball1 in rooma with gripper left"),
   with an optional "the" before objects;
2. the operator form, the PDDL name (or its spelling without hyphens) then the arguments in PDDL order
   ("stack b1 b2", "pickup b1", "put-down b1", "(unstack b1 b2)");
3. a lenient reading: a known verb at the start, then the object names in the order the natural phrase
   puts them (AgentBoard's "Pick up ball1 at rooma with arm left." reads as ``pick ball1 rooma left``).

Failures are classified as unparsable (no action verb, or the wrong number of objects), unknown action
(object names without a known verb), unknown object, or bad argument (an object of the wrong type).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentgym_text.core.info import InvalidReason
from agentgym_text.envs.pddl.model import GroundProblem
from agentgym_text.envs.pddl.render import DomainRenderer

__all__ = ["ParsedAction", "ParseFailure", "ActionParser", "normalise"]

_GLUE_WORDS = frozenset(
    {"the", "a", "an", "and", "with", "to", "from", "on", "in", "into", "at", "of", "using", "onto", "off", "up"}
)
_PREFIX = re.compile(r"^(?:action|act|next action)\s*[:=]\s*", re.IGNORECASE)


@dataclass(frozen=True)
class ParsedAction:
    """A readable action: operator name and arguments (not yet checked for applicability)."""

    operator: str
    args: tuple[str, ...]

    @property
    def key(self) -> tuple[str, ...]:
        return (self.operator, *self.args)


@dataclass(frozen=True)
class ParseFailure:
    """Why a text is not an action of this problem."""

    reason: InvalidReason
    message: str


def normalise(text: str) -> str:
    """Lowercase, drop a leading 'Action:', wrapping quotes/parentheses, trailing punctuation and commas."""
    text = _PREFIX.sub("", text.strip()).strip().lower()
    text = text.strip("`'\" ")
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    text = text.rstrip(".!;: ").replace(",", " ")
    return " ".join(text.split())


def _verb_variants(name: str) -> set[str]:
    return {name, name.replace("-", " "), name.replace("-", ""), name.replace("-", "_")}


class ActionParser:
    """Parses action texts for one grounded problem."""

    def __init__(self, problem: GroundProblem, renderer: DomainRenderer):
        self.problem = problem
        self.renderer = renderer
        self.operators = [op.name for op in problem.domain.operators]
        self.arity = {op.name: len(op.params) for op in problem.domain.operators}
        self._op_names: dict[str, list[str]] = {}
        for name in self.operators:
            for variant in _verb_variants(name):
                self._op_names.setdefault(variant, []).append(name)
        self._verbs: dict[str, list[str]] = {}
        for name in self.operators:
            for verb in _verb_variants(name) | {renderer.actions[name].verb}:
                if verb:
                    self._verbs.setdefault(verb, []).append(name)
        self._verb_list = sorted(self._verbs, key=lambda v: (-len(v), v))
        self._vocabulary = set(_GLUE_WORDS) | set(renderer.text.extra_words)
        for template in renderer.actions.values():
            self._vocabulary.update(template.words)

    def parse(self, text: str) -> ParsedAction | ParseFailure:
        body = normalise(text)
        if not body:
            return ParseFailure(InvalidReason.UNPARSABLE, "No action found in the text.")
        for name in self.operators:
            args = self.renderer.actions[name].match(body)
            if args is not None:
                return self._checked(name, args)
        tokens = body.split()
        for length in (3, 2, 1):
            head = " ".join(tokens[:length])
            for name in self._op_names.get(head, ()):
                if len(tokens) - length == self.arity[name]:
                    return self._checked(name, tuple(tokens[length:]))
        return self._lenient(body, tokens)

    # ---- helpers -----------------------------------------------------------------------------------
    def _checked(self, operator: str, args: tuple[str, ...]) -> ParsedAction | ParseFailure:
        unknown = [arg for arg in args if arg not in self.problem.objects]
        if unknown:
            return ParseFailure(InvalidReason.UNKNOWN_OBJECT, self._unknown_objects_message(unknown))
        op = self.problem.domain.operator(operator)
        for position, ((_, type_name), arg) in enumerate(zip(op.params, args), start=1):
            if not self.problem.is_a(arg, type_name):
                return ParseFailure(
                    InvalidReason.BAD_ARGUMENT,
                    f"'{self.renderer.usage(operator)}' needs a {type_name} as argument {position}, but {arg} is "
                    f"a {self.problem.objects[arg]}.",
                )
        return ParsedAction(operator, args)

    def _unknown_objects_message(self, unknown: list[str]) -> str:
        names = ", ".join(repr(name[:40]) for name in unknown[:3])
        objects = ", ".join(sorted(self.problem.objects))
        return f"There is no object called {names} here. The objects are: {objects}."

    def _lenient(self, body: str, tokens: list[str]) -> ParsedAction | ParseFailure:
        verb = next((v for v in self._verb_list if body == v or body.startswith(v + " ")), None)
        if verb is None:
            if any(token in self.problem.objects for token in tokens):
                return ParseFailure(
                    InvalidReason.UNKNOWN_ACTION,
                    f"'{tokens[0][:40]}' is not an action here. Actions look like: {self._examples()}.",
                )
            return ParseFailure(
                InvalidReason.UNPARSABLE,
                f"Could not read an action. Actions look like: {self._examples()}.",
            )
        rest = body[len(verb) :].split()
        objects = [token for token in rest if token in self.problem.objects]
        strangers = [token for token in rest if token not in self.problem.objects and token not in self._vocabulary]
        if strangers:
            return ParseFailure(InvalidReason.UNKNOWN_OBJECT, self._unknown_objects_message(strangers))
        candidates = self._verbs[verb]
        failure: ParseFailure | None = None
        for name in candidates:
            if len(objects) != self.arity[name]:
                continue
            template = self.renderer.actions[name]
            in_template_order = [""] * len(objects)
            for slot, obj in zip(template.slots, objects):
                in_template_order[slot] = obj
            for args in (tuple(in_template_order), tuple(objects)):
                result = self._checked(name, args)
                if isinstance(result, ParsedAction):
                    return result
                failure = failure or result
        if failure is not None:
            return failure
        usages = " or ".join(f"'{self.renderer.usage(name)}'" for name in candidates)
        return ParseFailure(
            InvalidReason.UNPARSABLE,
            f"'{verb}' was given {len(objects)} object(s); it takes the form {usages}.",
        )

    def _examples(self) -> str:
        return ", ".join(f"'{self.renderer.usage(name)}'" for name in self.operators)
