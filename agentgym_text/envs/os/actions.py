"""Reading an action in AgentBench's OS format out of the agent's text.

Accepted (AgentBench's prompt asks for ``Think: ...`` then ``Act: bash`` + a fenced block, ``Act: finish`` or
``Act: answer(...)``; the bare forms are accepted too):

- a ```` ```bash ```` (or ``sh``/``shell``) fenced block: run it (several blocks are joined, as AgentBench does);
- ``answer(...)``: the text between the first ``(`` and the last ``)`` of that line is the answer;
- ``finish``: the task is done (for tasks judged by a checker script);
- the one-line form ``bash <command>`` (what a one-line action parser leaves of ``Act: bash`` + an inline block).

With several ``Act:`` lines the last one counts (AgentBench reads them in reverse). Nothing here runs anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentgym_text.core.actions import ActionError, marker_pattern
from agentgym_text.core.info import InvalidReason

__all__ = ["OsAction", "parse_action", "FORMAT_HELP"]

FORMAT_HELP = (
    "Take exactly one of three actions. To run bash code: 'Act: bash' followed by a ```bash code block "
    "(e.g. Act: bash\n\n```bash\nls -l /etc\n```). To give the answer to a question: 'Act: answer(<your answer>)'. "
    "When a requested operation is done: 'Act: finish'."
)

_ACT = re.compile("^" + marker_pattern("act(?:ion)?", blanks=" \t") + "(.+)$", re.IGNORECASE | re.MULTILINE)
"""An ``Act:`` line and the rest of it. Core's marker with AgentBench's OS word (``Act:``, ``Action:`` too), read
line by line (blanks do not cross lines): the last such line of a reply is its action."""
_FENCE = re.compile(r"```[ \t]*(bash|sh|shell)?[ \t]*\n(.*?)\n?[ \t]*```", re.IGNORECASE | re.DOTALL)
_INLINE_FENCE = re.compile(r"^```[ \t]*(?:bash|sh|shell)[ \t]+(.+?)[ \t]*```$", re.IGNORECASE | re.DOTALL)
_ANSWER_LINE = re.compile(r"^[ \t>*_`#-]*answer[ \t]*\(", re.IGNORECASE | re.MULTILINE)
_FINISH_LINE = re.compile(r"^[ \t>*_`#-]*finish[ \t.!`*]*$", re.IGNORECASE | re.MULTILINE)
_ONE_LINE_BASH = re.compile(r"^bash[ \t]+(\S.*)$", re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True)
class OsAction:
    kind: str  # "bash" | "answer" | "finish"
    content: str = ""


def _refused(message: str, reason: InvalidReason = InvalidReason.UNPARSABLE) -> ActionError:
    return ActionError(f"{message} {FORMAT_HELP}", reason)


def _answer(line: str) -> OsAction | None:
    start, end = line.find("("), line.rfind(")")
    if start == -1 or end < start:
        return None
    return OsAction("answer", line[start + 1 : end])


def _code(text: str) -> str:
    found = _FENCE.findall(text)
    tagged = [body for lang, body in found if lang]
    return "\n\n".join(tagged or [body for _, body in found]).strip()


def parse_action(text: str) -> OsAction:
    """The action in ``text``, or ``ActionError`` saying what is wrong (and how actions look).

    >>> parse_action("Think: list it.\\n\\nAct: bash\\n\\n```bash\\nls /etc\\n```")
    OsAction(kind='bash', content='ls /etc')
    >>> parse_action("Think: done.\\n\\nAct: answer(220)")
    OsAction(kind='answer', content='220')
    >>> parse_action("Act: finish").kind, parse_action("bash ls -l").content
    ('finish', 'ls -l')
    """
    acts = _ACT.findall(text)
    for act in reversed(acts):
        word = act.strip().lower()
        if word.startswith("bash"):
            code = _code(text)
            rest = act.strip()[4:].strip().strip("`").strip()
            if not code and rest and not rest.lower().startswith(("code", "command")):
                code = rest
            if not code:
                raise _refused(
                    "'Act: bash' needs the command in a ```bash code block after it.", InvalidReason.BAD_ARGUMENT
                )
            return OsAction("bash", code)
        if word.startswith("finish"):
            return OsAction("finish")
        if word.startswith("answer"):
            found = _answer(act.strip()[6:])
            if found is not None:
                return found
    if acts:
        raise _refused("The 'Act:' line names no action: use 'Act: bash', 'Act: answer(...)' or 'Act: finish'.")
    stripped = text.strip()
    inline = _INLINE_FENCE.match(stripped)
    if inline:
        return OsAction("bash", inline.group(1).strip())
    code = _code(text)
    if code:
        return OsAction("bash", code)
    if "```" in text:
        raise _refused(
            "The code block is empty or not closed: put the command between ```bash and ```.",
            InvalidReason.BAD_ARGUMENT,
        )
    match = _ANSWER_LINE.search(text)
    if match:
        line = text[match.start() :].split("\n", 1)[0]
        found = _answer(line[line.lower().find("answer") + 6 :])
        if found is not None:
            return found
    if _FINISH_LINE.search(text):
        return OsAction("finish")
    one_line = _ONE_LINE_BASH.match(stripped)
    if one_line:
        return OsAction("bash", one_line.group(1).strip())
    raise _refused("No action found.")
