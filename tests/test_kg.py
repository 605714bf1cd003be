"""AgentBench/KG-v0: knowledge-graph QA with AgentBench's seven tools."""

import json
from collections import Counter

import pytest

from agentgym_text.envs.kg.actions import Answer, Call, parse_action
from agentgym_text.envs.kg.env import KgEnv
from agentgym_text.envs.kg.graph import KnowledgeGraph
from agentgym_text.envs.kg.tasks import TASK_COUNT, graph_folder, make_tasks

ALL_TASK_IDS = make_tasks().task_ids
SAMPLE = ALL_TASK_IDS[::8]  # 19 tasks, every template family and hop count


@pytest.fixture(scope="module")
def env():
    made = KgEnv()
    yield made
    made.close()


def _index(template: str) -> int:
    return next(i for i, t in enumerate(make_tasks()) if t.params["template"] == template)


def test_graph_has_at_least_50k_triples_of_every_kind():
    graph = KnowledgeGraph(graph_folder() / "graph.sqlite")
    try:
        assert graph.triple_count() >= 50_000
        types = dict(graph.connection.execute("SELECT type, COUNT(*) FROM entity GROUP BY type"))
        for etype in (
            "film.film",
            "people.person",
            "location.city",
            "location.country",
            "organization.organization",
            "academic.paper",
        ):
            assert types[etype] >= 20, etype
        assert graph.connection.execute("SELECT COUNT(*) FROM value").fetchone()[0] >= 10_000
    finally:
        graph.close()


def test_task_set_has_150_questions_of_1_to_4_hops():
    tasks = make_tasks()
    assert len(tasks) == TASK_COUNT == 150
    hops = Counter(t.params["hops"] for t in tasks)
    assert set(hops) == {1, 2, 3, 4}
    programs = [" ".join(t.params["program"]) for t in tasks]
    for tool in ("intersection", "argmax", "argmin", "count"):
        assert any(tool + "(" in program for program in programs), tool
    assert {t.difficulty for t in tasks} == {"easy", "hard"}


def test_the_build_is_deterministic(tmp_path, monkeypatch):
    """A fresh build elsewhere gives byte-identical graph and task files (same SHA-256 manifest)."""
    original = json.loads((graph_folder() / "MANIFEST.json").read_text())
    monkeypatch.setenv("AGENTGYM_TEXT_CACHE", str(tmp_path))
    rebuilt_folder = graph_folder()
    assert str(rebuilt_folder).startswith(str(tmp_path))
    rebuilt = json.loads((rebuilt_folder / "MANIFEST.json").read_text())
    assert rebuilt["files"] == original["files"] and set(rebuilt["files"]) == {"graph.sqlite", "tasks.json"}


def test_progress_is_the_share_of_gold_variables_produced(env):
    obs, info = env.reset(options={"task_index": _index("director_birthplace")})
    assert info["progress_rate"] == 0.0 and len(info["subgoals"]) == 3 and not any(info["subgoals_done"])
    entity = env.current_task.params["entities"][0]
    _, _, _, _, info = env.step(f"get_relations({entity})")
    assert info["progress_rate"] == 0.0
    _, reward, _, _, info = env.step(f"Action: get_neighbors({entity}, film.film.directed_by)")
    assert info["progress_rate"] == pytest.approx(1 / 3) and reward == pytest.approx(1 / 3)
    assert info["subgoals_done"] == [True, False, False]
    _, _, _, _, info = env.step("get_neighbors(#0, people.person.nationality)")  # a detour earns nothing
    assert info["progress_rate"] == pytest.approx(1 / 3)
    _, _, _, _, info = env.step("get_neighbors(#0, people.person.place_of_birth)")
    assert info["progress_rate"] == pytest.approx(2 / 3)
    _, _, terminated, _, info = env.step("Final Answer: #2")
    assert terminated and info["success"] and info["progress_rate"] == 1.0


def test_wrong_final_answer_fails(env):
    env.reset(options={"task_index": _index("director_birthplace")})
    entity = env.current_task.params["entities"][0]
    env.step(f"get_neighbors({entity}, film.film.directed_by)")
    obs, _, terminated, _, info = env.step("Final Answer: #0")
    assert terminated and not info["success"] and info["finish_reason"] == "failure" and "wrong" in obs


def test_tool_semantics_and_errors(env):
    env.reset(options={"task_index": _index("actor_and_director")})
    actor, director = env.current_task.params["entities"]
    obs, _, _, _, info = env.step(f"get_relations({actor})")
    assert info["valid"] and obs.startswith("[") and "film.actor.film" in obs
    obs, _, _, _, info = env.step(f"get_neighbors({actor}, film.film.genre)")
    assert not info["valid"] and "not a relation" in obs
    obs, _, _, _, info = env.step(f"get_neighbors({actor}, film.actor.film)")
    assert obs == "variable #0, which are instances of film.film"
    obs, _, _, _, info = env.step(f"get_neighbors({director}, people.person.place_of_birth)")
    assert obs == "variable #1, which are instances of location.city"
    obs, _, _, _, info = env.step("intersection(#0, #1)")
    assert not info["valid"] and "same type" in obs
    obs, _, _, _, info = env.step("count(#0)")
    assert obs == "variable #2, which is a number"
    obs, _, _, _, info = env.step("argmax(#0, people.person.birth_year)")
    assert not info["valid"] and "get_attributes" in obs
    obs, _, _, _, info = env.step("get_attributes(#0)")
    assert "film.film.release_year" in obs
    obs, _, _, _, info = env.step("argmax(#0, film.film.release_year)")
    assert obs == "variable #3, which are instances of film.film"
    obs, _, terminated, _, info = env.step("Final Answer: #9")
    assert not info["valid"] and not terminated
    obs, _, _, _, info = env.step("get_relations(Somebody Else)")
    assert not info["valid"] and info["invalid_reason"] == "unknown_object"


@pytest.mark.parametrize(
    "action",
    [
        "",
        "hello",
        "x" * 50_000,
        "run(#0)",
        "get_neighbors(#0)",
        "Final Answer: three",
        "intersection(#0)",
        "__import__('os').system('ls')",
        "get_relations()",
    ],
)
def test_bad_input_is_invalid_with_a_message_never_an_exception(env, action):
    env.reset(options={"task_index": 0})
    obs, _, terminated, _, info = env.step(action)
    assert info["valid"] is False and not terminated and len(obs) > 10


def test_parsing_reads_agentbench_replies():
    call = parse_action("Thought: x\nAction: argmax(#1, film.film.runtime)")
    assert call == Call("argmax", ("#1", "film.film.runtime"))
    call = parse_action("Action: get_neighbors('Bright Witness', film.film.genre)")
    assert call.args == ("Bright Witness", "film.film.genre")
    assert parse_action("Final Answer: # 4") == Answer(4)


def test_strict_mode_ends_on_format_errors_and_unknown_tools():
    strict = KgEnv(strict=True)
    strict.reset(options={"task_index": 0})
    _, _, terminated, _, info = strict.step("I am not sure")
    assert terminated and info["finish_reason"] == "invalid_format"
    strict.reset(options={"task_index": 0})
    _, _, terminated, _, info = strict.step("search(everything)")
    assert terminated and info["finish_reason"] == "invalid_action"
    strict.close()


def test_expert_continues_from_the_agents_own_variables(env):
    env.reset(options={"task_index": _index("top_grossing_studio_country")})
    director = env.current_task.params["entities"][0]
    env.step(f"get_neighbors({director}, people.person.place_of_birth)")  # a detour: #0
    env.step(f"get_neighbors({director}, film.director.film)")  # gold #0 as the agent's #1
    assert env.expert_action() == "argmax(#1, film.film.gross_revenue)"
    while not env.episode_over:
        _, _, _, _, info = env.step(env.expert_action())
    assert info["success"]


def test_training_questions_are_about_entities_no_shipped_question_reaches():
    from agentgym_text.envs.kg.tasks import run_program, training_tasks
    from agentgym_text.envs.kg.tools import ToolSession

    graph = KnowledgeGraph(graph_folder() / "graph.sqlite")
    try:
        reached: set[str] = set()
        for task in make_tasks():
            reached.update(task.params["entities"])
            for variable in run_program(ToolSession(graph, task.params["entities"]), task.params["program"]):
                reached.update(graph.names(variable.ids))
    finally:
        graph.close()
    train = training_tasks(200)
    assert len(train) == 200 and all(task.task_id.startswith("kg-train-") for task in train)
    assert not reached & {name for task in train for name in task.params["entities"]}
    questions = [task.params["question"] for task in train]
    assert len(set(questions)) == 200 and not set(questions) & {task.params["question"] for task in make_tasks()}
    assert {task.params["template"] for task in train} == {task.params["template"] for task in make_tasks()}


def test_split_is_checked_and_task_files_have_no_training_split():
    with pytest.raises(ValueError, match="split must be one of"):
        KgEnv(split="dev")
    with pytest.raises(ValueError, match="split= choose among the generated questions"):
        KgEnv(split="train", task_file="std.json", ontology_dir=".")


def test_training_questions_beyond_what_the_templates_yield_are_refused(monkeypatch):
    from agentgym_text.envs.kg import tasks

    monkeypatch.setattr(tasks, "_draft", lambda *args, **kwargs: None)
    with pytest.raises(ValueError, match="the templates yield 0 training questions"):
        tasks.training_tasks.__wrapped__(5)
