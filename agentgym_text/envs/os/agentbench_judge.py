"""AgentBench v0.2's verdict on one of its own OS items, and the expert's moves on it.

``match``: the answer (stripped unless ``strip`` is false) equals ``answer``, or ``regex`` is found in it; ``finish``
gives no answer and fails. ``check``: a checker chain. The arguments start as ``[str(answer)]`` (``"None"`` after
``finish``); each script in turn (``null`` = the item's example, run now, after the agent's actions) runs in a
fresh process with the arguments so far; a non-zero exit fails the item; its output is appended to the arguments.
Nothing the agent wrote is evaluated here: its answer is only ever an argument of the item's own scripts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from agentgym_text.envs.os.expert import bash_action
from agentgym_text.envs.os.shell import shell_quote

__all__ = ["judge", "example_command", "expert_step", "ScriptRunner"]

ScriptRunner = Callable[[str, str, tuple[str, ...]], tuple[int, str]]
"""(language, code, arguments) -> (exit code, output): runs one trusted script inside the sandbox."""


def judge(params: dict[str, Any], answer: str | None, run_script: ScriptRunner) -> tuple[bool, str]:
    """(success, a sentence saying why) for ``answer`` (None after ``finish``)."""
    match = params.get("match")
    if match is not None:
        if answer is None:
            return False, "This task asks a question: 'finish' gives no answer, so it is not solved."
        given = answer.strip() if match.get("strip", True) else answer
        if "regex" in match:
            right = re.search(match["regex"], given) is not None
        else:
            right = given == match["answer"]
        return right, f"The answer {given!r} is {'correct' if right else 'not correct'}."
    arguments = [str(answer)]
    for number, script in enumerate(params["check"]):
        language, code = params["example"] if script is None else script
        rc, output = run_script(language, code, tuple(arguments))
        if rc != 0:
            return False, f"The checker finds the task is not done (check {number} exited with code {rc})."
        arguments.append(output)
    return True, "The checker confirms the task is done."


def example_command(params: dict[str, Any]) -> str | None:
    """The item's example as one bash command for the agent's shell (a python example through ``python3 -c``)."""
    example = params.get("example")
    if example is None:
        return None
    language, code = example
    return code if language == "bash" else f"python3 -c {shell_quote(code)}"


def expert_step(params: dict[str, Any], example_output: str | None) -> str:
    """The expert's next action: run the example, then answer its output (a question, or an operation whose
    example prints one line) or finish (an operation).

    A match item with an expected string answers it; one with a regex answers the example's output.
    """
    command = example_command(params)
    match = params.get("match")
    if match is not None and "answer" in match:
        return f"Act: answer({match['answer']})"
    if example_output is None and command is not None:
        return bash_action(command)
    answer = (example_output or "").strip()
    if match is not None or None in params["check"] or (answer and "\n" not in answer):
        return f"Act: answer({answer})"  # an operation's checkers may read the answer too (argv[1])
    return "Act: finish"
