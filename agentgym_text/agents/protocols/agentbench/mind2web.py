"""AgentBench v0.2's Mind2Web task server (``src/server/tasks/mind2web/task.py``, ``Mind2Web.start_sample``, and
``dataloader.py``'s ``format_input_multichoice``).

- Every call starts from an empty history (``session.history = []``): the prompt file's turns (``llm_prompt`` of
  ``configs/tasks/mind2web.yaml``: example pairs, then a user turn) with the last one's content set to the
  f-string ``start_sample`` writes (the page, then the question); the session's cut applies as to any history.
  ``MindWebDialogue`` overrides ``AgentBenchDialogue`` for that.
- The question is ``format_input_multichoice``'s ``seq_input``: its head with the task, each previous action (the
  last five) or its ``None`` line, its question line with the "A." choice, then one line per choice (``B.``, ...).
  This suite's env (``AgentBench/WebBrowsing-v0``) words its question itself; the parts come from its
  ``question`` info field (page, task, previous actions, choice texts: ``envs/webbrowsing/render.Question.parts``).
  The page and the choice texts are the env's print of the step's page, which is Mind2Web's (``prune_tree`` and
  ``get_tree_repr`` of the same page and candidates give the same text: ``envs/webbrowsing/html_tree.py``).
- A reply is read as ``postprocess_action_llm`` reads it: ``Answer: (A|B|C|D|E|F)`` (A without one),
  ``Action: (CLICK|SELECT|TYPE)``, ``Value: (.*)$``; the env gets ``Answer: X.`` / ``Action: ...`` / ``Value: ...``
  and, made with ``agentbench_scoring``, scores it as ``start_sample`` keeps its prediction (A or a letter past the
  choices: none; a letter without an operation or a value: as it is) instead of refusing it, so each step is asked
  once, as there.
- Not reproduced: v0.2 plays one annotated step per sample, as a tournament over shuffled groups of candidates
  (the picked one rejoins the pool); the env asks each step of a task once, with its own candidates (at most
  ``num_candidates``, 5 as v0.2's ``num_candidates``: one group, so one call).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentgym_text.agents.protocols.agentbench.session import AgentBenchDialogue, AgentBenchTask
from agentgym_text.agents.protocols.agentbench.source import TaskSource, render_fstring
from agentgym_text.agents.protocols.base import CheckoutError, Opening, Reading, checkout_file

__all__ = ["MindWebTask", "MindWebDialogue", "TASK_MODULE", "LOADER_MODULE", "CONFIG", "locate", "read_reply"]

TASK_MODULE = "src/server/tasks/mind2web/task.py"
LOADER_MODULE = "src/server/tasks/mind2web/dataloader.py"
CONFIG = "configs/tasks/mind2web.yaml"
_CHECKOUT = ("a checkout of THUDM/AgentBench at v0.2", "AGENTGYM_TEXT_AGENTBENCH_DIR")
_ANSWER = re.compile(r"Answer: (A|B|C|D|E|F)")
_OP = re.compile(r"Action: (CLICK|SELECT|TYPE)")
_VALUE = re.compile(r"Value: (.*)$", re.MULTILINE)


def _seq_input(function: ast.AST) -> list[ast.AST]:
    found = []
    for node in ast.walk(function):
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        if isinstance(node, (ast.Assign, ast.AugAssign)) and isinstance(target, ast.Name) and target.id == "seq_input":
            found.append(node)
    return [n.value for n in sorted(found, key=lambda n: (n.lineno, n.col_offset))]


def locate(task: TaskSource, loader: TaskSource) -> dict[str, ast.AST]:
    """The nodes of the texts: the user turn's f-string in ``start_sample`` and ``seq_input``'s five parts (head,
    a previous action, the none line, the question, a choice)."""
    turns = [
        n.value
        for n in ast.walk(task.method("Mind2Web", "start_sample"))
        if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Subscript) and isinstance(n.value, ast.JoinedStr)
    ]
    if not turns:
        raise task.missing("the user turn's f-string in Mind2Web.start_sample")
    function = next(
        (n for n in loader.tree.body if isinstance(n, ast.FunctionDef) and n.name == "format_input_multichoice"), None
    )
    if function is None:
        raise loader.missing("function format_input_multichoice")
    parts = _seq_input(function)
    if len(parts) != 5:
        raise loader.missing("seq_input in five parts (head, previous action, none, question, choice)")
    return dict(zip(("turn", "head", "previous", "none", "question", "choice"), [turns[0], *parts]))


def read_reply(reply: str) -> tuple[str, str, str]:
    """``postprocess_action_llm``: the letter (A without one), the operation and the value ('' without them)."""
    text = reply.strip()
    letter, op, value = _ANSWER.search(text), _OP.search(text), _VALUE.search(text)
    return (letter.group(1) if letter else "A", op.group(1) if op else "", value.group(1) if value else "")


class MindWebDialogue(AgentBenchDialogue):
    """The history is emptied before each call (``session.history = []``): each request is the prompt file's turns
    with the current question. A step the env refused (an answer it could not read) asks no new question: the same
    turns are sent again."""

    def __init__(self, task: AgentBenchTask, opening: Opening):
        super().__init__(task, opening)
        self.asked = list(self.history)

    def observe(self, observation: str, info: Mapping[str, Any]) -> str:
        injected = self.task.observe(observation, info, self.history)
        self.asked = injected or self.asked
        self.history = list(self.asked)
        return "\n".join(m["content"] for m in injected)


class MindWebTask(AgentBenchTask):
    dialogue = MindWebDialogue

    def __init__(self, checkout: Path):
        super().__init__(checkout)
        task, loader = TaskSource(checkout, TASK_MODULE), TaskSource(checkout, LOADER_MODULE)
        self.nodes = locate(task, loader)
        self.paths = {"turn": str(task.path), "loader": str(loader.path)}
        config = checkout_file(checkout, CONFIG, *_CHECKOUT)
        relative = next(
            (
                line.split(":", 1)[1].strip().strip("\"'")
                for line in config.read_text(encoding="utf-8").splitlines()
                if line.strip().startswith("llm_prompt:")
            ),
            None,
        )
        if not relative:
            raise CheckoutError(f"{checkout} is not {_CHECKOUT[0]}: {CONFIG} has no llm_prompt")
        path = checkout_file(checkout, relative, *_CHECKOUT)
        try:
            self.prompt: list[dict[str, str]] = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise CheckoutError(f"{path} is not AgentBench's Mind2Web prompt: {error}") from None

    def _render(self, key: str, **names: Any) -> str:
        path = self.paths["turn" if key == "turn" else "loader"]
        return render_fstring(self.nodes[key], path, **names)

    def question(self, parts: Mapping[str, Any]) -> list[dict[str, str]]:
        """The messages of one call for the env's question ``parts``."""
        seq_in = self._render("head", sample={"confirmed_task": parts["task"]})
        previous = list(parts["previous"])
        for action in previous:
            seq_in += self._render("previous", action=action)
        if not previous:
            seq_in += self._render("none")
        seq_in += self._render("question")
        for idx, text in enumerate(parts["choices"]):
            seq_in += self._render("choice", idx=idx, choice=["", text])
        turns = [dict(m) for m in self.prompt]
        turns[-1]["content"] = self._render("turn", seq_context=parts["page"], seq_in=seq_in)
        return turns

    def env_kwargs(self) -> dict[str, Any]:
        return {"agentbench_scoring": True}

    def opening(self, opening: Opening) -> list[dict[str, str]]:
        return self.question(opening.info["question"])

    def read(self, reply: str, history: list[dict[str, str]]) -> Reading:
        letter, op, value = read_reply(reply)
        return Reading(f"Answer: {letter}.\nAction: {op}\nValue: {value}".rstrip())

    def observe(self, observation: str, info: Mapping[str, Any], history: list[dict[str, str]]) -> list[dict[str, str]]:
        return self.question(info["question"]) if "question" in info else []
