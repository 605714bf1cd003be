"""AgentBench/WebBrowsing-v0: Mind2Web's metrics by hand, the answer format, the expert, a random chooser, the
page printing, and the recorded tasks (those need Chromium)."""

import json
import shutil

import numpy as np
import pytest

from agentgym_text.envs.webbrowsing.actions import parse_answer
from agentgym_text.envs.webbrowsing.env import WebBrowsingEnv
from agentgym_text.envs.webbrowsing.html_tree import parse_html, render_page
from agentgym_text.envs.webbrowsing.metrics import operation_f1


def _page(prefix: str, count: int = 10) -> str:
    links = "".join(
        f'<li backend_node_id="{prefix}{i}"><a backend_node_id="{prefix}{i}a">item {prefix} {i}</a></li>'
        for i in range(count)
    )
    return (
        f'<html backend_node_id="{prefix}h"><body backend_node_id="{prefix}b"><ul backend_node_id="{prefix}u">'
        f'{links}</ul><input backend_node_id="{prefix}q" type="search" placeholder="Search"/></body></html>'
    )


def _annotation(task: str, steps: list[tuple[str, str, str]]) -> dict:
    """steps: (page prefix, gold element, "OP value")"""
    actions = []
    for prefix, gold, operation in steps:
        op, _, value = operation.partition(" ")
        actions.append(
            {
                "cleaned_html": _page(prefix),
                "operation": {"op": op, "original_op": op, "value": value},
                "pos_candidates": [{"backend_node_id": gold}],
            }
        )
    return {"annotation_id": task, "confirmed_task": task, "actions": actions, "action_reprs": [s[2] for s in steps]}


@pytest.fixture
def task_file(tmp_path):
    path = tmp_path / "test_task_0.json"
    records = [
        _annotation(
            "open item 3 and search new york",
            [("p", "p3a", "CLICK"), ("q", "qq", "TYPE New York"), ("r", "r5a", "CLICK")],
        ),
        _annotation("open item 7", [("s", "s7a", "CLICK")]),
    ]
    path.write_text(json.dumps(records))
    return path


def _letter(env, uid):
    return env.unwrapped._question.letter_of(uid)


def _other_letter(env, uid):
    choices = env.unwrapped._question.choices
    return next(chr(ord("B") + i) for i, (choice, _) in enumerate(choices) if choice != uid)


def test_scripted_episode_scores_as_computed_by_hand(task_file):
    env = WebBrowsingEnv(task_file=task_file)
    env.reset(options={"task_index": 0})
    # step 1: right element, right operation -> element 1, F1 1, success
    _, r1, _, _, info = env.step(f"{_letter(env, 'p3a')}. CLICK")
    assert info["valid"] and r1 == pytest.approx(1 / 3)
    # step 2: right element, "TYPE new york" vs "TYPE New York": tokens {TYPE,new,york} vs {TYPE,New,York} -> 1/3
    _, r2, _, _, info = env.step(f"Answer: {_letter(env, 'qq')}.\nAction: TYPE\nValue: new york")
    assert info["valid"] and r2 == 0.0
    # step 3: a wrong element with the right operation -> element 0, F1 1, no success
    _, r3, terminated, _, info = env.step(f"{_other_letter(env, 'r5a')}. CLICK")
    assert terminated and not info["success"]
    scores = info
    assert scores["element_accuracy"] == pytest.approx(2 / 3)
    assert scores["operation_f1"] == pytest.approx((1 + 1 / 3 + 1) / 3)
    assert scores["step_success_rate"] == pytest.approx(1 / 3)
    assert scores["task_success"] is False
    assert info["progress_rate"] == pytest.approx(1 / 3)


def test_operation_f1_and_none_of_the_above_by_hand(task_file):
    assert operation_f1("CLICK", "CLICK") == 1.0
    assert operation_f1("CLICK extra", "CLICK") == pytest.approx(2 / 3)  # P 1/2, R 1
    assert operation_f1("SELECT Pickup", "TYPE Pickup") == pytest.approx(0.5)
    assert operation_f1("", "CLICK") == 0.0
    env = WebBrowsingEnv(task_file=task_file)
    env.reset(options={"task_index": 1})
    _, _, terminated, _, info = env.step("A.")  # None of the above: wrong element, empty operation
    assert terminated and info["element_accuracy"] == 0.0 and info["operation_f1"] == 0.0


def test_expert_scores_one_on_every_file_task(task_file):
    env = WebBrowsingEnv(task_file=task_file)
    for index in range(len(env.task_ids)):
        env.reset(options={"task_index": index})
        while not env.episode_over:
            _, _, _, _, info = env.step(env.expert_action())
        assert info["success"] and info["progress_rate"] == 1.0
        assert info["element_accuracy"] == info["step_success_rate"] == 1.0


def test_random_choice_scores_about_one_over_the_candidates(task_file):
    env = WebBrowsingEnv(task_file=task_file, num_candidates=5)
    rng = np.random.default_rng(0)
    right = total = 0
    for episode in range(300):
        env.reset(options={"task_index": episode % 2})
        while not env.episode_over:
            choices = len(env.unwrapped._question.choices)
            assert choices == 5
            letter = chr(ord("B") + int(rng.integers(choices)))
            _, _, _, _, info = env.step(f"{letter}. CLICK")
            total += 1
        right += info["element_accuracy"] * info["steps_answered"]
    assert total == 300 * 2
    assert right / total == pytest.approx(1 / 5, abs=0.04)


@pytest.mark.parametrize(
    "action, reason",
    [
        ("CLICK the search box", "unparsable"),
        ("the answer is B", "unparsable"),
        ("Z. CLICK", "unknown_object"),
        ("Answer: H.\nAction: CLICK", "unknown_object"),
        ("B. TYPE", "bad_argument"),
        ("Answer: B.\nAction: SELECT\nValue:   ", "bad_argument"),
        ("Answer: B.", "bad_argument"),
    ],
)
def test_bad_answers_are_invalid_with_a_message(task_file, action, reason):
    env = WebBrowsingEnv(task_file=task_file)
    first, _ = env.reset(options={"task_index": 0})
    obs, reward, terminated, truncated, info = env.step(action)
    assert not info["valid"] and info["invalid_reason"] == reason
    assert len(obs) > 20 and reward == 0.0 and not terminated
    assert info["steps_answered"] == 0  # the step is still to answer
    _, _, _, _, info = env.step(env.expert_action())
    assert info["valid"]


@pytest.mark.parametrize(
    "action, element_right, operation_f1",
    [
        ("Answer: H.\nAction: CLICK", 0.0, 0.0),  # past the choices: no element, no operation
        ("Answer: A.\nAction: CLICK", 0.0, 0.0),  # A: no element, no operation
        ("GOLD.", 1.0, 0.0),  # the gold letter without an operation
        ("GOLD.\nAction: TYPE", 1.0, 0.0),  # TYPE without a value (the gold one is a CLICK)
        ("GOLD.\nAction: CLICK", 1.0, 1.0),
    ],
)
def test_agentbench_scoring_scores_what_is_there(task_file, action, element_right, operation_f1):
    env = WebBrowsingEnv(task_file=task_file, agentbench_scoring=True)
    env.reset(options={"task_index": 0})
    action = action.replace("GOLD", f"Answer: {_letter(env, 'p3a')}")
    _, _, terminated, _, info = env.step(action)
    assert info["valid"] and not terminated and info["steps_answered"] == 1
    assert (info["element_accuracy"], info["operation_f1"]) == (element_right, operation_f1)
    _, _, _, _, info = env.step("CLICK the search box")  # an answer with no letter is still refused
    assert not info["valid"] and info["invalid_reason"] == "unparsable"


def test_answer_spellings():
    reply = "Thought: the field is C.\nAnswer: C.\nAction: TYPE\nValue: Boston, NY"
    assert parse_answer(reply, 3) == parse_answer("C) type: Boston, NY", 3)
    assert parse_answer("**Answer:** (d)\nAction: select\nValue: Pickup", 4).letter == "D"
    assert parse_answer("A. None of the above", 4).letter == "A"


def test_same_task_same_episode(task_file):
    def play(env):
        seen = [env.reset(seed=3, options={"task_index": 0})[0]]
        while not env.episode_over:
            seen.append(env.step(env.admissible_actions()[-1])[0])
        return seen

    assert play(WebBrowsingEnv(task_file=task_file)) == play(WebBrowsingEnv(task_file=task_file))


def test_mind2web_text_elements_and_sibling_window():
    tree = parse_html(
        '<html backend_node_id="1"><div backend_node_id="2">'
        + "".join(f'<p backend_node_id="p{i}"><text>para {i}</text></p>' for i in range(9))
        + "</div></html>"
    )
    text, choices = render_page(tree, ["p4"])
    assert choices == [("p4", "<p id=0>para 4</p>")]
    assert "para 1" in text and "para 7" in text and "para 0" not in text and "para 8" not in text


def test_task_file_needs_the_task_and_the_actions(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([{"actions": []}]))
    with pytest.raises(ValueError, match="confirmed_task"):
        WebBrowsingEnv(task_file=path)


@pytest.mark.skipif(shutil.which("chromium") is None, reason="recording needs Chromium")
def test_a_recorded_task_holds_its_gold_elements_and_the_expert_solves_it():
    pytest.importorskip("playwright")
    env = WebBrowsingEnv()
    obs, info = env.reset(options={"task_index": 0})
    annotation = env.unwrapped._annotation
    assert len(annotation.steps) == env.unwrapped.current_task.params["steps"]
    assert annotation.steps[0].op == "TYPE" and "A. None of the above" in obs
    while not env.episode_over:
        _, _, _, _, info = env.step(env.expert_action())
    assert info["success"] and info["step_success_rate"] == 1.0
    env.close()


def test_neg_candidates_limit_the_distractors_and_a_missing_gold_is_answered_a(tmp_path):
    record = _annotation("open item 2", [("p", "p2a", "CLICK"), ("q", "gone", "CLICK")])
    record["actions"][0]["neg_candidates"] = [{"backend_node_id": "p7"}, {"backend_node_id": "p8"}]
    path = tmp_path / "m2w.json"
    path.write_text(json.dumps(record))
    env = WebBrowsingEnv(task_file=path)
    env.reset(options={"task_index": 0})
    assert sorted(uid for uid, _ in env.unwrapped._question.choices) == ["p2a", "p7", "p8"]
    env.step(env.expert_action())
    assert env.expert_action() == "Answer: A."  # the gold element is not on the page
    _, _, terminated, _, info = env.step(env.expert_action())
    assert terminated and not info["success"] and info["element_accuracy"] == 0.5


def test_recorded_dom_numbers_elements_in_page_order_and_finds_the_marked_one():
    from agentgym_text.envs.webbrowsing.recorder import to_cleaned_html

    tree = ["html", {}, [["body", {}, ["Hi", ["input", {"type": "search", "gold": "1"}, []], ["a", {}, ["x<y"]]]]]]
    cleaned, gold, elements = to_cleaned_html(tree)
    assert gold == "3" and elements == [("1", "html"), ("2", "body"), ("3", "input"), ("4", "a")]
    assert cleaned == (
        '<html backend_node_id="1"><body backend_node_id="2">Hi<input backend_node_id="3" type="search"/>'
        '<a backend_node_id="4">x&lt;y</a></body></html>'
    )
    top = parse_html(cleaned)
    assert [node.uid for node in top.walk()] == ["1", "2", "3", "4"]
