"""What the base class owns for every family: an ``ActionError`` from ``_act`` is the step's invalid outcome, and
``text_format=`` / ``agentboard_fixes=`` are checked once, with errors that name what is accepted."""

import pickle

import pytest

from agentgym_text.core import (
    ActionError,
    AgentBoardText,
    InvalidReason,
    Outcome,
    Progress,
    Start,
    TaskSet,
    TaskSpec,
    TextEnv,
    TextMode,
)


class _Counter(TextEnv):
    """'add' adds one (progress = count / 3); anything else is refused by raising ActionError."""

    action_format = "'add'"
    action_example = "add"

    def __init__(self, **kwargs):
        super().__init__(TaskSet([TaskSpec("count-to-3", {}, "Count to 3.", "easy", 10)]), **kwargs)
        self.count = 0
        self.progress_reads = 0

    def _start(self, task: TaskSpec, seed: int) -> Start:
        self.count = 0
        return Start(observation="Nothing counted yet.", goal=task.goal)

    def _act(self, action: str) -> Outcome:
        if action != "add":
            raise ActionError(f"'{action}' is not 'add'.", InvalidReason.UNKNOWN_ACTION)
        self.count += 1
        return Outcome(observation=f"Count: {self.count}.", terminated=self.count == 3, success=self.count == 3)

    def _progress(self) -> Progress:
        self.progress_reads += 1
        return Progress(now=self.count / 3)

    def _admissible_actions(self) -> list[str]:
        return ["add"]

    def _expert_action(self) -> str:
        return "add"


class _OurWords(TextMode):
    name = "clear"


class _TwoTexts(_Counter):
    modes = (AgentBoardText, _OurWords)


def test_an_action_error_in_act_is_an_invalid_step_with_its_reason_and_message():
    env = _Counter()
    env.reset(seed=0)
    env.step("add")
    reads = env.progress_reads
    obs, reward, terminated, truncated, info = env.step("subtract")
    assert obs == "'subtract' is not 'add'."
    assert (info["valid"], info["invalid_reason"]) == (False, "unknown_action")
    assert info["step"] == 2 and reward == 0.0 and not terminated and not truncated
    assert env.progress_reads == reads and info["progress_rate"] == pytest.approx(1 / 3)  # state taken as unchanged
    obs, reward, terminated, truncated, info = env.step("add")
    assert info["valid"] and info["step"] == 3 and obs == "Count: 2."


def test_an_action_error_keeps_its_reason_through_pickling():
    error = pickle.loads(pickle.dumps(ActionError("no such id", InvalidReason.UNKNOWN_OBJECT)))
    assert (str(error), error.reason) == ("no such id", InvalidReason.UNKNOWN_OBJECT)


def test_an_unknown_text_format_names_the_accepted_ones():
    with pytest.raises(ValueError, match="text_format must be one of 'agentboard', 'clear', not 'prose'"):
        _TwoTexts(text_format="prose")


def test_the_first_text_format_is_the_default_and_one_text_families_refuse_the_option():
    assert (_TwoTexts().text_format, _TwoTexts(text_format="clear").text_format) == ("agentboard", "clear")
    assert _Counter().text_format is None
    with pytest.raises(ValueError, match="_Counter speaks one text: text_format is not an option"):
        _Counter(text_format="clear")


def test_agentboard_fixes_is_an_option_of_the_agentboard_format_only():
    assert _TwoTexts(agentboard_fixes=False).agentboard_fixes is False
    with pytest.raises(ValueError, match="agentboard_fixes is an option of the 'agentboard' text format"):
        _TwoTexts(text_format="clear", agentboard_fixes=False)
    with pytest.raises(ValueError, match="agentboard_fixes"):
        _Counter(agentboard_fixes=False)
