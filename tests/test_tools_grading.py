"""Answer grading rules, call parsing and argument checking of the tool envs (pure functions)."""

from __future__ import annotations

import pytest

from agentgym_text.core import ActionError
from agentgym_text.envs.tools.actions import parse_call
from agentgym_text.envs.tools.grading import AnswerRule, grade_answer, normalise_text, read_number
from agentgym_text.envs.tools.schema import ArgumentError, FunctionSpec, Param, check_arguments
from agentgym_text.envs.tools.sheet.cells import format_value, parse_position
from agentgym_text.envs.tools.sheet.matching import match_ratio


# ---- text --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("answer", ["Paris", "paris.", "  PARIS ", '"Paris"', ["Paris"]])
def test_text_answers_ignore_case_quotes_spaces_and_trailing_punctuation(answer):
    assert grade_answer(answer, "Paris", AnswerRule("text"))


@pytest.mark.parametrize("answer", ["Lyon", "Paris, France", "", ["Paris", "Lyon"]])
def test_text_answers_must_name_the_same_thing(answer):
    assert not grade_answer(answer, "Paris", AnswerRule("text"))


# ---- numbers -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("answer", [12.5, "12.5", "12.50 °C", "about 12.54", 12.459, "1.25e1", [12.5]])
def test_numbers_match_within_the_stated_absolute_tolerance(answer):
    assert grade_answer(answer, 12.5, AnswerRule("number", abs_tol=0.05, rel_tol=0.0))


@pytest.mark.parametrize("answer", [12.6, "12.44", "twelve", "", None, True])
def test_numbers_outside_the_tolerance_or_missing_fail(answer):
    assert not grade_answer(answer, 12.5, AnswerRule("number", abs_tol=0.05, rel_tol=0.0))


def test_relative_tolerance_scales_with_the_golden_value():
    rule = AnswerRule("number", abs_tol=1.0, rel_tol=0.01)
    assert grade_answer("6,850 km", 6817.17, rule)  # 0.5% off, thousands separator read
    assert not grade_answer(6900, 6817.17, rule)  # 1.2% off


def test_exact_integer_rule():
    rule = AnswerRule("number", abs_tol=0.0, rel_tol=0.0)
    assert grade_answer("2", 2, rule) and grade_answer(2.0, 2, rule) and not grade_answer(3, 2, rule)


def test_read_number_takes_the_first_number():
    assert read_number("between 3 and 4") == 3.0 and read_number("-0.5") == -0.5 and read_number("none") is None


# ---- booleans ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "answer,expected",
    [
        ("yes", True),
        ("Yes.", True),
        (True, True),
        ("true", True),
        ("no", False),
        ("No, it did not", False),
        (False, False),
    ],
)
def test_yes_no_answers(answer, expected):
    assert grade_answer(answer, expected, AnswerRule("bool"))
    assert not grade_answer(answer, not expected, AnswerRule("bool"))


def test_unreadable_bool_fails():
    assert not grade_answer("perhaps", True, AnswerRule("bool"))


# ---- lists -------------------------------------------------------------------------------------------
def test_unordered_lists_accept_any_order_and_comma_text():
    rule = AnswerRule("list", ordered=False)
    golden = ["Brazil", "Spain"]
    for answer in (["Spain", "Brazil"], "Spain, Brazil", "brazil and spain", "['Brazil', 'Spain']"):
        assert grade_answer(answer, golden, rule), answer
    for answer in (["Spain"], ["Spain", "Brazil", "Peru"], ["Spain", "Spain"]):
        assert not grade_answer(answer, golden, rule), answer


def test_ordered_lists_need_the_golden_order():
    rule = AnswerRule("list", ordered=True)
    assert grade_answer(["a", "b"], ["a", "b"], rule)
    assert not grade_answer(["b", "a"], ["a", "b"], rule)


def test_numeric_lists_use_the_tolerance():
    rule = AnswerRule("list", ordered=False, abs_tol=0.1, rel_tol=0.0)
    assert grade_answer("3.05, 1", [1, 3], rule) and not grade_answer([1, 3.5], [1, 3], rule)


def test_done_rule_accepts_any_answer():
    assert grade_answer("whatever", "done", AnswerRule("done"))


def test_normalise_text():
    assert normalise_text("  The   Answer!! ") == "the answer" and normalise_text(3.0) == "3"


# ---- call parsing ------------------------------------------------------------------------------------
def test_parse_call_forms():
    assert parse_call('Action: get_tasks with Action Input: {"project_id": "1"}').args == {"project_id": "1"}
    assert parse_call("get_tasks with Action Input: {'project_id': ('a', 'b')}").args == {"project_id": ["a", "b"]}
    assert parse_call("get_projects with Action Input:").args == {}
    assert parse_call('finish with Action Input: {"answer": "x"} and more text').args == {"answer": "x"}
    thought = "Thought: I need the projects.\nAction: get_projects with Action Input: {}"
    assert parse_call(thought).name == "get_projects"


@pytest.mark.parametrize(
    "text",
    [
        "get_projects",
        "finish: yes",
        '{"action": "finish"}',
        "finish with Action Input: {'answer': open('/etc/passwd').read()}",
        "finish with Action Input: {'answer': [x for x in range(3)]}",
        "finish with Action Input: {'answer': b'bytes'}",
        "finish with Action Input: {'answer': 1e999}",
        'finish with Action Input: "just text"',
        "finish with Action Input: {1: 'a'}",
        "finish with Action Input: " + "[" * 200 + "]" * 200,
    ],
)
def test_parse_call_rejects_non_data(text):
    with pytest.raises(ActionError):
        parse_call(text)


# ---- argument checking -------------------------------------------------------------------------------
_SPEC = FunctionSpec(
    "f",
    "test",
    (
        Param("lat", "number"),
        Param("n", "integer"),
        Param("flag", "boolean"),
        Param("kind", choices=("asc", "des")),
        Param("note", required=False),
    ),
)


def test_arguments_are_converted_predictably():
    args = check_arguments(_SPEC, {"lat": "40.5", "n": 3.0, "flag": "True", "kind": "DES", "note": 7})
    assert args == {"lat": 40.5, "n": 3, "flag": True, "kind": "des", "note": "7"}


@pytest.mark.parametrize(
    "args,needle",
    [
        ({"n": 1, "flag": True, "kind": "asc"}, "missing argument(s) lat"),
        ({"lat": 1, "n": 1, "flag": True, "kind": "asc", "zzz": 1}, "unexpected argument(s) zzz"),
        ({"lat": "north", "n": 1, "flag": True, "kind": "asc"}, "lat must be number"),
        ({"lat": 1, "n": 1.5, "flag": True, "kind": "asc"}, "n must be integer"),
        ({"lat": 1, "n": 1, "flag": "maybe", "kind": "asc"}, "flag must be boolean"),
        ({"lat": 1, "n": 1, "flag": True, "kind": "up"}, "kind must be one of"),
        ({"lat": True, "n": 1, "flag": True, "kind": "asc"}, "lat must be number"),
    ],
)
def test_argument_errors_name_the_problem(args, needle):
    with pytest.raises(ArgumentError) as error:
        check_arguments(_SPEC, args)
    assert needle in str(error.value)


# ---- sheet helpers -----------------------------------------------------------------------------------
def test_positions_and_values():
    assert parse_position("b3") == (3, 2) and parse_position("AA10") == (10, 27)
    assert format_value("12.50") == "12.5" and format_value(3.0) == "3" and format_value("abc") == "abc"


def test_match_ratio_counts_shape_mismatches():
    golden = [["a", "b"], ["1", "2"]]
    assert match_ratio(golden, golden) == 1.0
    assert match_ratio([["a", "b"]], golden) == 0.5  # a missing row counts
    assert match_ratio([["a", "b", "x"], ["1", "2"]], golden) == pytest.approx(4 / 5)  # so does an extra cell
